// Finding family "lifecycle": sessions and streams that end and are not properly re-established —
// resume-gap (a stream reopened without Last-Event-ID) and session-expired-not-reinitialized (404/400, or a legacy
// stream that reconnected to a new session by itself; no initialize).
import { formatDuration } from '../duration.ts';
import type { EndedStream } from '../decode/conn-state.ts';
import type { WireEvent } from '../decode/types.ts';
import type { ClientModel, ExpiredSession } from '../engine/client-model.ts';
import type { EngineCore } from '../engine/core.ts';
import type { SubscriptionLedger } from '../engine/ledger.ts';
import type { FindingSpec, TimedFinding } from './finding-log.ts';
import { markGap } from './gap.ts';

type GetRequest = Extract<WireEvent, { type: 'get-request' }>;

/**
 * What the stream that ended had delivered: a stream that resumed and ended before an event of its own delivered
 * nothing, its id is the earlier stream's (a real-SDK audit, 2026-12-05: the id was credited to the later stream).
 */
function deliveredUpTo(prev: EndedStream): string {
  return prev.idFromSeq !== undefined
    ? `the stream that ended at seq ${prev.endedSeq} resumed from event id ${prev.lastId} (delivered by the stream that ended at seq ${prev.idFromSeq}) and delivered no event of its own`
    : `the stream that ended at seq ${prev.endedSeq} had delivered up to event id ${prev.lastId}`;
}

/** A GET stream is (re)opened for a session whose earlier stream carried event ids. */
export function checkResume(core: EngineCore, c: ClientModel, e: GetRequest, t: number, seq: number): void {
  const prev = e.previous;
  if (!prev) return;
  const session = e.info.session;
  const base = { id: 'resume-gap' as const, doc: c.doc, endpoint: c.endpoint, ...(session !== undefined ? { session } : {}) };
  // The URIs of the session are put in doubt when its stream opens again (on-wire.ts), if it was the session's GET
  // stream that ended: a per-request stream's lost events are its own request's (a resumption audit, 2026-12-05).
  const l = session !== undefined ? core.sessionAt(e.info.endpoint, session) : undefined;
  if (l) l.pendingGap = undefined;
  const from = { t: prev.endedT, seq: prev.endedSeq };
  const doubt = l !== undefined && prev.kind === 'get';
  if (e.lastEventId === undefined) {
    if (doubt && l) l.pendingGap = { from, reason: 'no-last-event-id' };
    if (l) l.resumeWarnSeq = seq;
    core.log.record(
      { ...base, reason: 'no-last-event-id', detail: `${deliveredUpTo(prev)}; the new GET sent no Last-Event-ID` },
      t,
      t,
      [prev.endedSeq, seq],
    );
  } else if (!e.matchesKnownId) {
    if (doubt && l) l.pendingGap = { from, reason: 'unknown-last-event-id' };
    if (l) l.resumeWarnSeq = seq;
    core.log.record(
      { ...base, reason: 'unknown-last-event-id', detail: `Last-Event-ID ${e.lastEventId} is not the last event id received (${prev.lastId})` },
      t,
      t,
      [prev.endedSeq, seq],
    );
  }
}

/**
 * The GET stream came back after a gap the server cannot replay (its stream carried no event ids) while the session held
 * subscriptions: a notification sent in the gap is gone, unnoticed. Nothing the client did wrong by the protocol: a
 * note (info). (A later resume-gap warning about the session replaces it: the latest occurrence names a finding.)
 */
export function noteUnresumable(core: EngineCore, c: ClientModel, l: SubscriptionLedger, gap: { seq: number; t: number }, t: number, seq: number): void {
  // What the session subscribed in its own right (its sub-resources covered via a parent go with the parent).
  const held = l.uris.size - (l.viaParent?.size ?? 0);
  const base = { id: 'resume-gap' as const, doc: c.doc, endpoint: c.endpoint, session: l.label };
  if (held === 0) return;
  markGap(l, gap, { t, seq }, 'no-event-ids', 'info');
  // A GET since the gap began already got a warning about the session (a per-request stream it did not resume): the
  // latest record names the finding, and a note must not hide that warning (a review, 2026-12-05).
  if (l.resumeWarnSeq !== undefined && l.resumeWarnSeq > gap.seq) return;
  const ms = Math.max(0, Math.round(t - gap.t));
  core.log.record(
    {
      ...base,
      reason: 'no-event-ids',
      severity: 'info',
      detail: `the GET stream that ended at seq ${gap.seq} carried no event id (the server keeps no event store, or sent nothing on it yet), so nothing could resume it: for ${formatDuration(ms)}, ${held} subscribed URI(s) had no delivery, and an update sent then is lost unless the client re-reads`,
    },
    gap.t,
    t,
    [gap.seq, seq],
  );
}

/**
 * A request was sent with the id of a session the server already ended, or (legacy HTTP+SSE) on the session the stream
 * reconnected to before any initialize: more evidence the client is stuck. (By the id on the wire, the ledger's label:
 * its key may be `<id> #2`.)
 */
export function noteDeadSessionUse(c: ClientModel, session: string | undefined, seq: number): void {
  const x = c.expired;
  if (!x || session === undefined || (session !== x.ledger.label && session !== x.next?.label) || x.evidence.includes(seq)) return;
  x.uses++;
  x.evidence.push(seq);
  if (x.evidence.length > 24) x.evidence.splice(12, 1);
}

/** The finding about an expired session `x` of `c`, with its reason and `detail`. */
function expiredSpec(c: ClientModel, x: ExpiredSession, detail: string): FindingSpec {
  return {
    id: 'session-expired-not-reinitialized',
    doc: c.doc,
    endpoint: c.endpoint,
    session: x.ledger.label,
    reason: x.next ? 'stream-reconnected' : (x.ledger.endCause ?? 'http-404'),
    detail,
  };
}

/** How the session ended and what the client did with it since (`then`: what happened last). */
function expiredHow(x: ExpiredSession, then: string): string {
  return x.next
    ? `session ${x.ledger.label} ended (${x.ledger.endCause}) and its stream reconnected to the new session ${x.next.label}; ${x.uses} request(s) used that session, ${then}`
    : `the server ended session ${x.ledger.label} (${x.ledger.endCause}); ${x.uses} request(s) still used it, ${then}`;
}

/**
 * The legacy session a stream reconnected to, never initialized, closed: the client let it go. Said as history when it
 * stayed open past the grace or was used; forgotten when the client closed it at once, unused.
 */
export function letGoUninitialized(core: EngineCore, c: ClientModel, l: SubscriptionLedger, t: number, seq: number): void {
  const x = c.expired;
  if (!x || x.next !== l) return;
  c.expired = undefined;
  if (x.uses === 0 && t - x.t < core.grace) return;
  core.log.record(expiredSpec(c, x, expiredHow(x, `and it closed ${formatDuration(t - x.t)} later, never initialized`)), x.t, t, [...x.evidence, seq]);
}

/** initialize sent: an expired session is being replaced (late if past the grace). */
export function noteInitializeSent(core: EngineCore, c: ClientModel, t: number, seq: number): void {
  const x = c.expired;
  if (!x) return;
  c.expired = undefined;
  if (t - x.t >= core.grace) core.log.record(expiredSpec(c, x, `re-initialized only after ${formatDuration(t - x.t)}`), x.t, t, [...x.evidence, seq]);
}

export function timedLifecycleFindings(core: EngineCore, now: number, out: TimedFinding[]): void {
  for (const c of core.clients.values()) {
    const x = c.expired;
    if (!x || c.ended || now - x.t < core.grace) continue;
    out.push({
      spec: expiredSpec(c, x, expiredHow(x, 'no initialize followed')),
      firstT: x.t,
      evidence: x.evidence,
      open: true,
    });
  }
}
