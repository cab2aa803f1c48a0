// Rules for resource traffic: resources/read (the cache), resources/list (listed is not cached),
// resources/subscribe and unsubscribe (2025), notifications/resources/updated. The hot path: every rule is O(1) per
// message apart from the URI's own small lists.
import { SUBSCRIPTION_ID_META_KEY } from '../decode/protocol.ts';
import { READ_TTL_PROBLEM } from '../decode/validate.ts';
import type { DecodedMessage } from '../decode/types.ts';
import { parentHeld } from '../findings/coverage.ts';
import { markLapse, settleGapByList } from '../findings/gap.ts';
import { checkSubscribeCapability, checkSubscribeRejected, checkUnsolicited, wasUnadvertised } from '../findings/protocol-checks.ts';
import { applyReadAnswer, noteNotified, noteReadFailed, noteReadSent, noteResourceGone, type ReadAnswer } from '../findings/refresh.ts';
import type { ClientModel } from './client-model.ts';
import { answerYes } from './flow-rules.ts';
import { strikeMissing, type EngineCore } from './core.ts';
import { obj } from './on-session.ts';
import { awaitResubscribe, takeResubscribe } from './ledger.ts';
import { contentTextOf } from './uri-state.ts';
import { flowWalk, type FlowJumps } from '../flow/flow-tracker.ts';
import type { NodeId } from '../flow/chart.ts';

/** A received notification: E and F are implied (the resource changed, the server found the subscriber), G and I seen. */
const NOTIFIED = flowWalk(['E', 'F', 'G', 'I'], [true, true, false, false]);
/**
 * An unsolicited one (the delivering session or listen holds no subscription for the URI): the chart's F —yes→ G says
 * the server found a session subscribed to it, which is what the finding denies, and F —no→ H says nothing was sent,
 * which the log denies. The question is asked (E → F, inferred) and G is reached by a jump, F ⇢ G, counted on no edge.
 */
const UNSOLICITED: readonly NodeId[] = ['E', 'F', 'G', 'I'];
const UNSOLICITED_INFERRED: readonly boolean[] = [true, true, false, false];
const UNSOLICITED_JUMPS: FlowJumps = [undefined, undefined, 'unsolicited', undefined];

export function onReadSent(core: EngineCore, c: ClientModel, m: DecodedMessage): void {
  if (m.uri === undefined) return;
  const u = c.uri(m.uri);
  core.touch(u, m.t);
  c.inflight.add(m.index, c.nextReadOrder());
  u.lastReadReqT = m.t;
  u.lastReadReqSeq = m.seq;
  u.lastReadIndex = m.index;
  u.lastReadFailed = undefined;
  u.readsInFlight++;
  core.counters.reads++;
  noteReadSent(core, u, m.t, m.seq);
  core.step(u, 'J', m.t, m.seq);
}

/** Filled per answer and handed to applyReadAnswer, which keeps none of it (the row copies the ref): one object for every read answer. */
const answer: ReadAnswer = { order: 0, reqSeq: 0, reqId: undefined, ref: { raw: undefined, batch: -1, hash: undefined, bytes: undefined }, text: undefined, lastModified: undefined, ttlMs: undefined, cacheScope: undefined };

export function onReadAnswered(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  // The send order of this client's read in flight (its seq is m.pairSeq). A paired answer carries its request's URI,
  // and only requests with a URI are in flight, so m.uri is the URI whenever the read was.
  const order = m.pair !== undefined ? c.inflight.take(m.pair) : undefined;
  const uri = m.uri;
  if (uri === undefined) return;
  const u = c.uri(uri);
  core.touch(u, m.t);
  if (order !== undefined) u.readsInFlight = Math.max(0, u.readsInFlight - 1);
  const last = m.pair !== undefined && m.pair === u.lastReadIndex;
  if (m.kind !== 'result') {
    const text = m.kind === 'error' ? errorText(value) : 'no answer';
    if (last && m.kind === 'error') u.lastReadFailed = text;
    if (m.kind === 'error' && resourceGone(value)) return noteResourceGone(core, u, m.pairSeq ?? m.seq, order, m.t, m.seq);
    noteReadFailed(core, u, m.pairSeq ?? m.seq, m.t, text);
    return;
  }
  const wasCached = u.cached;
  const result = obj(obj(value)?.result);
  // Not content yet: the server asks for input and the client retries the read (2026-07-28). Nothing is cached.
  // The re-read goes on: the client retries it with the input.
  if (result?.resultType === 'input_required') return;
  // Content the client's SDK refuses (its readResource fails: the decoder's check of the answer found a problem) is not
  // cached. A bad ttlMs is not refused (the SDK takes its default then); a cut answer is still content, known by its hash.
  if (m.problem !== undefined && m.problem !== READ_TTL_PROBLEM && !m.truncated) {
    if (last) u.lastReadFailed = `answer refused: ${m.problem}`;
    noteReadFailed(core, u, m.pairSeq ?? m.seq, m.t, `answer refused: ${m.problem}`);
    return;
  }
  const contents = result?.contents;
  const first = Array.isArray(contents) ? obj(contents[0]) : undefined;
  const annotations = obj(first?.annotations);
  const meta = obj(first?._meta);
  const lastModified = typeof annotations?.lastModified === 'string' ? annotations.lastModified : typeof meta?.lastModified === 'string' ? meta.lastModified : undefined;
  const a = answer;
  a.order = order ?? c.nextReadOrder();
  a.reqSeq = order !== undefined ? m.pairSeq! : m.seq;
  a.reqId = m.id;
  const ref = a.ref;
  ref.raw = m.raw;
  ref.batch = m.batch ?? -1;
  ref.hash = m.truncated ? m.hash : undefined;
  ref.bytes = m.truncated ? m.bytes : undefined;
  a.text = m.truncated ? undefined : contentTextOf(result);
  a.lastModified = lastModified;
  a.ttlMs = typeof result?.ttlMs === 'number' ? result.ttlMs : undefined;
  a.cacheScope = typeof result?.cacheScope === 'string' ? result.cacheScope : undefined;
  applyReadAnswer(core, u, a, m.t, m.seq);
  // Only becoming cached can change coverage here; an open condition may want its evidence.
  if (!wasCached || u.conds['cached-not-subscribed'] !== undefined) core.reevaluate(u, m.t, m.seq);
}

/**
 * The server says the resource does not exist: -32002 (2025-11-25), or -32602 saying "not found" (2026-07-28, and the v1
 * SDK's McpServer). Not -32602 alone: that is any invalid parameter.
 */
function resourceGone(value: unknown): boolean {
  const e = obj(obj(value)?.error);
  if (e?.code === -32002) return true;
  return e?.code === -32602 && typeof e.message === 'string' && /not found/i.test(e.message);
}

/** An error answer in a few words: its code and message. */
function errorText(value: unknown): string {
  const e = obj(obj(value)?.error);
  const code = typeof e?.code === 'number' ? ` ${e.code}` : '';
  const message = typeof e?.message === 'string' ? `: ${e.message.slice(0, 120)}` : '';
  return `error${code}${message}`;
}

/**
 * resources/list: the URIs exist (and may carry lastModified); listing one does not cache it, and its lastModified is
 * the server's version, kept apart from the cache's (which only a read's answer gives). A lastModified equal to the
 * cached content's is a version check: it answers a delivery gap's doubt as a read would (findings/gap.ts).
 */
export function onListAnswered(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  const resources = obj(obj(value)?.result)?.resources;
  if (!Array.isArray(resources)) return;
  for (const r of resources) {
    const o = obj(r);
    if (typeof o?.uri !== 'string') continue;
    const u = c.uri(o.uri);
    u.listed = true;
    const lm = obj(o.annotations)?.lastModified;
    if (typeof lm !== 'string') continue;
    u.listedLastModified = lm;
    u.listedAt = m.t;
    u.listedSeq = m.seq;
    if (u.gapDoubt) settleGapByList(core, u, lm, m.pairSeq ?? m.seq, listAskedAt(core, m), m.t, m.seq);
  }
}

/** When the list answered by `m` was asked for (the message list keeps it, when it keeps messages); else its answer's time. */
function listAskedAt(core: EngineCore, m: DecodedMessage): number {
  return m.pair !== undefined && m.pair < core.messages.size ? core.messages.tAt(m.pair) : m.t;
}

export function onSubscribeSent(core: EngineCore, c: ClientModel, m: DecodedMessage): void {
  if (m.uri === undefined) return;
  const u = c.uri(m.uri);
  core.touch(u, m.t);
  core.believe(u, undefined, m.seq);
  u.unsubscribedT = undefined;
  u.subscribeInFlight++;
  u.subscribeSentT = m.t;
  core.counters.subscribeRequested++;
  const l = core.session(c, m.session, m.t, m.seq);
  u.subscribeOn = l;
  checkSubscribeCapability(core, c, [m.uri], l?.label, m.t, m.seq);
  if (c.lastReconnect) {
    // Subscribing again, one URI at a time: the ones still to come are not late while it goes on.
    if (u.missingIn === c.lastReconnect.index) {
      c.resubscribing.step(m.t, core.grace);
      // Its answer moves the run on (a server slow to answer is not the client stalling).
      awaitResubscribe(u, c.resubscribing.awaiting(m.t), l);
    }
    strikeMissing(c.lastReconnect, u);
  }
  answerYes(core, u, m.t, m.seq);
  core.step(u, 'C', m.t, m.seq);
  core.reevaluate(u, m.t, m.seq);
}

export function onSubscribeAnswered(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  if (m.uri === undefined) return;
  const u = c.uri(m.uri);
  core.touch(u, m.t);
  // Asked for when its request was sent (the latest subscribe in flight: never earlier than this answer's own).
  const askedT = u.subscribeInFlight > 0 && !Number.isNaN(u.subscribeSentT) ? u.subscribeSentT : m.t;
  u.subscribeInFlight = Math.max(0, u.subscribeInFlight - 1);
  const l = core.session(c, m.session, m.t, m.seq);
  const gen = takeResubscribe(u);
  if (gen !== undefined) c.resubscribing.answered(gen, m.t, true);
  if (m.kind === 'result') {
    if (l?.open) {
      markLapse(core, u, l, m.t, m.seq);
      core.hold(u, l, m.t, m.seq, askedT);
      core.step(u, 'D', m.t, m.seq);
    }
    core.counters.subscribeSucceeded++;
    if (m.pairSeq !== undefined) wasUnadvertised(u, m.pairSeq);
  } else {
    core.counters.subscribeFailed++;
    core.disbelieve(u, 'subscribe-failed', m.t, m.seq);
    const code = obj(obj(value)?.error)?.code;
    if (typeof code === 'number') checkSubscribeRejected(core, u, code, l?.label, m.t, m.pairSeq ?? m.seq, m.seq);
  }
  core.reevaluate(u, m.t, m.seq);
}

export function onUnsubscribeSent(core: EngineCore, c: ClientModel, m: DecodedMessage): void {
  if (m.uri === undefined) return;
  const u = c.uri(m.uri);
  core.touch(u, m.t);
  core.disbelieve(u, 'unsubscribed', m.t, m.seq);
  u.unsubscribedT = m.t;
  core.reevaluate(u, m.t, m.seq);
}

export function onUnsubscribeAnswered(core: EngineCore, c: ClientModel, m: DecodedMessage): void {
  if (m.uri === undefined || m.kind !== 'result') return;
  const u = c.uri(m.uri);
  const l = core.session(c, m.session, m.t, m.seq);
  if (l) core.unhold(u, l, m.t, m.seq, 'unsubscribed');
  core.reevaluate(u, m.t, m.seq);
}

export function onUpdated(core: EngineCore, c: ClientModel, m: DecodedMessage, value: unknown): void {
  if (m.uri === undefined) return;
  const u = c.uri(m.uri);
  core.touch(u, m.t);
  let l;
  if (m.generation === '2026') {
    const sid = obj(obj(obj(value)?.params)?._meta)?.[SUBSCRIPTION_ID_META_KEY];
    l = typeof sid === 'string' || typeof sid === 'number' ? c.listenOn(sid, m.conn) : undefined;
  } else {
    l = m.session !== undefined ? core.sessionAt(c.endpoint, m.session) : c.current;
  }
  // The spec lets a server notify a sub-resource of what was subscribed (the updated URI "might be a sub-resource"): an
  // update for a URI under a parent the delivering session holds shows the server covers it, from now on.
  // A listen or a 2025 session picked up mid-way (its subscribe went with Clear or the log cap) asked for what it
  // delivers: the server holds it for them. A 2025 client, which sent resources/subscribe, believes it too (so a
  // reconnect that does not subscribe again is judged as for a subscribe seen); a listen's belief goes with its stream.
  if (l && !l.observedFromStart && l.open && !l.uris.has(u.uri)) {
    core.hold(u, l, m.t, m.seq);
    if (l.kind === 'session' && !u.believed && u.loss === undefined) core.believe(u, undefined, m.seq);
    core.step(u, 'D', m.t, m.seq);
    core.reevaluate(u, m.t, m.seq);
  }
  const parent = l?.live && !l.uris.has(u.uri) ? parentHeld(core, u, l) : undefined;
  if (l && parent !== undefined) {
    core.hold(u, l, m.t, m.seq);
    (l.viaParent ??= new Map()).set(u.uri, parent);
    core.reevaluate(u, m.t, m.seq);
  }
  const unsolicited = checkUnsolicited(core, u, l, m.t, m.seq);
  u.noteInterval(m.t);
  u.lastNotifyT = m.t;
  u.lastNotifySeq = m.seq;
  u.notifyCount++;
  core.counters.notifications++;
  if (unsolicited) core.walk(u, UNSOLICITED, m.t, m.seq, UNSOLICITED_INFERRED, UNSOLICITED_JUMPS);
  else core.walkCompiled(u, NOTIFIED, m.t, m.seq);
  noteNotified(core, u, m.t, m.seq, l?.label);
}
