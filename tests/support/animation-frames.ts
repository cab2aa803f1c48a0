// The panel store schedules its work on animation frames: in Node (no browser), a timer stands in for them for the
// tests of one file. `settle` lets a few of them (and the snapshot timer) run.
import { afterAll, beforeAll } from 'vitest';

export function timerAnimationFrames(): void {
  const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };
  const had = g.requestAnimationFrame;
  beforeAll(() => {
    g.requestAnimationFrame = (cb) => setTimeout(() => cb(performance.now()), 1) as unknown as number;
  });
  afterAll(() => {
    g.requestAnimationFrame = had;
  });
}

/** Lets a few animation frames (and the snapshot timer) run. */
export const settle = (ms = 450): Promise<unknown> => new Promise((r) => setTimeout(r, ms));
