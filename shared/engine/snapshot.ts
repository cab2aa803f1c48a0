// Builds the immutable view of the engine at `now`: plain objects the panel and the CLI render. Linear in what is
// shown (URIs, sessions, recent streams), never in the frame count; messages are shared chunks, not copies.
import type { Finding, FindingId } from '../findings/types.ts';
import { SEVERITY_RANK } from '../findings/types.ts';
import { findingRowKey } from '../findings/finding-log.ts';
import { EDGES, type NodeId } from '../flow/chart.ts';
import { flowProjection, projectSteps, reachedNodes, type FlowProjection, type FlowState } from '../flow/flow-tracker.ts';
import { dueWalks, type DueWalk } from './flow-rules.ts';
import { computeMetrics } from '../metrics.ts';
import type { EngineCore } from './core.ts';
import { STREAM_HISTORY } from './core.ts';
import type { ClientView, EngineSnapshot, FlowSnapshot, SessionView, UriRow } from './types.ts';
import type { UriState } from './uri-state.ts';
import { ageBound } from '../findings/refresh.ts';

type FlowEntry = FlowSnapshot['perUri'][string];

/**
 * A URI's flow entry with no inference projected is a function of its flow state alone, which changes only by a step
 * (FlowState.steps counts them): kept per flow state and handed out again, the same object, until the URI takes a
 * step. At 5,000 URIs, building every entry again was most of a live snapshot's time (a jank every SNAPSHOT_MS in the
 * panel). Kept here, not in the engine: a fork's flow states are new objects (it starts with none kept), and a fork
 * copies no cache. Entries are shared between snapshots, as their paths already were: read-only.
 */
const keptEntries = new WeakMap<FlowState, { steps: number; entry: FlowEntry }>();

function flowEntry(p: FlowProjection, counts: number[]): FlowEntry {
  const one = { edgeCounts: counts, path: p.path, reached: reachedNodes(p.reached) };
  return p.node !== undefined ? { node: p.node, ...one } : one;
}

/** A URI's edge counts as a plain array, copied by a loop (Array.from over the typed array: ~2 ms per 5,000 URIs). */
function edgeCountsOf(s: FlowState): number[] {
  const c = s.counts;
  const out = new Array<number>(EDGES.length);
  for (let i = 0; i < out.length; i++) out[i] = c ? c[i]! : 0;
  return out;
}

const NO_WALKS: readonly DueWalk[] = [];

function flowSnapshot(core: EngineCore, now: number, rows: UriState[]): FlowSnapshot {
  const edgeCounts = Array.from(core.flow.counts);
  let reached = core.flow.reached;
  const perUri: FlowSnapshot['perUri'] = {};
  for (const u of rows) {
    const walks = u.flowReread !== undefined || u.flowPhantom !== undefined ? dueWalks(u, now, core.grace) : NO_WALKS;
    if (walks.length === 0) {
      // Nothing projected: the entry kept for this flow state, or a new one to keep. (Its reached nodes are in the
      // tracker's already: a step marks both.)
      const kept = keptEntries.get(u.flow);
      if (kept !== undefined && kept.steps === u.flow.steps) perUri[u.key] = kept.entry;
      else {
        const entry = flowEntry(flowProjection(u.flow), edgeCountsOf(u.flow));
        keptEntries.set(u.flow, { steps: u.flow.steps, entry });
        perUri[u.key] = entry;
      }
      continue;
    }
    const counts = edgeCountsOf(u.flow);
    let p = flowProjection(u.flow);
    for (const w of walks) p = projectSteps(p, w.nodes, w.deadline, w.seq, w.jumps);
    for (const e of p.edges) {
      counts[e]!++;
      edgeCounts[e]!++;
    }
    reached |= p.reached;
    perUri[u.key] = flowEntry(p, counts);
  }
  return { edgeCounts, reached: reachedNodes(reached), perUri };
}

function row(core: EngineCore, u: UriState, now: number, ids: FindingId[], worst: Finding['severity'] | undefined, node: NodeId | undefined): UriRow {
  const f = u.freshness(core.rules, core.defaultMaxAgeMs);
  const bound = ageBound(core, u);
  const r: UriRow = {
    key: u.key,
    uri: u.uri,
    endpoint: u.client.endpoint,
    doc: u.client.doc,
    cached: u.cached,
    listed: u.listed,
    clientBelievesSubscribed: u.believed,
    serverHasSubscription: u.held,
    deliveryChannelOpen: u.held && u.channelOpen,
    heldBy: u.holders.map((l) => l.label),
    readsInFlight: u.readsInFlight,
    notifications: u.notifyCount,
    expectedMaxAgeMs: f.maxAgeMs,
    expectedMaxAgeSource: f.source,
    ageLimitMs: bound.maxAgeMs,
    ageLimitSource: bound.source,
    findings: ids,
    status: worst ?? 'ok',
  };
  if (f.rule !== undefined) r.expectedMaxAgeRule = f.rule;
  if (u.cached) {
    r.cacheReadAt = u.readAt;
    r.cacheAgeMs = Math.max(0, now - u.readAt);
    const h = u.contentHash;
    if (h !== undefined) r.contentHash = h;
    const size = u.size;
    if (size !== undefined) r.size = size;
    if (u.lastModified !== undefined) r.lastModified = u.lastModified;
    if (u.ttlMs !== undefined) r.ttlMs = u.ttlMs;
    if (u.cacheScope !== undefined) r.cacheScope = u.cacheScope;
  } else if (u.listedLastModified !== undefined) r.lastModified = u.listedLastModified;
  if (u.listedLastModified !== undefined) {
    r.listedLastModified = u.listedLastModified;
    r.listedAt = u.listedAt!;
  }
  if (!Number.isNaN(u.lastNotifyT)) r.lastNotifyT = u.lastNotifyT;
  if (!Number.isNaN(u.lastReadReqT)) r.lastReadT = u.lastReadReqT;
  if (u.lastReadFailed !== undefined) r.lastReadFailed = u.lastReadFailed;
  if (node !== undefined) r.flowNode = node;
  return r;
}

export function buildSnapshot(core: EngineCore, now: number, findings: Finding[], engineErrors: number): EngineSnapshot {
  const live: UriState[] = [];
  for (const c of core.clients.values()) if (!c.ended) for (const u of c.uris.values()) live.push(u);
  const flow = flowSnapshot(core, now, live);

  // Open findings mark their row; the worst decides its status.
  const byRow = new Map<string, { ids: FindingId[]; worst: Finding['severity'] }>();
  for (const f of findings) {
    const k = f.open ? findingRowKey(f) : undefined;
    if (k === undefined) continue;
    const e = byRow.get(k);
    if (!e) byRow.set(k, { ids: [f.id], worst: f.severity });
    else {
      if (!e.ids.includes(f.id)) e.ids.push(f.id);
      if (SEVERITY_RANK[f.severity] > SEVERITY_RANK[e.worst]) e.worst = f.severity;
    }
  }
  const uris = live.map((u) => {
    const e = byRow.get(u.key);
    return row(core, u, now, e?.ids ?? [], e?.worst, flow.perUri[u.key]?.node);
  });
  const rank = (s: UriRow['status']): number => (s === 'ok' ? 0 : SEVERITY_RANK[s]);
  uris.sort((a, b) => rank(b.status) - rank(a.status) || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.key < b.key ? -1 : 1));

  const clients: ClientView[] = [...core.clients.values()].map((c) => {
    const v: ClientView = { key: c.key, doc: c.doc, endpoint: c.endpoint, transport: c.transport, generation: c.generation, ended: c.ended };
    if (c.version !== undefined) v.version = c.version;
    if (c.serverSubscribe !== undefined) v.serverSubscribe = c.serverSubscribe;
    if (c.current) v.currentSession = c.current.label;
    const page = core.pages.get(c.doc);
    if (page) v.page = { ...page };
    return v;
  });

  const sessions: SessionView[] = core.ledgers.map((l) => {
    // Own subscriptions apart from the sub-resources a held parent covers (the metric counts the former only).
    const via = l.open ? l.viaParent : l.viaParentAtEnd;
    const subscriptions: string[] = [];
    const covered: Array<[string, string]> = [];
    for (const uri of l.uris) {
      const parent = via?.get(uri);
      if (parent === undefined) subscriptions.push(uri);
      else covered.push([uri, parent]);
    }
    const v: SessionView = {
      key: l.key,
      label: l.label,
      kind: l.kind,
      endpoint: l.client.endpoint,
      doc: l.client.doc,
      transport: l.transport,
      generation: l.generation,
      startT: l.startT,
      startSeq: l.startSeq,
      open: l.open,
      subscriptions,
      deliveryChannelOpen: l.open && l.channels > 0,
      observedFromStart: l.observedFromStart,
    };
    if (l.version !== undefined) v.version = l.version;
    else if (l.headerVersion !== undefined && !l.uninitialized) {
      v.version = l.headerVersion;
      v.versionFromHeader = true;
    }
    if (l.resumedFrom !== undefined) v.resumedFrom = l.resumedFrom;
    if (l.uninitialized) v.notInitialized = true;
    if (l.endT !== undefined) v.endT = l.endT;
    if (l.endSeq !== undefined) v.endSeq = l.endSeq;
    if (l.endCause !== undefined) v.endCause = l.endCause;
    if (l.requested !== undefined) v.requested = [...l.requested];
    if (l.conn !== undefined) v.conn = l.conn;
    if (covered.length > 0) v.coveredViaParent = covered;
    return v;
  });

  const keptStreams = core.closedStreams.slice(-STREAM_HISTORY);
  const streamsKnownFrom = core.streamsDropped || core.closedStreams.length > STREAM_HISTORY ? keptStreams[0]?.closeT : undefined;
  const snap: EngineSnapshot = {
    now,
    frames: core.counters.frames,
    lastSeq: core.lastSeq,
    clients,
    sessions,
    streams: [...keptStreams, ...core.openStreams.values()],
    ...(streamsKnownFrom !== undefined ? { streamsKnownFrom } : {}),
    uris,
    findings,
    flow,
    metrics: computeMetrics(core, now, engineErrors),
    messages: core.messages.view(),
  };
  if (core.lastT !== undefined) snap.lastT = core.lastT;
  return snap;
}
