// Walks each URI along the seed chart as its events happen: current node, a capped path history and edge counts per
// URI and globally. A move the chart has no edge for is kept as a jump (in the path, not counted on any edge), so the
// path stays truthful when real traffic takes a shortcut the chart does not draw (a first read before any subscribe).
// The path is a ring of typed arrays — a step allocates nothing — and becomes objects only when a view asks.
import { EDGES, NODES, edgeIndexByCode, nodeCode, type NodeId } from './chart.ts';

export interface FlowStep {
  node: NodeId;
  t: number;
  seq: number;
  /** The edge taken, or undefined for a jump. */
  edge?: number;
  /** Reached by inference (what the traffic implies), not by an observed message. */
  inferred?: boolean;
}

/** A power of two: the ring index is a mask. */
export const PATH_CAP = 64;

/** Per-URI flow state, held by the URI's row state. */
export class FlowState {
  node: NodeId | undefined = undefined;
  code = -1;
  /** Edge counts for this URI, allocated on the first counted edge. */
  counts: Int32Array | undefined = undefined;
  /** Steps taken in total; the ring keeps the last PATH_CAP. */
  steps = 0;
  /** Per step: node code | (edge + 1) << 5 | inferred << 10 — one 16-bit word. */
  private codes: Uint16Array | undefined = undefined;
  /** Per step: t and seq side by side (one cache line for both). */
  private times: Float64Array | undefined = undefined;
  private memo: { steps: number; path: FlowStep[] } | undefined = undefined;

  push(code: number, edge: number, t: number, seq: number, inferred: boolean): void {
    if (this.codes === undefined) {
      this.codes = new Uint16Array(PATH_CAP);
      this.times = new Float64Array(PATH_CAP * 2);
    }
    const i = this.steps & (PATH_CAP - 1);
    this.codes[i] = code | ((edge + 1) << 5) | (inferred ? 1024 : 0);
    this.times![i * 2] = t;
    this.times![i * 2 + 1] = seq;
    this.steps++;
  }

  /** The last steps as plain objects, oldest first (memoized until the next step). */
  path(): FlowStep[] {
    if (this.memo && this.memo.steps === this.steps) return this.memo.path;
    const out: FlowStep[] = [];
    const n = Math.min(this.steps, PATH_CAP);
    for (let k = this.steps - n; k < this.steps; k++) {
      const i = k & (PATH_CAP - 1);
      const w = this.codes![i]!;
      const s: FlowStep = { node: NODES[w & 31]!.id, t: this.times![i * 2]!, seq: this.times![i * 2 + 1]! };
      const edge = ((w >> 5) & 31) - 1;
      if (edge >= 0) s.edge = edge;
      if (w & 1024) s.inferred = true;
      out.push(s);
    }
    this.memo = { steps: this.steps, path: out };
    return out;
  }
}

export function newFlowState(): FlowState {
  return new FlowState();
}

export class FlowTracker {
  readonly counts = new Int32Array(EDGES.length);

  step(s: FlowState, node: NodeId, t: number, seq: number, inferred = false): void {
    if (s.node === node) return;
    const code = nodeCode(node);
    let e = -1;
    if (s.code >= 0) {
      e = edgeIndexByCode(s.code, code);
      if (e >= 0) {
        this.counts[e]!++;
        (s.counts ??= new Int32Array(EDGES.length))[e]!++;
      }
    }
    s.node = node;
    s.code = code;
    s.push(code, e, t, seq, inferred);
  }

  /** Several steps in a row (e.g. E → F → G → I for a notification). */
  walk(s: FlowState, nodes: readonly NodeId[], t: number, seq: number, inferred: readonly boolean[] = []): void {
    for (let i = 0; i < nodes.length; i++) this.step(s, nodes[i]!, t, seq, inferred[i] ?? false);
  }
}

/** Where a projected (not yet committed) inference would take a URI: applied to copies, for snapshots at `now`. */
export function projectSteps(s: FlowState, nodes: readonly NodeId[], t: number, seq: number): { path: FlowStep[]; edges: number[]; node: NodeId | undefined } {
  const path = s.path().slice();
  const edges: number[] = [];
  let node = s.node;
  for (const n of nodes) {
    if (node === n) continue;
    const step: FlowStep = { node: n, t, seq, inferred: true };
    if (node !== undefined) {
      const e = edgeIndexByCode(nodeCode(node), nodeCode(n));
      if (e >= 0) {
        step.edge = e;
        edges.push(e);
      }
    }
    path.push(step);
    node = n;
  }
  if (path.length > PATH_CAP) path.splice(0, path.length - PATH_CAP);
  return { path, edges, node };
}
