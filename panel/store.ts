// The panel's state: the frames it has received (in seq order), derived rows, connection status and the tab's counters.
// Updates are coalesced to one render per animation frame, so a burst of frames costs one paint.
import { signal } from '@preact/signals';
import type { Frame } from '../shared/frames.ts';
import type { BackgroundToPanel, TabStats } from '../shared/messages.ts';
import type { ConnectionStatus } from './connection.ts';
import { FrameRows } from './frame-rows.ts';

export class PanelStore {
  frames: Frame[] = [];
  rows = new FrameRows();
  /** Bumped (once per animation frame at most) when frames or rows changed. */
  readonly version = signal(0);
  readonly stats = signal<TabStats | null>(null);
  readonly status = signal<ConnectionStatus | 'offline'>('connecting');
  private scheduled = false;

  lastSeq(): number {
    return this.frames.at(-1)?.seq ?? 0;
  }

  receive(m: BackgroundToPanel): void {
    switch (m.type) {
      case 'backlog':
      case 'frames':
        this.add(m.frames);
        return;
      case 'stats':
        this.stats.value = m.stats;
        return;
      case 'cleared':
        this.frames = [];
        this.rows = new FrameRows();
        this.stats.value = m.stats;
        this.bump();
        return;
    }
  }

  add(frames: Frame[]): void {
    const last = this.lastSeq();
    for (const f of frames) {
      // Defensive: a reconnect must never duplicate what we have.
      if (f.seq <= last) continue;
      this.frames.push(f);
      this.rows.add(f);
    }
    if (frames.length > 0) this.bump();
  }

  private bump(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.version.value++;
    });
  }
}
