// The time a live view judges frames at (ages, timed findings): the context's monotonic clock on the wall clock's
// scale, as the hook stamps frames (extension/hook/natives.ts now). Never back when the wall clock is set back (an NTP
// step, a virtual machine restored from a snapshot): Date.now() going back made an open panel judge its frames earlier
// than it already had, closing findings whose grace had passed until the wall clock came round again. Forward it
// catches up once the wall clock is more than a second ahead, since the monotonic clock stops while the machine
// sleeps (the hook's frames catch up the same way). Whole milliseconds, as Date.now() gives (a trace's createdAt keeps
// no more: an export while paused must come back judged at the very time it was shown). Pure: the clocks are given.
export class LiveClock {
  private ahead = 0;

  constructor(
    private readonly origin: number,
    private readonly monotonic: () => number,
    private readonly wall: () => number,
  ) {}

  now(): number {
    const t = this.origin + this.monotonic() + this.ahead;
    const w = this.wall();
    if (w - t <= 1000) return Math.floor(t);
    this.ahead += w - t;
    return Math.floor(w);
  }
}

/** The running context's live clock (a panel, the service worker). */
export function liveClock(): LiveClock {
  return new LiveClock(performance.timeOrigin, () => performance.now(), () => Date.now());
}
