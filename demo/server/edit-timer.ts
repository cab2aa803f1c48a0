// Edits documents on a timer (round robin over documents and article rows), like colleagues editing the knowledge base.
// Interval 0 = off. The timer never keeps the process alive.
import type { KbStore } from './kb-store.ts';

export class EditTimer {
  private timer: ReturnType<typeof setInterval> | undefined;
  private next = 0;
  intervalMs = 0;

  constructor(private readonly store: KbStore) {}

  set(intervalMs: number): void {
    this.stop();
    this.intervalMs = intervalMs;
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const uris = this.store.editableByTimer();
    if (!uris.length) return;
    const uri = uris[this.next % uris.length];
    this.next += 1;
    if (uri) this.store.edit(uri);
  }
}
