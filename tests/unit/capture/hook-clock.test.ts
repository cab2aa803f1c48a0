// The hook's frame clock: monotonic, on the wall clock's scale, and caught up after the machine slept (Chrome's
// performance.now() does not count a suspend on Linux and macOS, while the panel judges ages by the wall clock).
import { beforeAll, expect, it } from 'vitest';

let natives: typeof import('../../../extension/hook/natives.ts').natives;
let now: () => number;

beforeAll(async () => {
  Object.assign(globalThis, { window: globalThis });
  ({ natives, now } = await import('../../../extension/hook/natives.ts'));
});

it('follows the monotonic clock, catches up with the wall clock after a sleep, and never goes back', () => {
  let mono = 1000;
  let wall = 1_700_000_001_000;
  natives.timeOrigin = 1_700_000_000_000;
  natives.performanceNow = () => mono;
  natives.dateNow = () => wall;
  expect(now()).toBe(1_700_000_001_000);
  // Sub-millisecond precision between two frames, and small drift between the clocks, stay as they are.
  mono += 0.25;
  wall += 300;
  expect(now()).toBe(1_700_000_001_000.25);
  // An hour asleep: the monotonic clock moved 5 ms, the wall clock an hour.
  mono += 5;
  wall += 3_600_000;
  expect(now()).toBe(wall);
  // From there the monotonic clock again, shifted by the hour.
  mono += 10;
  expect(now()).toBe(wall + 10);
  // The wall clock set back an hour (NTP, the user): frames keep going forward.
  const before = now();
  wall -= 3_600_000;
  mono += 1;
  expect(now()).toBe(before + 1);
});
