// The Export button's tooltip: what it exports, or why there is nothing to.

/**
 * Export takes the view. A view emptied by a page that left (Preserve log off) is not "nothing captured": the log
 * holds that page's frames, and Preserve log brings them back into view (and into the export). The tooltip said
 * "no frames captured in this tab" beside "69 of earlier pages hidden" (a live review, 2026-12).
 */
export function exportTitle(o: { canExport: boolean; pageLeft: boolean; hiddenFrames: number; tabGone?: boolean; exporting?: 'trace' | 'HAR' }): string {
  // Disabled while an export runs (one at a time): its notice has the progress and Cancel.
  if (o.exporting) return `Exporting the ${o.exporting}: wait for it to finish, or cancel it in its notice`;
  if (o.canExport) return 'Export the trace or a HAR (redacted)';
  // The tab closed too: its log went with it and Preserve log is disabled, so no hint to check it.
  if (o.pageLeft && o.tabGone) return 'Nothing in view: the page left and the tab is closed';
  if (o.pageLeft) return 'Nothing in view: the page left; check Preserve log to export earlier pages';
  if (o.hiddenFrames > 0) return `Nothing in view yet: the log's ${o.hiddenFrames} frames are earlier pages; check Preserve log to export them`;
  return 'Nothing to export yet: no frames captured in this tab';
}

/**
 * The page-left notice's second line. With the tab closed (its page-end came, then the tab went) the log is gone and
 * Preserve log is disabled: it said "Its N frames are still in the tab's log: check Preserve log…" beside a status
 * line of 0 frames.
 */
export function pageLeftHint(o: { frames: number; tabGone: boolean }): string {
  if (o.tabGone) return 'The page left and the tab is closed: nothing of it is left to show or export. Import a trace: use Import, or drop the file here.';
  return `Its ${o.frames} frames are still in the tab's log: check Preserve log to keep earlier pages in view (and export them with it).`;
}
