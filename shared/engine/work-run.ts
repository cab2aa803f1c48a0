// A run of a client working through a list: resubscribing after a reconnect one URI at a time, re-reading notified
// URIs one after another, retrying a session's GET stream or its initialize. Each step comes within the grace of the
// step before; while the run goes on, what it has not reached yet is not late. A fixed grace cannot cover a loop that
// is still going — 120 URIs resubscribed in series at 25 ms each take 3 s, and the last 60 read as never resubscribed —
// nor the SDK client's own GET retries (1 s, then 1.5 s more after a 503). (A false-positive audit on real SDK traffic,
// 2026-12-05.)
//
// A run excuses only what it can still reach (a review of the first version found real findings erased): it is scoped
// by whoever owns it (a reconnect's resubscribes, one session's GET attempts), a run that only restarts (an initialize
// after an initialize, no resubscribe) is no work, a wait the run has passed over (a queue of re-reads now answering
// notifications newer than this one) is not excused, and no wait is excused for more than RUN_CAP_MS from its start.

export const RUN_CAP_MS = 30_000;

/** What can hold a condition off (ConditionSet.settled): a run, or either of two. */
export interface Excuse {
  covers(since: number, now: number, grace: number): boolean;
}

export class WorkRun implements Excuse {
  start = Number.NEGATIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** Steps of work since the run (re)started. */
  progress = 0;
  /** How far the run got (the newest notification a re-read answered): a wait behind it was passed over. */
  mark = Number.NEGATIVE_INFINITY;

  /** A new run starts here with no work done yet (a reconnect: its resubscribes follow). */
  begin(t: number): void {
    this.start = t;
    this.last = t;
    this.progress = 0;
    this.mark = Number.NEGATIVE_INFINITY;
  }

  step(t: number, grace: number, mark = Number.NEGATIVE_INFINITY): void {
    if (!(t - this.last < grace)) this.begin(t);
    this.last = t;
    this.progress++;
    if (mark > this.mark) this.mark = mark;
  }

  /** Is a wait that began at `since` (at position `at`) still one this run may reach at `now`, so not late yet? */
  covers(since: number, now: number, grace: number, at = Number.POSITIVE_INFINITY): boolean {
    return this.progress > 0 && now - this.last < grace && this.start - since < grace && now - since < RUN_CAP_MS && this.mark <= at;
  }
}

/** Either run may reach the wait (a session's own GET retries, or its client re-initializing). */
export class EitherRun implements Excuse {
  constructor(
    readonly a: WorkRun,
    readonly b: WorkRun,
  ) {}
  covers(since: number, now: number, grace: number): boolean {
    return this.a.covers(since, now, grace) || this.b.covers(since, now, grace);
  }
}
