// Finding family "coverage": does a server-side subscription with a working channel stand behind every cached URI and
// every subscription the client believes in? cached-not-subscribed, phantom-subscription, no-delivery-channel. These
// are conditions (they hold over time), re-checked whenever something about the URI changes.
import { formatDuration } from '../duration.ts';
import type { EngineCore } from '../engine/core.ts';
import type { ClientModel } from '../engine/client-model.ts';
import type { SubscriptionLedger } from '../engine/ledger.ts';
import { AnswerWait, EitherRun, type WorkRun } from '../engine/work-run.ts';
import type { UriState } from '../engine/uri-state.ts';
import type { FindingSpec } from './finding-log.ts';
import { COVERAGE_REASONS } from './catalogue.ts';
import { says } from './refresh.ts';
import type { CoverageReason } from './types.ts';

/**
 * Directory-like (`file:///docs/`), schema-like (`postgres://kb/articles/schema`) or pattern-like (`file:///docs/*`,
 * `…/{id}`: a glob or a URI template) URIs people subscribe to as "the parent".
 */
export function isParentLike(uri: string): boolean {
  return uri.endsWith('/') || uri.endsWith('/schema') || isPattern(uri);
}

/** A glob or a URI template: servers match subscriptions to URIs literally, so it covers nothing else. */
function isPattern(uri: string): boolean {
  return uri.includes('*') || /\{[^}]*\}/.test(uri);
}

/**
 * The folder a parent-like URI stands for: itself when it ends in `/`, else up to its last `/`; for a pattern, the
 * folder of its literal part before the first `*` or `{` (`file:///docs/{section}/{name}.md` → `file:///docs/`).
 */
export function parentDir(parent: string): string {
  const wild = isPattern(parent) ? parent.search(/[*{]/) : -1;
  // A wildcard before the path (`https://*.example.com/…`) stands for other hosts: no folder of this one.
  const authority = parent.indexOf('://');
  if (wild >= 0 && authority >= 0) {
    const path = parent.indexOf('/', authority + 3);
    if (path < 0 || wild < path) return '';
  }
  const literal = wild >= 0 ? parent.slice(0, wild) : parent;
  return literal.endsWith('/') ? literal : literal.slice(0, literal.lastIndexOf('/') + 1);
}

/**
 * The nearest held parent-like URI whose folder holds `u` (found by `u`'s own folders, deepest first); with `by`, one
 * that ledger holds.
 */
export function parentHeld(core: EngineCore, u: UriState, by?: { uris: ReadonlySet<string> }): string | undefined {
  const byDir = core.parentsByDir.get(u.client);
  if (!byDir || byDir.size === 0) return undefined;
  const uri = u.uri;
  for (let i = uri.lastIndexOf('/', uri.length - 2); i >= 0; i = uri.lastIndexOf('/', i - 1)) {
    const parents = byDir.get(uri.slice(0, i + 1));
    if (parents) for (const p of parents) if (p !== uri && (by === undefined || by.uris.has(p))) return p;
    if (i === 0) break;
  }
  return undefined;
}

function coverageReason(core: EngineCore, u: UriState): { reason: CoverageReason; detail: string } {
  const parent = parentHeld(core, u);
  if (u.loss && u.loss.reason !== 'never-subscribed') {
    const r = u.loss.reason;
    const detail = r === 'lost-on-reinit' || r === 'lost-with-stream' ? lostDetail(u) : `${COVERAGE_REASONS[r].label} at seq ${u.loss.seq}`;
    return { reason: r, detail };
  }
  if (parent) {
    const detail = isPattern(parent) ? `only the pattern ${parent} is subscribed: servers match subscriptions literally (the SDKs do), and no update of it has named this URI` : `only ${parent} is subscribed`;
    return { reason: 'parent-only', detail };
  }
  const other = otherSpelling(u);
  if (other !== undefined) {
    return { reason: 'never-subscribed', detail: `subscribed as ${other}, a different spelling of this URI: servers match URIs exactly, so updates for this one never come` };
  }
  const current = u.client.current;
  if (current && !current.observedFromStart && current.kind === 'session') {
    return { reason: 'not-seen-subscribing', detail: `session ${current.label} began before the capture; no subscribe for it was seen since` };
  }
  // 2026 (no session): a listen of the client's picked up mid-way may have asked for it.
  for (const l of u.client.listens.values()) {
    if (l.open && !l.observedFromStart) {
      return { reason: 'not-seen-subscribing', detail: `${l.named} began before the capture: what it asked for was not seen, and no update for this URI came on it` };
    }
  }
  return { reason: 'never-subscribed', detail: 'no resources/subscribe or listen was sent for it' };
}

/**
 * A never-subscribed URI the client polls at `t`: read again within its declared expected freshness (a user rule, the
 * server's ttlMs; a guessed bound is no promise to poll against) after the read before, and not past it since — with
 * the grace, as cache-age-exceeded counts it. Returns until when that lasts without another read, and the detail's words
 * for then and after. A URI read once is not polled.
 */
function polledUntil(core: EngineCore, u: UriState, t: number): { until: number; note: string; late: string } | undefined {
  const prev = u.prevReadAt;
  if (prev === undefined) return undefined;
  const f = u.freshness(core.rules, core.defaultMaxAgeMs);
  if (f.source !== 'rule' && f.source !== 'ttl') return undefined;
  const limit = f.maxAgeMs + core.grace;
  if (u.readAt - prev > limit || t - u.readAt > limit) return undefined;
  const bound = `${says(f.maxAgeMs)} (${f.source})`;
  return {
    until: u.readAt + limit,
    note: `the client polls it instead: read again within its expected freshness, ${bound}`,
    late: `it was polled, but not read again within its expected freshness, ${bound}, after the read at seq ${u.readSeq}`,
  };
}

/** A URI of the same client that is subscribed and is this one spelled differently (case, escapes, default port). */
function otherSpelling(u: UriState): string | undefined {
  for (const o of u.client.sameResource(u)) if (o.held || o.believed) return o.uri;
  return undefined;
}

/**
 * A session ended by a re-initialize was ended by inference: the page initialized another and no stream of the old one
 * is open (the 1.x SDK client reconnects without a DELETE). The server may still hold it, and what it subscribed, until
 * it expires it — "ended" alone read as "the server dropped it" — but nothing it sends there reaches the page.
 */
const LEFT_BEHIND = ' — left behind when the page initialized another session: the server may keep it, and what it subscribed, until it expires it, but with no stream of it open nothing sent there reaches the page';

/**
 * How the URI's last holder ended. Kept on the URI per ledger and end: on every reconnect each cached URI is checked
 * again, and a client that never resubscribes would otherwise build this text URIs × reconnects times.
 */
function endedHow(u: UriState): string {
  const lost = u.endedWith();
  if (!lost) return 'no live session holds it';
  const memo = u.endedText;
  if (memo && memo.ledger === lost && memo.endSeq === lost.endSeq) return memo.text;
  const text = `${lost.named} ended (${lost.endCause}) at seq ${lost.endSeq}${lost.endCause === 're-initialize' ? LEFT_BEHIND : ''}`;
  u.endedText = { ledger: lost, endSeq: lost.endSeq, text, lost: `${text}; no live session or listen has held it since then` };
  return text;
}

const NOT_OFFERED = '; the current server does not advertise resources.subscribe: it no longer offers subscriptions, so the client must poll (re-read) what it caches';

/** A phantom's detail: how its last holder ended, and (`notOffered`) that the current server offers no subscriptions. */
function phantomDetail(u: UriState, notOffered: boolean): string {
  return notOffered ? endedHow(u) + NOT_OFFERED : endedHow(u);
}

function lostDetail(u: UriState): string {
  const how = endedHow(u);
  const memo = u.endedText;
  return memo && memo.text === how ? memo.lost : `${how}; no live session or listen has held it since then`;
}

/** The run that may still reach a URI whose coverage was lost with its session or stream (or a re-listen left it out): the client's resubscribing. */
function lostRun(c: ClientModel, reason: string | undefined): WorkRun | undefined {
  // (Left out of a re-listen: a client that re-opens its listens one by one may not have reached it yet.)
  return reason === 'lost-on-reinit' || reason === 'lost-with-stream' || reason === 'dropped-on-relisten' ? c.resubscribing : undefined;
}

/**
 * The subscribe (or the listen naming it) in flight for `u`, as its coverage conditions' excuse (a server slow to
 * answer, a cold start: the client that sent it is doing the right thing). The one that just ended, ended here: for
 * cached-not-subscribed only a success (held now) excuses the wait — an error, a lost exchange or session, the page
 * leaving report it from the send; for phantom-subscription any outcome the client learned does (a failure drops
 * the belief, and subscribe-failed says so), the page leaving does not. Past ANSWER_CAP_MS with no answer neither is
 * excused. A new one first releases what was open before its send, at the send: that part is judged as it was (a
 * client slow to resubscribe is late however fast the server then is).
 */
function inFlightWait(core: EngineCore, u: UriState, t: number, seq: number): AnswerWait | undefined {
  const listen = u.beliefListen;
  const pending = u.subscribeInFlight > 0 && !Number.isNaN(u.subscribeSentT) ? 'subscribe' : listen !== undefined && listen.open && !listen.acked ? 'listen' : undefined;
  const w = u.waitCached;
  if (pending === undefined || u.client.ended) {
    // The answer came (a success if it holds now), or the request died (an error, its exchange, the page left).
    if (w !== undefined && w.endT === undefined) {
      const left = u.client.ended;
      w.end(t, u.held && !left);
      u.waitBelief!.end(t, !left);
    }
    return undefined;
  }
  const sentT = pending === 'subscribe' ? u.subscribeSentT : listen!.startT;
  if (w !== undefined && w.sentT === sentT && w.endT === undefined) return w;
  const slots = u.conds;
  for (const id of ['cached-not-subscribed', 'phantom-subscription'] as const) {
    const cur = slots[id];
    if (cur !== undefined && cur.since < sentT) {
      core.conds.release(slots, id, Math.min(t, sentT), [seq]);
      if (id === 'phantom-subscription') u.flowPhantom = undefined;
    }
  }
  const on = pending === 'subscribe' ? u.subscribeOn : listen;
  u.waitCached = new AnswerWait(sentT, on);
  u.waitBelief = new AnswerWait(sentT, on);
  return u.waitCached;
}

export function evaluateCoverage(core: EngineCore, u: UriState, t: number, seq: number): void {
  const c = u.client;
  const live = !c.ended;
  const held = u.held;
  const slots = u.conds;
  // A subscribe or listen in flight, or one that just ended (cheap: two field reads when none was).
  const wait = u.subscribeInFlight > 0 || u.beliefListen !== undefined || (u.waitCached !== undefined && u.waitCached.endT === undefined) ? inFlightWait(core, u, t, seq) : undefined;
  // The common case on the hot path: nothing holds and nothing was open.
  if (
    slots['cached-not-subscribed'] === undefined &&
    slots['phantom-subscription'] === undefined &&
    slots['no-delivery-channel'] === undefined &&
    (!live || ((!u.cached || held) && (!u.believed || held) && (!held || u.channelOpen)))
  ) {
    return;
  }
  const session = c.current?.label;

  // An open condition under the same session and reason only needs nothing: its details are built when it opens.
  // A subscribe still on its way (a slow server, a cold start, or its answer held back on a polled POST stream) is
  // neither a missing subscription nor a phantom yet: its answer decides, as the grace would (`wait`, inFlightWait).
  // A listen not yet acknowledged is one too: the SDK's listen() resolves only at the acknowledgement.
  const cns = slots['cached-not-subscribed'];
  if (live && u.cached && !held) {
    const quick = u.loss && u.loss.reason !== 'never-subscribed' ? u.loss.reason : undefined;
    const info = c.serverSubscribe === false;
    // (A 2026 client has no session to change: a discover that changes the capability changes only the severity.)
    if (!cns || cns.spec.session !== session || quick === undefined || cns.spec.reason !== quick || (cns.spec.severity === 'info') !== info) {
      const { reason, detail: why } = coverageReason(core, u);
      // Never subscribed but polled within a declared freshness (a rule, the server's ttlMs): a valid strategy (DESIGN
      // §1.5), a note until the cache outlives that bound without a re-read, the warning from then on.
      const polled = !info && reason === 'never-subscribed' ? polledUntil(core, u, t) : undefined;
      const detail = polled ? `${why}; ${polled.note}` : why;
      if (!polled && cns && cns.spec.until === undefined && session !== undefined && cns.spec.reason === reason && cns.spec.detail === detail && (cns.spec.severity === 'info') === info) {
        // Only the session it names changed (a reconnect): the open condition's own spec says so, no new one.
        cns.spec.session = session;
        core.conds.hold(slots, cns.spec as FindingSpec & { id: 'cached-not-subscribed' }, t, u.loss ? [u.readSeq, u.loss.seq] : [u.readSeq], undefined, wait ?? lostRun(c, reason));
      } else {
        const spec: FindingSpec & { id: 'cached-not-subscribed' } =
          session !== undefined
            ? { id: 'cached-not-subscribed', doc: c.doc, endpoint: c.endpoint, uri: u.uri, session, reason, detail }
            : { id: 'cached-not-subscribed', doc: c.doc, endpoint: c.endpoint, uri: u.uri, reason, detail };
        // Without the capability there is nothing to subscribe to: polling is the only option, so it is only worth a
        // note (subscribe-unsupported tells the client off if it tried anyway).
        if (info) spec.severity = 'info';
        else if (polled) {
          // (The catalogue's warning then: `then` has no severity of its own.)
          const then = { ...spec, detail: `${why}; ${polled.late}` };
          spec.severity = 'info';
          spec.until = { t: polled.until, then };
        }
        core.conds.hold(slots, spec, t, u.loss ? [u.readSeq, u.loss.seq] : [u.readSeq], undefined, wait ?? lostRun(c, reason));
      }
    }
    // Its excuse now: the wait in flight, else what it was given when it opened (a wait that ended is no longer one).
    const open = slots['cached-not-subscribed'];
    if (open !== undefined && open.run !== (wait ?? open.run)) open.run = wait;
    else if (open !== undefined && wait === undefined && open.run instanceof AnswerWait) open.run = lostRun(c, open.spec.reason);
  } else if (cns) core.conds.release(slots, 'cached-not-subscribed', t, [seq]);

  const ph = slots['phantom-subscription'];
  const phWait = wait !== undefined ? u.waitBelief : undefined;
  if (live && u.believed && !held) {
    // The current server does not advertise resources.subscribe (the client re-initialized onto one without it): there
    // is nothing to subscribe to any more, polling is all it allows, so the belief is worth a note, as
    // cached-not-subscribed is (the catalogue's `subscribe-not-offered` reason sets the severity and the advice).
    const notOffered = c.serverSubscribe === false;
    const sameKind = (ph?.spec.reason === 'subscribe-not-offered') === notOffered;
    if (ph && sameKind && session !== undefined && ph.spec.session !== session && ph.spec.detail === phantomDetail(u, notOffered)) {
      // Only the session it names changed (a reconnect): the open condition's own spec says so.
      ph.spec.session = session;
      core.conds.hold(slots, ph.spec as FindingSpec & { id: 'phantom-subscription' }, t, u.loss ? [u.believedSeq, u.loss.seq] : [u.believedSeq], undefined, phWait ?? c.resubscribing);
    } else if (!ph || ph.spec.session !== session || !sameKind) {
      const detail = phantomDetail(u, notOffered);
      const spec: FindingSpec & { id: 'phantom-subscription' } =
        session !== undefined
          ? { id: 'phantom-subscription', doc: c.doc, endpoint: c.endpoint, uri: u.uri, session, detail }
          : { id: 'phantom-subscription', doc: c.doc, endpoint: c.endpoint, uri: u.uri, detail };
      if (notOffered) spec.reason = 'subscribe-not-offered';
      core.conds.hold(slots, spec, t, u.loss ? [u.believedSeq, u.loss.seq] : [u.believedSeq], undefined, phWait ?? c.resubscribing);
      if (!ph) u.flowPhantom = { deadline: t + core.grace, seq };
    }
    const open = slots['phantom-subscription'];
    if (open !== undefined && open.run !== (phWait ?? open.run)) open.run = phWait;
    else if (open !== undefined && phWait === undefined && open.run instanceof AnswerWait) open.run = c.resubscribing;
  } else if (ph) {
    core.conds.release(slots, 'phantom-subscription', t, [seq]);
    u.flowPhantom = undefined;
    // Held again without a subscribe (a session used again): nothing is left to ask.
    if (held) u.flowStage = undefined;
  }

  const ndc = slots['no-delivery-channel'];
  if (live && held && !u.channelOpen) {
    const l = u.holders[0]!;
    const reason = l.channelRefused !== undefined ? 'refused' : l.channelEverOpened ? 'closed' : 'never-opened';
    // The attempts to get it back the server refused (a real-SDK audit, 2026-12-05: two 503s and the SDK gave up, and
    // the detail said only that the stream "was not reopened").
    const refused = reason !== 'refused' ? refusedText(l) : '';
    const detail =
      reason === 'refused'
        ? `the server answered the GET stream with ${l.channelRefused}`
        : reason === 'closed'
          ? `the GET stream closed at seq ${l.lastChannelClose?.seq} and was not reopened${refused}`
          : `no GET stream was opened for the session${refused}`;
    if (ndc && ndc.spec.session === l.label && ndc.spec.reason === reason && ndc.spec.detail !== detail) ndc.spec = { ...ndc.spec, detail };
    if (!ndc || ndc.spec.session !== l.label || ndc.spec.reason !== reason) {
      // A stream the server closed after asking for a `retry` (SEP-1699 polling) is expected back after that wait.
      const retry = reason === 'closed' ? l.lastChannelClose?.retryMs : undefined;
      const settle = retry !== undefined ? core.grace + retry : undefined;
      l.channelExcuse ??= new EitherRun(l.reopening, c.reinitializing);
      core.conds.hold(slots, { id: 'no-delivery-channel', doc: c.doc, endpoint: c.endpoint, uri: u.uri, session: l.label, reason, detail }, t, [u.heldSeq], settle, l.channelExcuse);
    }
  } else if (ndc) {
    // Reopened: what stays as history says so ("was not reopened" was only true while it lasted).
    if (live && held && ndc.spec.reason === 'closed') ndc.spec = { ...ndc.spec, detail: ndc.spec.detail!.replace(' and was not reopened', ` and was reopened only ${formatDuration(t - ndc.since)} later`) };
    core.conds.release(slots, 'no-delivery-channel', t, [seq]);
  }
}

/** The GETs for a session's stream the server refused since it closed (or began), in words: ` (2 attempts to … refused: HTTP 503 at seq 22 and 26)`. */
function refusedText(l: SubscriptionLedger): string {
  const r = l.refusedGets;
  if (r === undefined || r.n === 0) return '';
  const n = r.n;
  const at = n === 1 ? `seq ${r.first}` : n === 2 ? `seq ${r.first} and ${r.last}` : `seq ${r.first} to ${r.last}`;
  const what = n === 1 ? '1 attempt to open it was' : `${n} attempts to open it were`;
  return ` (${what} refused: HTTP ${r.statuses.join(', ')}${r.more ? ' and others' : ''} at ${at})`;
}
