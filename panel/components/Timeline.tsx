// The subscription timeline: a lane per session / listen stream and per URI (in the table's order and filter), drawn
// on a canvas; lane names in the DOM beside it. Wheel zooms at the pointer, drag pans, shift+wheel scrolls lanes,
// keys + − 0 ← → F do the same from the keyboard; a click opens the message under the pointer (or selects the lane's
// URI). "Follow live" keeps the right edge at now. The scrubber replays the engine up to any instant and every view
// shows the state then.
import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { EngineSnapshot, MessageList, Severity, UriRow } from '../../shared/engine/index.ts';
import type { Filter } from '../model/filter.ts';
import { formatClock, formatDuration } from '../model/format.ts';
import {
  describeRead,
  laneNowOf,
  staleAt,
  staleSeverityAt,
  fitWindow,
  LANE_H,
  maxZoomSpan,
  panBy,
  sessionLanes,
  sessionLanesMatching,
  sessionLaneTitle,
  staleIntervals,
  positionOf,
  scrubSteps,
  tOf,
  uriLaneHit,
  type TimeWindow,
  type TimelineIndex,
} from '../model/timeline.ts';
import { clientKeyOf, sessionClientTags, snapshotClientTags } from '../model/client-tags.ts';
import { isMessageStop, stopWhat } from '../model/scrub-stop.ts';
import { CATALOGUE } from '../../shared/findings/catalogue.ts';
import { probe } from '../perf.ts';
import { THEME_CHANGE } from '../store.ts';
import { AXIS_H, drawTimeline, paletteOf, type DrawInput, type LaneSpec } from './timeline-draw.ts';
import { useTimelineWindow } from './timeline-window.ts';
import { UriText } from './UriTable.tsx';

interface Props {
  /** The state the lanes show (the replayed one while scrubbing). */
  snapshot: EngineSnapshot | null;
  /** Every message so far (not only the replayed ones): the scrubber steps through them. */
  messages: MessageList | undefined;
  /** The time of the last frame of the whole log (the window's fit does not follow the scrubber). */
  endT: number | undefined;
  index: TimelineIndex;
  /** Changes when the view starts over (PanelStore.timelineSource); not when a rebuild's index replaces this one. */
  source: number;
  rows: UriRow[];
  filter: Filter;
  selectedKey: string | null;
  now: number;
  live: boolean;
  scrubT: number | null;
  /** A stop asked for whose replay is still under way: the slider stays where the user put it. */
  pendingT?: number | null;
  onSelectUri: (key: string) => void;
  onOpenMessage: (index: number) => void;
  onOpenSession: (key: string) => void;
  onScrub: (t: number | null) => void;
}

/** The lane names' column: 30% of the timeline's width, at least 96 px and at most 200 (a wide panel: always 200). */
function labelWidth(bodyWidth: number): number {
  return Math.round(Math.min(200, Math.max(96, bodyWidth * 0.3)));
}

/** The legend in words (the tooltip of the legend, and of the title when a short panel hides the legend). */
const LEGEND_TEXT =
  'Legend: ▲ subscribe, ▼ unsubscribe, ◆ notification, ▬ read (request → answer; reads at once stacked), red ▬ failed, shaded band stale cache (in its finding\'s colour: red error, amber warning, blue info), ▨ no delivery channel, ┆ session ended';

/**
 * The stale bands' swatches: a band is drawn in its finding's severity colour (timeline-draw.ts), so the legend shows
 * the three (it showed a red one only), each saying what it means on hover.
 */
const STALE_SWATCHES = [
  { severity: 'error', title: 'Stale cache, error: a red band — the finding that makes the cache stale is an error (as the row\'s status)' },
  { severity: 'warning', title: 'Stale cache, warning: an amber band — the finding that makes the cache stale is a warning' },
  { severity: 'info', title: 'Stale cache, info: a blue band — the finding that makes the cache stale is informational (say, older than an expected age that was only guessed)' },
] as const;

function TimelineView(props: Props) {
  const { snapshot, index, rows, filter, selectedKey, now, live, scrubT } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const size = useBodySize(bodyRef);
  const drag = useRef<{ x: number; moved: boolean; win: TimeWindow } | null>(null);

  // While scrubbing, sessions and stale spans are as known at the stop (the replayed snapshot's instant), not at now.
  const laneNow = laneNowOf(snapshot, scrubT, now);
  const lanes: LaneSpec[] = useMemo(() => {
    if (!snapshot) return [];
    // By the names the lane shows (sessionNames, as the Sessions grid), not the key (a listen's holds its page and
    // endpoint), and by its client's tag, as the grid.
    const sl = sessionLanesMatching(sessionLanes(snapshot.sessions, snapshot.streams, laneNow, snapshot.streamsKnownFrom), filter, sessionClientTags(snapshot))
      .sort((a, b) => a.start - b.start)
      .map((s): LaneSpec => ({ kind: 'session', id: `session:${s.key}`, label: s.label, session: s }));
    const stale = staleIntervals(snapshot, laneNow);
    const tags = snapshotClientTags(snapshot);
    const ul = rows.map(
      (r): LaneSpec => ({ kind: 'uri', id: r.key, label: tags.has(clientKeyOf(r)) ? `${r.uri} (${tags.get(clientKeyOf(r))})` : r.uri, client: tags.get(clientKeyOf(r)), uri: r.uri, lane: index.lanes.get(r.key), stale: stale.get(r.key) ?? [], selected: r.key === selectedKey }),
    );
    return [...sl, ...ul];
    // The index grows in place; `snapshot` changes whenever it did.
  }, [snapshot, index, rows, filter, selectedKey, laneNow]);

  const boundaries = useMemo(() => (snapshot ? snapshot.sessions.filter((s) => !s.open && s.endT !== undefined).map((s) => s.endT!) : []), [snapshot]);

  const first = useMemo(() => {
    let t = index.firstT ?? now;
    for (const s of snapshot?.sessions ?? []) t = Math.min(t, s.startT);
    return t;
  }, [snapshot, index, now]);
  /** The last thing that happened (fit shows the data, not the quiet time after it). */
  const lastT = Math.max(first + 1, Math.min(now, props.endT ?? now));
  const maxSpan = maxZoomSpan((live ? now : lastT) - first);

  const { shownWin, follow, setWindow, setFollowing, zoom, scrollTop, setScrollTop } = useTimelineWindow({
    live,
    source: props.source,
    now,
    first,
    lastT,
    scrubT,
    pendingT: props.pendingT ?? null,
    onScrub: props.onScrub,
  });

  // The listeners that live as long as the timeline are set up by hooks of their own (below): a closure made in this
  // render would hold its scope, and with it this render's snapshot, for as long as the timeline stays mounted.
  useRedrawOnDisplayChange();
  useDragEndsAnywhere(drag);

  // Fewer lanes than before (a filter, a selection): the lanes scrolled past come back rather than an empty view.
  const maxLaneTop = Math.max(0, lanes.length * LANE_H + AXIS_H - size.h);
  const laneTop = Math.min(scrollTop, maxLaneTop);
  const firstLane = Math.floor(laneTop / LANE_H);
  const offsetY = -(laneTop % LANE_H);
  const visibleCount = Math.ceil((size.h - AXIS_H) / LANE_H) + 1;

  // The canvas is drawn in the animation frame after the render that changed it: a live update's DOM work and its
  // canvas work land in different frames. Several renders before that frame draw once, with the latest input.
  // Except when the lanes beside it changed (order, filter, scroll) or the page is hidden: then it is drawn now, with
  // the DOM. The lane names, the canvas and the hover's hit-testing must show the same lanes, and a hidden page gets a
  // frame seldom (one a screenshot forces): names re-sorted in one frame over marks drawn in the old order stayed for
  // seconds (a walkthrough, 2026-12-05).
  const pending = useRef<{ input: Omit<DrawInput, 'ctx' | 'p'>; frame: number } | null>(null);
  const drawnLanes = useRef('');
  useLayoutEffect(() => {
    const input = { width: size.w, height: size.h, window: shownWin, lanes, firstLane, offsetY, now, scrubT, boundaries };
    const shown = lanes.slice(firstLane, firstLane + visibleCount).map((l) => l.id).join('\n');
    if (shown !== drawnLanes.current || globalThis.document?.visibilityState === 'hidden') {
      if (pending.current) cancelAnimationFrame(pending.current.frame);
      pending.current = null;
      drawnLanes.current = shown;
      paint(canvasRef.current, input);
      return;
    }
    if (pending.current) {
      pending.current.input = input;
      return;
    }
    const frame = requestAnimationFrame((ts) => {
      probe.work(ts);
      probe.did('canvas');
      const job = pending.current;
      pending.current = null;
      if (job) paint(canvasRef.current, job.input);
    });
    pending.current = { input, frame };
  });
  useCancelOnUnmount(pending);

  /** What is under the pointer: a session, a mark, a read bar, or just a URI lane (by where in the lane, as drawn). */
  const under = (clientX: number, clientY: number) => {
    const c = canvasRef.current!;
    const r = c.getBoundingClientRect();
    const x = clientX - r.left;
    const y = clientY - r.top - AXIS_H - offsetY;
    if (y < 0) return undefined;
    const k = Math.floor(y / LANE_H);
    const lane = lanes[firstLane + k];
    if (!lane) return undefined;
    const t = tOf(shownWin, x, size.w);
    const tol = ((shownWin.end - shownWin.start) / size.w) * 4;
    if (lane.kind === 'session' || !lane.lane) return { lane, t, tol, mark: undefined, bar: undefined };
    return { lane, t, tol, ...uriLaneHit(lane.lane, t, y - k * LANE_H, tol, now) };
  };

  const hit = (clientX: number, clientY: number) => {
    const u = under(clientX, clientY);
    if (!u) return;
    if (u.lane.kind === 'session') return props.onOpenSession(u.lane.session.key);
    if (u.mark) return props.onOpenMessage(u.mark.index);
    if (u.bar) return props.onOpenMessage(u.bar.index);
    props.onSelectUri(u.lane.id);
  };

  // Hover says what a click would open (the canvas's title), and the pointer shows that it is clickable.
  const [tip, setTip] = useState<{ text: string; clickable: boolean }>({ text: '', clickable: false });
  const hover = (clientX: number, clientY: number) => {
    const u = under(clientX, clientY);
    let text = '';
    let clickable = false;
    if (u?.lane.kind === 'session') {
      const s = u.lane.session;
      text = `${s.label}: from ${formatClock(s.start)}${s.end !== undefined ? ` to ${formatClock(s.end)}${s.endCause ? ` (${s.endCause})` : ''}` : ', open'} — click for the session`;
      clickable = true;
    } else if (u?.mark) {
      const what = u.mark.kind === 'notify' ? 'notification' : u.mark.kind === 'subscribe' ? (u.mark.failed ? 'subscribe (failed)' : 'subscribe') : 'unsubscribe';
      text = `${what} at ${formatClock(u.mark.t)} — click for the message`;
      clickable = true;
    } else if (u?.bar) {
      text = `${describeRead(u.bar)} — click for the request`;
      clickable = true;
    } else if (u) {
      // Over a stale band: which finding it is (it said only the URI).
      const band = u.lane.kind === 'uri' ? staleAt(u.lane.stale, u.t, u.tol) : undefined;
      text = band?.id ? `${u.lane.label}: ${band.title ?? CATALOGUE[band.id].title} (${band.severity}) — click to select` : `${u.lane.label} — click to select`;
    }
    if (text !== tip.text || clickable !== tip.clickable) setTip({ text, clickable });
  };

  const visibleLanes = lanes.slice(firstLane, firstLane + visibleCount);
  // The lane names are one Tab stop (roving tabindex): the lane last focused, or the first in sight; ↑ ↓ Home End
  // PgUp PgDn move among all the lanes (scrolling them), Enter or Space acts on the one focused.
  const [activeLane, setActiveLane] = useState<string | null>(null);
  const tabLane = visibleLanes.some((l) => l.id === activeLane) ? activeLane : (visibleLanes[0]?.id ?? null);
  const focusLane = useRef<string | null>(null);
  useEffect(() => {
    const id = focusLane.current;
    if (id === null) return;
    focusLane.current = null;
    for (const el of bodyRef.current?.querySelectorAll<HTMLElement>('.lane-label') ?? []) if (el.dataset.laneId === id) el.focus({ preventScroll: true });
  });
  const laneKeys = (e: KeyboardEvent) => {
    const from = (e.target as HTMLElement).dataset?.laneId;
    const at = lanes.findIndex((l) => l.id === from);
    if (at < 0) return;
    const inSight = Math.max(1, Math.floor((size.h - AXIS_H) / LANE_H));
    const k = e.key;
    const to =
      k === 'ArrowDown' ? at + 1 : k === 'ArrowUp' ? at - 1 : k === 'Home' ? 0 : k === 'End' ? lanes.length - 1 : k === 'PageDown' ? at + inSight : k === 'PageUp' ? at - inSight : null;
    if (to === null) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(lanes.length - 1, to));
    // Brought into sight, wholly.
    if (i * LANE_H < laneTop) setScrollTop(i * LANE_H);
    else if ((i + 1) * LANE_H + AXIS_H > laneTop + size.h) setScrollTop((i + 1) * LANE_H + AXIS_H - size.h);
    setActiveLane(lanes[i]!.id);
    focusLane.current = lanes[i]!.id;
  };
  /** Lanes below the view (not even partly shown): said, so none is hidden without a sign. */
  const lanesBelow = Math.max(0, lanes.length - firstLane - Math.floor((size.h - AXIS_H - offsetY) / LANE_H));
  // The scrubber steps message by message (a burst of traffic and the quiet minute after it get the same room as the
  // traffic deserves): position k replays up to message k's time, the last position is the end (or live).
  // (A change of state with no message is a stop too: a stream that ends after the last message adds one.)
  const steps = useMemo(() => scrubSteps(props.messages), [props.messages?.store, props.messages?.count, props.messages?.store.turns.length]);
  const thumbT = props.pendingT ?? scrubT;
  const scrubPos = thumbT === null ? steps.length : positionOf(steps, thumbT);
  const scrubCount = thumbT === null || steps.length === 0 ? 0 : steps.upTo[scrubPos]!;
  const total = steps.length ? steps.upTo[steps.length - 1]! : 0;
  const replaying = props.pendingT != null;
  // A stop with no message says what it is (a stream closed, a session ended), beside its instant and in the value text.
  const stopKind = thumbT !== null && steps.length > 0 && !isMessageStop(steps, scrubPos, props.messages) ? (stopWhat(snapshot ?? undefined, props.messages, steps.t[scrubPos]!) ?? 'state changed, no message') : undefined;
  const scrubLabel = thumbT !== null ? `${formatClock(thumbT)}${stopKind ? ` · ${stopKind}` : ''}` : live ? 'live' : 'end';

  return (
    <section class="timeline" aria-label="Subscription timeline">
      <header class="pane-head">
        <span title={LEGEND_TEXT}>Timeline</span>
        <span class="muted">{`${formatDuration(shownWin.end - shownWin.start)} shown`}</span>
        <span class="spacer" />
        <button type="button" aria-label="Zoom in" title="Zoom in (+)" onClick={() => zoom(0.5, (shownWin.start + shownWin.end) / 2)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out (−)" onClick={() => zoom(2, (shownWin.start + shownWin.end) / 2, maxSpan)}>
          −
        </button>
        <button type="button" aria-label="Fit all" title="Fit the data (0)" onClick={() => setWindow(fitWindow(first, lastT))}>
          ⤢
        </button>
        {live ? (
          <label class="check" title="Keep the right edge at now (F)">
            <input type="checkbox" checked={follow} onChange={(e) => setFollowing(e.currentTarget.checked)} aria-label="Follow live" /> Follow live
          </label>
        ) : null}
        <span class="scrub-group">
          <label class="scrub">
            <span>Replay to</span>
            <input
              type="range"
              aria-label="Replay up to"
              aria-valuetext={
                thumbT !== null
                  ? `${formatClock(thumbT)}${stopKind ? `, ${stopKind}, after` : ','} ${scrubCount} of ${total} messages, stop ${scrubPos + 1} of ${steps.length}${replaying ? ', replaying' : ''}`
                  : live
                    ? 'live'
                    : 'the end'
              }
              min={0}
              max={Math.max(1, steps.length)}
              step={1}
              value={scrubPos}
              disabled={steps.length === 0}
              onInput={(e) => {
                const k = Number(e.currentTarget.value);
                props.onScrub(k >= steps.length ? null : steps.t[k]!);
              }}
            />
            {/* Not an <output> (a live region): the slider's value text already says each step (accessibility audit). */}
            <span class="scrub-time" data-scrubbing={scrubT !== null} data-stop-kind={stopKind} title={stopKind ? scrubLabel : undefined} aria-hidden="true">
              {scrubLabel}
            </span>
          </label>
          {/* Always laid out (hidden when not scrubbing): the slider must not move under the pointer as a drag starts. */}
          <button
            type="button"
            class="primary scrub-back"
            aria-label={live ? 'Back to live' : 'Back to the end'}
            style={scrubT === null ? { visibility: 'hidden' } : undefined}
            onClick={(e) => {
              props.onScrub(null);
              // Focus stays on the scrubber rather than falling to the page when this button hides.
              (e.currentTarget.parentElement?.querySelector('.scrub input') as HTMLInputElement | null)?.focus();
            }}
          >
            {live ? 'Back to live' : 'Back to the end'}
          </button>
        </span>
      </header>
      <p class="timeline-legend" aria-label="Timeline legend" title={LEGEND_TEXT}>
        <span class="lg-sub">▲</span> subscribe <span class="lg-unsub">▼</span> unsubscribe <span class="lg-notify">◆</span> notification{' '}
        <span class="lg-read">▬</span> read (request → answer; reads at once stacked) <span class="lg-fail">▬</span> failed{' '}
        <span class="legend-stale" title="Stale cache: a band in its finding's colour — red error, amber warning, blue info">
          {STALE_SWATCHES.map((w) => (
            <span key={w.severity} class="lg-stale" data-severity={w.severity} title={w.title} aria-hidden="true">
              █
            </span>
          ))}{' '}
          stale cache<span class="sr-only"> (red error, amber warning, blue info)</span>
        </span>{' '}
        <span class="lg-gap">▨</span> no delivery channel <span class="lg-end">┆</span> session ended
      </p>
      <div
        class="timeline-body"
        ref={bodyRef}
        onWheel={(e) => {
          if (e.shiftKey || Math.abs(e.deltaY) < Math.abs(e.deltaX)) {
            if (e.shiftKey) setScrollTop(Math.max(0, Math.min(maxLaneTop, laneTop + e.deltaY)));
            else setWindow(panBy(shownWin, -e.deltaX, size.w));
          } else {
            const c = canvasRef.current!;
            const x = e.clientX - c.getBoundingClientRect().left;
            if (x < 0) {
              setScrollTop(Math.max(0, Math.min(maxLaneTop, laneTop + e.deltaY)));
              return;
            }
            zoom(e.deltaY > 0 ? 1.25 : 0.8, tOf(shownWin, x, size.w), maxSpan);
          }
          e.preventDefault();
        }}
      >
        {lanesBelow > 0 || firstLane > 0 ? (
          <div class="lanes-more" style={{ width: `${size.label}px`, height: `${AXIS_H}px` }} data-lanes-above={firstLane} data-lanes-below={lanesBelow}>
            {firstLane > 0 ? `↑ ${firstLane} ` : ''}
            {lanesBelow > 0 ? `↓ ${lanesBelow} ` : ''}
            more lane{firstLane + lanesBelow === 1 ? '' : 's'} (shift + wheel, or ↑ ↓ on the timeline)
          </div>
        ) : null}
        <ol
          class="lane-labels"
          style={{ width: `${size.label}px`, paddingTop: `${AXIS_H + offsetY}px` }}
          aria-label={`Timeline lanes (${plural(lanes.length, 'lane')}; ↑ ↓ move)`}
          onKeyDown={laneKeys}
          onFocusIn={(e) => {
            const id = (e.target as HTMLElement).dataset?.laneId;
            if (id !== undefined && id !== activeLane) setActiveLane(id);
          }}
        >
          {visibleLanes.map((l) =>
            l.kind === 'session' ? (
              <SessionLabel
                key={l.id}
                skey={l.session.key}
                label={l.label}
                kind={l.session.kind}
                open={l.session.end === undefined}
                endCause={l.session.endCause ?? ''}
                reconnect={l.session.reconnectAfter}
                gaps={l.session.gaps.length}
                laneId={l.id}
                tab={l.id === tabLane ? 0 : -1}
                onOpen={props.onOpenSession}
              />
            ) : (
              // In the stale finding's colour (red, amber, blue) while stale at the lane's now, as the row's status; the shading keeps the history.
              <UriLabel key={l.id} lkey={l.id} uri={l.uri} label={l.label} client={l.client} tab={l.id === tabLane ? 0 : -1} selected={l.selected} stale={staleSeverityAt(l.stale, laneNow)} onSelect={props.onSelectUri} />
            ),
          )}
        </ol>
        <canvas
          ref={canvasRef}
          class="timeline-canvas"
          style={{ width: `${size.w}px`, height: `${size.h}px`, left: `${size.label}px` }}
          tabIndex={0}
          role="img"
          aria-label={`Timeline: ${plural(lanes.length, 'lane')}, ${plural(boundaries.length, 'session boundary', 'session boundaries')}. + and − zoom, arrows pan, 0 fits, F follows live.`}
          data-lanes={lanes.length}
          data-session-boundaries={boundaries.length}
          data-window={`${Math.round(shownWin.start)}-${Math.round(shownWin.end)}`}
          onMouseDown={(e) => {
            drag.current = { x: e.clientX, moved: false, win: shownWin };
          }}
          title={tip.text}
          data-clickable={tip.clickable ? 'true' : undefined}
          onMouseMove={(e) => {
            const d = drag.current;
            if (!d || (e.buttons & 1) === 0) return hover(e.clientX, e.clientY);
            if (Math.abs(e.clientX - d.x) > 3) d.moved = true;
            if (d.moved) setWindow(panBy(d.win, e.clientX - d.x, size.w));
          }}
          onMouseUp={(e) => {
            const d = drag.current;
            drag.current = null;
            if (d && !d.moved) hit(e.clientX, e.clientY);
          }}
          onKeyDown={(e) => {
            const mid = (shownWin.start + shownWin.end) / 2;
            const k = e.key;
            if (k === '+' || k === '=') zoom(0.5, mid);
            else if (k === '-' || k === '_') zoom(2, mid, maxSpan);
            else if (k === '0') setWindow(fitWindow(first, lastT));
            else if (k === 'ArrowLeft') setWindow(panBy(shownWin, size.w / 10, size.w));
            else if (k === 'ArrowRight') setWindow(panBy(shownWin, -size.w / 10, size.w));
            else if (k === 'ArrowDown') setScrollTop(Math.min(maxLaneTop, laneTop + LANE_H));
            else if (k === 'ArrowUp') setScrollTop(Math.max(0, laneTop - LANE_H));
            else if ((k === 'f' || k === 'F') && live) setFollowing(true);
            else return;
            e.preventDefault();
          }}
        />
      </div>
    </section>
  );
}

/** Draws the timeline on the canvas (sized for the screen's pixel ratio). */
function paint(c: HTMLCanvasElement | null, input: Omit<DrawInput, 'ctx' | 'p'>): void {
  if (!c) return;
  const dpr = globalThis.devicePixelRatio || 1;
  if (c.width !== Math.round(input.width * dpr) || c.height !== Math.round(input.height * dpr)) {
    c.width = Math.round(input.width * dpr);
    c.height = Math.round(input.height * dpr);
  }
  const ctx = c.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawTimeline({ ...input, ctx, p: paletteOf(c) });
  // For tests: the lanes drawn, top to bottom, as the lane names beside the canvas list them.
  c.dataset.drawnLanes = input.lanes
    .slice(input.firstLane, input.firstLane + Math.ceil((input.height - AXIS_H) / LANE_H) + 1)
    .map((l) => (l.kind === 'session' ? l.session.key : l.uri))
    .join(' ');
}

/**
 * A change of the colour scheme (the OS's, or the devtools theme switched while the panel is open: main.tsx) or of the
 * screen's pixel ratio (another screen, browser zoom) re-renders, so the canvas is drawn again: in the new theme's
 * colours, with pixels sized by the new ratio.
 */
function useRedrawOnDisplayChange(): void {
  const [, setScheme] = useState(0);
  useEffect(() => {
    const mq = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    const onChange = () => setScheme((n) => n + 1);
    mq?.addEventListener('change', onChange);
    globalThis.addEventListener(THEME_CHANGE, onChange);
    return () => {
      mq?.removeEventListener('change', onChange);
      globalThis.removeEventListener(THEME_CHANGE, onChange);
    };
  }, []);
  // The resolution query matches one ratio: it is asked again for the new one.
  useEffect(() => {
    let mq: MediaQueryList | undefined;
    const onChange = () => {
      watch();
      setScheme((n) => n + 1);
    };
    const watch = () => {
      mq?.removeEventListener('change', onChange);
      mq = globalThis.matchMedia?.(`(resolution: ${globalThis.devicePixelRatio || 1}dppx)`);
      mq?.addEventListener('change', onChange);
    };
    watch();
    return () => mq?.removeEventListener('change', onChange);
  }, []);
}

/**
 * A drag released outside the canvas ends too (the canvas never sees that mouseup): a later press elsewhere, moved
 * over the canvas, must not pan from where the old drag began.
 */
function useDragEndsAnywhere(drag: { current: unknown }): void {
  useEffect(() => {
    const up = () => void (drag.current = null);
    globalThis.addEventListener('mouseup', up);
    return () => globalThis.removeEventListener('mouseup', up);
  }, []);
}

/** The size of the timeline's body: the canvas's width and height, and the lane names' column. */
function useBodySize(bodyRef: { current: HTMLElement | null }): { w: number; h: number; label: number } {
  const [size, setSize] = useState({ w: 600, h: 160, label: 200 });
  useLayoutEffect(() => {
    const el = bodyRef.current;
    if (!el) return;
    const measure = () => {
      const label = labelWidth(el.clientWidth);
      setSize({ w: Math.max(50, el.clientWidth - label), h: Math.max(40, el.clientHeight), label });
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return size;
}

/** A drawing still due when the timeline goes is not done. */
function useCancelOnUnmount(pending: { current: { frame: number } | null }): void {
  useEffect(() => () => cancelAnimationFrame(pending.current?.frame ?? 0), []);
}

/** Equal unless a shown value changed; handlers are ignored (they only ever reach the same store). */
function sameShown(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k in x) if (typeof x[k] !== 'function' && x[k] !== y[k]) return false;
  return true;
}

/** A lane label works like a button: Enter or Space activates it, as a click does; `tab` is its roving tabindex. */
function activates(run: () => void, tab: number) {
  return {
    role: 'button' as const,
    tabIndex: tab,
    onClick: run,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      run();
    },
  };
}

const SessionLabel = memo(function SessionLabel(p: {
  skey: string;
  label: string;
  kind: 'session' | 'listen';
  open: boolean;
  endCause: string;
  reconnect: boolean;
  gaps: number;
  laneId: string;
  tab: number;
  onOpen: (key: string) => void;
}) {
  const title = sessionLaneTitle(p.kind, p.label, p.endCause);
  return (
    <li
      class={`lane-label session${p.open ? ' open' : ' ended'}`}
      data-lane="session"
      data-session={p.skey}
      data-kind={p.kind}
      data-end-cause={p.endCause}
      data-reconnect={p.reconnect}
      data-gaps={p.gaps}
      data-lane-id={p.laneId}
      title={title}
      // The state in the name, not in the title alone (an accessibility review: "◆ 2341213b-…" said nothing of a 404).
      aria-label={title}
      {...activates(() => p.onOpen(p.skey), p.tab)}
    >
      {p.kind === 'listen' ? '⇶ ' : '◆ '}
      {p.label}
    </li>
  );
}, sameShown);

const UriLabel = memo(function UriLabel(p: {
  lkey: string;
  uri: string;
  label: string;
  client: string | undefined;
  tab: number;
  selected: boolean;
  stale: Severity | undefined;
  onSelect: (key: string) => void;
}) {
  // The name says the state the colour shows (red, amber or blue while stale): data-stale was all it had.
  const name = `${p.label}${p.stale ? `, stale cache (${p.stale})` : ''}`;
  return (
    <li
      class={`lane-label uri${p.selected ? ' selected' : ''}${p.stale ? ` stale stale-${p.stale}` : ''}`}
      data-lane="uri"
      data-uri={p.uri}
      data-stale={p.stale !== undefined}
      data-stale-severity={p.stale}
      data-lane-id={p.lkey}
      data-client={p.client}
      title={name}
      aria-label={name}
      aria-current={p.selected ? 'true' : undefined}
      {...activates(() => p.onSelect(p.lkey), p.tab)}
    >
      <UriText uri={p.uri} />
      {/* Which client, as the URI table's rows say it: two clients' lanes for one URI read the same otherwise. */}
      {p.client ? (
        <span class="client-tag" aria-hidden="true">
          {p.client}
        </span>
      ) : null}
    </li>
  );
}, sameShown);

/** Re-renders when what it shows changed (handlers ignored: they only ever reach the same store). */
export const Timeline = memo(TimelineView, sameShown);

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
