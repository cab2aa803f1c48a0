// Draws the visible part of the timeline on a canvas: time axis, session lanes (life, channel gaps hatched, end
// cause, reconnects), URI lanes (stale intervals shaded; marks — subscribes, unsubscribes, notifications — in a band
// on top, reads as request→response bars in rows below it, one row per read in flight at once: the lane geometry of
// model/timeline.ts, which the hit testing shares), session boundaries across all lanes, the scrubber cursor and
// "now". Dense lanes stay cheap: marks and bars are gathered into one path per style and filled once, a mark closer
// than 2 px to the previous one of its kind is skipped, and so is a short read ending within 1 px of the previous
// one in its row; nothing is allocated per read or per mark.
import { formatClock } from '../model/format.ts';
import {
  LANE_H,
  MARK_BOTTOM,
  MARK_TOP,
  READ_MIN_W,
  READ_ROW_H,
  READ_ROWS,
  lowerBound,
  readRow,
  readRowTop,
  tickLabel,
  tickStep,
  ticks,
  xOf,
  type ReadBar,
  type SessionLane,
  type StaleInterval,
  type TimeWindow,
  type UriLane,
} from '../model/timeline.ts';

export const AXIS_H = 18;

/** Per read row, the right end (px) of the last bar put in the current lane's path (reused: no allocation per draw). */
const lastReadX = new Float64Array(READ_ROWS);

export type LaneSpec =
  | { kind: 'session'; id: string; label: string; session: SessionLane }
  /** `stale` mildest first, as staleIntervals gives them: painted in that order. */
  | { kind: 'uri'; id: string; label: string; uri: string; lane: UriLane | undefined; stale: StaleInterval[]; selected: boolean; client?: string };

export interface Palette {
  bg: string;
  fg: string;
  muted: string;
  line: string;
  grid: string;
  ok: string;
  warn: string;
  error: string;
  info: string;
  accent: string;
  read: string;
  /** A stale interval's shading, by its finding's severity (error, warning, info). */
  staleFill: string;
  staleFillWarning: string;
  staleFillInfo: string;
  gapFill: string;
  selectedFill: string;
}

let cached: { theme: string; p: Palette } | undefined;

/** The theme's colours (CSS variables), read once per theme: getComputedStyle forces a style recalc. */
export function paletteOf(el: Element): Palette {
  const theme = `${document.documentElement.className}|${globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false}`;
  if (cached?.theme === theme) return cached.p;
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string): string => cs.getPropertyValue(name).trim() || fallback;
  const palette: Palette = {
    bg: v('--bg', '#fff'),
    fg: v('--fg', '#1f1f1f'),
    muted: v('--muted', '#5f6368'),
    line: v('--line', '#e0e0e0'),
    grid: v('--grid', '#eeeeee'),
    ok: v('--ok', '#0d652d'),
    warn: v('--warn', '#8f4d00'),
    error: v('--error', '#b3261e'),
    info: v('--info', '#185abc'),
    accent: v('--accent', '#1a73e8'),
    read: v('--read', '#9334e6'),
    staleFill: v('--stale-fill', 'rgba(217,48,37,0.16)'),
    staleFillWarning: v('--stale-fill-warning', 'rgba(176,96,0,0.16)'),
    staleFillInfo: v('--stale-fill-info', 'rgba(24,90,188,0.14)'),
    gapFill: v('--gap-fill', 'rgba(176,96,0,0.22)'),
    selectedFill: v('--selected-fill', 'rgba(26,115,232,0.10)'),
  };
  cached = { theme, p: palette };
  return palette;
}

export interface DrawInput {
  ctx: CanvasRenderingContext2D;
  width: number;
  height: number;
  window: TimeWindow;
  lanes: LaneSpec[];
  /** Index of the first lane drawn (vertical scroll) and the pixel offset of the first lane's top. */
  firstLane: number;
  offsetY: number;
  now: number;
  scrubT: number | null;
  boundaries: number[];
  p: Palette;
}

function hatch(ctx: CanvasRenderingContext2D, x0: number, x1: number, y: number, h: number, color: string): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y, Math.max(1, x1 - x0), h);
  ctx.clip();
  ctx.fillStyle = color;
  ctx.fillRect(x0, y, Math.max(1, x1 - x0), h);
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = x0 - h; x < x1; x += 6) {
    ctx.moveTo(x, y + h);
    ctx.lineTo(x + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

function clampX(x: number, width: number): number {
  return Math.max(-2, Math.min(width + 2, x));
}

export function drawTimeline(d: DrawInput): void {
  const { ctx, width, height, window: w, lanes, p } = d;
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = p.bg;
  ctx.fillRect(0, 0, width, height);
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';

  // Grid and axis.
  const step = tickStep(w, width);
  ctx.strokeStyle = p.grid;
  ctx.lineWidth = 1;
  ctx.fillStyle = p.muted;
  for (const t of ticks(w, width)) {
    const x = Math.round(xOf(w, t, width)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H);
    ctx.lineTo(x, height);
    ctx.stroke();
    // Always with the hour: "18:14.000" (minutes, seconds) reads as a clock time it is not; days get the date.
    const label = tickLabel(t, step, formatClock);
    // A label the right edge would cut is left out (its grid line stays).
    if (x + 3 + ctx.measureText(label).width <= width) ctx.fillText(label, x + 3, AXIS_H / 2);
  }
  ctx.strokeStyle = p.line;
  ctx.beginPath();
  ctx.moveTo(0, AXIS_H + 0.5);
  ctx.lineTo(width, AXIS_H + 0.5);
  ctx.stroke();

  const tol = (w.end - w.start) / width;
  const paths = { read: new Path2D(), readFailed: new Path2D(), notify: new Path2D(), subscribe: new Path2D(), subscribeFailed: new Path2D(), unsubscribe: new Path2D() };
  for (let li = d.firstLane; li < lanes.length; li++) {
    const y = AXIS_H + d.offsetY + (li - d.firstLane) * LANE_H;
    if (y > height) break;
    const lane = lanes[li]!;
    const mid = y + LANE_H / 2;
    ctx.strokeStyle = p.grid;
    ctx.beginPath();
    ctx.moveTo(0, y + LANE_H - 0.5);
    ctx.lineTo(width, y + LANE_H - 0.5);
    ctx.stroke();
    if (lane.kind === 'session') {
      const s = lane.session;
      const x0 = clampX(xOf(w, s.start, width), width);
      const x1 = clampX(xOf(w, s.end ?? d.now, width), width);
      ctx.fillStyle = s.end === undefined ? p.ok : p.muted;
      ctx.globalAlpha = 0.35;
      ctx.fillRect(x0, y + 5, Math.max(2, x1 - x0), LANE_H - 10);
      ctx.globalAlpha = 1;
      for (const g of s.gaps) {
        const g0 = clampX(xOf(w, g.t0, width), width);
        const g1 = clampX(xOf(w, g.t1, width), width);
        if (g1 >= 0 && g0 <= width) hatch(ctx, g0, g1, y + 3, LANE_H - 6, p.gapFill);
      }
      // Start (a reconnect gets a triangle) and end (with its cause), each only where it is in view: a session that
      // ended before the window must not show its end at the left edge.
      const startX = xOf(w, s.start, width);
      if (startX >= 0 && startX <= width) {
        ctx.fillStyle = s.reconnectAfter ? p.warn : p.ok;
        ctx.beginPath();
        ctx.moveTo(x0, y + 3);
        ctx.lineTo(x0 + 6, mid);
        ctx.lineTo(x0, y + LANE_H - 3);
        ctx.closePath();
        ctx.fill();
      }
      const endX = s.end !== undefined ? xOf(w, s.end, width) : -1;
      if (s.end !== undefined && endX >= 0 && endX <= width) {
        ctx.fillStyle = p.error;
        ctx.fillRect(x1 - 1, y + 2, 2, LANE_H - 4);
        if (s.endCause) {
          ctx.fillStyle = p.fg;
          ctx.fillText(s.endCause, x1 + 4, mid);
        }
      }
      continue;
    }
    if (lane.selected) {
      ctx.fillStyle = p.selectedFill;
      ctx.fillRect(0, y, width, LANE_H);
    }
    // Mildest first (staleIntervals' order): where bands overlap, the worst is painted last, on top (as the lane's label says it).
    for (const s of lane.stale) {
      const s0 = clampX(xOf(w, s.t0, width), width);
      const s1 = clampX(xOf(w, s.t1, width), width);
      if (s1 < 0 || s0 > width) continue;
      // In its finding's colour, as the table's row: an info one (a TTL passed) was drawn red, as an error.
      const [fill, edge] = s.severity === 'info' ? [p.staleFillInfo, p.info] : s.severity === 'warning' ? [p.staleFillWarning, p.warn] : [p.staleFill, p.error];
      ctx.fillStyle = fill;
      ctx.fillRect(s0, y + 1, Math.max(2, s1 - s0), LANE_H - 2);
      // A solid edge under the light shading: the interval stands out at 3:1 or more (WCAG 1.4.11), the bars over it stay readable.
      ctx.fillStyle = edge;
      ctx.fillRect(s0, y + LANE_H - 3, Math.max(2, s1 - s0), 2);
    }
    const l = lane.lane;
    if (!l) continue;
    // Reads: request → response bars (in flight: to now) in the rows under the marks' band, each in its own row
    // while others are in flight. One path per style, filled once after all lanes.
    lastReadX.fill(-10);
    const bar = (r: ReadBar) => {
      const x0 = xOf(w, r.t0, width);
      const x1 = xOf(w, r.t1 ?? d.now, width);
      if (x1 < 0) return;
      const row = readRow(r);
      if (x1 - lastReadX[row]! < 1 && x1 - x0 < 1) return;
      lastReadX[row] = x1;
      const a = clampX(x0, width);
      (r.failed ? paths.readFailed : paths.read).rect(a, y + readRowTop(row), Math.max(READ_MIN_W, clampX(x1, width) - a), READ_ROW_H);
    };
    // Reads still waiting that began further back than the longest closed read reach into the window too.
    const back = w.start - l.maxReadMs - tol;
    for (const r of l.open) if (r.t0 < back) bar(r);
    for (let i = lowerBound(l.reads, back, (r) => r.t0); i < l.reads.length; i++) {
      const r = l.reads[i]!;
      if (r.t0 > w.end) break;
      bar(r);
    }
    // Marks, in their band above the reads; one closer than 2 px to the previous of its kind adds nothing visible.
    const last = { subscribe: -10, unsubscribe: -10, notify: -10 };
    const top = y + MARK_TOP;
    const bottom = y + MARK_BOTTOM;
    const markMid = (top + bottom) / 2;
    for (let i = lowerBound(l.marks, w.start - tol * 4, (m) => m.t); i < l.marks.length; i++) {
      const m = l.marks[i]!;
      if (m.t > w.end + tol * 4) break;
      const x = xOf(w, m.t, width);
      if (x - last[m.kind] < 2) continue;
      last[m.kind] = x;
      if (m.kind === 'notify') {
        const q = paths.notify;
        q.moveTo(x, top);
        q.lineTo(x + 4, markMid);
        q.lineTo(x, bottom);
        q.lineTo(x - 4, markMid);
        q.closePath();
      } else if (m.kind === 'subscribe') {
        const q = m.failed ? paths.subscribeFailed : paths.subscribe;
        q.moveTo(x, top);
        q.lineTo(x + 4, bottom);
        q.lineTo(x - 4, bottom);
        q.closePath();
      } else {
        const q = paths.unsubscribe;
        q.moveTo(x, bottom);
        q.lineTo(x + 4, top);
        q.lineTo(x - 4, top);
        q.closePath();
      }
    }
  }
  for (const [path, color] of [
    [paths.read, p.read],
    [paths.readFailed, p.error],
    [paths.notify, p.accent],
    [paths.subscribe, p.ok],
    [paths.subscribeFailed, p.error],
    [paths.unsubscribe, p.muted],
  ] as const) {
    ctx.fillStyle = color;
    ctx.fill(path);
  }

  // Session boundaries (a session ended) across every lane.
  ctx.strokeStyle = p.error;
  ctx.setLineDash([3, 3]);
  for (const t of d.boundaries) {
    const x = Math.round(xOf(w, t, width)) + 0.5;
    if (x < 0 || x > width) continue;
    ctx.beginPath();
    ctx.moveTo(x, AXIS_H);
    ctx.lineTo(x, height);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const nowX = xOf(w, d.now, width);
  if (nowX >= 0 && nowX <= width) {
    ctx.strokeStyle = p.muted;
    ctx.beginPath();
    ctx.moveTo(Math.round(nowX) + 0.5, 0);
    ctx.lineTo(Math.round(nowX) + 0.5, height);
    ctx.stroke();
  }
  if (d.scrubT !== null) {
    const x = Math.round(xOf(w, d.scrubT, width)) + 0.5;
    // What happened after the replayed instant is shown, dimmed: the views show the state at the cursor.
    if (x < width) {
      ctx.globalAlpha = 0.55;
      ctx.fillStyle = p.bg;
      ctx.fillRect(Math.max(0, x), 0, width - Math.max(0, x), height);
      ctx.globalAlpha = 1;
    }
    ctx.strokeStyle = p.accent;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, height);
    ctx.stroke();
    ctx.lineWidth = 1;
  }
}
