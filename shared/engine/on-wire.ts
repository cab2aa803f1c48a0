// Rules for transport facts: HTTP status on a session (404/400 = the server forgot it, DELETE ends it, 405 refuses
// the GET stream), delivery channels opening and closing, GET resumption, exchanges that failed, page unload.
import type { ConnInfo, WireEvent } from '../decode/types.ts';
import { markGap } from '../findings/gap.ts';
import { checkResume, letGoUninitialized, noteDeadSessionUse, noteUnresumable } from '../findings/lifecycle.ts';
import { checkRequestHeaders } from '../findings/protocol-checks.ts';
import { noteReadFailed } from '../findings/refresh.ts';
import type { ClientModel } from './client-model.ts';
import type { EngineCore } from './core.ts';
import { MAX_REFUSED_STATUSES, takeResubscribe, type SubscriptionLedger } from './ledger.ts';
import { adoptListen, failListen, onLegacyEndpoint, pageGone, sessionGone, withdrawListen } from './on-session.ts';

/** server-everything answers a stale session with 400 "No valid session ID provided"; the SDK says "Server not initialized". */
const SESSION_GONE_400 = /session|not initialized/i;

function recheckHeld(core: EngineCore, l: SubscriptionLedger, t: number, seq: number): void {
  for (const uri of l.uris) {
    const u = l.client.uris.get(uri);
    if (u) core.reevaluate(u, t, seq);
  }
}

function clientOf(core: EngineCore, e: { info: ConnInfo }): ClientModel {
  return core.client(e.info.doc, e.info.endpoint, e.info.transport, e.info.generation);
}

export function onWire(core: EngineCore, e: WireEvent, seq: number, t: number): void {
  switch (e.type) {
    case 'request-head': {
      // A legacy POST on a session the stream reconnected to by itself, before any initialize, uses it uninitialized.
      if (e.info.transport === 'http-sse' && e.requestMethods.length > 0 && !e.requestMethods.includes('initialize')) {
        return noteDeadSessionUse(clientOf(core, e), e.info.session, seq);
      }
      if (e.info.transport !== 'streamable-http') return;
      const c = clientOf(core, e);
      // An attempt at the session's GET stream (the SDK retries a dropped one after 1 s, then 1.5 s): its channel is on its way back.
      if (e.info.role === 'get') {
        const key = channelKey(core, e);
        if (key !== undefined) core.sessionAt(e.info.endpoint, key)?.reopening.step(t, core.grace);
      }
      const session = e.info.session;
      // The version a session without an initialize in the log shows (a resumed one, one picked up mid-way).
      const sent = e.headers['mcp-protocol-version'];
      const l = e.info.generation === '2025' && session !== undefined ? core.sessionAt(e.info.endpoint, session) : undefined;
      if (e.info.generation === '2025' && session !== undefined && sent !== undefined) core.noteHeaderVersion(c, session, sent, l);
      noteDeadSessionUse(c, session, seq);
      const modern = e.info.generation === '2026' ? e : undefined;
      checkRequestHeaders(core, c, e.headers, l, modern, t, seq);
      return;
    }
    case 'response-head': {
      const c = clientOf(core, e);
      const ok = e.status >= 200 && e.status < 300;
      if (e.info.listenId !== undefined && !ok) return failListen(core, c, c.listenOn(e.info.listenId, e.info.conn), t, seq);
      // A session-less server (stateless) refuses the GET stream on the client's current, session-less ledger.
      const session = e.info.role === 'get' ? channelKey(core, e) : e.info.session;
      if (e.info.transport !== 'streamable-http' || session === undefined) return;
      const l = core.sessionAt(e.info.endpoint, session);
      if (!l) return;
      // The server answered a session we ended only by inference (the client initialized another): it is alive and in
      // use — a second client of the page on the same endpoint. (Not for its DELETE: that finishes the re-initialize.)
      if (ok && !l.open && e.info.role !== 'delete') core.revive(l, t, seq);
      // A 404 on a GET that never worked does not end the session: a server without a GET route answers 404 too, and
      // the SDK client keeps the session then. A 404 on a session whose GET stream did work, or on a POST, ends it.
      if (e.info.role === 'get' && (e.status === 405 || (e.status === 404 && !l.channelEverOpened))) {
        l.channelRefused = e.status;
        return recheckHeld(core, l, t, seq);
      }
      if (e.status === 404) return sessionGone(core, c, l, 'http-404', t, seq);
      // A GET for the stream back the server refused (503 while it restarts): no-delivery-channel says the attempts.
      // Only on an open session: an ended one forgot its attempts (endLedger) and gathers none after its end.
      if (e.info.role === 'get' && !ok && l.channels === 0 && l.open) {
        const r = (l.refusedGets ??= { n: 0, first: seq, last: seq, statuses: [], more: false });
        r.n++;
        r.last = seq;
        if (!r.statuses.includes(e.status)) {
          if (r.statuses.length < MAX_REFUSED_STATUSES) r.statuses.push(e.status);
          else r.more = true;
        }
        return recheckHeld(core, l, t, seq);
      }
      // Not an unsubscribe: clients reconnect this way (DELETE, then initialize), and whether they subscribe again in
      // the new session is exactly the question (docs/engine.md, Limits).
      if (e.info.role === 'delete' && ok) core.endLedger(l, 'delete', t, seq);
      return;
    }
    case 'http-error-body': {
      const session = e.info.session;
      if (e.status !== 400 || session === undefined || !SESSION_GONE_400.test(e.text)) return;
      const l = core.sessionAt(e.info.endpoint, session);
      if (l?.open) sessionGone(core, clientOf(core, e), l, 'http-400', t, seq);
      return;
    }
    case 'stream-open': {
      if (e.kind === 'post-sse' || e.kind === 'post') return;
      let listen: SubscriptionLedger | undefined;
      if (e.kind === 'listen' && e.info.listenId !== undefined) {
        // The listen its request opened on this connection; none when the decoder adopted the stream (its request is
        // not in the log): a listen picked up mid-way — never another listen that reused the id (a second client).
        const c = clientOf(core, e);
        const own = c.listenByConn.get(e.info.conn);
        listen = own !== undefined && String(own.listenId) === String(e.info.listenId) ? own : adoptListen(core, c, e.info.listenId, e.info.conn, t, seq);
      }
      // A GET stream of a session not seen yet (its initialize went with Clear or a trimmed log; the stream was kept):
      // the session is live, picked up mid-way, from now on (not only from the page's next request).
      if (e.kind === 'get' && e.info.session !== undefined && e.info.generation === '2025') core.session(clientOf(core, e), e.info.session, t, seq);
      // A listen stream belongs to its listen (2026 has no session), a session's to its ledger (whose key is unique
      // where its id is not): the Sessions view and the lanes find it by that key.
      const wireSession = e.info.session !== undefined ? core.sessionAt(e.info.endpoint, e.info.session) : undefined;
      const session = listen ? listen.key : (wireSession?.key ?? e.info.session);
      core.streamOpened({ stream: e.stream, kind: e.kind, endpoint: e.info.endpoint, ...(session !== undefined ? { session } : {}), openT: t, openSeq: seq, open: true });
      if (e.kind === 'listen') {
        const l = listen;
        if (l) {
          l.setChannels(1, t);
          l.channelEverOpened = true;
        }
        return;
      }
      const key = channelKey(core, e);
      if (key === undefined) return;
      core.countChannel(e.info.endpoint, key, 1);
      const l = core.sessionAt(e.info.endpoint, key);
      if (!l) return;
      l.setChannels(l.channels + 1, t);
      l.channelEverOpened = true;
      l.channelRefused = undefined;
      l.refusedGets = undefined;
      const gap = l.pendingGap;
      if (gap && e.kind === 'get') {
        l.pendingGap = undefined;
        markGap(l, gap.from, { t, seq }, gap.reason, 'warning');
      }
      if (e.unresumable) noteUnresumable(core, clientOf(core, e), l, e.unresumable, t, seq);
      return recheckHeld(core, l, t, seq);
    }
    case 'stream-close': {
      if (e.kind === 'post-sse' || e.kind === 'post') return;
      core.streamClosed(e.stream, t, seq, e.outcome);
      if (e.kind === 'listen') {
        const c = clientOf(core, e);
        const l = e.info.listenId !== undefined ? c.listenOn(e.info.listenId, e.info.conn) : undefined;
        if (!l) return;
        l.setChannels(0, t);
        l.lastChannelClose = { t, seq };
        // The page went (its page-end follows): pageGone ends the listen with `unload`. The client did not withdraw it.
        if (!l.open || e.pageLeft) return;
        // Without the graceful `resultType: complete` answer first, a closed listen stream is an abrupt drop.
        if (e.outcome === 'aborted') return withdrawListen(core, c, l, t, seq);
        // Dropped before the server acknowledged anything: none of what it asked for was subscribed (the client's
        // listen() rejected).
        if (!l.acked) return failListen(core, c, l, t, seq, 'dropped');
        return core.endLedger(l, 'dropped', t, seq);
      }
      const key = channelKey(core, e);
      if (key === undefined) return;
      core.countChannel(e.info.endpoint, key, -1);
      const l = core.sessionAt(e.info.endpoint, key);
      if (!l) return;
      l.setChannels(Math.max(0, l.channels - 1), t);
      // (A retry means a return only when the server closed it: the page's own abort is no polling.)
      l.lastChannelClose = e.retryMs !== undefined && e.outcome !== 'aborted' ? { t, seq, retryMs: e.retryMs } : { t, seq };
      l.refusedGets = undefined;
      // The page went (its page-end follows): its sessions end with it (`unload`, pageGone), whatever the transport.
      if (e.pageLeft && l.client.doc === e.info.doc) return;
      // On legacy HTTP+SSE and WebSocket the stream *is* the session.
      if (e.kind === 'sse' || e.kind === 'ws') {
        core.endLedger(l, 'transport-closed', t, seq);
        // The page closed it (not a drop the stream may come back from, still uninitialized).
        if (e.outcome === 'aborted') letGoUninitialized(core, clientOf(core, e), l, t, seq);
        return;
      }
      // A session left behind by a re-initialize ends when the page closes its last stream. A stream the server closed
      // (SEP-1699 polling, a drop) the SDK reopens with the old session: a second client of the page may still use it.
      if (l.abandoned && l.channels === 0 && e.outcome === 'aborted') return core.endLedger(l, 're-initialize', t, seq);
      return recheckHeld(core, l, t, seq);
    }
    case 'get-request':
      return checkResume(core, clientOf(core, e), e, t, seq);
    case 'exchange-failed': {
      // The page went with its requests: nothing failed on the wire, and its client is gone (page-end) — only the
      // message list hears that no answer will come.
      if (e.cause === 'page-left') {
        for (const r of e.requests) core.messages.noAnswer(r.index, t, 'no answer (the page left)', true);
        return;
      }
      const c = clientOf(core, e);
      const why = e.cause ? FAILED_READ[e.cause] : e.status !== undefined ? `no answer (HTTP ${e.status})` : 'no answer (the request failed)';
      for (const r of e.requests) {
        // The message list says so too: the timeline ends the request's bar here rather than leave it in flight.
        core.messages.noAnswer(r.index, t, e.outcome === 'aborted' && !e.cause ? 'no answer (the page aborted the request)' : why);
        if (r.method === 'resources/read') {
          c.inflight.take(r.index);
          const u = r.uri !== undefined ? c.uris.get(r.uri) : undefined;
          if (u) {
            u.readsInFlight = Math.max(0, u.readsInFlight - 1);
            if (r.index === u.lastReadIndex) u.lastReadFailed = why;
            noteReadFailed(core, u, r.seq, t, why);
          }
        } else if (r.method === 'resources/subscribe' && r.uri !== undefined) {
          const u = c.uri(r.uri);
          u.subscribeInFlight = Math.max(0, u.subscribeInFlight - 1);
          const gen = takeResubscribe(u);
          if (gen !== undefined) c.resubscribing.answered(gen, t, false);
          core.counters.subscribeFailed++;
          core.disbelieve(u, 'subscribe-failed', t, seq);
          core.reevaluate(u, t, seq);
        } else if (r.method === 'subscriptions/listen' && r.id !== undefined && r.id !== null) {
          failListen(core, c, c.listenOn(r.id, e.info.conn), t, seq);
        }
      }
      return;
    }
    case 'page-end':
      if (!e.persisted) pageGone(core, e.doc, t, seq);
      return;
    case 'legacy-endpoint':
      return onLegacyEndpoint(core, clientOf(core, e), e.info.session, t, seq);
    case 'page-start':
      core.pages.set(e.doc, { url: e.url, top: e.top });
      return;
  }
}

/** Why a read got no answer, as the URI table says it (an HTTP status is said with its number). */
const FAILED_READ: Record<'cancelled' | 'connection-closed', string> = {
  cancelled: 'cancelled by the client',
  'connection-closed': 'no answer (the connection closed first)',
};

/**
 * The session a GET stream delivers for: its Mcp-Session-Id, or — a 2025 server may assign none (sessions are
 * optional) — the client's current session-less ledger.
 */
function channelKey(core: EngineCore, e: WireEvent & { info: ConnInfo }): string | undefined {
  if (e.info.session !== undefined) return e.info.session;
  if (e.info.transport !== 'streamable-http' || e.info.generation !== '2025') return undefined;
  const c = clientOf(core, e);
  const l = c.current;
  return l && l.open && l.key.startsWith(`${c.key}#init`) ? l.key : undefined;
}
