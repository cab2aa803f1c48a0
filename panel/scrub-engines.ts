// The scrubber's engines. A stop replays the frames in view up to an instant; a step forward continues the last
// replay, and a step back starts from the nearest engine saved on the way (Engine.fork) instead of from the first
// frame. An engine is saved once the replay since the last save took SAVE_FACTOR times as long as a fork costs (and
// at least MIN_SAVE_MS): saving stays a bounded share of a replay, and a step back costs at most one fork and that
// much replay. Saves are bounded in number and in memory (objects copied, ~400 bytes each measured on the bench
// traces: 4,300 objects / 1.4 MB for the 100k-frame synthetic trace, 71,000 / 29 MB with 5,000 URIs × 100
// reconnects); past either bound every other save goes. They keep no messages (the views read the live engine's
// list, which has the same numbering).
import { Engine, type EngineOptions } from '../shared/engine/index.ts';
import type { Frame } from '../shared/frames.ts';

const SAVE_FACTOR = 4;
const MIN_SAVE_MS = 80;
export interface SaveLimits {
  /** More saves than this: every other one goes, and saves come half as often. */
  saves: number;
  /** More objects in all saves than this: the same (≈ 100 MB). A state bigger than this alone is not saved. */
  objects: number;
}
const LIMITS: SaveLimits = { saves: 32, objects: 250_000 };
/** Frames between two looks at the clock during a replay. */
const CLOCK_EVERY = 256;

interface Save {
  /** Index of the next frame to apply: the engine has applied frames [start, next). */
  next: number;
  engine: Engine;
  /** Objects in the saved state. */
  objects: number;
}

export class ScrubEngines {
  private readonly saves: Save[] = [];
  private current: Save;
  /** Replay time since the last save, and the last fork's cost. */
  private sinceSave = 0;
  private forkMs = 0;
  private spacing = 1;
  private objects = 0;
  /** No more saves: a fork failed (ForkError), or the state outgrew the memory bound. Steps back replay from the start. */
  private noSaves = false;

  constructor(
    private readonly options: EngineOptions,
    private readonly start: number,
    private readonly clock: () => number = () => performance.now(),
    private readonly limits: SaveLimits = LIMITS,
  ) {
    this.current = { next: start, engine: new Engine({ ...options, retainMessages: false }), objects: 0 };
  }

  /** Saved engines (for tests and the probe). */
  get saved(): number {
    return this.saves.length;
  }

  /** Index of the next frame the current replay applies (how far a replay that ran out of time got). */
  get position(): number {
    return this.current.next;
  }

  /** An engine that has applied exactly `frames[start, end)`. It is only valid until the next call. */
  engineAt(frames: readonly Frame[], end: number): Engine {
    return this.replayTo(frames, end, Infinity)!;
  }

  /**
   * engineAt, but past `deadline` (on `clock`) it stops and returns undefined: a later call with the same or a later
   * end continues from where it stopped.
   */
  replayTo(frames: readonly Frame[], end: number, deadline: number): Engine | undefined {
    const save = this.latestSave(end);
    if (end < this.current.next || (save && save.next > this.current.next)) this.current = this.restore(save);
    const cur = this.current;
    let mark = this.clock();
    while (cur.next < end) {
      const stop = Math.min(end, cur.next + CLOCK_EVERY);
      while (cur.next < stop) cur.engine.apply(frames[cur.next++]!);
      const now = this.clock();
      this.sinceSave += now - mark;
      mark = now;
      if (this.sinceSave >= Math.max(MIN_SAVE_MS, SAVE_FACTOR * this.forkMs) * this.spacing && this.beyondSaves(cur.next)) {
        this.save(cur);
        mark = this.clock();
      }
      if (cur.next < end && mark >= deadline) return undefined;
    }
    return cur.engine;
  }

  private latestSave(end: number): Save | undefined {
    for (let i = this.saves.length - 1; i >= 0; i--) if (this.saves[i]!.next <= end) return this.saves[i];
    return undefined;
  }

  /** A fork of `save` (which stays as it was), or a fresh engine. */
  private restore(save: Save | undefined): Save {
    this.sinceSave = 0;
    const engine = save && this.fork(save.engine);
    return engine ? { next: save.next, engine, objects: 0 } : { next: this.start, engine: new Engine({ ...this.options, retainMessages: false }), objects: 0 };
  }

  private beyondSaves(next: number): boolean {
    return !this.noSaves && next > (this.saves.at(-1)?.next ?? this.start);
  }

  private save(cur: Save): void {
    const stats = { objects: 0 };
    const engine = this.fork(cur.engine, stats);
    this.sinceSave = 0;
    if (!engine) return;
    if (stats.objects > this.limits.objects) {
      // The state only grows along a trace: no later save would fit either.
      this.noSaves = true;
      return;
    }
    this.saves.push({ next: cur.next, engine, objects: stats.objects });
    this.objects += stats.objects;
    while (this.saves.length > this.limits.saves || this.objects > this.limits.objects) {
      for (let i = this.saves.length - 2; i >= 0; i -= 2) this.objects -= this.saves.splice(i, 1)[0]!.objects;
      this.spacing *= 2;
    }
  }

  private fork(e: Engine, stats?: { objects: number }): Engine | undefined {
    const t0 = this.clock();
    try {
      const f = e.fork(stats);
      this.forkMs = this.clock() - t0;
      return f;
    } catch (err) {
      // A bug, not a user error: stepping back still works, by replaying from the start.
      console.error('mcp-devtools: the scrubber could not save an engine', err);
      this.noSaves = true;
      return undefined;
    }
  }
}
