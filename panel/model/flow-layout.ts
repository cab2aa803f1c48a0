// Where the seed's flow chart (shared/flow/chart.ts) is drawn: a fixed grid position per node, an orthogonal path per
// edge and a spot for its count, plus the short labels that fit a box (the full English and the Chinese original are
// the hover text). Pure: the FlowChart component only turns this into SVG; the unit test checks that every node and
// edge of the chart has a place and that boxes do not overlap.
import { EDGES, NODES, type FlowEdge, type NodeId } from '../../shared/flow/index.ts';

export const NODE_W = 140;
export const NODE_H = 30;
const COL_W = 174;
const ROW_H = 48;
const LEFT = 22;
const TOP = 10;

/**
 * Three columns: set-up (A–D, then the reconnect loop N, O), the change path (E–L, with P at the bottom), the failure
 * branch (H, K, M, Q) on the right. P → C goes back up the left margin.
 */
const GRID: Record<NodeId, [col: number, row: number]> = {
  A: [0, 0],
  B: [0, 1],
  C: [0, 2],
  D: [0, 3],
  E: [1, 0],
  F: [1, 1],
  H: [2, 1],
  G: [1, 2],
  I: [1, 3],
  K: [2, 3],
  J: [1, 4],
  M: [2, 4],
  L: [1, 5],
  N: [0, 5],
  O: [0, 6],
  P: [1, 6],
  Q: [2, 6],
};

/** Short box labels; the chart's full sentences are the tooltips. */
export const SHORT_LABEL: Record<NodeId, string> = {
  A: 'Initialize session',
  B: 'Negotiate subscribe',
  C: 'Send subscribe',
  D: 'Server records sub',
  E: 'Resource modified',
  F: 'Active subscriber?',
  G: 'Send updated',
  H: 'No notification sent',
  I: 'Notification arrives?',
  J: 'Client reads',
  K: 'Cache keeps old value',
  L: 'Cache overwritten',
  M: 'Stale reads',
  N: 'Connection drops',
  O: 'Reconnect, re-init',
  P: 'Resubscribe?',
  Q: 'Phantom subscription',
};

export interface NodeBox {
  id: NodeId;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface EdgePath {
  index: number;
  from: NodeId;
  to: NodeId;
  /** Polyline points. */
  points: Array<[number, number]>;
  /** Where the count goes: beside the middle of the longest segment. */
  labelAt: [number, number];
  /** Where a decision's branch label (yes / no …) goes: just after the edge leaves its source. */
  branchAt: [number, number];
  /** The label's text-anchor: it sits beside the edge's first segment, on the side away from where the edge turns. */
  branchAnchor: 'start' | 'end';
}

export const BOXES: Record<NodeId, NodeBox> = Object.fromEntries(
  NODES.map((n) => {
    const [c, r] = GRID[n.id];
    return [n.id, { id: n.id, x: LEFT + c * COL_W, y: TOP + r * ROW_H, w: NODE_W, h: NODE_H }];
  }),
) as Record<NodeId, NodeBox>;

export const WIDTH = LEFT + 2 * COL_W + NODE_W + 12;
/** How far below P the loop back to C runs: room for its "yes" beside the drop, and its count under the line. */
const LOOP_DROP = 12;
export const HEIGHT = TOP + 6 * ROW_H + NODE_H + LOOP_DROP + 16;

const cx = (b: NodeBox): number => b.x + b.w / 2;
const occupied = (col: number, row: number): boolean => Object.values(GRID).some(([c, r]) => c === col && r === row);
const cy = (b: NodeBox): number => b.y + b.h / 2;

function route(e: FlowEdge): Array<[number, number]> {
  const a = BOXES[e.from];
  const b = BOXES[e.to];
  if (e.from === 'P' && e.to === 'C') {
    // The loop back: out of P's bottom, left under O, up the left margin, into C's left side.
    const y = a.y + a.h + LOOP_DROP;
    return [
      [cx(a), a.y + a.h],
      [cx(a), y],
      [6, y],
      [6, cy(b)],
      [b.x, cy(b)],
    ];
  }
  if (e.from === 'D' && e.to === 'E') {
    const x = a.x + a.w + (COL_W - NODE_W) / 2;
    return [
      [a.x + a.w, cy(a)],
      [x, cy(a)],
      [x, cy(b)],
      [b.x, cy(b)],
    ];
  }
  if (a.y === b.y) {
    // Same row: side to side.
    return a.x < b.x
      ? [
          [a.x + a.w, cy(a)],
          [b.x, cy(b)],
        ]
      : [
          [a.x, cy(a)],
          [b.x + b.w, cy(b)],
        ];
  }
  if (a.x === b.x) {
    // Same column: bottom to top, or (Q → M) top to bottom going up.
    return a.y < b.y
      ? [
          [cx(a), a.y + a.h],
          [cx(b), b.y],
        ]
      : [
          [cx(a), a.y],
          [cx(b), b.y + b.h],
        ];
  }
  // Down and across: out of the side, then down into the top.
  return [
    [a.x < b.x ? a.x + a.w : a.x, cy(a)],
    [cx(b), cy(a)],
    [cx(b), b.y],
  ];
}

function midpoint(points: Array<[number, number]>): [number, number] {
  // The middle of the longest segment: counts sit on the edge, away from the boxes (right of a vertical segment,
  // above a horizontal one).
  let best = 0;
  let at: [number, number] = points[0]!;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    const len = Math.abs(x1 - x0) + Math.abs(y1 - y0);
    if (len > best) {
      best = len;
      // 40 % of the way from the source: the arrowhead sits at the far end.
      at = x0 === x1 ? [x0 + 6, y0 + (y1 - y0) * 0.4 + 4] : [x0 + (x1 - x0) * 0.4, y0 - 3];
    }
  }
  return at;
}

function branchSpot(points: Array<[number, number]>): { at: [number, number]; anchor: 'start' | 'end' } {
  const [x0, y0] = points[0]!;
  const [x1, y1] = points[1]!;
  if (x0 !== x1) return { at: [x0 + 3, y0 - 3], anchor: 'start' };
  // Down a short drop that then turns left (P's loop back to C): right of the drop, above the turn.
  const turnsLeft = points.length > 2 && points[2]![0] < x1;
  return turnsLeft ? { at: [x0 + 4, y1 - 2], anchor: 'start' } : { at: [x0 - 4, y0 + 11], anchor: 'end' };
}

export const EDGE_PATHS: readonly EdgePath[] = EDGES.map((e) => {
  const points = route(e);
  const branch = branchSpot(points);
  // The loop's count goes under its long run along the bottom, not above it where it would sit under O's corner.
  const labelAt: [number, number] = e.from === 'P' && e.to === 'C' ? [midpoint(points)[0], points[1]![1] + 11] : midpoint(points);
  return { index: e.index, from: e.from, to: e.to, points, labelAt, branchAt: branch.at, branchAnchor: branch.anchor };
});

export function pointsAttr(points: ReadonlyArray<[number, number]>): string {
  return points.map(([x, y]) => `${x},${y}`).join(' ');
}

/**
 * Where a jump (a path step the chart has no edge for, see flow-view.ts) is drawn: out of the source's side towards
 * the target's column, then up or down into it; straight when the two share a row or a column.
 */
export function jumpPoints(from: NodeId, to: NodeId): Array<[number, number]> {
  const a = BOXES[from];
  const b = BOXES[to];
  const [ac, ar] = GRID[from];
  const [bc, br] = GRID[to];
  // A box on the way: in the source's row up to the target's column, or between the two in a shared column.
  let blocked = false;
  if (ac === bc) {
    for (let r = Math.min(ar, br) + 1; r < Math.max(ar, br); r++) if (occupied(ac, r)) blocked = true;
  } else {
    const step = bc > ac ? 1 : -1;
    for (let c = ac + step; c !== bc + (ar === br ? 0 : step); c += step) if (occupied(c, ar)) blocked = true;
  }
  // Side by side with one of the chart's own arrows between them (I → K means a lost notification; the jump, one that
  // arrived and was not re-read): not drawn on top of that arrow, but below it, through the gutter under the row.
  if (!blocked && a.y === b.y && EDGES.some((e) => e.from === from && e.to === to)) {
    const gy = a.y + a.h + (ROW_H - NODE_H) / 2;
    return [
      [cx(a) + 12, a.y + a.h],
      [cx(a) + 12, gy],
      [cx(b) - 12, gy],
      [cx(b) - 12, b.y + b.h],
    ];
  }
  // One above the other with one of the chart's own arrows between them (F ⇢ G, an unsolicited update, beside F —yes→ G):
  // not on top of that arrow, nor through its count (right of it) or its branch label (just left of it), but further
  // left, down the same gap between the rows.
  if (!blocked && a.x === b.x && EDGES.some((e) => e.from === from && e.to === to)) {
    const x = cx(a) - 32;
    return a.y < b.y ? [[x, a.y + a.h], [x, b.y]] : [[x, a.y], [x, b.y + b.h]];
  }
  if (!blocked && a.y === b.y) return a.x < b.x ? [[a.x + a.w, cy(a)], [b.x, cy(b)]] : [[a.x, cy(a)], [b.x + b.w, cy(b)]];
  if (!blocked && a.x === b.x) return a.y < b.y ? [[cx(a) + 12, a.y + a.h], [cx(b) + 12, b.y]] : [[cx(a) + 12, a.y], [cx(b) + 12, b.y + b.h]];
  if (blocked) {
    // J → Q would run through M, N → Q through L: leave by the source's bottom (or top) into the gutter between rows,
    // cross to the gutter beside the target, enter its side.
    const down = a.y <= b.y;
    const gy = down ? a.y + a.h + (ROW_H - NODE_H) / 2 : a.y - (ROW_H - NODE_H) / 2;
    const left = a.x <= b.x;
    const gx = left ? b.x - (COL_W - NODE_W) / 2 : b.x + b.w + (COL_W - NODE_W) / 2;
    // Below the centre: the chart's own edge into the target's side (P → Q) and its label keep the centre.
    const ey = cy(b) + 7;
    return [
      [cx(a) + 20, down ? a.y + a.h : a.y],
      [cx(a) + 20, gy],
      [gx, gy],
      [gx, ey],
      [left ? b.x : b.x + b.w, ey],
    ];
  }
  const sideX = a.x < b.x ? a.x + a.w : a.x;
  // Enter beside the centre: the chart's own edge into the same node keeps the centre.
  const x = cx(b) + (a.x < b.x ? -20 : 20);
  return [
    [sideX, cy(a)],
    [x, cy(a)],
    [x, a.y < b.y ? b.y : b.y + b.h],
  ];
}
