// A run of a client working through a list: resubscribing after a reconnect one URI at a time, re-reading notified
// URIs one after another, retrying its GET stream or its initialize. Each step comes within the grace of the step
// before; while the run goes on, what it has not reached yet is not late. A fixed grace cannot cover a loop that is
// still going — 120 URIs resubscribed in series at 25 ms each take 3 s, and the last 60 read as never resubscribed —
// nor the SDK client's own GET retries (1 s, then 1.5 s more after a 503). A run excuses a wait that began at most the
// grace before its first step, and for at most RUN_CAP_MS: a client retrying for ever is not working through anything.
// (A false-positive audit on real SDK traffic, 2026-12-05.)

export const RUN_CAP_MS = 30_000;

export class WorkRun {
  start = Number.NEGATIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;

  step(t: number, grace: number): void {
    if (!(t - this.last < grace)) this.start = t;
    this.last = t;
  }

  /** Is a wait that began at `since` still part of this run at `now` (so not late yet)? */
  covers(since: number, now: number, grace: number): boolean {
    return now - this.last < grace && this.start - since < grace && now - this.start < RUN_CAP_MS;
  }
}
