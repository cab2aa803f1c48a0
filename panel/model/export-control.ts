// The Export button's tooltip: what it exports, or why there is nothing to.

/**
 * Export takes the view. A view emptied by a page that left (Preserve log off) is not "nothing captured": the log
 * holds that page's frames, and Preserve log brings them back into view (and into the export). The tooltip said
 * "no frames captured in this tab" beside "69 of earlier pages hidden" (a live review, 2026-12).
 */
export function exportTitle(o: { canExport: boolean; pageLeft: boolean; hiddenFrames: number }): string {
  if (o.canExport) return 'Export the trace or a HAR (redacted)';
  if (o.pageLeft) return 'Nothing in view: the page left; check Preserve log to export earlier pages';
  if (o.hiddenFrames > 0) return `Nothing in view yet: the log's ${o.hiddenFrames} frames are earlier pages; check Preserve log to export them`;
  return 'Nothing to export yet: no frames captured in this tab';
}
