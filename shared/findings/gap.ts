// resume-gap, per URI: a delivery stream of a session that held the URI came back without resuming (no Last-Event-ID,
// a wrong one, or a stream with no event ids that nothing can resume), so an update sent in the gap is lost — and the
// URI's cache, read before the gap, may be stale until the client reads it again. The session-level resume-gap says
// what happened to the stream (lifecycle.ts); this one marks each URI it leaves in doubt, open until a read sent after
// the gap began answers it. Nothing else on the URI shows the doubt: its subscription never lapsed. The same doubt,
// as a note, follows a subscription the server lost (its session ended, its listen dropped) and the client made again
// without reading the URI since: what changed in between was announced to nobody.
import type { EngineCore } from '../engine/core.ts';
import type { SubscriptionLedger } from '../engine/ledger.ts';
import type { UriState } from '../engine/uri-state.ts';
import type { FindingSpec, TimedFinding } from './finding-log.ts';
import type { Severity } from './types.ts';

/** A URI's cache left in doubt by a delivery gap. */
export interface GapDoubt {
  /** When and where the gap began (the stream's end). */
  t: number;
  seq: number;
  /** When and where the stream came back (the GET). */
  backT: number;
  backSeq: number;
  /** The session-level finding's reason (no-last-event-id, unknown-last-event-id, no-event-ids), or subscription-lapsed. */
  reason: string;
  severity: Severity;
  session: string;
  /** Gaps since the URI was last read (a stream that keeps dropping). */
  gaps: number;
}

/**
 * A stream of session `l` came back at `back` after a gap that began at `from`, without resuming: every URI `l` holds
 * whose cached content was asked for before the gap began is in doubt. (A read sent during the gap is taken as the
 * client's catch-up.) A doubt already open keeps its start; a warning outranks a note.
 */
export function markGap(
  l: SubscriptionLedger,
  from: { t: number; seq: number },
  back: { t: number; seq: number },
  reason: string,
  severity: Severity,
): void {
  for (const uri of l.uris) {
    const u = l.client.uris.get(uri);
    if (!u || !u.cached || u.writtenReqSeq > from.seq || !u.holders.includes(l)) continue;
    const d = u.gapDoubt;
    if (d) {
      d.gaps++;
      d.backT = back.t;
      d.backSeq = back.seq;
      if (severity === 'warning' && d.severity !== 'warning') {
        d.severity = severity;
        d.reason = reason;
      }
      continue;
    }
    u.gapDoubt = { t: from.t, seq: from.seq, backT: back.t, backSeq: back.seq, reason, severity, session: l.label, gaps: 1 };
  }
}

/**
 * `u` is about to be held by `l` again, after the server lost its subscription (lost with a session or a listen): if its
 * cache was asked for before that, an update in between was announced to nobody — a note until it is read again.
 */
export function markLapse(u: UriState, l: SubscriptionLedger, t: number, seq: number): void {
  const loss = u.loss;
  if (!u.cached || u.held || !loss || (loss.reason !== 'lost-on-reinit' && loss.reason !== 'lost-with-stream') || u.writtenReqSeq > loss.seq) return;
  const d = u.gapDoubt;
  if (d) {
    d.gaps++;
    d.backT = t;
    d.backSeq = seq;
    return;
  }
  u.gapDoubt = { t: loss.t, seq: loss.seq, backT: t, backSeq: seq, reason: 'subscription-lapsed', severity: 'info', session: l.label, gaps: 1 };
}

function doubtSpec(u: UriState, d: GapDoubt, detail: string): FindingSpec {
  const c = u.client;
  return { id: 'resume-gap', doc: c.doc, endpoint: c.endpoint, uri: u.uri, session: d.session, reason: d.reason, severity: d.severity, detail };
}

function gapText(d: GapDoubt): string {
  if (d.reason === 'subscription-lapsed') {
    return `cached before its subscription was lost at seq ${d.seq}; subscribed again at seq ${d.backSeq} (${d.session})${d.gaps > 1 ? `, ${d.gaps} times` : ''}, so an update in between was announced to nobody`;
  }
  const how =
    d.reason === 'no-event-ids'
      ? 'its stream carried no event ids, so nothing could resume it'
      : d.reason === 'unknown-last-event-id'
        ? 'it came back with a Last-Event-ID it never received'
        : 'it came back without Last-Event-ID';
  return `cached before session ${d.session}'s delivery stream dropped at seq ${d.seq}; ${how} (seq ${d.backSeq})${d.gaps > 1 ? `, ${d.gaps} times` : ''}, so an update sent in the gap is lost`;
}

/**
 * A read sent after the gap began (`reqSeq`) was answered at `t`: the doubt is cleared, and one that lasted past the
 * grace after the stream came back stays as history.
 */
export function settleGap(core: EngineCore, u: UriState, reqSeq: number, t: number, seq: number): void {
  const d = u.gapDoubt;
  if (!d || reqSeq < d.seq) return;
  u.gapDoubt = undefined;
  if (t - d.backT < core.grace) return;
  core.log.record(doubtSpec(u, d, `${gapText(d)}; re-read only ${Math.round(t - d.backT)} ms after it came back`), d.t, t, [d.seq, d.backSeq, seq]);
}

/** The page went with the doubt still open past the grace: history. */
export function closeGapAtUnload(core: EngineCore, u: UriState, t: number, seq: number): void {
  const d = u.gapDoubt;
  if (!d) return;
  u.gapDoubt = undefined;
  if (u.cached && t - d.backT >= core.grace) core.log.record(doubtSpec(u, d, `${gapText(d)}; never re-read before the page unloaded`), d.t, t, [d.seq, d.backSeq, seq]);
}

/** The open doubt of `u` at `now`, once the client had the grace to re-read after the stream came back. */
export function timedGapFinding(core: EngineCore, u: UriState, now: number, out: TimedFinding[]): void {
  const d = u.gapDoubt;
  if (!d || !u.cached || now - d.backT < core.grace) return;
  out.push({ spec: doubtSpec(u, d, `${gapText(d)}; not re-read in the ${Math.round(now - d.backT)} ms since it came back`), firstT: d.t, evidence: [d.seq, d.backSeq], open: true });
}
