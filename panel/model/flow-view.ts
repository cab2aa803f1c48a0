// What the flow chart shows for the selected URI (or for every URI): which nodes were reached, the current node, the
// path the URI took (its last steps), the count on every edge, and the newest step (for the pulse). Pure, from the
// engine's FlowSnapshot.
import type { EngineSnapshot, FlowSnapshot } from '../../shared/engine/index.ts';
import { capabilitiesOf } from './sessions-view.ts';
import { EDGES, NODES, nodeById, type FlowJumpReason, type FlowStep, type NodeId } from '../../shared/flow/index.ts';

export interface FlowNodeState {
  reached: boolean;
  current: boolean;
  onPath: boolean;
}

export interface FlowEdgeState {
  count: number;
  onPath: boolean;
}

/**
 * What a drawn jump means, which picks its style and hover text (FlowChart.tsx):
 * - `failure`: into a failure node the seed's chart has no arrow for (L → M: an older answer overwrote newer content;
 *   → Q: a subscription lost while the client still believes in it; I ⇢ K: a notification that arrived and was not
 *   re-read, or one that never came while no connection broke, which the chart's I → K "lost when the connection
 *   broke" arrow does not mean). Dashed red, so a red node never appears out of nowhere.
 * - `unsolicited`: F ⇢ G, an update sent though no session or listen of the server held a subscription for the URI
 *   (`unsolicited-update`): neither F —yes→ G nor F —no→ H is what happened. Dashed in the warning colour (an anomaly,
 *   not a failure), so G is not lit out of nowhere either.
 */
export type FlowJumpKind = 'failure' | 'unsolicited';

/**
 * A step of the selected URI's path that the seed's chart has no arrow for (or one whose arrow means something else),
 * drawn dashed: those into a failure node, and the few meaningful others (NOTABLE_JUMPS). The remaining jumps (those after a
 * first read before any subscribe: L ⇢ C, L ⇢ E …) are shortcuts and stay undrawn.
 */
export interface FlowJump {
  from: NodeId;
  to: NodeId;
  /** How often the path (its last steps) took it. */
  count: number;
  kind: FlowJumpKind;
  /**
   * Why the engine jumped where the chart has an arrow (the path step's FlowJumpReason): I ⇢ K is taken for a
   * notification not re-read and for one that never came while the channel stayed open, each with its own hover text.
   * Absent for the jumps the chart has no arrow for.
   */
  reason?: FlowJumpReason;
}

/** The jumps into a non-failure node that are drawn, by `from-to`. */
const NOTABLE_JUMPS: Readonly<Partial<Record<string, FlowJumpKind>>> = {
  'F-G': 'unsolicited',
};

/** How a jump from → to is drawn, or undefined when it is a shortcut left undrawn. */
export function jumpKind(from: NodeId, to: NodeId): FlowJumpKind | undefined {
  if (nodeById(to).failure) return 'failure';
  return NOTABLE_JUMPS[`${from}-${to}`];
}

export interface FlowView {
  nodes: Record<NodeId, FlowNodeState>;
  edges: FlowEdgeState[];
  /** The selected URI's current node (undefined for "all URIs"). */
  current: NodeId | undefined;
  path: FlowStep[];
  /** The drawn jumps along the path (FlowJump): the selected URI's, or every URI's summed ("all URIs"). */
  jumps: FlowJump[];
  /** Identity of the newest step (`seq:node`), '' when none: when it changes, the chart pulses. */
  lastStep: string;
  /** URIs currently at each node ("all URIs" view). */
  at: Record<NodeId, number>;
}

function blankNodes(): Record<NodeId, FlowNodeState> {
  return Object.fromEntries(NODES.map((n) => [n.id, { reached: false, current: false, onPath: false }])) as Record<NodeId, FlowNodeState>;
}

/** The chart's session steps, A and B, as the sessions say they went (flowView). */
export interface SessionSteps {
  /** A: an initialize of the client's session was seen, answered. */
  initialized: boolean;
  /** B: its answer offered resources.subscribe. */
  subscribeNegotiated: boolean;
}

/**
 * A (the client initializes the session) and B (it negotiates resources.subscribe) are steps of a session, not of a
 * URI: the engine walks a URI from its first event (C for a subscribe), so no path ever held them, and the chart listed
 * them "not reached" for a URI whose session did both. Read from the sessions instead: those of the selected row's
 * client (doc and endpoint), or any, for the chart of all URIs. A listen has no initialize: it reaches neither.
 */
export function sessionSteps(snapshot: Pick<EngineSnapshot, 'sessions' | 'messages' | 'uris'> | null | undefined, key: string | null): SessionSteps {
  const out = { initialized: false, subscribeNegotiated: false };
  if (!snapshot) return out;
  const row = key === null ? undefined : snapshot.uris.find((r) => r.key === key);
  if (key !== null && !row) return out;
  for (const s of snapshot.sessions) {
    if (s.kind !== 'session' || (row && (s.doc !== row.doc || s.endpoint !== row.endpoint))) continue;
    const caps = capabilitiesOf(snapshot.messages, s);
    if (caps === undefined) continue;
    out.initialized = true;
    if (caps.includes('resources.subscribe')) {
      out.subscribeNegotiated = true;
      break;
    }
  }
  return out;
}

export function flowView(flow: FlowSnapshot | undefined, key: string | null, steps?: SessionSteps): FlowView {
  const nodes = blankNodes();
  const at = Object.fromEntries(NODES.map((n) => [n.id, 0])) as Record<NodeId, number>;
  if (!flow) return { nodes, edges: EDGES.map(() => ({ count: 0, onPath: false })), current: undefined, path: [], jumps: [], lastStep: '', at };
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
  // Red means reached, ever: the engine keeps every node a URI (or any URI) reached, not only the last steps' nodes.
  for (const id of (one ?? (key === null ? flow : undefined))?.reached ?? []) nodes[id].reached = true;
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
  // The session's own steps (sessionSteps): reached, not on the URI's path.
  if (steps?.initialized) nodes.A.reached = true;
  if (steps?.subscribeNegotiated) nodes.B.reached = true;
  const last = path.at(-1);
  // All URIs: every URI's jumps, summed, so a node reached only by a jump has its arrow there too.
  const jumps = one || key !== null ? jumpsOf(path) : allJumps(flow);
  // A jump was taken from somewhere: both its ends were reached (an arrow never leaves a node drawn as not reached).
  for (const j of jumps) {
    nodes[j.from].reached = true;
    nodes[j.to].reached = true;
  }
  return {
    nodes,
    edges: EDGES.map((_, i) => ({ count: counts[i] ?? 0, onPath: pathEdges.has(i) })),
    current: one?.node,
    path,
    jumps,
    lastStep: last ? `${last.seq}:${last.node}` : '',
    at,
  };
}

/**
 * Each path's jumps, worked out once: a snapshot's paths are never changed, and a URI that took no step since hands the
 * next snapshot the same path array (FlowState.path, the engine's kept flow entries). At 5,000 URIs, scanning every
 * path again for every snapshot was most of the chart's time.
 */
const jumpsByPath = new WeakMap<readonly FlowStep[], readonly FlowJump[]>();

function keptJumpsOf(path: readonly FlowStep[]): readonly FlowJump[] {
  let jumps = jumpsByPath.get(path);
  if (jumps === undefined) jumpsByPath.set(path, (jumps = jumpsOf(path)));
  return jumps;
}

/** The jumps of every URI's path, one entry per pair (and reason) with the counts summed. */
function allJumps(flow: FlowSnapshot): FlowJump[] {
  const out: FlowJump[] = [];
  for (const k in flow.perUri) {
    for (const j of keptJumpsOf(flow.perUri[k]!.path)) {
      const known = out.find((x) => x.from === j.from && x.to === j.to && x.reason === j.reason);
      if (known) known.count += j.count;
      else out.push({ ...j });
    }
  }
  return out;
}

/**
 * Consecutive steps of a path with no chart edge between them that are drawn (jumpKind: into a failure node, or one of
 * NOTABLE_JUMPS such as F ⇢ G); one entry per pair and reason (FlowStep.jump), in order.
 */
export function jumpsOf(path: readonly FlowStep[]): FlowJump[] {
  const out: FlowJump[] = [];
  for (let i = 1; i < path.length; i++) {
    const s = path[i]!;
    const from = path[i - 1]!.node;
    if (s.edge !== undefined || from === s.node) continue;
    const kind = jumpKind(from, s.node);
    if (kind === undefined) continue;
    const known = out.find((j) => j.from === from && j.to === s.node && j.reason === s.jump);
    if (known) known.count++;
    else out.push(s.jump !== undefined ? { from, to: s.node, count: 1, kind, reason: s.jump } : { from, to: s.node, count: 1, kind });
  }
  return out;
}

/**
 * The drawn jumps, one per pair: the entries of one pair with different reasons (a URI notified and not re-read, later
 * missing an update with its channel open: I ⇢ K twice) share one dashed arrow, whose hover text gives each.
 */
export function jumpsByPair(jumps: readonly FlowJump[]): FlowJump[][] {
  const out: FlowJump[][] = [];
  for (const j of jumps) {
    const same = out.find((g) => g[0]!.from === j.from && g[0]!.to === j.to);
    if (same) same.push(j);
    else out.push([j]);
  }
  return out;
}

/** A flow node as the drawer names it: its letter and its English label (`M: Later requests read stale content`). */
export function flowNodeText(id: NodeId | undefined): string {
  return id === undefined ? '—' : `${id}: ${nodeById(id).en}`;
}
