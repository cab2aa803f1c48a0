// What the status line counts as the log's frames beside the page in view.

/**
 * The frames the status line counts, and the page in view's (undefined when the view leaves nothing out: then the
 * line says only `N frames`). Once the tab is closed its log is gone in the background: the frames of earlier pages
 * it held no longer exist anywhere, so the line counts what the view shows, without "(N of earlier pages hidden)"
 * (it kept saying "177 frames (508 of earlier pages hidden)" under "Tab … was closed: its log is gone": a live review).
 */
export function statusFrameCounts(logFrames: number, inView: number | undefined, tabGone: boolean): { frames: number; inView: number | undefined } {
  if (tabGone && inView !== undefined) return { frames: inView, inView: undefined };
  return { frames: logFrames, inView };
}

/** The frames of earlier pages the view leaves out (0 when none, or when the tab and its log are gone). */
export function hiddenFrameCount(logFrames: number, inView: number | undefined, tabGone: boolean): number {
  const c = statusFrameCounts(logFrames, inView, tabGone);
  return c.inView === undefined ? 0 : Math.max(0, c.frames - c.inView);
}
