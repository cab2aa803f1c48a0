// The live views' clock (shared/live-clock.ts): precise and monotonic, never back when the wall clock is set back,
// catching up when the wall clock runs ahead (the machine slept).
import { describe, expect, it, vi } from 'vitest';
import { PanelStore } from '../../../panel/store.ts';
import { LiveClock } from '../../../shared/live-clock.ts';

function clocks(origin: number) {
  const c = { mono: 0, wall: origin };
  return { c, clock: new LiveClock(origin, () => c.mono, () => c.wall) };
}

describe('LiveClock', () => {
  it('is the monotonic clock on the wall scale while the two agree, in whole milliseconds as Date.now()', () => {
    const { c, clock } = clocks(1_000_000);
    c.mono = 250.5;
    c.wall = 1_000_250;
    expect(clock.now()).toBe(1_000_250);
  });

  it('does not go back when the wall clock is set back (a VM restored, an NTP step): a judged grace stays past', () => {
    const { c, clock } = clocks(1_000_000);
    c.mono = 5000;
    c.wall = 1_005_000;
    const before = clock.now();
    c.mono = 5100;
    c.wall = 1_001_000; // set back by 4.1 s
    const after = clock.now();
    expect(after).toBeGreaterThanOrEqual(before);
    expect(after).toBe(1_005_100);
    // Without it (Date.now()), the view was judged at 1,001,000: 4 s earlier than it already had been.
  });

  it('catches up once the wall clock is more than a second ahead (the monotonic clock stopped while the machine slept), then stays monotonic', () => {
    const { c, clock } = clocks(1_000_000);
    c.mono = 100;
    c.wall = 1_000_100 + 3_600_000; // an hour asleep
    expect(clock.now()).toBe(1_000_100 + 3_600_000);
    c.mono = 150;
    c.wall = 1_000_150 + 3_600_000;
    expect(clock.now()).toBe(1_000_150 + 3_600_000);
    // Less than a second ahead: not a jump, the precise clock stands.
    c.mono = 200;
    c.wall = 1_000_200 + 3_600_000 + 800;
    expect(clock.now()).toBe(1_000_200 + 3_600_000);
  });
});

describe('the panel store judges live at that clock', () => {
  it('does not judge earlier when Date.now() is set back', () => {
    const s = new PanelStore();
    const before = s.clock();
    const real = Date.now.bind(Date);
    const back = vi.spyOn(Date, 'now').mockImplementation(() => real() - 10_000);
    try {
      // With Date.now() the store would judge 10 s earlier than it just did.
      expect(s.clock()).toBeGreaterThanOrEqual(before);
    } finally {
      back.mockRestore();
    }
  });
});
