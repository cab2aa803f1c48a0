// The live view's note when the log's cap dropped frames its analysis rested on (docs/panel.md, "Caps"). An open
// panel follows the log's trim and rebuilds its engine from what the log still holds (PanelStore.trimToLog): state
// those frames established (a read that cached a URI, a subscribe, a session's end) is gone from the view, and a
// finding that rested on it (cached but nobody subscribed) goes with it, an error turning green without anything
// having changed on the page. The badge's engine in the background keeps such state (background/badge.ts), so it can
// count errors the view no longer shows. Pure.
import type { Frame } from '../../shared/frames.ts';
import type { TabStats } from '../../shared/messages.ts';

/** The index, in `frames[from..to)` (in seq order), of the first frame at or after `seq`. */
function lowerBound(frames: readonly Frame[], from: number, to: number, seq: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (frames[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first seq of the run the log holds without gaps (as PanelStore's firstKeptOf): before it, only `stats.kept`. */
function firstKeptOf(stats: TabStats): number {
  return stats.lastSeq - (stats.frames - (stats.kept?.length ?? 0)) + 1;
}

/**
 * How many frames of the view's history the log dropped at its cap before the view's engine took them: the seqs
 * missing among `frames[viewStart..applied)` (what the engine in view took, in seq order) from where the view's
 * history begins to the log's first frame held without gaps. The view's history begins at its page-start without
 * "preserve log" (earlier pages' frames are none of its business), at the first seq with it. A panel holds frames
 * the log has dropped until it trims (a tenth over the log): those count as not lost. Frames queued behind a pause
 * are not counted until the view takes them. At most `stats.dropped` (seqs before a Clear are not dropped ones).
 */
export function capLoss(frames: readonly Frame[], viewStart: number, applied: number, stats: TabStats, preserveLog: boolean): number {
  if (stats.dropped <= 0 || applied <= viewStart) return 0;
  const first = frames[viewStart]!;
  const lo = !preserveLog && first.kind === 'page-start' ? first.seq + 1 : 1;
  // Nothing past the last frame taken counts: a gap there is frames not yet taken, or dropped while paused.
  const hi = Math.min(firstKeptOf(stats), frames[applied - 1]!.seq + 1);
  if (hi <= lo) return 0;
  const held = lowerBound(frames, viewStart, applied, hi) - lowerBound(frames, viewStart, applied, lo);
  return Math.max(0, Math.min(stats.dropped, hi - lo - held));
}

export interface CapNote {
  /** Frames of the view's history the cap dropped. */
  lost: number;
  /** The note's line (atop the Findings view, beside the view tabs). */
  text: string;
  /** The short mark by the findings counts. */
  short: string;
  /** The whole explanation, for tooltips. */
  detail: string;
  /** The badge counts more errors than the view: said in `text`. */
  badgeDiffers: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The note, or null when the cap dropped nothing the view rested on. `viewErrors`: the view's open errors;
 * `badgeErrors`: the tab's (stats.errors, the badge's count for its current page), when known; `carried`: open
 * findings about URIs shown as they stood at the trim (panel/carried-findings.ts).
 */
export function capNote(lost: number, viewErrors: number, badgeErrors: number | undefined, carried = 0): CapNote | null {
  if (lost <= 0) return null;
  const badgeDiffers = badgeErrors !== undefined && badgeErrors > viewErrors;
  const dropped = `The log's cap dropped the oldest ${plural(lost, 'frame')} of this view`;
  const what =
    carried > 0
      ? `${dropped}; ${plural(carried, 'open finding')} about URIs only those frames named ${carried === 1 ? 'is' : 'are'} carried across as ${carried === 1 ? 'it' : 'they'} stood (marked “carried across the log’s cap”); other findings that rested on them — a read, a subscribe, a session's end — are no longer shown`
      : `${dropped}; findings that rested on them — a read, a subscribe, a session's end — are no longer shown`;
  const badge = badgeDiffers ? `; the toolbar badge still counts ${plural(badgeErrors, 'error')}` : '';
  const todo = 'To keep them: raise Max frames in ⚙, or export before the cap.';
  const why =
    "The panel rebuilds its analysis from the frames the log still holds; what it showed about URIs those frames do not name stays, frozen, until they are named again. The badge's analysis, in the background, keeps what the dropped frames established (it is rebuilt from the log only past 1.2 × the cap on a page naming over 10,000 URIs and sessions), so it can count errors this view no longer shows.";
  return { lost, text: `${what}${badge}. ${todo}`, short: `partial: ${plural(lost, 'frame')} dropped`, detail: `${what}${badge}. ${todo} ${why}`, badgeDiffers };
}
