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

/**
 * How long a request the client sent and the server has not answered (a resubscribe, a listen not yet acknowledged)
 * is the server's latency rather than the client's fault (a remote server under load, a cold start). Past it, the
 * request counts as never answered: what waited on it is reported from the send.
 */
export const ANSWER_CAP_MS = 30_000;

/** What can hold a condition off (ConditionSet.settled): a run, or either of two. */
export interface Excuse {
  covers(since: number, now: number, grace: number): boolean;
}

export class WorkRun implements Excuse {
  start = Number.NEGATIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** Steps of work since the run (re)started. */
  progress = 0;
  /**
   * Steps whose request is sent and not yet answered (a resubscribe): while one is, the run waits on the server, not
   * the client — a healthy client subscribing one URI after another's answer, from a server slow to answer, would
   * otherwise leave the grace between two steps (a false-positive audit, 2026-12-05: 2.5 s per subscribe). Bounded by
   * ANSWER_CAP_MS without an answer; a request whose exchange failed is no answer.
   */
  private inFlight = 0;
  /** The server's time in this run: the waits for answers that came, not counted against RUN_CAP_MS. */
  private waited = 0;
  /** The send of the latest step awaiting its answer (its wait counts once answered). */
  private sentT = Number.NEGATIVE_INFINITY;
  /** Bumped at every begin: an answer to a request of an earlier run is not this run's, nor a key's stepOnce mark. */
  gen = 0;

  /** A new run starts here with no work done yet (a reconnect: its resubscribes follow). */
  begin(t: number): void {
    this.start = t;
    this.last = t;
    this.progress = 0;
    this.inFlight = 0;
    this.waited = 0;
    this.gen++;
  }

  /** The step just taken (step) sent a request whose answer the client waits for. Returns the run's generation. */
  awaiting(t: number): number {
    this.inFlight++;
    this.sentT = t;
    return this.gen;
  }

  /**
   * The end of a request of generation `gen` (awaiting). An answer — a success or a JSON-RPC error: the server's
   * latency either way, and the client goes on from it — moves the run on from the answer (the client's next step is
   * timed from it); no answer (`answered` false: the exchange failed) or one past ANSWER_CAP_MS does not: the wait is
   * then the client's as before, and the findings it held off come as they would have. (The URI whose subscribe
   * failed is judged by its own wait, AnswerWait.)
   */
  answered(gen: number, t: number, answered: boolean): void {
    if (gen !== this.gen || this.inFlight === 0) return;
    this.inFlight--;
    if (!answered || t - this.sentT >= ANSWER_CAP_MS) return;
    this.waited += Math.max(0, t - Math.max(this.sentT, this.last));
    if (t > this.last) this.last = t;
  }

  /** A step of work at `t`. */
  step(t: number, grace: number): void {
    this.restartIfPaused(t, grace);
    this.last = t;
    this.progress++;
  }

  /**
   * A step of a keyed run (URIs re-read, caught up on): only a key's first step in this run is one. `mark` is what
   * this returned for the key the last time (-1 before that), kept by the key's owner: the key was worked in this run
   * when it is the run's generation (begin starts a new one). A number on the URI row, not a set of keys per run: a
   * set was added to, and hashed into, on every read sent.
   */
  stepOnce(t: number, grace: number, mark: number): number {
    this.restartIfPaused(t, grace);
    if (mark === this.gen) return mark;
    this.last = t;
    this.progress++;
    return this.gen;
  }

  private restartIfPaused(t: number, grace: number): void {
    // (Not while a step waits for its answer: the client is waiting on the server.)
    if (!(t - this.last < grace) && !(this.inFlight > 0 && t - this.sentT < ANSWER_CAP_MS)) this.begin(t);
  }

  /** Is a wait that began at `since` still one this run may reach at `now`, so not late yet? */
  covers(since: number, now: number, grace: number): boolean {
    if (!(this.progress > 0 && this.start - since < grace)) return false;
    // Waiting on an answer: the server's time, up to the cap, is neither a stall nor the client's share of the cap.
    if (this.inFlight > 0 && now - this.sentT < ANSWER_CAP_MS) return now - since - this.waited - (now - Math.max(this.sentT, this.last)) < RUN_CAP_MS;
    return now - this.last < grace && now - since - this.waited < RUN_CAP_MS;
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

/**
 * A request for one URI the client sent and waits on (its resources/subscribe, or the listen naming it not yet
 * acknowledged): until its answer, what it would mend is the server's latency, not the client's fault, as within the
 * grace (findings/coverage.ts keeps one for cached-not-subscribed and one for phantom-subscription). It excuses the
 * wait if it ended `ok` within ANSWER_CAP_MS — which ending is ok is the condition's to say — and, while it lasts, up
 * to that cap and while the session or listen it was sent on is open.
 */
export class AnswerWait implements Excuse {
  /** When the wait ended (undefined while waiting), and whether that ending excuses it. */
  endT: number | undefined = undefined;
  ok = false;
  constructor(
    readonly sentT: number,
    /** The session or listen it was sent on: once that ends, no answer is coming. */
    readonly on: { readonly open: boolean } | undefined,
  ) {}
  end(t: number, ok: boolean): void {
    if (this.endT !== undefined) return;
    this.endT = t;
    this.ok = ok;
  }
  covers(_since: number, now: number): boolean {
    if (this.endT === undefined) return now - this.sentT < ANSWER_CAP_MS && this.on?.open !== false;
    return this.ok && this.endT - this.sentT < ANSWER_CAP_MS;
  }
}
