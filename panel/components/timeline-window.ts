// The timeline's view state: the window of time shown, whether it follows live, how far the lanes are scrolled, and
// how a replay (the scrubber) moves them. Kept across a remount for the same source (switching views remounts the
// timeline: its zoom and pan must not be lost on the way to Findings and back); another source starts fresh. Only
// view state: what is drawn comes from the store.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { fitWindow, followLive, MAX_SPAN_MS, withCursorInView, zoomAt, type TimeWindow } from '../model/timeline.ts';

const FOLLOW_SPAN_MS = 2 * 60_000;

interface Kept {
  /** `tab <n>` or `import <n>` (PanelStore.timelineSource): what the state was for. */
  source: string;
  win: TimeWindow | null;
  follow: boolean;
  /** The span a zoom chose while following live (null: the default, FOLLOW_SPAN_MS or the data when shorter). */
  followSpan: number | null;
  scrollTop: number;
  /** Follow live as it was when a replay began (null: not replaying). */
  followBeforeScrub: boolean | null;
}

/** The timeline's state as last rendered (one panel per page: one timeline). */
let kept: Kept | undefined;

export interface WindowInput {
  live: boolean;
  source: number;
  now: number;
  /** The earliest and the last time of the data. */
  first: number;
  lastT: number;
  scrubT: number | null;
  /** A replay asked for and still under way. */
  pendingT: number | null;
  onScrub: (t: number | null) => void;
}

export function useTimelineWindow(p: WindowInput) {
  const { live, now, first, lastT, scrubT } = p;
  const sourceKey = `${live ? 'tab' : 'import'} ${p.source}`;
  const [back] = useState(() => (kept?.source === sourceKey ? kept : undefined));
  const [win, setWin] = useState<TimeWindow | null>(back?.win ?? null);
  const [follow, setFollow] = useState(back?.follow ?? live);
  const [followSpan, setFollowSpan] = useState<number | null>(back?.followSpan ?? null);
  const [scrollTop, setScrollTop] = useState(back?.scrollTop ?? 0);
  const followBeforeScrub = useRef<boolean | null>(back?.followBeforeScrub ?? null);

  // What a remount for the same source takes back, written as it changes: not on unmount, whose cleanup may run after
  // the next timeline has mounted (switching views quickly lost the window that way).
  kept = { source: sourceKey, win, follow, followSpan, scrollTop, followBeforeScrub: followBeforeScrub.current };
  const keepFollowBeforeScrub = (v: boolean | null) => {
    followBeforeScrub.current = v;
    if (kept?.source === sourceKey) kept.followBeforeScrub = v;
  };

  // The window: follow live (right edge at now, over the span a zoom chose, else two minutes or the data when
  // shorter), or fit the data once when there is no window yet.
  const shownWin: TimeWindow = useMemo(() => {
    if (follow && live) {
      if (followSpan !== null) return followLive({ start: 0, end: followSpan }, now);
      return now - first <= FOLLOW_SPAN_MS ? fitWindow(first, now) : followLive({ start: 0, end: FOLLOW_SPAN_MS }, now);
    }
    return win ?? fitWindow(first, live ? now : lastT);
  }, [follow, live, win, followSpan, first, now, lastT]);

  // While replaying, the window holds still (following live would slide it away from the cursor) and moves only to
  // bring a new cursor position into view, once per step: the user may still zoom and pan. "Back to live" resumes
  // following live if it was on; if not, the window stays as the user left it (zoomed, panned).
  useEffect(() => {
    if (scrubT === null) {
      if (followBeforeScrub.current !== null) setFollow(followBeforeScrub.current);
      keepFollowBeforeScrub(null);
      return;
    }
    const moved = withCursorInView(shownWin, scrubT);
    if (followBeforeScrub.current === null) {
      // The first step: the window freezes where it is now (moved to show the cursor if it does not).
      keepFollowBeforeScrub(follow);
      setFollow(false);
      setWin(moved);
    } else if (moved !== shownWin) setWin(moved);
    // Only a new cursor position does this (not a zoom or a pan of the user's).
  }, [scrubT]);

  // Another source (an import, another import, back to the tab: each has its own index): its own window, fitted or
  // following, and its lanes from the top. Not on a remount for the same source: that keeps what it had.
  const shownSource = useRef(sourceKey);
  useEffect(() => {
    if (shownSource.current === sourceKey) return;
    shownSource.current = sourceKey;
    setWin(null);
    setScrollTop(0);
    setFollow(live);
    setFollowSpan(null);
    keepFollowBeforeScrub(null);
  }, [sourceKey]);

  /** A window of the user's (zoom, pan, fit): following live stops. */
  const setWindow = (w: TimeWindow) => {
    setFollow(false);
    setWin(w);
  };

  /**
   * Zoom by `factor` (0.5: in, 2: out) at `anchor`, the span at most `maxSpan`. While following live the zoom is
   * anchored at now and following goes on: the window's right edge stays at now and only its span changes (zooming
   * out from the middle moved the window off the live edge and stopped following).
   */
  const zoom = (factor: number, anchor: number, maxSpan = MAX_SPAN_MS) => {
    if (follow && live) {
      const next = zoomAt(shownWin, factor, now, maxSpan);
      setFollowSpan(next.end - next.start);
    } else setWindow(zoomAt(shownWin, factor, anchor, maxSpan));
  };

  /**
   * Follow live on or off (the checkbox, F). Off: the window freezes where it is (the live tail being looked at), not
   * where it was before following. On while replaying: back to live, following — the cursor would leave the view
   * otherwise, with no step bringing it back.
   */
  const setFollowing = (on: boolean) => {
    if (!on) return setWindow(shownWin);
    setFollow(true);
    if (scrubT !== null) keepFollowBeforeScrub(true);
    if (scrubT !== null || p.pendingT !== null) p.onScrub(null);
  };

  return { shownWin, follow, setWindow, setFollowing, zoom, scrollTop, setScrollTop };
}
