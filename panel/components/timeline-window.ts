// The timeline's view state: the window of time shown, whether it follows live, how far the lanes are scrolled, and
// how a replay (the scrubber) moves them. Kept across a remount for the same source (switching views remounts the
// timeline: its zoom and pan must not be lost on the way to Findings and back); another source starts fresh. Only
// view state: what is drawn comes from the store.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { fitWindow, followLive, withCursorInView, type TimeWindow } from '../model/timeline.ts';

const FOLLOW_SPAN_MS = 2 * 60_000;

interface Kept {
  /** `tab <n>` or `import <n>` (PanelStore.timelineSource): what the state was for. */
  source: string;
  win: TimeWindow | null;
  follow: boolean;
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
  const [scrollTop, setScrollTop] = useState(back?.scrollTop ?? 0);
  const followBeforeScrub = useRef<boolean | null>(back?.followBeforeScrub ?? null);

  // What a remount for the same source takes back, written as it changes: not on unmount, whose cleanup may run after
  // the next timeline has mounted (switching views quickly lost the window that way).
  kept = { source: sourceKey, win, follow, scrollTop, followBeforeScrub: followBeforeScrub.current };
  const keepFollowBeforeScrub = (v: boolean | null) => {
    followBeforeScrub.current = v;
    if (kept?.source === sourceKey) kept.followBeforeScrub = v;
  };

  // The window: follow live (right edge at now), or fit the data once when there is no window yet.
  const shownWin: TimeWindow = useMemo(() => {
    if (follow && live) return now - first <= FOLLOW_SPAN_MS ? fitWindow(first, now) : followLive({ start: 0, end: FOLLOW_SPAN_MS }, now);
    return win ?? fitWindow(first, live ? now : lastT);
  }, [follow, live, win, first, now, lastT]);

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
    keepFollowBeforeScrub(null);
  }, [sourceKey]);

  /** A window of the user's (zoom, pan, fit): following live stops. */
  const setWindow = (w: TimeWindow) => {
    setFollow(false);
    setWin(w);
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

  return { shownWin, follow, setWindow, setFollowing, scrollTop, setScrollTop };
}
