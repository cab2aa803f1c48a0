import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../../shared/engine/index.ts';
import { NODES, EDGES } from '../../../shared/flow/index.ts';
import { BOXES, EDGE_PATHS, HEIGHT, SHORT_LABEL, WIDTH, jumpPoints } from '../../../panel/model/flow-layout.ts';
import { flowNodeText, flowView, jumpKind, jumpsByPair, jumpsOf, sessionSteps } from '../../../panel/model/flow-view.ts';
import { FlowJumpView } from '../../../panel/components/FlowChart.tsx';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFilter } from '../../../panel/model/filter.ts';
import { flattenCapabilities, metricRows, messageIndexAtSeq, midWayNote, sessionEntries } from '../../../panel/model/sessions-view.ts';
import { cacheAge, filterRows, findingCounts, findingSessions, findingsForRow, lastHolders, moveSelection, pastPill, rowFindingTitles, rowSessions, serverTitle, severityCountLabel, uriParts, viewForSeverity } from '../../../panel/model/uri-table.ts';
import { staleIntervals } from '../../../panel/model/timeline.ts';
import { CATALOGUE } from '../../../shared/findings/catalogue.ts';
import { rowIndexOf, rowKey } from '../../../panel/frame-rows.ts';
import { run } from '../../support/analyze.ts';
import { lapsedLog } from '../../support/gap-sessions.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';
import { findingRowKey, type Finding, type UriRow } from '../../../shared/engine/index.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';

function scenario() {
  const log = new FrameLog('doc1');
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  c.read(FAQ, 'faq v1');
  log.wait(1000);
  get.close('aborted');
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  log.wait(100);
  return { log, e: run(log) };
}

describe('flow layout', () => {
  it('places every node without overlap, inside the drawing', () => {
    const boxes = NODES.map((n) => BOXES[n.id]);
    for (const b of boxes) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(WIDTH);
      expect(b.y + b.h).toBeLessThanOrEqual(HEIGHT);
      expect(SHORT_LABEL[b.id].length).toBeLessThanOrEqual(22);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
  });
  it('keeps every branch label off every edge line and node, inside the drawing (P → C: "yes" on its own line)', () => {
    // The label's box at 10 px: about 6 px a character, 8 px above the baseline to 2 px below it.
    for (const p of EDGE_PATHS) {
      const e = EDGES[p.index]!;
      if (!e.label) continue;
      const w = e.label.en.split(' ')[0]!.length * 6;
      const [x, y] = p.branchAt;
      const box = { x0: p.branchAnchor === 'end' ? x - w : x, x1: p.branchAnchor === 'end' ? x : x + w, y0: y - 8, y1: y + 2 };
      expect(box.x0 >= 0 && box.x1 <= WIDTH && box.y0 >= 0 && box.y1 <= HEIGHT, `${e.from}→${e.to} label inside`).toBe(true);
      for (const q of EDGE_PATHS)
        for (let i = 1; i < q.points.length; i++) {
          const [ax, ay] = q.points[i - 1]!;
          const [bx, by] = q.points[i]!;
          const crosses = Math.max(ax, bx) >= box.x0 && Math.min(ax, bx) <= box.x1 && Math.max(ay, by) >= box.y0 && Math.min(ay, by) <= box.y1;
          expect(crosses, `${e.from}→${e.to}'s "${e.label.en}" crosses ${q.from}→${q.to}`).toBe(false);
        }
      for (const n of NODES) {
        const b = BOXES[n.id];
        const apart = box.x1 <= b.x || b.x + b.w <= box.x0 || box.y1 <= b.y || b.y + b.h <= box.y0;
        expect(apart, `${e.from}→${e.to}'s label overlaps ${n.id}`).toBe(true);
      }
    }
    // The loop's count sits under its run along the bottom, inside the drawing, not beside O → P's.
    const loop = EDGE_PATHS.find((p) => p.from === 'P' && p.to === 'C')!;
    expect(loop.labelAt[1]).toBeGreaterThan(loop.points[1]![1]);
    expect(loop.labelAt[1] + 2).toBeLessThanOrEqual(HEIGHT);
  });

  it('routes every edge from its source box to its target box with axis-aligned segments', () => {
    expect(EDGE_PATHS).toHaveLength(EDGES.length);
    const touches = (id: keyof typeof BOXES, [x, y]: [number, number]) => {
      const b = BOXES[id];
      return x >= b.x - 0.01 && x <= b.x + b.w + 0.01 && y >= b.y - 0.01 && y <= b.y + b.h + 0.01;
    };
    for (const p of EDGE_PATHS) {
      expect(touches(p.from, p.points[0]!), `${p.from}→${p.to} start`).toBe(true);
      expect(touches(p.to, p.points.at(-1)!), `${p.from}→${p.to} end`).toBe(true);
      for (let i = 1; i < p.points.length; i++) {
        const [x0, y0] = p.points[i - 1]!;
        const [x1, y1] = p.points[i]!;
        expect(x0 === x1 || y0 === y1).toBe(true);
      }
    }
  });
});

describe('flow view', () => {
  it('for a phantom URI: Q reached, current node set, path edges marked', () => {
    const { log, e } = scenario();
    const snap = e.snapshot(log.t + 3000);
    const policy = snap.uris.find((r) => r.uri === POLICY)!;
    const v = flowView(snap.flow, policy.key);
    expect(v.nodes.Q.reached).toBe(true);
    expect(v.current).toBe(policy.flowNode);
    expect(v.nodes[v.current!].current).toBe(true);
    expect(v.lastStep).not.toBe('');
    expect(v.edges.some((x) => x.onPath)).toBe(true);
    const all = flowView(snap.flow, null);
    expect(all.current).toBeUndefined();
    expect(all.nodes.Q.reached).toBe(true);
    expect(Object.values(all.at).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(flowView(undefined, null).nodes.A.reached).toBe(false);
    expect(flowView(undefined, null).jumps).toEqual([]);
  });

  it("A and B, the session's steps, are reached for a URI whose session initialized and negotiated resources.subscribe; not on its path", () => {
    const { log, e } = scenario();
    const snap = e.snapshot(log.t + 3000);
    const policy = snap.uris.find((r) => r.uri === POLICY)!;
    // The engine walks a URI from its first event: its path starts at C, and A and B were listed "not reached".
    expect(flowView(snap.flow, policy.key).nodes.A.reached).toBe(false);
    const steps = sessionSteps(snap, policy.key);
    expect(steps).toEqual({ initialized: true, subscribeNegotiated: true });
    const v = flowView(snap.flow, policy.key, steps);
    expect(v.nodes.A).toEqual({ reached: true, current: false, onPath: false });
    expect(v.nodes.B).toEqual({ reached: true, current: false, onPath: false });
    expect(flowView(snap.flow, null, sessionSteps(snap, null)).nodes.B.reached).toBe(true);
    // A server that offers no resources.subscribe: A, not B.
    const log2 = new FrameLog('doc1');
    const c = new StreamableClient(log2, URL);
    c.initialize({ sessionId: 'S1', capabilities: { resources: {} } });
    c.read(FAQ, 'v1');
    const snap2 = run(log2).snapshot(log2.t + 10);
    const faq = snap2.uris.find((r) => r.uri === FAQ)!;
    expect(sessionSteps(snap2, faq.key)).toEqual({ initialized: true, subscribeNegotiated: false });
    // Another client's row (no session of its own seen): neither.
    expect(sessionSteps(snap2, 'elsewhere')).toEqual({ initialized: false, subscribeNegotiated: false });
  });

  it('all URIs: a jump leaves a node drawn as reached, even when no counted edge reached it (a dropped listen: N → Q)', () => {
    const flow = { edgeCounts: [], reached: [], perUri: { u: { node: 'Q' as const, edgeCounts: [], reached: [], path: [{ node: 'N' as const, t: 1, seq: 1 }, { node: 'Q' as const, t: 2, seq: 2 }] } } };
    const all = flowView(flow, null);
    expect(all.jumps).toEqual([{ from: 'N', to: 'Q', count: 1, kind: 'failure' }]);
    expect([all.nodes.N.reached, all.nodes.Q.reached]).toEqual([true, true]);
  });

  it("all URIs: each path's jumps are worked out once, and the view of later snapshots is a fresh one's", () => {
    const path = [{ node: 'N' as const, t: 1, seq: 1 }, { node: 'Q' as const, t: 2, seq: 2 }];
    const entry = { node: 'Q' as const, edgeCounts: [], reached: [], path };
    const first = flowView({ edgeCounts: [], reached: [], perUri: { u: entry, v: entry } }, null);
    expect(first.jumps).toEqual([{ from: 'N', to: 'Q', count: 2, kind: 'failure' }]);
    // The same path arrays again (the engine hands unchanged URIs' entries to the next snapshot): the sums start over.
    const again = flowView({ edgeCounts: [], reached: [], perUri: { u: entry } }, null);
    expect(again.jumps).toEqual([{ from: 'N', to: 'Q', count: 1, kind: 'failure' }]);
    expect(first.jumps).toEqual([{ from: 'N', to: 'Q', count: 2, kind: 'failure' }]);
    // Along a live trace, with snapshots kept between frames: as the view of copies (which share nothing).
    const { log, e } = scenario();
    for (let k = 0; k < 4; k++) {
      const snap = e.snapshot(log.t + 1000 * k);
      expect(flowView(snap.flow, null)).toEqual(flowView(structuredClone(snap.flow), null));
    }
  });

  it('draws the path steps into a failure node that the chart has no arrow for (L → M after a stale overwrite)', () => {
    const log = new FrameLog('doc1');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.updated(POLICY);
    get.updated(POLICY);
    const older = c.beginRead(POLICY);
    const newer = c.beginRead(POLICY);
    newer.respond({ contents: [{ uri: POLICY, text: 'v3' }] });
    older.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    log.wait(100);
    const e = run(log);
    const snap = e.snapshot(log.t + 3000);
    const row = snap.uris.find((r) => r.uri === POLICY)!;
    expect(row.findings).toContain('stale-overwrite');
    const v = flowView(snap.flow, row.key);
    expect(v.nodes.M.reached).toBe(true);
    expect(v.jumps).toEqual([{ from: 'L', to: 'M', count: 1, kind: 'failure' }]);
    // Every jump ends at a failure node and has no chart edge of its own.
    for (const j of v.jumps) expect(EDGES.some((x) => x.from === j.from && x.to === j.to)).toBe(false);
    // The healthy path of another URI has none.
    c.read(FAQ, 'faq v1');
    const faq = run(log).snapshot(log.t + 3000).uris.find((r) => r.uri === FAQ)!;
    expect(flowView(run(log).snapshot(log.t + 3000).flow, faq.key).jumps).toEqual([]);
    // With no row selected, the chart shows every URI's jumps summed: M is not reached out of nowhere there either.
    expect(flowView(snap.flow, null).jumps).toEqual([{ from: 'L', to: 'M', count: 1, kind: 'failure' }]);
  });
});

describe('flow jumps', () => {
  it('counts repeated jumps once per pair and ignores chart edges, self-steps and non-failure targets', () => {
    const path = [
      { node: 'J', t: 1, seq: 1, edge: EDGES.findIndex((x) => x.from === 'I' && x.to === 'J') },
      { node: 'L', t: 2, seq: 2, edge: EDGES.findIndex((x) => x.from === 'J' && x.to === 'L') },
      { node: 'M', t: 3, seq: 3, inferred: true },
      { node: 'M', t: 4, seq: 4 },
      { node: 'J', t: 5, seq: 5 },
      { node: 'L', t: 6, seq: 6, edge: EDGES.findIndex((x) => x.from === 'J' && x.to === 'L') },
      { node: 'M', t: 7, seq: 7, inferred: true },
      { node: 'E', t: 8, seq: 8 },
    ] as const;
    expect(jumpsOf(path as never)).toEqual([{ from: 'L', to: 'M', count: 2, kind: 'failure' }]);
  });
  it('draws F ⇢ G (an unsolicited update) as its own kind, and leaves the shortcuts of a first read before any subscribe undrawn', () => {
    const edge = (a: string, b: string) => EDGES.findIndex((x) => x.from === a && x.to === b);
    const path = [
      { node: 'J', t: 1, seq: 1 },
      { node: 'L', t: 2, seq: 2, edge: edge('J', 'L') },
      { node: 'E', t: 3, seq: 3, inferred: true }, // L ⇢ E: a shortcut
      { node: 'F', t: 3, seq: 3, edge: edge('E', 'F'), inferred: true },
      { node: 'G', t: 3, seq: 3 }, // F ⇢ G: unsolicited
      { node: 'I', t: 3, seq: 3, edge: edge('G', 'I') },
      { node: 'C', t: 4, seq: 4 }, // I ⇢ C: a shortcut
      { node: 'D', t: 5, seq: 5, edge: edge('C', 'D') },
      { node: 'E', t: 6, seq: 6, edge: edge('D', 'E') },
      { node: 'F', t: 6, seq: 6, edge: edge('E', 'F') },
      { node: 'G', t: 6, seq: 6, edge: edge('F', 'G') }, // solicited: the chart's arrow, no jump
      { node: 'I', t: 6, seq: 6, edge: edge('G', 'I') },
      { node: 'E', t: 7, seq: 7 },
      { node: 'F', t: 7, seq: 7, edge: edge('E', 'F') },
      { node: 'G', t: 7, seq: 7 }, // F ⇢ G again
      { node: 'I', t: 7, seq: 7, edge: edge('G', 'I') },
      { node: 'K', t: 8, seq: 8, inferred: true }, // I ⇢ K: a failure jump
    ] as const;
    expect(jumpsOf(path as never)).toEqual([
      { from: 'F', to: 'G', count: 2, kind: 'unsolicited' },
      { from: 'I', to: 'K', count: 1, kind: 'failure' },
    ]);
    expect([jumpKind('F', 'G'), jumpKind('L', 'M'), jumpKind('N', 'Q'), jumpKind('L', 'E'), jumpKind('L', 'C'), jumpKind('I', 'C')]).toEqual(['unsolicited', 'failure', 'failure', undefined, undefined, undefined]);
    // All URIs: summed per pair, F ⇢ G as the failure jumps are, G reached.
    const entry = (p: readonly unknown[]) => ({ node: 'I' as const, edgeCounts: [], reached: [], path: p as never });
    const all = flowView({ edgeCounts: [], reached: [], perUri: { u: entry(path), v: entry(path.slice(0, 6)) } }, null);
    expect(all.jumps).toEqual([
      { from: 'F', to: 'G', count: 3, kind: 'unsolicited' },
      { from: 'I', to: 'K', count: 1, kind: 'failure' },
    ]);
    expect(all.nodes.G.reached).toBe(true);
  });

  it('renders F ⇢ G dashed in the warning colour, beside the chart\'s F → G, with its own hover text', () => {
    const g = FlowJumpView({ jump: { from: 'F', to: 'G', count: 1, kind: 'unsolicited' } }) as unknown as { type: string; props: Record<string, unknown> & { children: Array<{ type: string; props: Record<string, unknown> }> } };
    expect(g.type).toBe('g');
    expect([g.props.class, g.props['data-jump'], g.props['data-jump-kind'], g.props['data-count']]).toEqual(['jump jump-unsolicited', 'F-G', 'unsolicited', 1]);
    const [line, title] = g.props.children;
    expect(line!.props['marker-end']).toBe('url(#arrow-jump-unsolicited)');
    expect(line!.props.points).toBe(jumpPoints('F', 'G').map(([x, y]) => `${x},${y}`).join(' '));
    expect(title!.type).toBe('title');
    expect(title!.props.children).toMatch(/^F ⇢ G: the server sent notifications\/resources\/updated though no session or listen of it held a subscription for this URI \(unsolicited-update\)/);
    const red = FlowJumpView({ jump: { from: 'L', to: 'M', count: 2, kind: 'failure' } }) as unknown as { props: { class: string; children: Array<{ props: Record<string, unknown> }> } };
    expect(red.props.class).toBe('jump jump-failure');
    expect(red.props.children[0]!.props['marker-end']).toBe('url(#arrow-jump-failure)');
    // The style picks the kind: the warning colour for the line and its head, distinct from the failure jumps' red.
    const css = readFileSync(fileURLToPath(new globalThis.URL('../../../panel/styles.css', import.meta.url)), 'utf8');
    expect(css).toMatch(/\.flow \.jump\.jump-unsolicited polyline \{[^}]*stroke: var\(--warn\)/);
    expect(css).toMatch(/\.arrow-head\.jump\.jump-unsolicited \{[^}]*fill: var\(--warn\)/);
  });

  it("keeps I ⇢ K's reasons apart (not re-read; none came while the stream stayed open) and draws them as one arrow with both hover texts", () => {
    const edge = (a: string, b: string) => EDGES.findIndex((x) => x.from === a && x.to === b);
    const path = [
      { node: 'G', t: 1, seq: 1 },
      { node: 'I', t: 1, seq: 1, edge: edge('G', 'I') },
      { node: 'K', t: 3, seq: 1, inferred: true, jump: 'not-reread' },
      { node: 'J', t: 4, seq: 4 },
      { node: 'I', t: 5, seq: 5, inferred: true },
      { node: 'K', t: 5, seq: 5, inferred: true, jump: 'lost-channel-open' },
      { node: 'I', t: 6, seq: 6, inferred: true },
      { node: 'K', t: 6, seq: 6, inferred: true, jump: 'lost-channel-open' },
      { node: 'I', t: 7, seq: 7, inferred: true },
      { node: 'K', t: 7, seq: 7, inferred: true, edge: edge('I', 'K') }, // lost when the connection broke: the chart's arrow
    ] as const;
    const jumps = jumpsOf(path as never);
    expect(jumps).toEqual([
      { from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'not-reread' },
      { from: 'I', to: 'K', count: 2, kind: 'failure', reason: 'lost-channel-open' },
    ]);
    const pairs = jumpsByPair(jumps);
    expect(pairs).toEqual([jumps]);
    const g = FlowJumpView({ jump: pairs[0]![0]!, also: pairs[0]!.slice(1) }) as unknown as { props: Record<string, unknown> & { children: Array<{ type: string; props: { children: unknown } }> } };
    expect([g.props['data-jump'], g.props['data-jump-reason'], g.props['data-count']]).toEqual(['I-K', 'not-reread lost-channel-open', 3]);
    const title = String(g.props.children[1]!.props.children);
    expect(title.split('\n')).toHaveLength(2);
    expect(title).toMatch(/^I ⇢ K, taken 1×: the notification arrived but the client did not re-read \(notified-not-reread\)/);
    expect(title).toMatch(/\nI ⇢ K, taken 2×: the content changed but no notification came \(missed-update\), though the stream that delivers notifications stayed open the whole time/);
    // A jump with no reason (the chart has no arrow there) carries no data-jump-reason.
    const plain = FlowJumpView({ jump: { from: 'L', to: 'M', count: 1, kind: 'failure' } }) as unknown as { props: Record<string, unknown> };
    expect(plain.props['data-jump-reason']).toBeUndefined();
  });

  it('routes F ⇢ G beside F → G, clear of its count, its "yes" label and every other box', () => {
    const own = EDGE_PATHS.find((e) => e.from === 'F' && e.to === 'G')!;
    const pts = jumpPoints('F', 'G');
    const [[x0, y0], [x1, y1]] = [pts[0]!, pts.at(-1)!];
    const F = BOXES.F;
    const G = BOXES.G;
    // Out of F's bottom, into G's top, straight down.
    expect(pts.every(([x]) => x === x0)).toBe(true);
    expect([y0, y1]).toEqual([F.y + F.h, G.y]);
    expect(x0 > F.x && x0 < F.x + F.w).toBe(true);
    const edgeX = own.points[0]![0];
    // Left of the arrow by more than its branch label "yes" takes (end-anchored 4 px left of it, ≈ 6 px a character);
    // the count sits right of it (labelAt).
    expect(own.branchAnchor).toBe('end');
    expect(x0).toBeLessThan(own.branchAt[0] - 3 * 6.2);
    expect(own.labelAt[0]).toBeGreaterThan(edgeX);
    // No other box between F and G in that column.
    for (const n of NODES.filter((n) => n.id !== 'F' && n.id !== 'G')) {
      const b = BOXES[n.id];
      expect(x0 > b.x && x0 < b.x + b.w && Math.max(y0, y1) > b.y && Math.min(y0, y1) < b.y + b.h, n.id).toBe(false);
    }
  });

  it('has a drawable route for every possible jump into a failure node', () => {
    for (const from of NODES) {
      for (const to of NODES.filter((n) => n.failure && n.id !== from.id)) {
        const pts = jumpPoints(from.id, to.id);
        expect(pts.length).toBeGreaterThanOrEqual(2);
        for (const [x, y] of pts) {
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(WIDTH);
          expect(y).toBeGreaterThanOrEqual(0);
          expect(y).toBeLessThanOrEqual(HEIGHT);
        }
        // Ends on the target box's border.
        const [ex, ey] = pts.at(-1)!;
        const b = BOXES[to.id];
        expect(ex >= b.x && ex <= b.x + b.w && ey >= b.y && ey <= b.y + b.h).toBe(true);
      }
    }
  });
  it('routes the jumps the engine makes around every other box (J → Q used to run through M, N → Q through L)', () => {
    const through = (pts: Array<[number, number]>, skip: string[]) =>
      NODES.filter((n) => !skip.includes(n.id)).filter((n) => {
        const b = BOXES[n.id];
        return pts.slice(1).some(([x1, y1], i) => {
          const [x0, y0] = pts[i]!;
          return Math.max(x0, x1) > b.x && Math.min(x0, x1) < b.x + b.w && Math.max(y0, y1) > b.y && Math.min(y0, y1) < b.y + b.h;
        });
      }).map((n) => n.id);
    for (const [from, to] of [['L', 'M'], ['J', 'Q'], ['N', 'Q'], ['J', 'M'], ['I', 'K'], ['F', 'H'], ['O', 'Q']] as const) {
      expect(through(jumpPoints(from, to), [from, to]), `${from} → ${to}`).toEqual([]);
      // Never on top of the chart's own arrow between the same nodes (I ⇢ K hid under I → K "lost").
      const own = EDGE_PATHS.find((e) => e.from === from && e.to === to);
      if (own) expect(jumpPoints(from, to), `${from} ⇢ ${to}`).not.toEqual(own.points);
    }
  });
});

describe('URI table model', () => {
  it('filters the snapshot rows and keeps the engine order (problems first)', () => {
    const { log, e } = scenario();
    const snap = e.snapshot(log.t + 3000);
    expect(snap.uris[0]!.status).not.toBe('ok');
    expect(filterRows(snap, parseFilter('')).length).toBe(snap.uris.length);
    expect(filterRows(snap, parseFilter('is:phantom')).map((r) => r.uri)).toEqual([POLICY]);
    expect(filterRows(snap, parseFilter('uri:faq')).map((r) => r.uri)).toEqual([FAQ]);
    expect(rowSessions(snap).get(snap.uris.find((r) => r.uri === POLICY)!.key)).toContain('S2');
    expect(filterRows(snap, parseFilter('session:S2 uri:policy')).map((r) => r.uri)).toEqual([POLICY]);
    // The session that held the lost subscription finds the row too: its findings name it.
    expect(snap.findings.some((f) => f.uri === POLICY && f.session === 'S2' && /\bS1 ended/.test(f.detail ?? ''))).toBe(true);
    expect(filterRows(snap, parseFilter('session:S1')).map((r) => r.uri)).toContain(POLICY);
    // FAQ, read and never subscribed, was cached-not-subscribed while S1 was the session too: its one finding
    // (following the URI into S2) held during S1.
    expect(filterRows(snap, parseFilter('session:S1')).map((r) => r.uri)).toContain(FAQ);
    // A session of another client, or one that ended before the finding began, does not concern it.
    const faq = snap.findings.find((f) => f.uri === FAQ)!;
    expect(findingSessions(faq, [{ label: 'X', doc: 'other-doc', endpoint: faq.endpoint, startT: 0 }, { label: 'Y', doc: faq.doc, endpoint: faq.endpoint, startT: 0, endT: faq.firstT - 1 }])).toEqual([faq.session]);
    // A number in a detail ("at seq 21") names no listen 21, and another client's sessions are never named.
    const numeric = { ...faq, session: undefined, detail: 'unsubscribed at seq 21' };
    expect(findingSessions(numeric, [{ label: '21', doc: faq.doc, endpoint: faq.endpoint }])).toEqual([]);
    expect(findingSessions({ ...numeric, detail: '21 ended (dropped) at seq 40' }, [{ label: '21', doc: faq.doc, endpoint: faq.endpoint }])).toEqual(['21']);
    expect(findingSessions({ ...numeric, detail: 'lost when S9 ended' }, [{ label: 'S9', doc: 'other-doc', endpoint: faq.endpoint }])).toEqual([]);
    const counts = findingCounts(snap.findings);
    expect(counts.error).toBeGreaterThan(0);
    // Past problems are counted apart (the toolbar's "N past"), past notes apart from them; ℹ counts open notes only.
    const f = (severity: 'error' | 'warning' | 'info', open: boolean) => ({ ...snap.findings[0]!, severity, open });
    expect(findingCounts([f('error', true), f('warning', false), f('error', false), f('info', false)])).toEqual({ error: 1, warning: 0, info: 0, past: 2, pastInfo: 1 });
    // A run whose only finding is a past note (unsolicited-update) read ✖ 0 ▲ 0 ℹ 0 and no pill (a live review,
    // 2026-12): the pill counts it, muted, and says it is info.
    const only = findingCounts([f('info', false)]);
    expect(only).toEqual({ error: 0, warning: 0, info: 0, past: 0, pastInfo: 1 });
    expect(pastPill(only.past, only.pastInfo)).toEqual({ n: 1, notesOnly: true, title: 'Findings that held earlier and no longer do (1 info): show them in the Findings view', label: '1 past finding (1 info): show the Findings view' });
    expect(pastPill(1, 0)).toMatchObject({ n: 1, notesOnly: false, label: '1 past problem: show the Findings view' });
    expect(pastPill(2, 1)).toMatchObject({ n: 3, notesOnly: false, label: '3 past findings (2 problems, 1 info): show the Findings view' });
    expect(pastPill(0, 0)).toBeNull();
    // The style: a pill counting a past problem is in the warning colour; a notes-only one stays muted (the
    // notes-only class had no rule and .count:not(.some) greyed every past pill).
    const css = readFileSync(fileURLToPath(new globalThis.URL('../../../panel/styles.css', import.meta.url)), 'utf8');
    expect(css).toMatch(/\.count\.past:not\(\.notes-only\) \{[^}]*color: var\(--warn\)/);
    expect(css).toMatch(/\.count:not\(\.some\) \{[^}]*color: var\(--muted\)/);
    const policy = snap.uris.find((r) => r.uri === POLICY)!;
    const fs = findingsForRow(snap.findings, policy);
    expect(fs.map((f) => f.id)).toContain('phantom-subscription');
    expect(fs[0]!.open).toBe(true);
    expect(cacheAge(policy, policy.cacheReadAt! + 1234)).toBe(1234);
    expect(cacheAge({ ...policy, cached: false }, 0)).toBeUndefined();
  });
  it("shows a finding by its own title, its reason's when it has one (a lapsed subscription's resume-gap is not a stream reconnected without resuming)", () => {
    // S1 read and subscribed, re-initialized as S2 and subscribed again without reading: resume-gap, subscription-lapsed.
    const log = new FrameLog();
    lapsedLog(log, URL, POLICY);
    const snap = run(log).snapshot(log.t + 60_000);
    const row = snap.uris.find((r) => r.uri === POLICY)!;
    const gap = snap.findings.find((f) => f.id === 'resume-gap' && f.uri === POLICY)!;
    expect([gap.reason, gap.open, row.findings]).toEqual(['subscription-lapsed', true, ['resume-gap']]);
    // The Findings column, its tooltip and the free-text filter: the title the Findings view and the CLI show.
    expect(rowFindingTitles(snap.findings).get(row.key)).toEqual(['Subscribed again, but not read again']);
    expect(filterRows(snap, parseFilter('not read again')).map((r) => r.uri)).toEqual([POLICY]);
    expect(filterRows(snap, parseFilter(CATALOGUE['resume-gap'].title.toLowerCase()))).toEqual([]);
    expect(filterRows(snap, parseFilter('resume-gap')).map((r) => r.uri)).toEqual([POLICY]);
    // The timeline's hover over its stale band names it the same way.
    expect(staleIntervals(snap, snap.now).get(row.key)?.map((s) => s.title)).toEqual(['Subscribed again, but not read again']);
  });
  it('moves the selection with the keyboard', () => {
    const keys = ['a', 'b', 'c', 'd'];
    expect(moveSelection(keys, null, 'ArrowDown')).toBe('a');
    expect(moveSelection(keys, null, 'ArrowUp')).toBe('d');
    expect(moveSelection(keys, 'b', 'ArrowDown')).toBe('c');
    expect(moveSelection(keys, 'd', 'ArrowDown')).toBe('d');
    expect(moveSelection(keys, 'a', 'ArrowUp')).toBe('a');
    expect(moveSelection(keys, 'b', 'End')).toBe('d');
    expect(moveSelection(keys, 'c', 'Home')).toBe('a');
    expect(moveSelection(keys, 'a', 'PageDown', 2)).toBe('c');
    expect(moveSelection(keys, 'gone', 'ArrowDown')).toBe('a');
    expect(moveSelection([], 'a', 'ArrowDown')).toBeNull();
  });
});

describe('sessions view model', () => {
  it('lists sessions newest first with capabilities from the initialize answer and the end cause', () => {
    const { log, e } = scenario();
    const snap = e.snapshot(log.t);
    const entries = sessionEntries(snap);
    expect(entries.map((s) => s.label)).toEqual(['S2', 'S1']);
    expect(entries[1]!.session.endCause).toBe('re-initialize');
    expect(entries[1]!.capabilities).toEqual(['resources.subscribe', 'resources.listChanged', 'tools']);
    expect(entries[0]!.streams.length).toBe(1);
    // Worked out once per engine: a later snapshot's entries (and the flow chart's steps) get the same arrays.
    expect(sessionEntries(e.snapshot(log.t + 1000))[1]!.capabilities).toBe(entries[1]!.capabilities);
    expect(messageIndexAtSeq(snap.messages, 0)).toBe(0);
    expect(messageIndexAtSeq(snap.messages, 1e12)).toBe(snap.messages.count);
  });
  it('a 2026 listen shows its own stream and how it ended (a panel audit, 2026-12-04: it showed none)', () => {
    const log = new FrameLog('d');
    const m = new ModernClient(log, 'http://localhost:4000/mcp');
    m.discover();
    m.read('file:///a.md', 'x');
    m.listen(['file:///a.md']).drop();
    m.listen(['file:///a.md']);
    const entries = sessionEntries(run(log).snapshot(log.t));
    expect(entries.map((s) => [s.label, s.streams.map((st) => [st.kind, st.open, st.outcome ?? null])])).toEqual([
      ['listen:2', [['listen', true, null]]],
      ['listen:1', [['listen', false, 'failed']]],
    ]);
  });
  it('flattens capabilities and labels the seed metrics', () => {
    expect(flattenCapabilities({ resources: { subscribe: true, listChanged: false }, logging: {} })).toEqual(['resources.subscribe', 'logging']);
    expect(flattenCapabilities(null)).toEqual([]);
    const { log, e } = scenario();
    const rows = metricRows(e.snapshot(log.t).metrics);
    expect(rows.find((r) => r.name === 'reconnects')?.value).toBe('1');
    expect(rows.find((r) => r.name === 'resubscribeShare')?.value).toBe('0 % (0/1)');
    expect(new Set(rows.map((r) => r.group))).toEqual(new Set(['server', 'client', 'capture']));
  });
  it('lists the subscribed URIs per session one session a line, ids cut (the whole ids in the tooltip)', () => {
    const m = { ...scenario().e.snapshot(0).metrics, subscribedUrisPerSession: [{ session: '67884bb1-cc9f-4f6e-af00-88d5844145bb', uris: 1 }, { session: 'S2', uris: 0 }] };
    const row = metricRows(m).find((r) => r.name === 'subscribedUrisPerSession')!;
    expect(row.value).toBe('67884bb1…: 1\nS2: 0');
    expect(row.title).toBe('67884bb1-cc9f-4f6e-af00-88d5844145bb: 1\nS2: 0');
  });
});

describe('URI cell', () => {
  it('keeps the last path segment whole, so URIs that differ at the end stay apart when cut', () => {
    expect(uriParts('postgres://kb/articles/12')).toEqual(['postgres://kb/articles', '/12']);
    expect(uriParts('postgres://kb/articles/13')[1]).toBe('/13');
    expect(uriParts('file:///docs/')).toEqual(['file://', '/docs/']);
    // A long last segment: only its end is kept whole.
    const long = `file:///d/${'x'.repeat(60)}-end.md`;
    expect(uriParts(long).join('')).toBe(long);
    expect(uriParts(long)[1]).toHaveLength(16);
    expect(uriParts('urn:x').join('')).toBe('urn:x');
    // Never between the halves of a surrogate pair.
    const emoji = `file:///d/${'y'.repeat(40)}😀abcdefghijklmno`;
    const [head, tail] = uriParts(emoji);
    expect(head + tail).toBe(emoji);
    expect(tail.startsWith('😀')).toBe(true);
  });
});

describe('Messages list keys', () => {
  it('tells apart the rows of one frame (a JSON-RPC batch), so the keyboard can move through them', () => {
    const rows = [{ seq: 4, part: 0 }, { seq: 5, part: 0 }, { seq: 5, part: 1 }, { seq: 5, part: 2 }, { seq: 6, part: 0 }];
    const keys = rows.map((_, i) => rowKey(rows, i));
    expect(keys).toEqual(['4.0', '5.0', '5.1', '5.2', '6.0']);
    expect(moveSelection(keys, '5.0', 'ArrowDown')).toBe('5.1');
    expect(moveSelection(keys, '5.2', 'ArrowDown')).toBe('6.0');
    // Found again by binary search on seq, then the position within the frame.
    expect(keys.map((k) => rowIndexOf(rows, k))).toEqual([0, 1, 2, 3, 4]);
    expect(rowIndexOf(rows, '5.3')).toBe(-1);
    expect(rowIndexOf(rows, '7.0')).toBe(-1);
    // The key is the row's own place in its frame, not its place among the rows shown: with 5.0 filtered out, 5.0 is
    // not found and 5.1 still is (counting within the shown rows made 5.0 mean the row that had been 5.1).
    expect(rowIndexOf(rows.slice(2), '5.0')).toBe(-1);
    expect(rowIndexOf(rows.slice(2), '5.1')).toBe(0);
    expect(rowKey(rows.slice(2), 1)).toBe('5.2');
  });
});

describe('a click on a severity count', () => {
  const finding = (severity: Finding['severity'], uri?: string, open = true) =>
    ({ id: 'protocol-header-missing', severity, open, doc: 'd', endpoint: 'e', ...(uri ? { uri } : {}) }) as Finding;
  /** The snapshot's rows for these findings: each URI's status is its worst open finding. */
  const shown = (findings: Finding[]) => {
    const rank = { ok: 0, info: 1, warning: 2, error: 3 } as const;
    const status = new Map<string, UriRow['status']>();
    for (const f of findings) {
      if (!f.uri) continue;
      const k = findingRowKey(f)!;
      const was = status.get(k) ?? 'ok';
      status.set(k, f.open && rank[f.severity] > rank[was] ? f.severity : was);
    }
    return { findings, uris: [...status].map(([key, s]) => ({ key, status: s }) as UriRow) };
  };
  it('filters the table in place when every counted finding is on a row of that status', () => {
    expect(viewForSeverity(shown([finding('error', 'file:///a.md'), finding('warning')]), 'error', 'resources')).toBe('resources');
    // A resolved finding about no URI is not counted.
    expect(viewForSeverity(shown([finding('error', undefined, false)]), 'error', 'resources')).toBe('resources');
  });
  it('shows the Findings view when some counted finding is about no URI (the table has no row for it)', () => {
    expect(viewForSeverity(shown([finding('error', 'file:///a.md'), finding('error')]), 'error', 'resources')).toBe('findings');
  });
  it('shows the Findings view when a counted warning is on an error row (is:warning would hide it: an audit, 2026-12-05)', () => {
    const both = [finding('error', 'file:///a.md'), finding('warning', 'file:///a.md')];
    expect(viewForSeverity(shown(both), 'warning', 'resources')).toBe('findings');
    expect(viewForSeverity(shown([...both, finding('info', 'file:///b.md')]), 'info', 'resources')).toBe('resources');
    expect(viewForSeverity(shown([...both, finding('info', 'file:///a.md')]), 'info', 'resources')).toBe('findings');
  });
  it('from the Sessions or Messages view (where is:error means something else), the Findings view', () => {
    for (const view of ['sessions', 'messages', 'findings']) expect(viewForSeverity(shown([finding('error', 'file:///a.md')]), 'error', view)).toBe('findings');
  });
  it("the count's label says what a click shows: rows, counted as rows (two errors of one URI are one row), or findings", () => {
    const two = shown([finding('error', 'file:///a.md'), finding('error', 'file:///a.md')]);
    // Before: "2 errors: show error rows", and the click showed one.
    expect(severityCountLabel(two, 'error', 2, 'resources')).toBe('2 errors, on 1 URI: show the error row');
    const three = shown([finding('error', 'file:///a.md'), finding('error', 'file:///a.md'), finding('error', 'file:///b.md')]);
    expect(severityCountLabel(three, 'error', 3, 'resources')).toBe('3 errors, on 2 URIs: show the 2 error rows');
    expect(severityCountLabel(shown([finding('warning', 'file:///a.md')]), 'warning', 1, 'resources')).toBe('1 warning: show warning rows');
    expect(severityCountLabel(shown([finding('error', 'file:///a.md'), finding('error')]), 'error', 2, 'resources')).toBe('2 errors: show the error findings');
    expect(severityCountLabel(two, 'error', 2, 'sessions')).toBe('2 errors: show the error findings');
  });
});

describe('the Sessions note on rows picked up mid-way', () => {
  it('names what each kind misses: a listen has no initialize', () => {
    expect(midWayNote(['listen'])).toMatch(/^\* picked up mid-way: its subscriptions\/listen request is not in the log \(.*Clear or the log cap/);
    expect(midWayNote(['session'])).toMatch(/^\* picked up mid-way: its initialize is not in the log/);
    expect(midWayNote(['session', 'listen'])).toContain('initialize (a session) or subscriptions/listen request (a listen)');
  });
});

describe('flowNodeText', () => {
  it('names a flow node by its letter and English label (the drawer said only "M")', () => {
    expect(flowNodeText('M')).toBe('M: Later requests read stale content');
    expect(flowNodeText(undefined)).toBe('—');
    for (const n of NODES) expect(flowNodeText(n.id)).toBe(`${n.id}: ${n.en}`);
  });
});

describe('the Server cell tooltip', () => {
  const session = (over: Partial<SessionView>): SessionView =>
    ({ key: 'k', label: 'S', kind: 'session', endpoint: 'http://x/mcp', doc: 'D', transport: 'streamable-http', generation: '2025', startT: 0, startSeq: 0, open: false, subscriptions: [], deliveryChannelOpen: false, observedFromStart: true, ...over }) as SessionView;
  const row = { doc: 'D', endpoint: 'http://x/mcp', uri: 'file:///a', heldBy: [] as string[], serverHasSubscription: false };

  it('names the holders, or says nobody holds it and which session of the client held it last (it was empty)', () => {
    const sessions = [
      session({ key: 'S1', label: 'S1', endT: 1000, endCause: 'delete', subscriptions: ['file:///a'] }),
      session({ key: 'S2', label: 'S2', endT: 5000, endCause: 'http-404', subscriptions: ['file:///a', 'file:///b'] }),
      session({ key: 'S3', label: 'S3', endT: 9000, endCause: 'delete', subscriptions: ['file:///b'] }),
      // Another client's session (another page) does not count.
      session({ key: 'S4', label: 'S4', doc: 'E', endT: 9500, endCause: 'delete', subscriptions: ['file:///a'] }),
      session({ key: 'S5', label: 'S5', open: true, subscriptions: [] }),
    ];
    const holders = lastHolders(sessions);
    expect(lastHolders(sessions)).toBe(holders);
    expect(serverTitle(row, holders, 17_000)).toBe('Not held by any session. Of the sessions that ended, S2 held it last; it ended 12 s ago (http-404)');
    expect(serverTitle({ ...row, uri: 'file:///b' }, holders, 9500)).toBe('Not held by any session. Of the sessions that ended, S3 held it last; it ended just now (delete)');
    expect(serverTitle({ ...row, uri: 'file:///c' }, holders, 0)).toBe('Not held by any session');
    expect(serverTitle({ ...row, heldBy: ['S5'], serverHasSubscription: true }, holders, 0)).toBe('Held by S5');
  });
});
