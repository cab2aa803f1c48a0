// Walks each URI along the seed chart as its events happen: current node, a capped path history and edge counts per
// URI and globally. A move the chart has no edge for is kept as a jump (in the path, not counted on any edge), so the
// path stays truthful when real traffic takes a shortcut the chart does not draw (a first read before any subscribe).
// The path is a ring in one typed array per URI — a step allocates nothing — and becomes objects only when a view asks.
import { EDGES, NODES, edgeIndexByCode, nodeCode, type NodeId } from './chart.ts';

/**
 * Why the engine made a jump where the chart draws an arrow whose label is not what happened (FlowTracker.jumpCode);
 * the panel's hover text says it (FlowChart.tsx jumpTitle). Shortcuts the chart has no arrow for carry none.
 * - `not-reread` (I ⇢ K): the notification arrived, the client did not re-read within the grace (notified-not-reread).
 * - `unsolicited` (F ⇢ G): sent though no session or listen held a subscription for the URI (unsolicited-update).
 * - `lost-channel-open` (I ⇢ K): no notification came for a change (missed-update) while a delivery channel of the
 *   URI's holders stayed open all along: never sent, or lost without the connection breaking.
 * - `lost-no-channel` (I ⇢ K): no notification came for a change while no delivery channel had ever been open to
 *   carry it (none opened yet, or only later): nothing broke.
 * A missed-update whose holders' delivery channel was down (having been up) for some or all of that time takes the
 * chart's own I —lost when the connection broke→ K.
 */
export type FlowJumpReason = 'not-reread' | 'unsolicited' | 'lost-channel-open' | 'lost-no-channel';

/** Stored in the step word as index + 1 (0: none). */
const JUMP_REASONS: readonly FlowJumpReason[] = ['not-reread', 'unsolicited', 'lost-channel-open', 'lost-no-channel'];

export interface FlowStep {
  node: NodeId;
  t: number;
  seq: number;
  /** The edge taken, or undefined for a jump. */
  edge?: number;
  /** Reached by inference (what the traffic implies), not by an observed message. */
  inferred?: boolean;
  /** A jump made although the chart has an arrow here (FlowJumpReason): why. */
  jump?: FlowJumpReason;
}

/** A power of two: the ring index is a mask. */
export const PATH_CAP = 64;

const N_EDGES = EDGES.length;
/** Per-URI block layout: edge counts first, then per step t, seq and the step word, side by side. */
const RING = N_EDGES;
const STRIDE = 3;
const BLOCK = RING + PATH_CAP * STRIDE;

/**
 * The flow blocks of every URI of one engine, in one typed array: a step touches its URI's block and nothing else (no
 * per-URI array object and backing store to load first — 500 URIs stepped round-robin miss the cache on each).
 */
export class FlowBlocks {
  buf = new Float64Array(BLOCK * 8);
  private used = 0;

  alloc(): number {
    if ((this.used + 1) * BLOCK > this.buf.length) {
      const b = new Float64Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    return this.used++ * BLOCK;
  }
}

/** Per-URI flow state, held by the URI's row state; its block is allocated on the first step. */
export class FlowState {
  node: NodeId | undefined = undefined;
  code = -1;
  /** Steps taken in total; the ring keeps the last PATH_CAP. */
  steps = 0;
  /** Every node this URI ever reached, one bit per node code (the path keeps only the last steps). */
  reached = 0;
  /**
   * Offset of this URI's block in `blocks` (edge counts, then the ring of t, seq and
   * node | (edge + 1) << 5 | inferred << 10 | (jump reason + 1) << 11).
   */
  private base = -1;
  private blocks: FlowBlocks | undefined = undefined;
  private counted = false;
  private memo: { steps: number; path: FlowStep[] } | undefined = undefined;

  /** Edge counts for this URI, or undefined before its first counted edge. */
  get counts(): Float64Array | undefined {
    return this.counted ? this.blocks!.buf.subarray(this.base, this.base + N_EDGES) : undefined;
  }

  /** A step into the ring, and its edge (if any) counted: one pass over the URI's block. */
  push(blocks: FlowBlocks, code: number, edge: number, t: number, seq: number, inferred: boolean, reason = 0): void {
    if (this.base < 0) {
      this.blocks = blocks;
      this.base = blocks.alloc();
    }
    const b = blocks.buf;
    const i = this.base + RING + (this.steps & (PATH_CAP - 1)) * STRIDE;
    b[i] = t;
    b[i + 1] = seq;
    b[i + 2] = code | ((edge + 1) << 5) | (inferred ? 1024 : 0) | (reason << 11);
    this.steps++;
    this.reached |= 1 << code;
    if (edge >= 0) {
      this.counted = true;
      b[this.base + edge]!++;
    }
  }

  /** The last steps as plain objects, oldest first (memoized until the next step). */
  path(): FlowStep[] {
    if (this.memo && this.memo.steps === this.steps) return this.memo.path;
    const out: FlowStep[] = [];
    const n = Math.min(this.steps, PATH_CAP);
    for (let k = this.steps - n; k < this.steps; k++) {
      const b = this.blocks!.buf;
      const i = this.base + RING + (k & (PATH_CAP - 1)) * STRIDE;
      const w = b[i + 2]!;
      const s: FlowStep = { node: NODES[w & 31]!.id, t: b[i]!, seq: b[i + 1]! };
      const edge = ((w >> 5) & 31) - 1;
      if (edge >= 0) s.edge = edge;
      if (w & 1024) s.inferred = true;
      const reason = (w >> 11) & 7;
      if (reason > 0) s.jump = JUMP_REASONS[reason - 1];
      out.push(s);
    }
    this.memo = { steps: this.steps, path: out };
    return out;
  }
}

export function newFlowState(): FlowState {
  return new FlowState();
}

/** Per step of a walk, the reason it is a jump (FlowTracker.jumpCode), or undefined for an ordinary step. */
export type FlowJumps = readonly (FlowJumpReason | undefined)[];

/** A walk compiled once: node codes and which steps are inferred (the hot walks are constants). */
export interface FlowWalk {
  readonly codes: readonly number[];
  readonly inferred: readonly boolean[];
}

export function flowWalk(nodes: readonly NodeId[], inferred: readonly boolean[] = []): FlowWalk {
  return { codes: nodes.map(nodeCode), inferred: nodes.map((_, i) => inferred[i] ?? false) };
}

const NODE_IDS: readonly NodeId[] = NODES.map((n) => n.id);

export class FlowTracker {
  readonly counts = new Int32Array(N_EDGES);
  /** Every node any URI ever reached, one bit per node code (as `counts`, ended pages' URIs included). */
  reached = 0;
  private blocks = new FlowBlocks();

  step(s: FlowState, node: NodeId, t: number, seq: number, inferred = false): void {
    this.stepCode(s, nodeCode(node), t, seq, inferred);
  }

  stepCode(s: FlowState, code: number, t: number, seq: number, inferred: boolean): void {
    if (s.code === code) return;
    let e = -1;
    if (s.code >= 0) {
      e = edgeIndexByCode(s.code, code);
      if (e >= 0) this.counts[e]!++;
    }
    s.node = NODE_IDS[code];
    s.code = code;
    this.reached |= 1 << code;
    s.push(this.blocks, code, e, t, seq, inferred);
  }

  /**
   * A jump even where the chart draws an arrow between the two nodes, because that arrow means something else: a
   * notification that arrived and was not re-read goes I ⇢ K, not along I —lost when the connection broke→ K.
   * Kept in the path with its reason (FlowJumpReason), counted on no edge.
   */
  jumpCode(s: FlowState, code: number, t: number, seq: number, inferred: boolean, reason: FlowJumpReason): void {
    if (s.code === code) return;
    s.node = NODE_IDS[code];
    s.code = code;
    this.reached |= 1 << code;
    s.push(this.blocks, code, -1, t, seq, inferred, JUMP_REASONS.indexOf(reason) + 1);
  }

  /** Several steps in a row (e.g. E → F → G → I for a notification); `jumps[i]`: step i is a jump, and why (jumpCode). */
  walk(s: FlowState, nodes: readonly NodeId[], t: number, seq: number, inferred: readonly boolean[] = [], jumps?: FlowJumps): void {
    for (let i = 0; i < nodes.length; i++) {
      const j = jumps?.[i];
      if (j !== undefined) this.jumpCode(s, nodeCode(nodes[i]!), t, seq, inferred[i] ?? false, j);
      else this.stepCode(s, nodeCode(nodes[i]!), t, seq, inferred[i] ?? false);
    }
  }

  walkCompiled(s: FlowState, w: FlowWalk, t: number, seq: number): void {
    const codes = w.codes;
    for (let i = 0; i < codes.length; i++) this.stepCode(s, codes[i]!, t, seq, w.inferred[i]!);
  }
}

/** The node ids of a reached mask (FlowState.reached, FlowTracker.reached). */
export function reachedNodes(mask: number): NodeId[] {
  return NODE_IDS.filter((_, code) => (mask & (1 << code)) !== 0);
}

/** A URI's flow as a snapshot shows it: projected steps are applied to copies of it (projectSteps). */
export interface FlowProjection {
  path: FlowStep[];
  /** Edges the projected steps took (to add to the counts). */
  edges: number[];
  node: NodeId | undefined;
  reached: number;
}

export function flowProjection(s: FlowState): FlowProjection {
  return { path: s.path(), edges: [], node: s.node, reached: s.reached };
}

/**
 * Where a projected (not yet committed) inference would take a URI: `p` is copied, never changed. `jumps[i]`: step i
 * is a jump even where the chart has an arrow, and why (FlowTracker.jumpCode), as the committed walk takes it.
 */
export function projectSteps(p: FlowProjection, nodes: readonly NodeId[], t: number, seq: number, jumps?: FlowJumps): FlowProjection {
  const path = p.path.slice();
  const edges = p.edges.slice();
  let node = p.node;
  let reached = p.reached;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (node === n) continue;
    const step: FlowStep = { node: n, t, seq, inferred: true };
    const j = jumps?.[i];
    if (j !== undefined) step.jump = j;
    else if (node !== undefined) {
      const e = edgeIndexByCode(nodeCode(node), nodeCode(n));
      if (e >= 0) {
        step.edge = e;
        edges.push(e);
      }
    }
    path.push(step);
    reached |= 1 << nodeCode(n);
    node = n;
  }
  if (path.length > PATH_CAP) path.splice(0, path.length - PATH_CAP);
  return { path, edges, node, reached };
}
