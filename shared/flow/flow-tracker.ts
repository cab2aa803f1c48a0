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
  node: NodeId | undefined;
  code = -1;
  /** Edge counts for this URI, allocated on the first counted edge. */
  counts: Int32Array | undefined;
  /** Steps taken in total; the ring keeps the last PATH_CAP. */
  steps = 0;
  private nodes: Uint8Array | undefined;
  private edges: Int8Array | undefined;
  private flags: Uint8Array | undefined;
  private ts: Float64Array | undefined;
  private seqs: Float64Array | undefined;
  private memo: { steps: number; path: FlowStep[] } | undefined;

  push(code: number, edge: number, t: number, seq: number, inferred: boolean): void {
    if (!this.nodes) {
      this.nodes = new Uint8Array(PATH_CAP);
      this.edges = new Int8Array(PATH_CAP);
      this.flags = new Uint8Array(PATH_CAP);
      this.ts = new Float64Array(PATH_CAP);
      this.seqs = new Float64Array(PATH_CAP);
    }
    const i = this.steps & (PATH_CAP - 1);
    this.nodes[i] = code;
    this.edges![i] = edge;
    this.flags![i] = inferred ? 1 : 0;
    this.ts![i] = t;
    this.seqs![i] = seq;
    this.steps++;
  }

  /** The last steps as plain objects, oldest first (memoized until the next step). */
  path(): FlowStep[] {
    if (this.memo && this.memo.steps === this.steps) return this.memo.path;
    const out: FlowStep[] = [];
    const n = Math.min(this.steps, PATH_CAP);
    for (let k = this.steps - n; k < this.steps; k++) {
      const i = k & (PATH_CAP - 1);
      const s: FlowStep = { node: NODES[this.nodes![i]!]!.id, t: this.ts![i]!, seq: this.seqs![i]! };
      if (this.edges![i]! >= 0) s.edge = this.edges![i]!;
      if (this.flags![i]) s.inferred = true;
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
