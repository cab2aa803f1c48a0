// Finding family "refresh": is the cached content as fresh as the traffic allows? stale-overwrite (an older answer
// written last), missed-update (content changed with no notification while subscribed), notified-not-reread and
// cache-age-exceeded (timers against `now`).
import type { EngineCore } from '../engine/core.ts';
import { sessionLabelOf, sessionOf } from '../engine/core.ts';
import { contentDiffers, MAX_CARRIED, pendingCount, type CarriedGroup, type ContentRef, type Pending, type UriState } from '../engine/uri-state.ts';
import type { FindingSpec, TimedFinding } from './finding-log.ts';
import { noteGapReadFailed, noteGapReadSent, settleGap, timedGapFinding } from './gap.ts';
import type { RequestId } from '../decode/types.ts';
import type { Freshness } from '../engine/freshness.ts';
import type { NodeId } from '../flow/chart.ts';
import type { FlowJumps } from '../flow/flow-tracker.ts';
import { hashText } from '../hash.ts';
import { utf8Length } from '../payload.ts';
import { formatDuration } from '../duration.ts';

export interface ReadAnswer {
  order: number;
  reqSeq: number;
  /** The JSON-RPC id of the read (the answer's). */
  reqId: RequestId | null | undefined;
  /** Where the new content lives (stored in the cache entry). */
  ref: ContentRef;
  /** The new content, parsed (undefined when the answer was cut at capture). */
  text: string | undefined;
  lastModified: string | undefined;
  ttlMs: number | undefined;
  cacheScope: string | undefined;
}

/** A missed-update's inferred walk: the change, the server's question, the notification, and the stale cache. */
const MISSED: readonly NodeId[] = ['E', 'F', 'G', 'I', 'K'];
const MISSED_INFERRED: readonly boolean[] = [true, true, true, true, true];
const MISSED_CHANNEL_OPEN: FlowJumps = [undefined, undefined, undefined, undefined, 'lost-channel-open'];
const MISSED_NO_CHANNEL: FlowJumps = [undefined, undefined, undefined, undefined, 'lost-no-channel'];

/**
 * How a missed-update's I → K is taken. The chart's arrow says the notification was "lost when the connection broke":
 * taken only when a delivery channel of the URI's holders was down (having been up) for some or all of the time the
 * notification was due — from when it could first be sent (the later of the cached read and the hold's start) to the
 * changed answer: it broke in that time, or had broken before and was not back at its start. Where one stayed open that
 * whole time (the demo's dropped-notifications: the server never sent it) the arrow is not what happened: I ⇢ K,
 * `lost-channel-open`; where none had ever been open to carry it (a GET stream opened only later, or never),
 * `lost-no-channel`. (Until a flow audit, 2026-12-06, every missed-update took the arrow.)
 */
function missedJumps(u: UriState): FlowJumps | undefined {
  const from = Math.max(u.readAt, u.heldSince ?? u.readAt);
  let broke = false;
  for (const l of u.holders) {
    if (l.channels > 0 && l.channelOpenSince <= from) return MISSED_CHANNEL_OPEN;
    // Not open all along, and its channels have gone to none since it was first open (before `from`, not back by
    // then; or after): it was down for some or all of that time, having been up. (A channel never open is no break.)
    if (!Number.isNaN(l.channelDownT)) broke = true;
  }
  return broke ? undefined : MISSED_NO_CHANNEL;
}

/** A read answer arrives: judge it against the cache entry, then write it (last arrival wins, as a naive client does). */
export function applyReadAnswer(core: EngineCore, u: UriState, a: ReadAnswer, t: number, seq: number): void {
  const c = u.client;
  // Older than the newest answer seen (not only than the one cached: three answers arriving 3rd, 1st, 2nd leave the
  // cache on the 2nd, still older than the 3rd).
  const outOfOrder = u.cached && a.order < u.newestOrder;
  // A notification since the cached content was *asked for* explains a change (two quick notifications, two reads: the
  // second notification announces what the second read returns, even though it arrived before the first answer). Only
  // when none did is the content compared (comparing a document costs as much as reading it).
  // (A change a delivery gap's catch-up read finds is still a missed-update: it proves the doubt, resume-gap, was real.)
  const announced = u.lastNotifySeq > u.writtenReqSeq;
  const mustCompare = u.cached && (outOfOrder || (!announced && !u.staleSince));
  // An older answer is stale if it differs from the newest one (what the cache should end on).
  const changed = mustCompare && contentDiffers(outOfOrder && u.newest ? u.newest : u.content, a.text) === true;
  // A change no missed-update reports (nothing held the URI, or its hold lapsed): a lapse's catch-up found it (gap.ts).
  let unseen: string | undefined;
  if (outOfOrder && changed) {
    core.counters.staleOverwrites++;
    // The newest answer (not the cached one, when an older one was written after it already).
    const newer = u.newest !== undefined ? u.newestSeq : u.writtenSeq;
    // One occurrence, open while the cache holds the older content, logged once it ends (a stale cache before it, on
    // older content still, is one that ended here). It was logged here too, and counted again open: 2× for one answer.
    endStale(core, u, t, seq);
    u.staleSince = {
      t,
      seq,
      evidence: [a.reqSeq, newer, seq],
      spec: {
        id: 'stale-overwrite',
        doc: c.doc, endpoint: c.endpoint,
        uri: u.uri,
        ...sessionOf(u),
        detail: `the read sent at seq ${a.reqSeq} was answered after a newer read (answered at seq ${newer}): the cache ends on the older content`,
      },
    };
  } else if (changed && !outOfOrder && !u.staleSince) {
    // The update was never announced. (After a stale overwrite, a changed read is the repair, not news.)
    // "Subscribed since that read" allows the common read-then-subscribe order: a subscription asked for within the
    // grace after the read counts (its subscribe sent then, however late the answer: a slow server or a busy machine
    // must not turn the client's order into "never subscribed since"). A subscription that lapsed after the read (a
    // dropped stream, a lost session) and was made again does not: the change may have come while nothing held it,
    // and the read is the catch-up.
    if (!announced) {
      const lapsed = u.releasedT !== undefined && u.releasedT >= u.readAt;
      const askedT = u.heldAskedT ?? u.heldSince;
      if (u.held && askedT !== undefined && askedT - u.readAt <= core.grace && !lapsed) {
        const jumps = missedJumps(u);
        u.pendingMissed = { t, seq, evidence: [u.readSeq, a.reqSeq, seq], held: true, until: notificationMayComeUntil(core, u, t), detail: missedDetail(u, a, t, seq, jumps), ...sessionOf(u) };
        core.walk(u, MISSED, t, seq, MISSED_INFERRED, jumps);
      } else if (!u.held || lapsed) {
        unseen = `${contentText(u.contentHash, u.size)} → ${answerText(a)}`;
        core.counters.updatesDroppedInferred++;
        core.walk(u, ['E', 'F', 'H'], t, seq, [true, true, true]);
      }
    }
  }
  if (!(outOfOrder && changed)) endStale(core, u, t, seq);
  settleReread(core, u, a.reqSeq, t, seq);
  settleGap(core, u, a.reqSeq, t, seq, unseen);
  recordCacheAge(core, u, t, seq);
  if (a.order >= u.newestOrder) {
    u.newestOrder = a.order;
    u.newestSeq = seq;
    u.newest = undefined;
  } else if (u.newest === undefined && u.cached) u.newest = { ...u.content };
  // Reads within the grace of the first of their run are one read (a double mount): only a later one starts a period.
  // Measured from the run's first read, not from the read before: a client polling faster than the grace still polls.
  if (!u.cached) {
    u.prevReadAt = undefined;
    u.readRunAt = t;
  } else if (t - u.readRunAt > core.grace) {
    u.prevReadAt = u.readAt;
    u.readRunAt = t;
  }
  u.cached = true;
  u.readAt = t;
  u.readSeq = seq;
  u.readSession = sessionLabelOf(u);
  u.setContent(a.ref);
  // The content's own version, from its answer alone. A list answered before this read was sent says the version
  // the read got at least; one answered after it says the server's (maybe newer) version, not the cache's.
  u.lastModified = a.lastModified;
  u.lastModifiedAtLeast = a.lastModified ?? (u.listedSeq !== 0 && u.listedSeq < a.reqSeq ? u.listedLastModified : undefined);
  u.ttlMs = a.ttlMs;
  u.cacheScope = a.cacheScope;
  u.writtenSeq = seq;
  u.writtenReqSeq = a.reqSeq;
  u.writtenReqId = a.reqId;
  core.step(u, 'J', t, seq);
  core.step(u, 'L', t, seq);
  if (outOfOrder && changed) core.step(u, 'M', t, seq, true);
}

/**
 * The cache no longer holds the older content an out-of-order answer wrote (a newer answer rewrote it, the resource is
 * gone, the page went) at `t`: the stale-overwrite, open until now, is history from the overwrite to `t`.
 */
export function endStale(core: EngineCore, u: UriState, t: number, seq: number): void {
  const s = u.staleSince;
  if (s === undefined) return;
  u.staleSince = undefined;
  core.log.record(s.spec, s.t, t, s.seq === seq ? s.evidence : [...s.evidence, seq]);
}

/** A JSON-RPC id as the findings say it: a string id quoted (`"5"` is not 5). */
function idText(id: RequestId | null | undefined): string {
  return id === undefined ? '?' : typeof id === 'string' ? JSON.stringify(id) : String(id);
}

/** Content as a missed-update names it: the first 8 hex digits of the URI table's content hash, and its size. */
function contentText(hash: string | undefined, bytes: number | undefined): string {
  return `${hash !== undefined ? hash.slice(0, 8) : 'hash ?'}, ${bytes !== undefined ? String(bytes) : '?'} B`;
}

/** A read answer's content as contentText names it. */
function answerText(a: ReadAnswer): string {
  return a.text !== undefined ? contentText(hashText(a.text), utf8Length(a.text)) : contentText(undefined, undefined);
}

/**
 * A missed-update's detail: the two reads whose content differed (the cached one and the answer `a` at `t`), by seq,
 * id and time, with their content (short hash, size), and that nothing announced the change. Built only when a change
 * was found (rare: a comparison already parsed both), never for an ordinary read.
 */
function missedDetail(u: UriState, a: ReadAnswer, t: number, seq: number, jumps: FlowJumps | undefined): string {
  const before = contentText(u.contentHash, u.size);
  const after = answerText(a);
  // Where the notification most likely went: a delivery gap no stream resumed between them (resume-gap), else what
  // the flow chart's I → K says (missedJumps): a stream down (having been up), one open all along (never sent), none ever open.
  const d = u.gapDoubt;
  const where =
    d !== undefined && a.reqSeq >= d.fromSeq
      ? `; a delivery gap of ${d.named} no stream resumed lies between them (seq ${d.fromSeq} to ${d.backSeq}): it was most likely lost there`
      : jumps === MISSED_CHANNEL_OPEN
        ? '; the stream that delivers its notifications stayed open all that time: the server most likely never sent it'
        : jumps === MISSED_NO_CHANNEL
          ? '; no stream that could deliver it was open when it was first due (the read, or the subscribe)'
          : '; a stream that delivers its notifications was down for some or all of that time: it was most likely lost then';
  return (
    `the read sent at seq ${u.writtenReqSeq} (id ${idText(u.writtenReqId)}, answered at seq ${u.readSeq}) and the one sent at seq ${a.reqSeq} ` +
    `(id ${idText(a.reqId)}, answered at seq ${seq}, ${says(t - u.readAt)} later) returned different content (${before} → ${after}); ` +
    `no notifications/resources/updated for it came between them while it was subscribed${where}`
  );
}

/**
 * A resources/read is sent after a notification: the client re-reads. It answers the notification only once it
 * succeeds (settleReread); meanwhile no finding is due.
 */
export function noteReadSent(core: EngineCore, u: UriState, t: number, seq: number): void {
  noteGapReadSent(core, u, t, seq);
  const p = u.pendingReread;
  if (!p) return;
  // Re-reading notified URIs one after another: one reached past the grace in a run that never paused is queued, not late.
  const run = u.client.rereading;
  u.rereadMark = run.stepOnce(t, core.grace, u.rereadMark);
  if (p.reread === undefined) {
    const queued = t - p.t >= core.grace && run.covers(p.t, t, core.grace) ? true : undefined;
    // The record of a re-read that was settled (core.spareSent), refilled: one shape, `queued` always present.
    const s = core.spareSent;
    if (s === undefined) p.reread = { t, seq, queued };
    else {
      core.spareSent = undefined;
      s.t = t;
      s.seq = seq;
      s.queued = queued;
      p.reread = s;
    }
  }
  p.out = (p.out ?? 0) + 1;
  // Its inferred walk is off (the client re-reads): the object is kept for the next notification's (noteNotified).
  const r = u.flowReread;
  if (r !== undefined) {
    core.spareFlow = r;
    u.flowReread = undefined;
  }
}

/** A read sent after the pending notification (`reqSeq` past it) was answered with content: the re-read is done, late if past the grace. */
function settleReread(core: EngineCore, u: UriState, reqSeq: number, t: number, seq: number): void {
  const p = u.pendingReread;
  if (p && reqSeq >= p.seq) answerPending(core, u, p, t, seq);
  else if (p?.carried) {
    // The re-read of notifications before it came: every group it was sent after is answered, this one still waits.
    const left: CarriedGroup[] = [];
    for (const g of p.carried) {
      if (g.from <= reqSeq) core.counters.notificationsReread += g.count;
      else left.push(g);
    }
    p.carried = left.length > 0 ? left : undefined;
  }
}

/** The notification waiting is answered at `t`: counted as re-read, late if its re-read was sent past the grace. */
function answerPending(core: EngineCore, u: UriState, p: Pending, t: number, seq: number): void {
  u.pendingReread = undefined;
  core.counters.notificationsReread += pendingCount(p);
  const sent = p.reread;
  recordLateReread(core, u, p, sent ?? { t, seq });
  // Unreferenced now (the callers are done with it): the next notification's wait refills it (noteNotified), the next
  // re-read's record its re-read (noteReadSent).
  p.reread = undefined;
  if (sent !== undefined) core.spareSent = sent;
  core.spareReread = p;
}

/**
 * The server answered a read "resource not found": the resource is gone. A notification waiting for a re-read got its
 * answer (the client asked, and there is nothing newer to read), and what the client holds is a cache of nothing the
 * server has: no longer a cache entry to keep fresh or subscribed (a deleted resource left notified-not-reread open
 * for ever, "no resources/read", and cached-not-subscribed once the client unsubscribed it: a false-positive audit,
 * 2026-12-05).
 */
export function noteResourceGone(core: EngineCore, u: UriState, reqSeq: number, order: number | undefined, t: number, seq: number): void {
  // An older read answered after a newer one brought content: the content is the newer truth, this one just failed.
  if (order !== undefined && order < u.newestOrder) return noteReadFailed(core, u, reqSeq, t, 'resource not found (an older read)');
  // Any notification waiting is answered, also by a read sent before it (in flight when the server deleted it and
  // notified): there is nothing newer to read.
  const p = u.pendingReread;
  if (p) answerPending(core, u, p, t, seq);
  // Forgotten as a replaced entry is: what it spent past a declared bound stays as history.
  recordCacheAge(core, u, t, seq);
  endStale(core, u, t, seq);
  u.cached = false;
  u.gapDoubt = undefined;
  u.flowReread = undefined;
  core.reevaluate(u, t, seq);
}

/**
 * A read failed (an error answer, an answer the client refuses, no answer at all). When no other read is still out,
 * the re-read did not happen: the notification waits again (the client's cache still holds what it announced stale).
 */
export function noteReadFailed(core: EngineCore, u: UriState, reqSeq: number, t: number, why: string): void {
  noteGapReadFailed(u, reqSeq, why);
  const p = u.pendingReread;
  const k = p?.carried;
  if (p && k && reqSeq < p.seq) {
    // A re-read of notifications before it failed: the group it was sent for (the last one begun at or before it).
    // When none other of that group's reads is out, the group waits with the next one again (with this one, the last).
    let j = -1;
    while (j + 1 < k.length && k[j + 1]!.from <= reqSeq) j++;
    if (j < 0) return;
    const g = k[j]!;
    g.out = Math.max(0, g.out - 1);
    if (g.out > 0) return;
    k.splice(j, 1);
    if (j < k.length) k[j]!.count += g.count;
    else p.count += g.count;
    if (k.length === 0) p.carried = undefined;
    return;
  }
  if (!p?.reread || reqSeq < p.seq) return;
  p.out = Math.max(0, (p.out ?? 1) - 1);
  if (p.out > 0) return;
  p.reread = undefined;
  p.failed = why;
  u.flowReread ??= { deadline: Math.max(t, p.t + core.grace), seq: p.seq };
}

/** A re-read that was sent past the grace: the late finding, as history (its notification may be answered later). */
export function recordLateReread(core: EngineCore, u: UriState, p: Pending, sent: { t: number; seq: number; queued?: boolean }): void {
  if (sent.t - p.t < core.grace || sent.queued) return;
  core.log.record(
    { id: 'notified-not-reread', doc: u.client.doc, endpoint: u.client.endpoint, uri: u.uri, ...sessionOfPending(u, p), detail: `re-read only after ${says(sent.t - p.t)}` },
    p.t,
    sent.t,
    [p.seq, sent.seq],
  );
}

/** The session a pending re-read's finding names: the one its notification came on. */
function sessionOfPending(u: UriState, p: Pending): { session?: string } {
  return p.session !== undefined ? { session: p.session } : sessionOf(u);
}

/** The longest `retry` waited for (a retry of a day would keep any missed update from being said). */
const MAX_RETRY_WAIT_MS = 60_000;

/**
 * Until when a notification explaining a change seen at `t` may still arrive: the grace; or, while every holder of the
 * URI is without its channel and the server said when to come back (`retry`, SEP-1699 polling), until the resumed
 * stream can replay it: the close, plus that wait, plus the grace.
 */
function notificationMayComeUntil(core: EngineCore, u: UriState, t: number): number {
  let until = t + core.grace;
  if (u.holders.some((l) => l.channels > 0)) return until;
  for (const l of u.holders) {
    const close = l.lastChannelClose;
    if (close?.retryMs !== undefined) until = Math.max(until, close.t + Math.min(close.retryMs, MAX_RETRY_WAIT_MS) + core.grace);
  }
  return until;
}

/** An updated notification arrives for a URI (`session`: the label of the session or listen it came on). */
export function noteNotified(core: EngineCore, u: UriState, t: number, seq: number, session?: string): void {
  if (u.pendingMissed && t < u.pendingMissed.until) u.pendingMissed = undefined; // late, but it came
  if (!u.cached || u.client.ended) return;
  // Crossed the client's unsubscribe (sent before the server handled it): the client asked to hear no more of it.
  if (!u.believed && u.unsubscribedT !== undefined && (u.held || t - u.unsubscribedT < core.grace)) return;
  core.counters.notificationsForCached++;
  const p = u.pendingReread;
  if (p && !p.reread) {
    p.count++;
    return;
  }
  // A new wait. If a re-read is in flight it was sent before this notification: only a read sent after it answers it
  // (one sent late for the notifications before stays a late re-read). The notifications before were followed by that
  // read: they are carried, not counted with this one (a real-SDK audit, 2026-12-05: "after 2 notification(s)" when
  // one had been re-read), unless it fails.
  if (p) {
    recordLateReread(core, u, p, p.reread!);
    // The re-read in flight is recorded in what carryOver copies (p.out), not by this object: refilled by the next one.
    core.spareSent = p.reread;
  }
  const named = session ?? p?.session;
  const carried = p ? carryOver(p) : undefined;
  // Every field set, in one order: one shape for every wait (spreading optional fields in made a copy per notification
  // and a shape per combination, then another as `reread` and `out` were added).
  // The wait that ends here (p), or the last one answered (core.spareReread), is refilled: nothing else refers to either
  // (every reader takes u.pendingReread when it runs and keeps nothing; a finding copies what it shows).
  const w = p ?? core.spareReread;
  if (w === undefined) u.pendingReread = { t, seq, count: 1, session: named, reread: undefined, failed: undefined, out: undefined, carried };
  else {
    if (w !== p) core.spareReread = undefined;
    w.t = t;
    w.seq = seq;
    w.count = 1;
    w.session = named;
    w.reread = undefined;
    w.failed = undefined;
    w.out = undefined;
    w.carried = carried;
    u.pendingReread = w;
  }
  if (u.flowReread === undefined) {
    const f = core.spareFlow;
    if (f === undefined) u.flowReread = { deadline: t + core.grace, seq };
    else {
      core.spareFlow = undefined;
      f.deadline = t + core.grace;
      f.seq = seq;
      u.flowReread = f;
    }
  }
}

/**
 * The carried groups of a new wait that begins while `p`'s re-read is in flight: `p`'s own, then `p` itself (its reads
 * since its seq). Past MAX_CARRIED the two oldest merge from the older's seq (a read for either answers both).
 */
function carryOver(p: Pending): CarriedGroup[] {
  const groups = [...(p.carried ?? []), { count: p.count, from: p.seq, out: p.out ?? 1 }];
  while (groups.length > MAX_CARRIED) {
    const [a, b] = groups.splice(0, 2) as [CarriedGroup, CarriedGroup];
    groups.unshift({ count: a.count + b.count, from: a.from, out: a.out + b.out });
  }
  return groups;
}

/**
 * A duration as the findings say it: as the panel does (formatDuration: 400 ms, 3.0 s, 40 s, 2 min 05 s), so a rule's
 * bound reads the same in a URI row's tooltip and the finding's detail (it said 3000 ms in one and 3.0 s in the other).
 */
export function says(ms: number): string {
  return formatDuration(ms);
}

/**
 * Two durations compared in one detail: as says() does, but both in whole ms when they would read the same (an age of
 * 3040 ms past a 3000 ms bound read "cached 3.0 s ago; expected at most 3.0 s").
 */
export function saysPair(a: number, b: number): [string, string] {
  const [x, y] = [says(a), says(b)];
  return x === y ? [`${Math.round(a)} ms`, `${Math.round(b)} ms`] : [x, y];
}

/**
 * The bound a cache entry's age is judged by: its expected freshness, but a learned cadence only while no notification
 * can come. The cadence is learned from this URI's notifications, so while it is held with a delivery channel open the
 * next change would be notified like those were: a quiet spell longer than the cadence says the server went quiet, not
 * that the client's cache is stale (a real-SDK audit, 2026-12-05: five edits 700 ms apart taught "at most 2102 ms", and
 * a healthy subscribed client was flagged 3 s after the burst). There it is judged by the default, as a URI with no
 * cadence is (the seed's slow fallback check), unless the cadence is the longer. Its row still says the cadence
 * (expectedMaxAgeMs) and carries this bound beside it (ageLimitMs), which the panel compares the age against.
 */
export function ageBound(core: EngineCore, u: UriState): Freshness {
  const f = u.freshness(core.rules, core.defaultMaxAgeMs);
  if (f.source === 'learned' && f.maxAgeMs < core.defaultMaxAgeMs && u.held && u.channelOpen) return { maxAgeMs: core.defaultMaxAgeMs, source: 'default' };
  return f;
}

/**
 * The URI's cache at `t` is older than expected: the finding and since when. A guessed bound (learned cadence, global
 * default) only suggests a look; a declared one is a warning — but the server's ttlMs on a URI it holds with a channel
 * open is a hint the subscription supersedes (the notification invalidates the entry; an idle, subscribed client is
 * not serving stale content), so info there.
 */
function overAge(core: EngineCore, u: UriState, t: number): { spec: FindingSpec; since: number } | undefined {
  const f = ageBound(core, u);
  const age = t - u.readAt;
  // Past the bound for the grace, as a condition settles: a client polling at its rule's period is not over age for
  // the few ms its read takes each time.
  if (!(age > f.maxAgeMs + core.grace)) return undefined;
  const subscribed = f.source === 'ttl' && u.held && u.channelOpen;
  const [ageText, boundText] = saysPair(age, f.maxAgeMs);
  const c = u.client;
  return {
    spec: {
      id: 'cache-age-exceeded',
      doc: c.doc, endpoint: c.endpoint,
      uri: u.uri,
      // The session whose read wrote the entry, not the one current now: the age is the entry's, from that read, so
      // the finding never begins before the session it names (one named the session that replaced it, from before
      // it began: a demo audit, 2026-12-05), and one entry is one finding across a reconnect.
      ...(u.readSession !== undefined ? { session: u.readSession } : {}),
      reason: f.source,
      detail: `cached ${ageText} ago; expected at most ${boundText} (${f.source})${subscribed ? '; subscribed with a channel open, so a change would have been notified' : ''}`,
      severity: (f.source === 'rule' || f.source === 'ttl') && !subscribed ? 'warning' : 'info',
    },
    since: ageSince(core, u, f),
  };
}

/**
 * When the cache went over `f`: the read plus the bound — but a learned cadence set aside while a notification could
 * come (ageBound) is the bound again only since that stopped (the channel closed, the subscription went): the engine
 * had ruled the span before not stale (a review, 2026-12-05: a finding after a close began ~58 s before it).
 */
function ageSince(core: EngineCore, u: UriState, f: Freshness): number {
  const since = u.readAt + f.maxAgeMs;
  if (f.source !== 'learned' || f.maxAgeMs >= core.defaultMaxAgeMs) return since;
  const ended = u.deliveryEndedT();
  return ended !== undefined && ended > since ? ended : since;
}

/**
 * The cache entry is about to be replaced (a new answer) or forgotten (its page unloads) at `t`: a time it spent older
 * than a declared bound (a warning while it lasted) stays as history, once it lasted the grace, as a condition does.
 * Guessed bounds (info) leave none: once the client read again, the suggestion to look is moot.
 */
export function recordCacheAge(core: EngineCore, u: UriState, t: number, seq: number): void {
  // Cheap ways out first, as this runs for every read answer: a bound declared (a rule, a ttlMs) and past the grace.
  if (!u.cached || t - u.readAt <= core.grace || (core.rules.length === 0 && !((u.ttlMs ?? 0) > 0))) return;
  const over = overAge(core, u, t);
  if (!over || over.spec.severity !== 'warning') return;
  let since = over.since;
  if (over.spec.reason === 'ttl') {
    // A ttlMs is a warning only while nothing would notify a change: the span since the URI stopped being held (one
    // held all along, with its channel down, is left alone — when the channel went is not kept per URI).
    if (u.held) return;
    if (u.releasedT !== undefined && u.releasedT > since) since = u.releasedT;
    if (t - since < core.grace) return;
  }
  core.log.record(over.spec, since, t, [u.readSeq, seq]);
}

/** Findings that exist because of what time it is: notified-not-reread, cache-age-exceeded, a due missed-update. */
export function timedRefreshFindings(core: EngineCore, now: number, out: TimedFinding[]): void {
  for (const c of core.clients.values()) {
    if (c.ended) continue;
    for (const u of c.uris.values()) {
      const p = u.pendingReread;
      // A re-read still in flight is the client doing its part; so is a run of re-reads that has not reached it yet.
      if (p && !p.reread && now - p.t >= core.grace && !c.rereading.covers(p.t, now, core.grace)) {
        out.push({
          spec: {
            id: 'notified-not-reread',
            doc: c.doc,
            endpoint: c.endpoint,
            uri: u.uri,
            ...sessionOfPending(u, p),
            detail:
              p.failed !== undefined
                ? `the re-read failed (${p.failed}); no successful resources/read in ${says(now - p.t)} after ${p.count} notification(s)`
                : `no resources/read in ${says(now - p.t)} after ${p.count} notification(s)`,
          },
          firstT: p.t,
          evidence: [p.seq],
          open: true,
        });
      }
      const m = u.pendingMissed;
      if (m && now >= m.until) {
        const spec = { id: 'missed-update' as const, doc: c.doc, endpoint: c.endpoint, uri: u.uri, ...(m.session !== undefined ? { session: m.session } : {}), detail: m.detail };
        out.push({ spec, firstT: m.t, evidence: m.evidence, open: false });
      }
      if (u.staleSince && u.cached) {
        out.push({ spec: u.staleSince.spec, firstT: u.staleSince.t, evidence: u.staleSince.evidence, open: true });
      }
      timedGapFinding(core, c, u, now, out);
      if (u.cached) {
        const over = overAge(core, u, now);
        if (over) out.push({ spec: over.spec, firstT: over.since, evidence: [u.readSeq], open: true });
      }
    }
  }
}
