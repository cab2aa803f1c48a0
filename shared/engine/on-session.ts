// Rules for how sessions and listen streams begin and end: initialize (2025), server/discover (2026),
// subscriptions/listen with its acknowledgement, graceful end, cancel and drop; a session the server expired;
// a page that unloaded. Each rule updates the ledgers and re-checks the URIs they touch.
import { idKey } from '../decode/jsonrpc.ts';
import type { DecodedMessage, RequestId } from '../decode/types.ts';
import { checkSubscribeCapability, checkVersion } from '../findings/protocol-checks.ts';
import { endStale, recordCacheAge, recordLateReread } from '../findings/refresh.ts';
import { closeGap, markLapse } from '../findings/gap.ts';
import type { ClientModel } from './client-model.ts';
import { answerYes } from './flow-rules.ts';
import { strikeMissing, type EngineCore } from './core.ts';
import type { SubscriptionLedger } from './ledger.ts';
import { carriedCount, type UriState } from './uri-state.ts';
import type { EndCause } from './types.ts';

type Obj = Record<string, unknown>;
export const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** A successful initialize: a new session (and, if the client had one, a reconnect). */
export function onInitialized(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  const r = obj(obj(value)?.result);
  if (!r) return;
  core.counters.initializations++;
  const key = m.session ?? `${c.key}#init${m.seq}`;
  const label = m.session ?? `(no session id, init at seq ${m.seq})`;
  const old = c.current;
  const existing = core.sessionAt(c.endpoint, key);
  const l = existing && existing.open ? existing : core.newLedger(c, key, label, 'session', m.t, m.seq, true);
  l.uninitialized = false;
  l.version = typeof r.protocolVersion === 'string' ? r.protocolVersion : undefined;
  c.capsSeen = true;
  c.serverSubscribe = obj(obj(r.capabilities)?.resources)?.subscribe === true;
  if (old && old !== l) {
    // On a WebSocket or the legacy transport the connection is the session: a new one while the old one is still
    // connected is a second client on the same endpoint, not a reconnect (the page has two).
    const concurrent = old.open && old.channels > 0 && (old.transport === 'websocket' || old.transport === 'http-sse');
    const believed = concurrent ? [] : [...c.uris.values()].filter((u) => u.believed);
    if (!concurrent) core.addReconnect(c, m.t, m.seq, believed.length, believed);
    if (old.open) {
      // A client that re-initializes but leaves the old GET stream open still receives on the old session.
      if (old.channels > 0) old.abandoned = !concurrent;
      else core.endLedger(old, 're-initialize', m.t, m.seq);
    }
    walkReconnect(core, believed, m.t, m.seq);
  }
  c.current = l;
  c.expired = undefined;
  if (l.version !== undefined) checkVersion(core, c, l.version, l.label, m.t, m.seq);
  for (const u of c.uris.values()) core.reevaluate(u, m.t, m.seq);
}

/**
 * The chart's reconnect for what the client believes subscribed: N → O → P, where "subscribe again?" is answered by
 * the grace (P → Q → M unless it is held by then). Also when the phantom began before (a stream that closed a while
 * ago already took the URI to Q): the new session asks the question again.
 */
function walkReconnect(core: EngineCore, believed: UriState[], t: number, seq: number): void {
  for (const u of believed) {
    core.touch(u, t);
    core.walk(u, ['N', 'O', 'P'], t, seq, [false, false, true]);
    u.flowStage = 'asked';
    // A phantom that begins now sets this when it is evaluated; one already open would not.
    if (u.flowPhantom === undefined && u.conds['phantom-subscription'] !== undefined) u.flowPhantom = { deadline: t + core.grace, seq };
  }
}

/** server/discover answered (2026): capabilities and version, no session. */
export function onDiscovered(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  const r = obj(obj(value)?.result);
  if (!r) return;
  c.capsSeen = true;
  const before = c.serverSubscribe;
  c.serverSubscribe = obj(obj(r.capabilities)?.resources)?.subscribe === true;
  // Whether the server offers subscriptions sets the coverage findings' severity (without it, polling is all it
  // allows): a change re-checks the client's rows, as an initialize does.
  if (before !== undefined && before !== c.serverSubscribe) for (const u of c.uris.values()) core.reevaluate(u, m.t, m.seq);
  // The version asked for is the one in use only if the server offers it: otherwise the SDK client falls back to a
  // legacy initialize, and that negotiates the version.
  const offered = Array.isArray(r.supportedVersions) ? strings(r.supportedVersions) : undefined;
  const version = m.version ?? offered?.[0];
  if (version !== undefined && (offered === undefined || offered.includes(version))) checkVersion(core, c, version, undefined, m.t, m.seq);
}

/**
 * A listen ledger for request id `id`. A client that starts over (a new SDK client after a reconnect) numbers its
 * requests from 0 again: a listen that reuses an earlier listen's id is another stream, with a key and a label of its
 * own (`1`, then `1 #2`).
 */
function newListen(core: EngineCore, c: ClientModel, id: RequestId, t: number, seq: number, observedFromStart: boolean): SubscriptionLedger {
  const n = (c.listenIdUses.get(id) ?? 0) + 1;
  c.listenIdUses.set(id, n);
  const suffix = n > 1 ? ` #${n}` : '';
  const l = core.newLedger(c, `${c.key}|${idKey(id)}${suffix}`, `${String(id)}${suffix}`, 'listen', t, seq, observedFromStart);
  l.listenId = id;
  return l;
}

/** subscriptions/listen sent: a new listen ledger; what the client now believes; URIs a re-listen left out. */
export function onListenSent(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  if (m.id === undefined || m.id === null) return;
  const filter = obj(obj(obj(value)?.params)?.notifications);
  const requested = strings(filter?.resourceSubscriptions);
  // A listen whose filter names no resource subscriptions (the SDK client opens one by itself for list-changed
  // notifications, and again after every reconnect) holds no URI: it shows the client is back, but it neither
  // re-establishes the client's subscriptions nor drops them. Its `requested` stays undefined.
  const aboutResources = Array.isArray(filter?.resourceSubscriptions);
  const l = newListen(core, c, m.id, m.t, m.seq, true);
  l.requested = aboutResources ? requested : undefined;
  l.version = m.version;
  // Its own POST, whose answer is its stream (not a WebSocket: the socket carries everything else too).
  if (m.transport === 'streamable-http') l.conn = m.conn;
  // One pass over the client's listens, before a reused id replaces one of them in the map: the ones that ended (and
  // the last of them), and whether another is open.
  // Re-establishing is opening a listen after one ended since the client's previous listen request. Not when every
  // listen that ended was closed by the client while another stays open: a client that swaps its listen for one with
  // one more URI (and closes the old after the new is acknowledged) is not reconnecting.
  const ended: SubscriptionLedger[] = [];
  let lastEnded: SubscriptionLedger | undefined;
  let anotherOpen = false;
  let endedSince = false;
  let allClosedByClient = true;
  // A listen the client's latest reconnect opened (or a later one) ended since: the connection went again.
  const prev = c.lastReconnect;
  let wentAgain = false;
  for (const x of c.listens.values()) {
    if (x.requested === undefined) continue;
    if (x.open) {
      anotherOpen = true;
      continue;
    }
    // One that ended before any acknowledgement held nothing: the retries of a client waiting for its server to come
    // back are one reconnect, not one each (as failed initializes are not counted in 2025).
    if (!x.acked) continue;
    ended.push(x);
    if (!lastEnded || (x.endSeq ?? 0) > (lastEnded.endSeq ?? 0)) lastEnded = x;
    if ((x.endSeq ?? 0) > c.lastListenSeq) {
      endedSince = true;
      if (x.endCause !== 'client-close') allClosedByClient = false;
      if (prev !== undefined && x.startSeq >= prev.seq) wentAgain = true;
    }
  }
  const reconnecting = endedSince && !(anotherOpen && allClosedByClient);
  c.lastListenSeq = m.seq;
  const replaced = c.listens.get(m.id);
  c.listens.set(m.id, l);
  c.listenByConn.set(m.conn, l);
  // A reused id takes an ended listen out of ClientModel.ledgersEndedWith's view (a new open one changes nothing there).
  if (replaced !== undefined && !replaced.open) c.ledgerEpoch++;
  // A client that opens a new listen after one ended is re-establishing: what it leaves out, it dropped.
  const fromEnded = [...c.uris.values()].filter((u) => u.believed && u.beliefListen && !u.beliefListen.open);
  // Membership by set: a re-listen names every URI again, and a list scan per URI is quadratic.
  const asked = new Set(requested);
  // A reconnect of this client that just began (a client with several listens re-opens them one by one) is the same
  // reconnect: what this listen asks for is resubscribed there, and it is not counted twice. Not when what that
  // reconnect opened has ended again (a flapping connection the app re-listens on at once: the SDK v2 client never
  // re-listens by itself): that is a reconnect of its own, however soon.
  // A listen that does not re-establish counts what it asks for for the client's latest reconnect, as a subscribe does.
  // (Within the grace of the reconnect, or of the run re-opening them: a client that opens the next listen once the
  // previous one is acknowledged waits on a server slow to acknowledge, not the other way round.)
  const inRun = prev !== undefined && (m.t - prev.t <= core.grace || c.resubscribing.covers(prev.t, m.t, core.grace));
  const current = prev !== undefined && ((inRun && !wentAgain) || !reconnecting) ? prev : undefined;
  if (current) for (const uri of asked) strikeMissing(current, c.uris.get(uri));
  if (reconnecting && !current) {
    // What there was to resubscribe: what is still believed from an ended listen, and what the listens that ended last
    // asked for and is still cached (a client that closes its listen to reconnect withdrew the belief, not the cache).
    const wanted = new Set(fromEnded);
    // The listens that ended last, together (within the grace of the last one).
    for (const x of ended) {
      if ((lastEnded!.endT ?? 0) - (x.endT ?? 0) > core.grace) continue;
      // What they held (kept when they ended), not what they asked for: a URI the acknowledgement refused was never
      // subscribed, so it is not one to subscribe again (as a 2025 subscribe that failed is not).
      // (Only what it asked for among them: a sub-resource held through a subscribed parent comes back with the parent.)
      const asked = x.requested !== undefined ? new Set(x.requested) : undefined;
      for (const uri of x.uris) {
        if (asked !== undefined && !asked.has(uri)) continue;
        const u = c.uris.get(uri);
        if (u?.cached) wanted.add(u);
      }
    }
    core.addReconnect(c, m.t, m.seq, wanted.size, [...wanted].filter((u) => !asked.has(u.uri)));
    c.resubscribing.begin(m.t);
  }
  // Re-opening listens after a reconnect, one after another: each is a step of the client's resubscribing run, and
  // waits for its acknowledgement (what it has not re-opened yet is not late while the server is slow to acknowledge).
  if (aboutResources && requested.length > 0 && (reconnecting || (current !== undefined && inRun))) {
    c.resubscribing.step(m.t, core.grace);
    l.resubscribeGen = c.resubscribing.awaiting(m.t);
  }
  for (const u of aboutResources ? fromEnded : []) {
    if (asked.has(u.uri)) continue;
    core.touch(u, m.t);
    core.disbelieve(u, 'dropped-on-relisten', m.t, m.seq);
    core.reevaluate(u, m.t, m.seq);
  }
  core.counters.subscribeRequested += requested.length;
  // Named by the listen, as its -32601 answer names it (the same occurrence).
  checkSubscribeCapability(core, c, requested, l.label, m.t, m.seq);
  for (const uri of requested) {
    const u = c.uri(uri);
    core.touch(u, m.t);
    core.believe(u, l, m.seq);
    answerYes(core, u, m.t, m.seq);
    core.step(u, 'C', m.t, m.seq);
    core.reevaluate(u, m.t, m.seq);
  }
}

/**
 * A listen stream whose request the log does not have (after Clear, a trimmed log): a listen picked up mid-way, named
 * by the subscription id its messages carry. What it asked for is unknown; what the server delivers on it, it holds.
 */
export function adoptListen(core: EngineCore, c: ClientModel, id: RequestId, conn: string, t: number, seq: number): SubscriptionLedger {
  const l = newListen(core, c, id, t, seq, false);
  // It was running before the capture began: acknowledged or not, the server sends on it.
  l.acked = true;
  l.conn = conn;
  const replaced = c.listens.get(id);
  // An open listen with the id (another client's, seen from its request) keeps it: a cancel by id is about that one.
  if (replaced === undefined || !replaced.open) c.listens.set(id, l);
  c.listenByConn.set(conn, l);
  if (replaced !== undefined && !replaced.open) c.ledgerEpoch++;
  // What the client caches and this listen has not delivered yet may be what it asked for: said so from now on.
  for (const u of c.uris.values()) core.reevaluate(u, t, seq);
  return l;
}

/** notifications/subscriptions/acknowledged: the server holds the accepted subset; the rest was refused. */
export function onAcknowledged(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  const p = obj(obj(value)?.params);
  const sid = obj(p?._meta)?.['io.modelcontextprotocol/subscriptionId'];
  if (typeof sid !== 'string' && typeof sid !== 'number') return;
  const l = c.listenOn(sid, m.conn);
  if (!l || !l.open) return;
  const accepted = strings(obj(p?.notifications)?.resourceSubscriptions);
  // A repeated acknowledgement confirms: what it accepts or refuses was counted the first time.
  const first = !l.acked;
  l.acked = true;
  if (l.resubscribeGen !== undefined) {
    c.resubscribing.answered(l.resubscribeGen, m.t, true);
    l.resubscribeGen = undefined;
  }
  // A success is of a request counted: a URI the listen did not ask for (or one picked up mid-way, its request not in
  // the log) is held, not a success (a fuzz audit, 2026-12-05: more successes than requests).
  const asked = new Set(l.requested ?? []);
  for (const uri of accepted) {
    const u = c.uri(uri);
    core.touch(u, m.t);
    if (!l.uris.has(uri) && asked.has(uri)) core.counters.subscribeSucceeded++;
    markLapse(core, u, l, m.t, m.seq);
    // Asked for when the listen was sent (its acknowledgement may come late), if it asked for the URI.
    core.hold(u, l, m.t, m.seq, asked.has(uri) ? l.startT : m.t);
    core.step(u, 'D', m.t, m.seq);
    core.reevaluate(u, m.t, m.seq);
  }
  const honoured = new Set(accepted);
  for (const uri of l.requested ?? []) {
    if (honoured.has(uri)) continue;
    const u = c.uri(uri);
    core.touch(u, m.t);
    if (first) core.counters.subscribeFailed++;
    // The client was told: the honoured filter came back without it.
    if (u.beliefListen === l) core.disbelieve(u, 'refused-in-ack', m.t, m.seq);
    else if (!u.held) u.loss = { reason: 'refused-in-ack', t: m.t, seq: m.seq };
    core.reevaluate(u, m.t, m.seq);
  }
}

/** The client withdrew a listen (aborted it or cancelled it): its beliefs go, unless another open listen asks too. */
export function withdrawListen(core: EngineCore, c: ClientModel, l: SubscriptionLedger, t: number, seq: number): void {
  // Given up before any acknowledgement (the SDK client tears a listen down so when the server does not acknowledge
  // it in time, 60 s by default): nothing was subscribed, and the client's listen() rejected.
  const reason = l.acked ? 'unsubscribed' : 'subscribe-failed';
  if (l.open && !l.acked) core.counters.subscribeFailed += l.requested?.length ?? 0;
  unawait(c, l, t);
  core.endLedger(l, 'client-close', t, seq);
  for (const uri of l.requested ?? []) {
    const u = c.uris.get(uri);
    if (!u || u.beliefListen !== l) continue;
    const other = c.otherListenAsking(uri, l);
    if (other) u.beliefListen = other;
    else core.disbelieve(u, reason, t, seq);
    core.reevaluate(u, t, seq);
  }
}

/** A listen of the resubscribing run ended with no acknowledgement: no answer (WorkRun.answered). */
function unawait(c: ClientModel, l: SubscriptionLedger, t: number): void {
  if (l.resubscribeGen === undefined) return;
  c.resubscribing.answered(l.resubscribeGen, t, false);
  l.resubscribeGen = undefined;
}

/**
 * A listen that failed before it was acknowledged (error answer, HTTP error, network; a stream that ended or a graceful
 * answer before any acknowledgement, which the SDK's listen() rejects too): nothing was subscribed.
 */
export function failListen(core: EngineCore, c: ClientModel, l: SubscriptionLedger | undefined, t: number, seq: number, cause: EndCause = 'listen-error'): void {
  if (!l || !l.open) return;
  const acked = l.acked;
  // No answer is coming: the reconnect's run stops waiting on it before the ledger's end is judged (as withdrawListen).
  if (!acked) unawait(c, l, t);
  core.endLedger(l, cause, t, seq);
  if (acked) return;
  for (const uri of l.requested ?? []) {
    const u = c.uri(uri);
    core.counters.subscribeFailed++;
    if (u.beliefListen === l) core.disbelieve(u, 'subscribe-failed', t, seq);
    core.reevaluate(u, t, seq);
  }
}

/**
 * A legacy HTTP+SSE `endpoint` event. After the client's stream closed, a new session on it is a reconnect: an
 * EventSource reconnects by itself, and the SDK's SSEClientTransport then posts to the new endpoint without
 * initializing. The reconnect is counted here (its resubscribes count whether or not an initialize comes first), and
 * the client must initialize the new session (session-expired-not-reinitialized until it does). The first endpoint,
 * and a second stream while the first is open (a second client of the page), are left to their initialize.
 */
export function onLegacyEndpoint(core: EngineCore, c: ClientModel, session: string | undefined, t: number, seq: number): void {
  const old = c.current;
  if (session === undefined || !old || old.open || old.transport !== 'http-sse' || core.sessionAt(c.endpoint, session) !== undefined) return;
  const l = core.newLedger(c, session, session, 'session', t, seq, true);
  l.uninitialized = true;
  const believed = [...c.uris.values()].filter((u) => u.believed);
  core.addReconnect(c, t, seq, believed.length, believed);
  walkReconnect(core, believed, t, seq);
  c.current = l;
  // A session the server itself expired (404 before the stream went) stays the one the finding names.
  const x = c.expired;
  c.expired = x ? { ...x, next: l, evidence: [...x.evidence, seq] } : { ledger: old, next: l, t, seq, evidence: [old.endSeq ?? seq, seq], uses: 0 };
  for (const u of c.uris.values()) core.reevaluate(u, t, seq);
}

/** The server ended a 2025 session (404 / 400 on its id): the client must re-initialize. */
export function sessionGone(core: EngineCore, c: ClientModel, l: SubscriptionLedger, cause: EndCause, t: number, seq: number): void {
  const wasCurrent = c.current === l && l.open;
  core.endLedger(l, cause, t, seq);
  if (wasCurrent) c.expired = { ledger: l, t, seq, evidence: [seq], uses: 0 };
}

/** The page unloaded: its client, cache and sessions are gone. */
export function pageGone(core: EngineCore, doc: string, t: number, seq: number): void {
  for (const c of core.clients.values()) {
    if (c.doc !== doc || c.ended) continue;
    // Judged as the page left them, before their sessions end (a held URI's ttlMs is a hint, not a warning).
    for (const u of c.uris.values()) recordCacheAge(core, u, t, seq);
    for (const l of c.sessions) core.endLedger(l, 'unload', t, seq);
    // Every listen of the client, also one whose id a later listen reused (two SDK clients on the page): the map by id
    // holds only the latest of them.
    for (const l of core.ledgers) if (l.client === c && l.kind === 'listen') core.endLedger(l, 'unload', t, seq);
    c.ended = true;
    c.expired = undefined;
    for (const u of c.uris.values()) {
      core.touch(u, t);
      const p = u.pendingReread;
      // A re-read in flight when the page went was sent (late or not): the client did its part, and it counts so.
      // None sent past the grace is the finding (and a miss); none sent within it is not judged either way.
      // The notifications before it, their re-read in flight, were followed by one too.
      if (p?.carried) core.counters.notificationsReread += carriedCount(p);
      if (p?.reread) {
        core.counters.notificationsReread += p.count;
        recordLateReread(core, u, p, p.reread);
      } else if (p && t - p.t >= core.grace) {
        core.log.record({ id: 'notified-not-reread', doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...(p.session !== undefined ? { session: p.session } : {}), detail: 'never re-read before the page unloaded' }, p.t, t, [p.seq, seq]);
      } else if (p) core.counters.notificationsForCached -= p.count;
      closeGap(core, u, 'before the page unloaded', t, seq);
      endStale(core, u, t, seq);
      u.pendingReread = undefined;
      // A changed read waiting for a late notification: none can come to a page that left, so it was missed (it was
      // dropped here, and a page closed within the grace of that read kept no trace of the change).
      const m = u.pendingMissed;
      if (m) core.log.record({ id: 'missed-update', doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...(m.session !== undefined ? { session: m.session } : {}), detail: m.detail }, m.t, m.t, m.evidence);
      u.pendingMissed = undefined;
      u.flowReread = undefined;
      u.flowPhantom = undefined;
      u.flowStage = undefined;
      core.reevaluate(u, t, seq);
    }
  }
}
