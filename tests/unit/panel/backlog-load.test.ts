// Loading the tab's log when the panel opens: one steady notice, its total known from the log's counters at connect,
// never going backwards or starting over per backlog chunk; no "waiting" outside Pause (a stress review, item 4).
import { describe, expect, it } from 'vitest';
import type { TabStats } from '../../../shared/messages.ts';
import { BacklogLoad, framesAfter, loadFraction, loadLabel } from '../../../panel/model/backlog-load.ts';
import { PanelStore } from '../../../panel/store.ts';
import { StatusBar } from '../../../panel/components/StatusBar.tsx';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { vnodeText } from '../../support/vnode-text.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';

timerAnimationFrames();

const render = vnodeText;
const h = (f: typeof StatusBar, props: Parameters<typeof StatusBar>[0]) => f(props);

const stats = (frames: number, lastSeq: number, kept?: number[]): TabStats => ({ tabId: 1, frames, bytes: 0, dropped: 0, rejected: 0, lastSeq, segment: 0, errors: 0, ...(kept ? { kept } : {}) });

describe('the load model', () => {
  it('knows the total from the counters: all the log for a new panel, what follows its last frame for one reconnecting', () => {
    expect(framesAfter(stats(1000, 1000), 0)).toBe(1000);
    expect(framesAfter(stats(1000, 1000), 400)).toBe(600);
    expect(framesAfter(stats(1000, 1000), 1000)).toBe(0);
    // A trimmed log: seqs 5,001–6,000 plus two kept openers before them.
    expect(framesAfter(stats(1002, 6000, [3, 4000]), 0)).toBe(1002);
    expect(framesAfter(stats(1002, 6000, [3, 4000]), 100)).toBe(1001);
    expect(framesAfter(stats(1002, 6000, [3, 4000]), 5500)).toBe(500);
  });

  it('never goes backwards, and its total never reads below what was received', () => {
    const l = new BacklogLoad(10, 5000);
    l.receive(2000, false);
    expect(l.progress(10 + 1500)).toEqual({ loaded: 1500, total: 5000 });
    // A view started over (new settings) applies from further back: the count holds.
    expect(l.progress(10 + 200)).toEqual({ loaded: 1500, total: 5000 });
    // Not more than was received, whatever the index says.
    expect(l.progress(10 + 3000)).toEqual({ loaded: 2000, total: 5000 });
    l.receive(2000, false);
    l.receive(1500, true);
    // Frames written while the log was read came in the same backlog.
    expect(l.progress(10 + 5500)).toEqual({ loaded: 5500, total: 5500 });
    expect(loadLabel({ loaded: 23456, total: 148649 })).toBe("Loading the tab's log: 23,456 of 148,649 frames…");
    expect(loadFraction({ loaded: 5500, total: 5500 })).toBeLessThan(1);
    expect(Math.floor(loadFraction({ loaded: 23456, total: 148649 }) * 100)).toBe(15);
  });
});

describe('the store loading a large backlog', () => {
  it('one steady notice from connect to the view having it all; no waiting count; status "Loading the log…"', async () => {
    const log = syntheticTrace(12_000, 20, 3).frames.map((f, i) => ({ ...f, seq: i + 1 }));
    const s = new PanelStore();
    s.catchUpSliceMs = 0;
    s.setTabStatus('connecting');
    const seen: Array<{ loaded: number; total: number }> = [];
    // When the notice goes, the status line has the log's counters (it read "Live · 0 frames" for a frame).
    const countsAtEnd: Array<number | undefined> = [];
    const stop = s.loading.subscribe((v) => void (v !== null ? seen.push(v) : seen.length > 0 && countsAtEnd.push(s.stats.value?.frames)));
    s.receive({ type: 'stats', stats: stats(log.length, log.length) });
    // Known at connect: the whole total, nothing loaded.
    expect(s.loading.value).toEqual({ loaded: 0, total: log.length });
    const bar = () => render(h(StatusBar, { status: s.status.value, counts: { frames: log.length, dropped: 0, rejected: 0 }, waiting: s.waiting.value, paused: s.paused.value, loading: s.loading.value }));
    expect(bar()).toContain('Loading the log…');
    expect(bar()).not.toContain('Connecting…');
    for (let i = 0; i < log.length; i += 2000) {
      s.receive({ type: 'backlog', frames: log.slice(i, i + 2000), done: i + 2000 >= log.length });
      await new Promise((r) => setTimeout(r, 3));
      if (s.loading.value) {
        // Frames not applied yet are the notice's, not "waiting" (that is Pause's).
        expect(s.waiting.value === 0 || !bar().includes('waiting')).toBe(true);
        expect(bar()).toMatch(/\d+ of \d+ frames/);
      }
    }
    s.setTabStatus('live');
    for (let i = 0; i < 400 && s.loading.value !== null; i++) await new Promise((r) => setTimeout(r, 5));
    stop();
    expect(s.loading.value).toBeNull();
    expect(countsAtEnd).toEqual([log.length]);
    expect(seen.length).toBeGreaterThan(5);
    // One total throughout, and the count only goes up.
    expect(new Set(seen.map((p) => p.total))).toEqual(new Set([log.length]));
    const loaded = seen.map((p) => p.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(loaded.at(-1)!).toBeGreaterThan(log.length / 2);
    await settle(100);
    expect(s.snapshot.value!.lastSeq).toBe(log.length);
    expect(bar()).toContain('Live');
  });

  it('waiting is shown while paused only', () => {
    const html = (paused: boolean) => render(h(StatusBar, { status: 'live', counts: { frames: 10, dropped: 0, rejected: 0 }, waiting: 7, paused }));
    expect(html(false)).not.toContain('waiting');
    expect(html(true)).toContain('7 waiting');
  });

  it("a trim at the log's cap during the load moves the load's start with the frames: the count goes on (code review 3, Low)", async () => {
    const log = syntheticTrace(8_000, 20, 3).frames.map((f, i) => ({ ...f, seq: i + 1 }));
    const s = new PanelStore();
    s.add(log.slice(0, 3_000));
    await settle(200);
    s.catchUpSliceMs = 0;
    s.setTabStatus('reconnecting');
    s.receive({ type: 'stats', stats: stats(8_000, 8_000) });
    expect(s.loading.value).toEqual({ loaded: 0, total: 5_000 });
    const seen: number[] = [];
    const stop = s.loading.subscribe((v) => void (v !== null && seen.push(v.loaded)));
    s.receive({ type: 'backlog', frames: log.slice(3_000, 5_000), done: false });
    await new Promise((r) => setTimeout(r, 20));
    // The log dropped its oldest 4,500 frames (it holds 4,501–8,000): the panel, 1,500 over, trims from the front.
    s.receive({ type: 'stats', stats: stats(3_500, 8_000) });
    s.receive({ type: 'backlog', frames: log.slice(5_000), done: true });
    s.setTabStatus('live');
    for (let i = 0; i < 400 && s.loading.value !== null; i++) await new Promise((r) => setTimeout(r, 5));
    stop();
    expect(s.loading.value).toBeNull();
    // Counted on to the end, not stuck where the trim found it.
    expect(seen.at(-1)!).toBeGreaterThan(4_000);
    await settle(100);
  });
});
