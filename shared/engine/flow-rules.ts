// The chart's time-based answers. Two questions are answered by the grace rather than by a message: "does the
// notification reach the client?" (I: it did — it is in the log — but no re-read came within the grace: I ⇢ K → M) and
// "does it send subscribe again?" (P: no resubscribe within the grace → Q → M). The chart has no arrow for "arrived,
// not re-read": its I → K is "lost when the connection broke", which is not what happened, so K is reached by
// inference, a jump (kept in the path, drawn dashed, counted on no edge), and K → M is the chart's own arrow. (Until a
// first-use UX audit, 2026-12-05, the walk counted the "lost" edge for a notification the Messages view showed
// arriving.) A missed-update, where no notification came at all, takes I —lost→ K only when a delivery channel of the
// URI's holders broke in that time; else I ⇢ K too, for its own reason (findings/refresh.ts missedJumps).
// The URI may have moved on before the answer comes (a re-read of its cache right after a reconnect, the session
// ending right after a notification): the answer then goes back to its question (a jump to I or P) and is taken from
// there (P's branch counted; I ⇢ K as above), so the path says where it was asked.
// Committed when an event touches the URI past the deadline (EngineCore.touch), projected in a snapshot at `now`
// (snapshot.ts): both take their steps from `dueWalks`, so live and replay agree.
import type { NodeId } from '../flow/chart.ts';
import type { FlowJumps } from '../flow/flow-tracker.ts';
import type { EngineCore } from './core.ts';
import type { UriState } from './uri-state.ts';

export interface FlowPending {
  deadline: number;
  seq: number;
}

/**
 * The reconnect question still open for a URI: `asked` after a re-initialize walked it N → O → P (answered yes by a
 * subscribe, no by the grace); `listen-ended` after the listen that held it ended (2026-07-28 has no re-initialize:
 * a listen again is the reconnect, O → P → C; none by the grace is O → P → Q).
 */
export type FlowStage = 'asked' | 'listen-ended' | undefined;

export interface DueWalk {
  nodes: readonly NodeId[];
  deadline: number;
  seq: number;
  kind: 'reread' | 'phantom';
  /** Steps that are jumps even where the chart has an arrow, and why (FlowTracker.jumpCode), by index in `nodes`. */
  jumps: FlowJumps | undefined;
}

const REREAD: readonly NodeId[] = ['I', 'K', 'M'];
/** I ⇢ K: the notification arrived; the "lost when the connection broke" arrow is not what happened. */
const REREAD_JUMPS: FlowJumps = [undefined, 'not-reread', undefined];
const PHANTOM: Record<'asked' | 'listen-ended' | 'none', { cached: readonly NodeId[]; bare: readonly NodeId[] }> = {
  asked: { cached: ['P', 'Q', 'M'], bare: ['P', 'Q'] },
  'listen-ended': { cached: ['O', 'P', 'Q', 'M'], bare: ['O', 'P', 'Q'] },
  none: { cached: ['Q', 'M'], bare: ['Q'] },
};

/** A run of the client's (work-run.ts) has not reached this URI yet: its question is not answered at its deadline. */
export function rereadWaits(u: UriState, now: number, grace: number): boolean {
  const p = u.pendingReread;
  return p !== undefined && u.client.rereading.covers(p.t, now, grace);
}

export function phantomWaits(u: UriState, now: number, grace: number): boolean {
  const c = u.conds['phantom-subscription'];
  return c?.run !== undefined && c.run.covers(c.since, now, grace);
}

/** The inferred walks due for `u` at `now`, in deadline order (an inference whose condition went away is none). */
export function dueWalks(u: UriState, now: number, grace: number): DueWalk[] {
  const out: DueWalk[] = [];
  const r = u.flowReread;
  if (r && now >= r.deadline && u.pendingReread && !rereadWaits(u, now, grace)) out.push({ nodes: REREAD, deadline: r.deadline, seq: r.seq, kind: 'reread', jumps: REREAD_JUMPS });
  const p = u.flowPhantom;
  if (p && now >= p.deadline && u.believed && !u.held && !phantomWaits(u, now, grace)) {
    const w = PHANTOM[u.flowStage ?? 'none'];
    out.push({ nodes: u.cached ? w.cached : w.bare, deadline: p.deadline, seq: p.seq, kind: 'phantom', jumps: undefined });
  }
  if (out.length === 2 && out[1]!.deadline < out[0]!.deadline) out.reverse();
  return out;
}

/** A subscribe (or a listen naming the URI) is coming (its step is C): the reconnect question, if open, answered yes. */
export function answerYes(core: EngineCore, u: UriState, t: number, seq: number): void {
  const stage = u.flowStage;
  u.flowStage = undefined;
  if (stage === 'asked') core.step(u, 'P', t, seq, true);
  else if (stage === 'listen-ended') core.walk(u, ['O', 'P'], t, seq, [false, true]);
}
