// Loading the tab's log when the panel opens (or reconnects): one steady notice whose total is known from the start.
// The background sends the log's counters (`stats`) before the first backlog chunk; the frames it will send are those
// with a seq after the panel's last, so the total is known at connect. A review (2026-12-06, 148k frames) saw the old
// notice count only the frames received so far and restart its percentage with every chunk ("8,779 frames… 88 %",
// then none, then "34,082 frames… 1 %").
import type { TabStats } from '../../shared/messages.ts';

/** How many frames the log holds with a seq after `since` (what its backlog sends a panel that has up to `since`). */
export function framesAfter(stats: TabStats, since: number): number {
  const kept = stats.kept ?? [];
  // The log holds every seq from `first` to lastSeq, and before that only the frames its trim kept.
  const first = stats.lastSeq - (stats.frames - kept.length) + 1;
  const run = Math.max(0, Math.min(stats.lastSeq - since, stats.lastSeq - first + 1));
  return run + kept.filter((seq) => seq > since && seq < first).length;
}

/**
 * A load under way: `total` frames announced at connect, `received` so far (the log grows meanwhile: frames written
 * while it is read come in the same backlog, so the total is never shown below what was received), `loaded` = of
 * those, the ones the view has applied. Never goes backwards.
 */
export class BacklogLoad {
  received = 0;
  done = false;
  /** The view applied it all; the load is over with the snapshot that shows it. */
  caughtUp = false;
  private loadedMax = 0;

  constructor(
    /** Where the load's frames start in the panel's frame list (the frames it had before); moves with a trim (shift). */
    public base: number,
    readonly total: number,
  ) {}

  /** A backlog chunk came (`count` new frames); `done`: the last one. */
  receive(count: number, done: boolean): void {
    this.received += count;
    if (done) this.done = true;
  }

  /**
   * `cut` frames went from the front of the panel's frame list (a trim at the log's cap during the load): the index
   * `applied` is given in moved back by as many, and so does the load's start (its count stalled until the notice went:
   * code review 3, Low).
   */
  shift(cut: number): void {
    this.base -= cut;
  }

  /** What the notice shows, given how far the view applied the frame list (`applied`: an index in it). */
  progress(applied: number): { loaded: number; total: number } {
    this.loadedMax = Math.max(this.loadedMax, Math.min(this.received, applied - this.base));
    return { loaded: this.loadedMax, total: Math.max(this.total, this.received) };
  }
}

/** The notice's text: "Loading the tab's log: 23,456 of 148,649 frames…". */
export function loadLabel(p: { loaded: number; total: number }): string {
  return `Loading the tab's log: ${p.loaded.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} frames…`;
}

/** 0–1, never 1 before the load is over (a percentage that reads 100 % while frames are still coming). */
export function loadFraction(p: { loaded: number; total: number }): number {
  return p.total === 0 ? 0 : Math.min(0.99, p.loaded / p.total);
}
