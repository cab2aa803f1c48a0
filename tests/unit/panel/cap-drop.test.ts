// Settings saved with caps below what the log holds (a stress review, item 6): the dialog promised "Save drops its
// oldest frames now", and the status line kept the old count ~3 s while the background trimmed. It says the drop is
// under way until the counters show it.
import { describe, expect, it } from 'vitest';
import type { TabStats } from '../../../shared/messages.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PanelStore } from '../../../panel/store.ts';
import { StatusBar } from '../../../panel/components/StatusBar.tsx';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { vnodeText } from '../../support/vnode-text.ts';

timerAnimationFrames();

const text = vnodeText;

const stats = (frames: number, dropped: number): TabStats => ({ tabId: 1, frames, bytes: frames * 100, dropped, rejected: 0, lastSeq: frames + dropped, segment: 0, errors: 0 });

describe('lowering the caps', () => {
  it('says "dropping" from the saved settings until the counters show the trim', async () => {
    const s = new PanelStore();
    s.receive({ type: 'settings', settings: DEFAULT_SETTINGS });
    s.receive({ type: 'stats', stats: stats(36_793, 0) });
    await settle(50);
    expect(s.stats.value?.frames).toBe(36_793);
    const bar = () => text(StatusBar({ status: 'live', counts: { frames: s.stats.value!.frames, dropped: s.stats.value!.dropped, rejected: 0 }, waiting: 0, dropping: s.capDrop.value }));
    // The same caps again (a settings message on reconnect, another change): nothing said.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS } });
    expect(s.capDrop.value).toBeNull();
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, maxFrames: 10_000 } });
    expect(bar()).toContain('36793 frames');
    expect(bar()).toContain('dropping the oldest to the cap of 10000…');
    // Counters of a batch before the trim: still dropping.
    s.receive({ type: 'stats', stats: stats(36_900, 0) });
    await settle(300);
    expect(s.capDrop.value).not.toBeNull();
    // The trim's counters: the count follows and "dropping" goes.
    s.receive({ type: 'stats', stats: stats(8_987, 27_913) });
    await settle(300);
    expect(s.capDrop.value).toBeNull();
    expect(bar()).toContain('8987 frames');
    expect(bar()).not.toContain('dropping');
  });

  it('says nothing for the settings a panel gets on connect, or caps above the log', async () => {
    const s = new PanelStore();
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, maxFrames: 1_000 } });
    expect(s.capDrop.value).toBeNull();
    s.receive({ type: 'stats', stats: stats(500, 0) });
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, maxFrames: 2_000 } });
    expect(s.capDrop.value).toBeNull();
    await settle(50);
  });

  it('says nothing when no cap went down, and names the cap the log is over (code review 3, item 5)', async () => {
    const s = new PanelStore();
    const big = { ...DEFAULT_SETTINGS, maxFrames: 1_000, maxBytes: 10 * 1024 * 1024 };
    s.receive({ type: 'settings', settings: big });
    // A log its newest chunk keeps over its cap.
    s.receive({ type: 'stats', stats: { ...stats(1_020, 0), bytes: 11 * 1024 * 1024 } });
    await settle(50);
    // The same settings on a reconnect, another setting saved, a cap raised: nothing said.
    s.receive({ type: 'settings', settings: { ...big } });
    s.receive({ type: 'settings', settings: { ...big, defaultMaxAgeMs: big.defaultMaxAgeMs + 1_000 } });
    s.receive({ type: 'settings', settings: { ...big, maxFrames: 1_010 } });
    expect(s.capDrop.value).toBeNull();
    const bar = () => text(StatusBar({ status: 'live', counts: { frames: 1_020, dropped: 0, rejected: 0 }, waiting: 0, dropping: s.capDrop.value }));
    // Only the bytes cap went down: named in bytes, not by the frames cap the log is under.
    s.receive({ type: 'stats', stats: { ...stats(900, 0), bytes: 11 * 1024 * 1024 } });
    await settle(50);
    s.receive({ type: 'settings', settings: { ...big, maxFrames: 1_010, maxBytes: 5 * 1024 * 1024 } });
    expect(bar()).toContain('dropping the oldest to the cap of 5.0 MiB…');
    expect(bar()).not.toContain('cap of 1010');
    await settle(50);
  });
});
