// A run of a client working through a list: resubscribing after a reconnect one URI at a time, re-reading notified
// URIs one after another, retrying a session's GET stream or its initialize. Each step comes within the grace of the
// step before; while the run goes on, what it has not reached yet is not late. A fixed grace cannot cover a loop that
// is still going — 120 URIs resubscribed in series at 25 ms each take 3 s, and the last 60 read as never resubscribed —
// nor the SDK client's own GET retries (1 s, then 1.5 s more after a 503). (A false-positive audit on real SDK traffic,
// 2026-12-05.)
//
// A run excuses only what it can still reach (a review of the first version found real findings erased): it is scoped
// by whoever owns it (a reconnect's resubscribes, one session's GET attempts), a run that only restarts (an initialize
// after an initialize, no resubscribe) is no work, a keyed run's work is each key once (re-reading one URI again and
// again — a ticker, a failing re-read retried — is no queue moving on), and no wait is excused for more than RUN_CAP_MS
// from its start: longer than that is an outage worth saying, retries or not.

export const RUN_CAP_MS = 10_000;

/** What can hold a condition off (ConditionSet.settled): a run, or either of two. */
export interface Excuse {
  covers(since: number, now: number, grace: number): boolean;
}

export class WorkRun implements Excuse {
  start = Number.NEGATIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** Steps of work since the run (re)started. */
  progress = 0;
  /** The keys worked in this run, for a keyed run (URIs re-read): a key already worked is no new step. */
  private seen: Set<string> | undefined = undefined;

  /** A new run starts here with no work done yet (a reconnect: its resubscribes follow). */
  begin(t: number): void {
    this.start = t;
    this.last = t;
    this.progress = 0;
    this.seen?.clear();
  }

  /** A step of work at `t`; with a `key`, only the key's first step in this run is one. */
  step(t: number, grace: number, key?: string): void {
    if (!(t - this.last < grace)) this.begin(t);
    if (key !== undefined) {
      this.seen ??= new Set();
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    this.last = t;
    this.progress++;
  }

  /** Is a wait that began at `since` still one this run may reach at `now`, so not late yet? */
  covers(since: number, now: number, grace: number): boolean {
    return this.progress > 0 && now - this.last < grace && this.start - since < grace && now - since < RUN_CAP_MS;
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
