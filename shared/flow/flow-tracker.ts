// Walks each URI along the seed chart as its events happen: current node, a capped path history and edge counts per
// URI and globally. A move the chart has no edge for is kept as a jump (in the path, not counted on any edge), so the
// path stays truthful when real traffic takes a shortcut the chart does not draw (a first read before any subscribe).
import { EDGES, edgeIndex, type NodeId } from './chart.ts';

export interface FlowStep {
  node: NodeId;
  t: number;
  seq: number;
  /** The edge taken, or undefined for a jump. */
  edge?: number;
  /** Reached by inference (what the traffic implies), not by an observed message. */
  inferred?: boolean;
}

/** Per-URI flow state, held by the URI's row state. */
export interface FlowState {
  node: NodeId | undefined;
  /** Edge counts for this URI, allocated on the first counted edge. */
  counts: Int32Array | undefined;
  path: FlowStep[];
  steps: number;
}

export const PATH_CAP = 64;

export function newFlowState(): FlowState {
  return { node: undefined, counts: undefined, path: [], steps: 0 };
}

export class FlowTracker {
  readonly counts = new Int32Array(EDGES.length);

  step(s: FlowState, node: NodeId, t: number, seq: number, inferred = false): void {
    if (s.node === node) return;
    const step: FlowStep = { node, t, seq };
    if (s.node !== undefined) {
      const e = edgeIndex(s.node, node);
      if (e >= 0) {
        step.edge = e;
        this.counts[e]!++;
        (s.counts ??= new Int32Array(EDGES.length))[e]!++;
      }
    }
    if (inferred) step.inferred = true;
    s.node = node;
    s.steps++;
    // Steps are immutable and shared with snapshots; trimming makes a new array so old snapshots keep theirs.
    if (s.path.length >= PATH_CAP * 2) s.path = s.path.slice(-PATH_CAP);
    s.path.push(step);
  }

  /** Several steps in a row (e.g. E → F → G → I for a notification). */
  walk(s: FlowState, nodes: readonly NodeId[], t: number, seq: number, inferred: readonly boolean[] = []): void {
    for (let i = 0; i < nodes.length; i++) this.step(s, nodes[i]!, t, seq, inferred[i] ?? false);
  }
}

/** Where a projected (not yet committed) inference would take a URI: applied to copies, for snapshots at `now`. */
export function projectSteps(s: FlowState, nodes: readonly NodeId[], t: number, seq: number): { path: FlowStep[]; edges: number[]; node: NodeId | undefined } {
  const path = s.path.slice(-PATH_CAP);
  const edges: number[] = [];
  let node = s.node;
  for (const n of nodes) {
    if (node === n) continue;
    const step: FlowStep = { node: n, t, seq, inferred: true };
    if (node !== undefined) {
      const e = edgeIndex(node, n);
      if (e >= 0) {
        step.edge = e;
        edges.push(e);
      }
    }
    path.push(step);
    node = n;
  }
  return { path, edges, node };
}
