// The scrubber's engines: any sequence of stops, forward and back, gives the state a fresh replay up to that stop
// gives; a step back starts from a saved engine near the stop rather than from the first frame; saves stay bounded.
import { describe, expect, it } from 'vitest';
import { Engine, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { ScrubEngines } from '../../../panel/scrub-engines.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';

const { frames } = syntheticTrace(12_000, 40, 5);

function analysis(s: EngineSnapshot): string {
  return JSON.stringify(s, (k, v) => (k === 'messages' ? undefined : v));
}

/** A clock that moves `step` ms per look: the engines save by replay time, so saves come at fixed frame counts. */
function tickingClock(step = 10): { clock: () => number; looks: () => number } {
  let n = 0;
  return { clock: () => step * n++, looks: () => n };
}

describe('ScrubEngines', () => {
  it('every stop equals a fresh replay up to it, in any order', () => {
    const start = 100;
    const c = tickingClock();
    const scrub = new ScrubEngines({}, start, c.clock);
    const now = frames.at(-1)!.t + 60_000;
    for (const end of [start, 11_900, 3_000, 3_001, 9_500, 200, 12_000, 6_000]) {
      const e = scrub.engineAt(frames, end);
      const fresh = Engine.replay(frames.slice(start, end));
      expect(e.frameCount).toBe(end - start);
      expect(e.messageCount).toBe(fresh.messageCount);
      expect(analysis(e.snapshot(now))).toBe(analysis(fresh.snapshot(now)));
    }
    expect(scrub.saved).toBeGreaterThan(0);
  });

  it('a replay past its deadline stops half-way and goes on from there, to the same state', () => {
    const c = tickingClock();
    const scrub = new ScrubEngines({}, 0, c.clock);
    const end = 11_000;
    // Ten ms per look at the clock, one look per 256 frames (and a few per save): a 150 ms deadline stops it after a
    // few thousand frames.
    expect(scrub.replayTo(frames, end, 150)).toBeUndefined();
    const half = scrub.position;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(end);
    // Going on: from where it stopped (a few looks), not from the start.
    const looks = c.looks();
    const e = scrub.replayTo(frames, end, Infinity)!;
    const rest = c.looks() - looks;
    const fresh = tickingClock();
    new ScrubEngines({}, 0, fresh.clock).engineAt(frames, end);
    expect(half).toBeGreaterThan(2000);
    expect(rest).toBeLessThan(fresh.looks() - 5);
    const now = frames.at(-1)!.t + 60_000;
    expect(analysis(e.snapshot(now))).toBe(analysis(Engine.replay(frames.slice(0, end)).snapshot(now)));
  });

  it('a step back replays from the nearest save, not from the start', () => {
    const c = tickingClock();
    const scrub = new ScrubEngines({}, 0, c.clock);
    scrub.engineAt(frames, frames.length);
    expect(scrub.saved).toBeGreaterThan(3);
    // Looks at the clock are one per 256 frames replayed (and a few per save).
    let before = c.looks();
    scrub.engineAt(frames, frames.length - 300);
    const back = c.looks() - before;
    before = c.looks();
    new ScrubEngines({}, 0, c.clock).engineAt(frames, frames.length - 300);
    const fromStart = c.looks() - before;
    expect(back).toBeLessThan(fromStart / 4);
  });

  it('keeps at most 32 saves on a long replay, and still gives the right state', () => {
    // A fork costs one tick (20 ms), so a save comes every 3 × 256 frames: ~39 in 30,000 frames, before thinning.
    const long = syntheticTrace(30_000, 40, 5).frames;
    const c = tickingClock(20);
    const scrub = new ScrubEngines({}, 0, c.clock);
    let most = 0;
    for (let end = 0; end <= long.length; end += 2_000) {
      scrub.engineAt(long, end);
      most = Math.max(most, scrub.saved);
    }
    expect(most).toBeLessThanOrEqual(32);
    expect(scrub.saved).toBeGreaterThan(12);
    const e = scrub.engineAt(long, 15_000);
    const now = long.at(-1)!.t;
    expect(analysis(e.snapshot(now))).toBe(analysis(Engine.replay(long.slice(0, 15_000)).snapshot(now)));
  });

  it('keeps the saves within a memory bound, and saves nothing of a state bigger than it', () => {
    const c = tickingClock();
    const one = new Engine({ retainMessages: false });
    one.applyAll(frames.slice(0, frames.length >> 1));
    const stats = { objects: 0 };
    one.fork(stats);
    // Room for about three states of half the trace.
    const bounded = new ScrubEngines({}, 0, c.clock, { saves: 32, objects: stats.objects * 3 });
    bounded.engineAt(frames, frames.length);
    expect(bounded.saved).toBeGreaterThan(0);
    expect(bounded.saved).toBeLessThanOrEqual(5);
    const tiny = new ScrubEngines({}, 0, c.clock, { saves: 32, objects: 10 });
    const e = tiny.engineAt(frames, frames.length);
    expect(tiny.saved).toBe(0);
    const back = tiny.engineAt(frames, 5_000);
    expect(back).not.toBe(e);
    const now = frames.at(-1)!.t;
    expect(analysis(back.snapshot(now))).toBe(analysis(Engine.replay(frames.slice(0, 5_000)).snapshot(now)));
  });
});
