// Export's tooltip when it is disabled: a view emptied by a page that left is not "nothing captured" (a live review,
// 2026-12: "Nothing to export yet: no frames captured in this tab" beside "69 of earlier pages hidden").
import { describe, expect, it } from 'vitest';
import { exportTitle, pageLeftHint } from '../../../panel/model/export-control.ts';

describe('exportTitle', () => {
  it('the page left: says nothing is in view and that Preserve log brings earlier pages into the export', () => {
    const t = exportTitle({ canExport: false, pageLeft: true, hiddenFrames: 69 });
    expect(t).toBe('Nothing in view: the page left; check Preserve log to export earlier pages');
    expect(t).not.toMatch(/no frames captured/);
  });

  it('earlier pages hidden without a page-left notice: names them; nothing in the log: nothing captured', () => {
    expect(exportTitle({ canExport: false, pageLeft: false, hiddenFrames: 12 })).toMatch(/12 frames are earlier pages; check Preserve log/);
    expect(exportTitle({ canExport: false, pageLeft: false, hiddenFrames: 0 })).toBe('Nothing to export yet: no frames captured in this tab');
    expect(exportTitle({ canExport: true, pageLeft: false, hiddenFrames: 5 })).toBe('Export the trace or a HAR (redacted)');
  });

  it('the page left and the tab is closed: says so, without the Preserve log hint (disabled, and the log is gone)', () => {
    const t = exportTitle({ canExport: false, pageLeft: true, hiddenFrames: 0, tabGone: true });
    expect(t).toBe('Nothing in view: the page left and the tab is closed');
    expect(t).not.toMatch(/Preserve log/);
    expect(exportTitle({ canExport: false, pageLeft: true, hiddenFrames: 0, tabGone: false })).toMatch(/check Preserve log/);
  });
});

describe('pageLeftHint', () => {
  it('names the frames still in the log and Preserve log while the tab is open', () => {
    expect(pageLeftHint({ frames: 69, tabGone: false })).toMatch(/^Its 69 frames are still in the tab's log: check Preserve log/);
  });

  it('with the tab closed: the page left and the tab is closed, no frames in a log, no Preserve log hint', () => {
    const t = pageLeftHint({ frames: 69, tabGone: true });
    expect(t).toMatch(/the page left and the tab is closed/i);
    expect(t).not.toMatch(/Preserve log|69|still in the tab's log/);
  });
});
