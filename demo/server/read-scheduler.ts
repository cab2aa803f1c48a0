// Slow and out-of-order reads. The snapshot is taken when the request arrives (what a real server would have read), and
// only the answer is delayed, so with outOfOrderReads the older content of a concurrent pair arrives last.
import { OUT_OF_ORDER_HOLD_MS, type Faults } from './faults.ts';

export class ReadScheduler {
  private inFlight = new Map<string, number>();
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly faults: () => Faults) {}

  async serve<T>(uri: string, snapshot: () => T): Promise<T> {
    const value = snapshot();
    const before = this.inFlight.get(uri) ?? 0;
    this.inFlight.set(uri, before + 1);
    try {
      const f = this.faults();
      // Hold the first read of a URI when nothing else is in flight for it; a second one overtakes it.
      const delay = f.slowReadsMs + (f.outOfOrderReads && before === 0 ? OUT_OF_ORDER_HOLD_MS : 0);
      if (delay > 0) await this.sleep(delay);
      return value;
    } finally {
      const n = (this.inFlight.get(uri) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(uri);
      else this.inFlight.set(uri, n);
    }
  }

  /** Releases held reads at once (server shutdown). */
  releaseAll(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      t.unref?.();
      this.timers.add(t);
    });
  }
}
