// Export's tooltip when it is disabled: a view emptied by a page that left is not "nothing captured" (a live review,
// 2026-12: "Nothing to export yet: no frames captured in this tab" beside "69 of earlier pages hidden").
import { describe, expect, it } from 'vitest';
import { exportTitle } from '../../../panel/model/export-control.ts';

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
});
