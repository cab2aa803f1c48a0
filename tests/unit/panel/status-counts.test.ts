// The status line's frame counts once the tab is closed: its log is gone, so no "(N of earlier pages hidden)" (a live
// review, 2026-12: "177 frames (508 of earlier pages hidden)" under "Tab … was closed: its log is gone").
import { describe, expect, it } from 'vitest';
import { hiddenFrameCount, statusFrameCounts } from '../../../panel/model/status-counts.ts';

describe('statusFrameCounts', () => {
  it('a live tab: the log and the page in view, the rest hidden', () => {
    expect(statusFrameCounts(685, 177, false)).toEqual({ frames: 685, inView: 177 });
    expect(hiddenFrameCount(685, 177, false)).toBe(508);
    expect(statusFrameCounts(40, undefined, false)).toEqual({ frames: 40, inView: undefined });
  });

  it('the tab closed: counts the frames in view, nothing hidden', () => {
    expect(statusFrameCounts(685, 177, true)).toEqual({ frames: 177, inView: undefined });
    expect(hiddenFrameCount(685, 177, true)).toBe(0);
  });
});
