// Slow and out-of-order reads. The snapshot is taken when the request arrives (what a real server would have read), and
// only the answer is delayed. With outOfOrderReads, a read that finds no other read of its URI in flight is held until a
// later read of that URI has been answered (or OUT_OF_ORDER_HOLD_MS passed), so of two concurrent reads the older
// content always arrives last, however loaded the machine is.
import { OUT_OF_ORDER_HOLD_MS, type Faults } from './faults.ts';

/** How long after the overtaking read's answer a held read is released. */
const RELEASE_AFTER_MS = 100;

export class ReadScheduler {
  private inFlight = new Map<string, number>();
  /** Per URI, the held reads waiting for a later read of the same URI to be answered. */
  private held = new Map<string, (() => void)[]>();
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly faults: () => Faults) {}

  async serve<T>(uri: string, snapshot: () => T): Promise<T> {
    const value = snapshot();
    const before = this.inFlight.get(uri) ?? 0;
    this.inFlight.set(uri, before + 1);
    try {
      const f = this.faults();
      if (f.slowReadsMs > 0) await this.sleep(f.slowReadsMs);
      if (f.outOfOrderReads && before === 0) await this.holdUntilOvertaken(uri);
      else this.releaseHeld(uri);
      return value;
    } finally {
      const n = (this.inFlight.get(uri) ?? 1) - 1;
      if (n <= 0) this.inFlight.delete(uri);
      else this.inFlight.set(uri, n);
    }
  }

  /** A subscribe's answer waits out the slowSubscribesMs fault (released early at shutdown, as held reads are). */
  async delaySubscribe(): Promise<void> {
    const ms = this.faults().slowSubscribesMs;
    if (ms > 0) await this.sleep(ms);
  }

  /** URIs with a read being held right now (for the admin state: a scenario waits for one before its second edit). */
  heldUris(): string[] {
    return [...this.held.keys()];
  }

  /** Releases held reads at once (server shutdown). */
  releaseAll(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const uri of [...this.held.keys()]) this.releaseHeld(uri);
  }

  private holdUntilOvertaken(uri: string): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        done();
      }, OUT_OF_ORDER_HOLD_MS);
      t.unref?.();
      this.timers.add(t);
      let released = false;
      const done = () => {
        if (released) return;
        released = true;
        clearTimeout(t);
        this.timers.delete(t);
        const list = this.held.get(uri)?.filter((f) => f !== done) ?? [];
        if (list.length) this.held.set(uri, list);
        else this.held.delete(uri);
        resolve();
      };
      this.held.set(uri, [...(this.held.get(uri) ?? []), done]);
    });
  }

  /** A later read is being answered now: the held ones go shortly after it (late enough to arrive second). */
  private releaseHeld(uri: string): void {
    const list = this.held.get(uri);
    if (!list?.length) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      for (const f of list) f();
    }, RELEASE_AFTER_MS);
    t.unref?.();
    this.timers.add(t);
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
