// The live view's note when the log's cap dropped frames its findings rested on: how many of the view's frames went
// (not those of earlier pages, not those the panel still holds, not those queued behind a pause), and what it says.
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/frames.ts';
import type { TabStats } from '../../../shared/messages.ts';
import { capLoss, capNote } from '../../../panel/model/cap-note.ts';

const f = (seq: number, kind: Frame['kind'] = 'http-request') => ({ seq, kind }) as Frame;
/** The frames `from..to` (inclusive), a page-start first when `page`. */
const run = (from: number, to: number, page = false) => Array.from({ length: to - from + 1 }, (_, i) => f(from + i, page && i === 0 ? 'page-start' : 'http-request'));
const stats = (p: Partial<TabStats> & { frames: number; lastSeq: number; dropped: number }): TabStats => ({ tabId: 1, bytes: 0, rejected: 0, segment: 1, errors: 0, ...p });

describe('capLoss', () => {
  it('counts the seqs of the view the log dropped and the panel no longer holds', () => {
    // The log held 1..5000, then dropped 1..3000 but kept the page-start (seq 1); the panel followed.
    const frames = [f(1, 'page-start'), ...run(3001, 5000)];
    const s = stats({ frames: 2001, lastSeq: 5000, dropped: 2999, kept: [1] });
    expect(capLoss(frames, 0, frames.length, s, false)).toBe(2999);
    expect(capLoss(frames, 0, frames.length, s, true)).toBe(2999);
  });

  it('nothing while the panel still holds what the log dropped (its slack), or when nothing was dropped', () => {
    const frames = run(1, 5000, true);
    expect(capLoss(frames, 0, frames.length, stats({ frames: 4500, lastSeq: 5000, dropped: 500 }), false)).toBe(0);
    expect(capLoss(frames, 0, frames.length, stats({ frames: 5000, lastSeq: 5000, dropped: 0 }), false)).toBe(0);
  });

  it("without preserve log, an earlier page's dropped frames are not the view's: counted from the view's page-start", () => {
    // Page 1 was 1..3000 (dropped), page 2 began at 3001 and the view starts there.
    const frames = run(3001, 5000, true);
    const s = stats({ frames: 2000, lastSeq: 5000, dropped: 3000 });
    expect(capLoss(frames, 0, frames.length, s, false)).toBe(0);
    // With preserve log they were the view's history.
    expect(capLoss(frames, 0, frames.length, s, true)).toBe(3000);
    // Frames before the view (an earlier page the panel still holds) are not counted as held by the view.
    const held = [...run(2001, 3000, true), ...frames];
    expect(capLoss(held, 1000, held.length, stats({ frames: 2000, lastSeq: 5000, dropped: 3000 }), false)).toBe(0);
  });

  it('frames not yet taken (queued behind a pause, dropped from the queue) do not count until the view takes them', () => {
    // Paused at 2000: the view took 1..2000; the log dropped up to 4000 meanwhile, the queue lost 2001..4000.
    const frames = [...run(1, 2000, true), ...run(4001, 6000)];
    const s = stats({ frames: 2000, lastSeq: 6000, dropped: 4000 });
    expect(capLoss(frames, 0, 2000, s, false)).toBe(0);
    // Resumed and rebuilt from the log: the view's history lacks 2..4000 (its page-start went too: counted from seq 1).
    const rebuilt = run(4001, 6000);
    expect(capLoss(rebuilt, 0, rebuilt.length, s, false)).toBe(4000);
  });

  it('at most what the log dropped (seqs before a Clear are not dropped ones)', () => {
    // Cleared at 3000 (the log counts from 0 dropped again), then 3001..6000 came, 1,000 of them dropped.
    const frames = run(4001, 6000);
    expect(capLoss(frames, 0, frames.length, stats({ frames: 2000, lastSeq: 6000, dropped: 1000 }), true)).toBe(1000);
  });

  it('an empty view (the page left, nothing taken yet) has lost nothing', () => {
    const frames = run(3001, 5000);
    expect(capLoss(frames, 2000, 2000, stats({ frames: 2000, lastSeq: 5000, dropped: 3000 }), false)).toBe(0);
  });
});

describe('capNote', () => {
  it('none when nothing the view rested on was dropped', () => {
    expect(capNote(0, 0, 40)).toBeNull();
  });

  it('says what happened and what to do; the badge when it counts more errors than the view', () => {
    const n = capNote(22491, 0, 40)!;
    expect(n.text).toBe(
      "The log's cap dropped the oldest 22,491 frames of this view; findings that rested on them — a read, a subscribe, a session's end — are no longer shown; the toolbar badge still counts 40 errors. To keep them: raise Max frames in ⚙, or export before the cap.",
    );
    expect(n.short).toBe('partial: 22,491 frames dropped');
    expect(n.badgeDiffers).toBe(true);
    expect(n.detail).toContain(n.text);
    expect(n.detail).toMatch(/badge's analysis, in the background, keeps what the dropped frames established/);
    // The same count, or no badge known: nothing said about it.
    expect(capNote(1, 40, 40)!.text).not.toMatch(/badge/);
    expect(capNote(1, 0, undefined)!.badgeDiffers).toBe(false);
    expect(capNote(1, 0, 1)!.text).toMatch(/oldest 1 frame of this view.*still counts 1 error\./);
  });

  it('names the findings carried across the cap, as they stood', () => {
    expect(capNote(22491, 40, 40, 40)!.text).toBe(
      "The log's cap dropped the oldest 22,491 frames of this view; 40 open findings about URIs only those frames named are carried across as they stood (marked “carried across the log’s cap”); other findings that rested on them — a read, a subscribe, a session's end — are no longer shown. To keep them: raise Max frames in ⚙, or export before the cap.",
    );
    expect(capNote(5, 1, 1, 1)!.text).toMatch(/; 1 open finding about URIs only those frames named is carried across as it stood/);
  });
});
