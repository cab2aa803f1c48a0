// What the flow chart shows for the selected URI (or for every URI): which nodes were reached, the current node, the
// path the URI took (its last steps), the count on every edge, and the newest step (for the pulse). Pure, from the
// engine's FlowSnapshot.
import type { FlowSnapshot } from '../../shared/engine/index.ts';
import { EDGES, NODES, type FlowStep, type NodeId } from '../../shared/flow/index.ts';

export interface FlowNodeState {
  reached: boolean;
  current: boolean;
  onPath: boolean;
}

export interface FlowEdgeState {
  count: number;
  onPath: boolean;
}

export interface FlowView {
  nodes: Record<NodeId, FlowNodeState>;
  edges: FlowEdgeState[];
  /** The selected URI's current node (undefined for "all URIs"). */
  current: NodeId | undefined;
  path: FlowStep[];
  /** Identity of the newest step (`seq:node`), '' when none: when it changes, the chart pulses. */
  lastStep: string;
  /** URIs currently at each node ("all URIs" view). */
  at: Record<NodeId, number>;
}

function blankNodes(): Record<NodeId, FlowNodeState> {
  return Object.fromEntries(NODES.map((n) => [n.id, { reached: false, current: false, onPath: false }])) as Record<NodeId, FlowNodeState>;
}

export function flowView(flow: FlowSnapshot | undefined, key: string | null): FlowView {
  const nodes = blankNodes();
  const at = Object.fromEntries(NODES.map((n) => [n.id, 0])) as Record<NodeId, number>;
  if (!flow) return { nodes, edges: EDGES.map(() => ({ count: 0, onPath: false })), current: undefined, path: [], lastStep: '', at };
  const one = key !== null ? flow.perUri[key] : undefined;
  const counts = one ? one.edgeCounts : flow.edgeCounts;
  const pathEdges = new Set<number>();
  const path = one?.path ?? [];
  for (const s of path) {
    nodes[s.node].onPath = true;
    nodes[s.node].reached = true;
    if (s.edge !== undefined) pathEdges.add(s.edge);
  }
  if (one?.node) nodes[one.node].current = true;
  if (!one) {
    // All URIs: where each is now (its path's earlier nodes are covered by the global edge counts below; a path
    // that only jumped — no edge — still marks its current node).
    for (const k in flow.perUri) {
      const node = flow.perUri[k]!.node;
      if (node) {
        at[node]++;
        nodes[node].reached = true;
      }
    }
  }
  EDGES.forEach((e, i) => {
    if ((counts[i] ?? 0) > 0) {
      nodes[e.from].reached = true;
      nodes[e.to].reached = true;
    }
  });
  const last = path.at(-1);
  return {
    nodes,
    edges: EDGES.map((_, i) => ({ count: counts[i] ?? 0, onPath: pathEdges.has(i) })),
    current: one?.node,
    path,
    lastStep: last ? `${last.seq}:${last.node}` : '',
    at,
  };
}
