// resume-gap, per URI: a delivery stream of a session that held the URI came back without resuming (no Last-Event-ID,
// a wrong one, or a stream with no event ids that nothing can resume), so an update sent in the gap is lost — and the
// URI's cache, read before the gap, may be stale until the client reads it again. The session-level resume-gap says
// what happened to the stream (lifecycle.ts); this one marks each URI it leaves in doubt, open until a read sent after
// the gap began answers it. Nothing else on the URI shows the doubt: its subscription never lapsed. The same doubt,
// as a note, follows any break in holding a cached URI — a subscription the server lost (its session ended, its listen
// dropped) or the client let go (unsubscribed, closed its listen, left it out of a new listen, a subscribe that failed
// before one that worked) — made good again without reading the URI since: what changed in between was announced to
// nobody. (cached-not-subscribed says the break only while it lasts.) A catch-up read that finds the content changed
// proves it: the lapse's history says so (no missed-update: nothing was subscribed to announce it).
//
// As for a notification (refresh.ts), a re-read in flight holds the doubt off, and one the client sends past the grace
// while working through its URIs (re-reading them one after another, after resubscribing them) is not late: the
// client's catch-up run (ClientModel.catchingUp) excuses it. A false-positive audit on real SDK traffic (2026-12-05)
// found 9 of 40 URIs re-read in series after a resubscribe, and a slow answer, reported late.
import { formatDuration } from '../duration.ts';
import type { ClientModel } from '../engine/client-model.ts';
import type { EngineCore } from '../engine/core.ts';
import type { SubscriptionLedger } from '../engine/ledger.ts';
import type { UriState } from '../engine/uri-state.ts';
import type { FindingSpec, TimedFinding } from './finding-log.ts';
import { COVERAGE_REASONS } from './catalogue.ts';
import type { CoverageReason, ResumeReason, Severity } from './types.ts';

/** A URI's cache left in doubt by delivery gaps (one or more since it was last read). */
export interface GapDoubt {
  /** When and where the first gap began (the finding's start). */
  t: number;
  seq: number;
  /** Where the latest gap began: only a read sent after it answers the doubt. */
  fromSeq: number;
  /** When and where delivery came back the latest time (the stream reopened; the subscribe answered). */
  backT: number;
  backSeq: number;
  /** The latest gap's reason: no-last-event-id, unknown-last-event-id, no-event-ids, or subscription-lapsed. */
  reason: string;
  /** The worst of the gaps' severities. */
  severity: Severity;
  /** The session (or listen) the latest gap was about: its label (the finding's session). */
  session: string;
  /** How the detail names it (SubscriptionLedger.named: a listen's `listen 3`). */
  named: string;
  /** Gaps since the URI was last read. */
  gaps: number;
  /** The first read sent since the latest gap began, while one is in flight; `queued`: sent past the grace in a catch-up run. */
  reread: { t: number; seq: number; queued: boolean } | undefined;
  /** Reads sent since the latest gap began and not answered yet. */
  out: number;
  /** Why the last re-read failed, while the doubt waits again. */
  failed: string | undefined;
  /** A lapse: how its subscription ended, in words (`its subscription was lost at seq 7`). */
  lapse?: string;
}

function mark(u: UriState, from: { t: number; seq: number }, back: { t: number; seq: number }, reason: string, severity: Severity, l: SubscriptionLedger, lapse?: string): void {
  // A read sent since the gap began and still on its way answers it when it comes (sent before the return: not late).
  const inFlight = u.readsInFlight > 0 && u.lastReadReqSeq > from.seq ? { t: Number.isNaN(u.lastReadReqT) ? back.t : u.lastReadReqT, seq: u.lastReadReqSeq, queued: false } : undefined;
  // A lapse is in doubt from when it was subscribed again (the loss itself is cached-not-subscribed's, while it lasted).
  const startT = reason === 'subscription-lapsed' ? back.t : from.t;
  const d = u.gapDoubt;
  if (!d) {
    u.gapDoubt = { t: startT, seq: from.seq, fromSeq: from.seq, backT: back.t, backSeq: back.seq, reason, severity, session: l.label, named: l.named, gaps: 1, reread: inFlight, out: inFlight ? 1 : 0, failed: undefined, ...(lapse !== undefined ? { lapse } : {}) };
    return;
  }
  // Another gap before any re-read: the latest one is what a re-read must follow; the worst severity stays.
  d.gaps++;
  d.fromSeq = Math.max(d.fromSeq, from.seq);
  d.backT = back.t;
  d.backSeq = back.seq;
  d.reason = severity === 'warning' || d.severity !== 'warning' ? reason : d.reason;
  if (d.reason === reason) d.lapse = lapse;
  if (severity === 'warning') d.severity = 'warning';
  d.session = l.label;
  d.named = l.named;
  // A re-read sent before this gap began cannot answer it; one sent since still can.
  if (d.reread && d.reread.seq < d.fromSeq) {
    d.reread = undefined;
    d.out = 0;
  }
  if (!d.reread && inFlight) {
    d.reread = inFlight;
    d.out = 1;
  }
}

/**
 * A delivery stream of session `l` came back at `back` after a gap that began at `from`, without resuming: every URI
 * `l` holds whose content was asked for before the gap began is in doubt — cached, or a first read still on its way.
 * (A read sent during the gap is taken as the client's catch-up.)
 */
export function markGap(l: SubscriptionLedger, from: { t: number; seq: number }, back: { t: number; seq: number }, reason: string, severity: Severity): void {
  let any = false;
  for (const uri of l.uris) {
    const u = l.client.uris.get(uri);
    // Cached, or a first read on its way that was asked for before the gap (one asked for during it is the catch-up).
    if (!u || u.writtenReqSeq > from.seq || !u.holders.includes(l)) continue;
    if (!u.cached && !(u.readsInFlight > 0 && u.lastReadReqSeq < from.seq)) continue;
    mark(u, from, back, reason, severity, l);
    any = true;
  }
  // The client's catch-up, if it does one, starts now (its reads are its steps).
  if (any) l.client.catchingUp.begin(back.t);
}

/**
 * `u` is about to be held by `l` again, after it stopped being held (the server lost its subscription with a session or
 * a listen; the client unsubscribed, closed its listen, left it out of a new one; any later failed subscribe): if its
 * cache was asked for before that, any update in between was announced to nobody — a note until it is read again. A URI
 * held before only through a parent's updates was never subscribed itself: no lapse.
 */
export function markLapse(core: EngineCore, u: UriState, l: SubscriptionLedger, t: number, seq: number): void {
  const r = u.released;
  if (!u.cached || u.held || !r || u.releasedT === undefined || r.reason === 'never-subscribed' || u.writtenReqSeq > r.seq) return;
  mark(u, { t: u.releasedT, seq: r.seq }, { t, seq }, 'subscription-lapsed', 'info', l, lapseText(u, r));
  // Resubscribing URI after URI, then reading them again, is one catch-up.
  u.client.catchingUp.step(t, core.grace);
}

/** How a lapse's subscription ended, in words: by the release, then the last loss if a later one (a failed subscribe). */
function lapseText(u: UriState, r: { seq: number; reason: CoverageReason }): string {
  const loss = u.loss;
  // Closing a listen releases its URIs as lost with it; the client's close then says unsubscribed, at the same seq.
  const why = loss && loss.seq === r.seq ? loss.reason : r.reason;
  const how =
    why === 'unsubscribed'
      ? r.reason === 'lost-with-stream'
        ? `its listen was closed at seq ${r.seq}`
        : `it was unsubscribed at seq ${r.seq}`
      : why === 'lost-on-reinit' || why === 'lost-with-stream'
        ? `its subscription was lost at seq ${r.seq}`
        : `its subscription ended at seq ${r.seq} (${COVERAGE_REASONS[why].label})`;
  return loss && loss.seq > r.seq && loss.reason !== why ? `${how}, then ${COVERAGE_REASONS[loss.reason].label} at seq ${loss.seq}` : how;
}

/** A read of `u` is sent: it may answer the doubt (if it follows the latest gap), and it is a step of the catch-up. */
export function noteGapReadSent(core: EngineCore, u: UriState, t: number, seq: number): void {
  const d = u.gapDoubt;
  if (!d || seq < d.fromSeq) return;
  u.catchUpMark = u.client.catchingUp.stepOnce(t, core.grace, u.catchUpMark);
  d.reread ??= { t, seq, queued: t - d.backT >= core.grace && u.client.catchUpExcuse.covers(d.backT, t, core.grace) };
  d.out++;
}

/** A read of `u` sent at `reqSeq` failed: when no other is still out, the doubt waits again. */
export function noteGapReadFailed(u: UriState, reqSeq: number, why: string): void {
  const d = u.gapDoubt;
  if (!d?.reread || reqSeq < d.fromSeq) return;
  d.out = Math.max(0, d.out - 1);
  if (d.out > 0) return;
  d.reread = undefined;
  d.failed = why;
}

function doubtSpec(u: UriState, d: GapDoubt, detail: string): FindingSpec {
  const c = u.client;
  return { id: 'resume-gap', doc: c.doc, endpoint: c.endpoint, uri: u.uri, session: d.session, reason: d.reason, severity: d.severity, detail };
}

/** How the latest gap went, first (a list cuts the detail: each reason starts differently), then what was lost. */
function gapText(d: GapDoubt): string {
  const more = d.gaps > 1 ? ` (${d.gaps} gaps since it was last read, the first at seq ${d.seq})` : '';
  if (d.reason === 'subscription-lapsed') {
    return `subscribed again in ${d.named} (seq ${d.backSeq}) after ${d.lapse ?? `its subscription was lost at seq ${d.fromSeq}`}${more}: any update in between was announced to nobody`;
  }
  const how =
    d.reason === 'no-event-ids'
      ? 'came back with nothing to resume (it carried no event ids)'
      : d.reason === 'unknown-last-event-id'
        ? 'came back with a Last-Event-ID it never received'
        : 'came back without Last-Event-ID';
  return `${d.named}'s delivery stream ${how} (dropped at seq ${d.fromSeq}, back at seq ${d.backSeq})${more}; cached before the gap: an update sent in it is lost`;
}

/** Since when, in words: the stream came back, or the URI was subscribed again. */
function sinceBack(d: GapDoubt): string {
  return d.reason === 'subscription-lapsed' ? 'it was subscribed again' : 'the stream came back';
}

/** A re-read sent at `sent` was late: past the grace after delivery came back, and not in a catch-up run. */
function late(core: EngineCore, d: GapDoubt, sent: { t: number; queued?: boolean }): boolean {
  return sent.t - d.backT >= core.grace && !sent.queued;
}

/**
 * Settles the doubt (a read, or a list with the cached lastModified, answered the latest gap at `t`); late is history,
 * and so is a lapse whose catch-up read (sent at `found.reqSeq`) found the content changed (`found.change`: before → after).
 */
function settle(core: EngineCore, u: UriState, d: GapDoubt, sent: { t: number; queued?: boolean }, t: number, seq: number, found?: { reqSeq: number; change: string }): void {
  u.gapDoubt = undefined;
  const ends: string[] = [];
  const wasLate = late(core, d, sent);
  if (wasLate) ends.push(`read again only ${formatDuration(sent.t - d.backT)} after ${sinceBack(d)}`);
  const caughtUp = found !== undefined && d.reason === 'subscription-lapsed';
  if (caughtUp) ends.push(`the read sent at seq ${found.reqSeq} found it changed (${found.change}): an update made while it was not subscribed was missed${wasLate ? '' : ', and this read caught it up'}`);
  // Read again in time, and that read found the change: the catch-up worked (lapse-caught-up, not "not read again"); a
  // lapse read again late was read again, late (lapse-reread-late, not "not read again" either).
  if (ends.length > 0) recordGap(core, u, d, ends.join('; '), t, seq, caughtUp && !wasLate ? 'lapse-caught-up' : lateLapse(d, wasLate));
}

/** A lapse whose re-read came past the grace: its own reason (a late re-read is no "not read again"). */
function lateLapse(d: GapDoubt, wasLate: boolean): ResumeReason | undefined {
  return wasLate && d.reason === 'subscription-lapsed' ? 'lapse-reread-late' : undefined;
}

/** The doubt as history, ended at `t` (seq `seq`), with how it ended (`end`) after what the gap was; `reason` overrides the gap's. */
function recordGap(core: EngineCore, u: UriState, d: GapDoubt, end: string, t: number, seq: number, reason?: ResumeReason): void {
  const spec = doubtSpec(u, d, `${gapText(d)}; ${end}`);
  if (reason !== undefined) spec.reason = reason;
  core.log.record(spec, d.t, t, [d.seq, d.backSeq, seq]);
}

/**
 * A read of `u` sent at `reqSeq` was answered with content at `t`: one sent after the latest gap began answers the doubt.
 * `change`: the content it found differs from the cached one, unannounced and no missed-update (refresh.ts), as `a → b`.
 */
export function settleGap(core: EngineCore, u: UriState, reqSeq: number, t: number, seq: number, change?: string): void {
  const d = u.gapDoubt;
  if (!d || reqSeq < d.fromSeq) return;
  settle(core, u, d, d.reread ?? { t }, t, seq, change !== undefined ? { reqSeq, change } : undefined);
}

/**
 * resources/list (sent at `reqSeq`, answered at `t`) gives `u` the lastModified its cached content has: unchanged, the
 * version check the catalogue's fix suggests — as good as a read. The content's own lastModified (its read's answer);
 * without one, the version a list answered before the read was sent gave, which the content is at least: the same
 * value again, from a list sent after the read was answered, means nothing changed in between.
 */
export function settleGapByList(core: EngineCore, u: UriState, lastModified: string, reqSeq: number, reqT: number, t: number, seq: number): void {
  const d = u.gapDoubt;
  if (!d || reqSeq < d.fromSeq || !u.cached) return;
  if (u.lastModified !== undefined ? u.lastModified !== lastModified : u.lastModifiedAtLeast !== lastModified || reqSeq <= u.readSeq) return;
  settle(core, u, d, d.reread ?? { t: reqT }, t, seq);
}

/**
 * The page went (`how`: "before the page unloaded"), or the session whose stream it was ended (a lapse is a doubt of
 * its own then): a doubt that held past the grace is history — with its late re-read, if one was on its way.
 */
export function closeGap(core: EngineCore, u: UriState, how: string, t: number, seq: number): void {
  const d = u.gapDoubt;
  if (!d) return;
  u.gapDoubt = undefined;
  if (!u.cached) return;
  if (d.reread) {
    if (late(core, d, d.reread)) recordGap(core, u, d, `read again only ${formatDuration(d.reread.t - d.backT)} after ${sinceBack(d)}, not answered ${how}`, t, seq, lateLapse(d, true));
    return;
  }
  if (t - d.backT < core.grace || u.client.catchUpExcuse.covers(d.backT, t, core.grace)) return;
  recordGap(core, u, d, `never read again ${how}`, t, seq);
}

/** The stream doubts of the URIs session `l` held, as it ends (its URIs' loss takes over; a lapse may follow). */
export function closeGapsOfLedger(core: EngineCore, l: SubscriptionLedger, how: string, t: number, seq: number): void {
  for (const uri of l.uris) {
    const u = l.client.uris.get(uri);
    const d = u?.gapDoubt;
    if (u && d && d.session === l.label && d.reason !== 'subscription-lapsed') closeGap(core, u, how, t, seq);
  }
}

/**
 * The open doubt of `u` at `now`: once the grace after delivery came back has passed, with no re-read on its way and no
 * catch-up run of the client's still going.
 */
export function timedGapFinding(core: EngineCore, c: ClientModel, u: UriState, now: number, out: TimedFinding[]): void {
  const d = u.gapDoubt;
  if (!d || !u.cached || d.reread || now - d.backT < core.grace || c.catchUpExcuse.covers(d.backT, now, core.grace)) return;
  const failed = d.failed !== undefined ? `; the re-read failed (${d.failed})` : '';
  out.push({ spec: doubtSpec(u, d, `${gapText(d)}${failed}; not read successfully in the ${formatDuration(now - d.backT)} since ${sinceBack(d)}`), firstT: d.t, evidence: [d.seq, d.backSeq], open: true });
}
