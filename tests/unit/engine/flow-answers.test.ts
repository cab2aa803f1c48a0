// The chart's two time-answered questions when the URI moved on before the answer came, and what stays red. "Does it
// send subscribe again?" (P) and "does the notification reach the client?" (I) are answered by the grace; a re-read of
// the cache right after a reconnect, or the session ending right after a notification, used to make the answer a jump
// from wherever the URI was (L ⇢ Q, N with no K at all): the branch went uncounted and the chart disagreed with the
// findings (a flow audit on real SDK traffic, 2026-12-05).
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Engine } from '../../../shared/engine/index.ts';
import { parseTrace } from '../../../shared/trace/index.ts';
import { edgeIndex, type NodeId } from '../../../shared/flow/index.ts';
import { flowView } from '../../../panel/model/flow-view.ts';
import { jumpTitle } from '../../../panel/components/FlowChart.tsx';

const ENDPOINT = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

function flowOf(e: Engine, now: number, uri = POLICY) {
  const snap = e.snapshot(now);
  const row = snap.uris.find((r) => r.uri === uri)!;
  const p = snap.flow.perUri[row.key]!;
  return {
    snap,
    key: row.key,
    node: p.node,
    path: p.path.map((s) => s.node).join(''),
    count: (a: NodeId, b: NodeId) => p.edgeCounts[edgeIndex(a, b)]!,
    global: (a: NodeId, b: NodeId) => snap.flow.edgeCounts[edgeIndex(a, b)]!,
  };
}

function subscribedV1(log: FrameLog) {
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  return { c, get };
}

/** 2026-07-28: discovered, read, listening for it. */
function listeningV2(log: FrameLog) {
  const c = new ModernClient(log, ENDPOINT);
  c.discover();
  c.read(POLICY, 'v1');
  return { c, l: c.listen([POLICY]) };
}

/** Subscribed, then the transport closed and a new session initialized, the cache re-read at once (the question open). */
function reconnectedAndReread(log: FrameLog, waitMs = 0) {
  const { c, get } = subscribedV1(log);
  log.wait(waitMs);
  get.close('aborted');
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  c.read(POLICY, 'v1');
  return c;
}

describe('the reconnect question (P), answered after the URI moved on', () => {
  it('re-initialize, re-read the cache at once, never resubscribe: P —no→ Q counted, in the path and in the projection alike', () => {
    const log = new FrameLog();
    const c = reconnectedAndReread(log, 500); // the client restores its cache first: the question is still open
    const e = run(log);
    // Projected at `now` (nothing touched the URI since the deadline) …
    const projected = flowOf(e, log.t + 3000);
    expect(projected.path).toBe('JLCDNOPJLPQM');
    expect([projected.count('P', 'Q'), projected.count('Q', 'M'), projected.global('P', 'Q')]).toEqual([1, 1, 1]);
    expect(projected.node).toBe('M');
    // … and committed when a later event touches it: the same steps.
    log.wait(3000);
    c.read(POLICY, 'v1');
    const committed = flowOf(run(log), log.t);
    expect(committed.path).toBe('JLCDNOPJLPQMJL');
    expect(committed.count('P', 'Q')).toBe(1);
  });

  it('re-initialize, re-read, then resubscribe within the grace: P —yes→ C counted, no Q', () => {
    const log = new FrameLog();
    const c = reconnectedAndReread(log);
    c.subscribe(POLICY);
    const e = run(log);
    const f = flowOf(e, log.t + 5000);
    expect(f.path).toBe('JLCDNOPJLPCD');
    expect([f.count('P', 'C'), f.count('P', 'Q')]).toEqual([1, 0]);
    expect(brief(findingsAfter(e, 5000)).filter((x) => x.includes(POLICY))).toEqual([]);
  });

  it('2026-07-28: the listen drops, the client reads on and never listens again: O → P —no→ Q (a listen again is the reconnect)', () => {
    const log = new FrameLog();
    const { c, l } = listeningV2(log);
    log.wait(200);
    l.drop('failed');
    c.read(POLICY, 'v1');
    const e = run(log);
    const f = flowOf(e, log.t + 3000);
    expect(brief(findingsAfter(e, 3000))).toContain(`phantom-subscription ${POLICY} - error`);
    expect(f.path).toBe('JLCDNJLOPQM');
    expect([f.count('O', 'P'), f.count('P', 'Q'), f.count('Q', 'M')]).toEqual([1, 1, 1]);
  });

  it('2026-07-28: the listen drops, the client reads, then listens again: O → P —yes→ C', () => {
    const log = new FrameLog();
    const { c, l } = listeningV2(log);
    l.drop('failed');
    c.read(POLICY, 'v1');
    c.listen([POLICY]);
    const f = flowOf(run(log), log.t + 3000);
    expect(f.path).toBe('JLCDNJLOPCD');
    expect([f.count('P', 'C'), f.count('P', 'Q')]).toEqual([1, 0]);
  });

  it('a client that unsubscribes after the reconnect withdrew the question: no answer comes, Q is not reached', () => {
    const log = new FrameLog();
    const c = reconnectedAndReread(log);
    c.unsubscribe(POLICY);
    log.wait(5000);
    c.read(POLICY, 'v1');
    const f = flowOf(run(log), log.t + 5000);
    expect(f.path).toBe('JLCDNOPJLJL');
    expect([f.count('P', 'C'), f.count('P', 'Q')]).toEqual([0, 0]);
  });
});

describe('the notification question (I), answered after the session or listen ended', () => {
  it('2026-07-28: notified, never re-read, the page closes its listen at once: I ⇢ K → M, as notified-not-reread says', () => {
    const log = new FrameLog();
    const { c, l } = listeningV2(log);
    l.updated(POLICY);
    log.wait(100);
    c.cancel(l);
    const e = run(log);
    expect(brief(findingsAfter(e, 5000))).toContain(`notified-not-reread ${POLICY} - warning`);
    const f = flowOf(e, log.t + 5000);
    expect(f.path).toBe('JLCDEFGINIKM');
    // The notification arrived: K by a jump, not along "lost when the connection broke"; K → M is the chart's arrow.
    expect([f.count('I', 'K'), f.count('K', 'M')]).toEqual([0, 1]);
    expect(f.node).toBe('M');
  });

  it('v1: notified, never re-read, the session ends at once (404): I ⇢ K (no edge counted); then Q for the lost subscription', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    get.updated(POLICY);
    log.wait(100);
    c.begin('tools/list').httpStatus(404, -32001, 'Session not found');
    const e = run(log);
    expect(brief(findingsAfter(e, 5000))).toContain(`notified-not-reread ${POLICY} - warning`);
    const f = flowOf(e, log.t + 5000);
    expect([f.count('I', 'K'), f.count('K', 'M')]).toEqual([0, 1]);
    expect(f.path.startsWith('JLCDEFGINIKM')).toBe(true);
  });
});

describe('notified, not re-read: the notification arrived, so K is reached by a jump, never along "lost when the connection broke"', () => {
  it('v1, the URI stays at I past the grace: I ⇢ K → M, projected in a snapshot and committed by the next event, the same', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    get.updated(POLICY);
    const e = run(log);
    expect(brief(findingsAfter(e, 5000))).toEqual([`notified-not-reread ${POLICY} - warning`]);
    // Projected (nothing after the notification yet).
    const projected = flowOf(e, log.t + 5000);
    expect(projected.path).toBe('JLCDEFGIKM');
    expect([projected.count('I', 'K'), projected.global('I', 'K'), projected.count('K', 'M'), projected.global('K', 'M')]).toEqual([0, 0, 1, 1]);
    const steps = projected.snap.flow.perUri[projected.key]!.path;
    const k = steps.find((s) => s.node === 'K')!;
    expect(k.edge).toBeUndefined(); // a jump …
    expect(k.inferred).toBe(true); // … by inference
    expect(steps.find((s) => s.node === 'M')!.edge).toBe(edgeIndex('K', 'M'));
    // The panel draws it as a dashed jump into K, the "lost" arrow uncounted.
    const view = flowView(projected.snap.flow, projected.key);
    expect(view.jumps).toEqual([{ from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'not-reread' }]);
    expect(k.jump).toBe('not-reread');
    // Its tooltip says why (the chart's I → K arrow means a lost notification), not that the chart has no arrow there.
    expect(jumpTitle(view.jumps[0]!)).toMatch(/^I ⇢ K, taken 1×: the notification arrived but the client did not re-read/);
    expect(jumpTitle({ from: 'L', to: 'M', count: 2, kind: 'failure' })).toMatch(/not an arrow of the seed's chart; an older read answer overwrote/);
    expect(view.edges[edgeIndex('I', 'K')]).toMatchObject({ count: 0, onPath: false });
    // Committed: a later event touches the URI past the deadline.
    log.wait(5000);
    c.read(POLICY, 'v2');
    const committed = flowOf(run(log), log.t);
    expect(committed.path).toBe('JLCDEFGIKMJL');
    expect([committed.count('I', 'K'), committed.global('I', 'K'), committed.count('K', 'M')]).toEqual([0, 0, 1]);
  });

});

describe('a missed-update (no notification came at all): I —lost when the connection broke→ K only when a delivery channel broke', () => {
  /** The missed-update's I → K as the engine and the panel have it. */
  function missed(log: FrameLog, extraS = 5) {
    const e = run(log);
    expect(brief(findingsAfter(e, extraS * 1000)).filter((x) => x.startsWith('missed-update'))).toEqual([`missed-update ${POLICY} - warning`]);
    const f = flowOf(e, log.t + extraS * 1000);
    const steps = f.snap.flow.perUri[f.key]!.path;
    const k = steps.findLast((s) => s.node === 'K')!;
    const view = flowView(f.snap.flow, f.key);
    // The finding's detail ends on where the notification most likely went, as the chart's I → K does.
    const detail = findingsAfter(e, extraS * 1000).find((x) => x.id === 'missed-update')!.detail;
    return { f, k, view, detail };
  }

  it("v1, the GET stream open all along (the demo's dropped-notifications: the server never sent it): I ⇢ K, not the \"lost\" arrow", () => {
    const log = new FrameLog();
    const { c } = subscribedV1(log);
    log.wait(10_000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, view, detail } = missed(log);
    expect(detail).toMatch(/while it was subscribed; the stream that delivers its notifications stayed open all that time: the server most likely never sent it$/);
    expect(f.path).toBe('JLCDJEFGIKJL'); // the read sent (J), then its changed answer's inferred walk, then J → L
    expect([f.count('G', 'I'), f.count('I', 'K'), f.global('I', 'K')]).toEqual([1, 0, 0]);
    expect([k.edge, k.inferred, k.jump]).toEqual([undefined, true, 'lost-channel-open']);
    expect(view.jumps).toEqual([{ from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'lost-channel-open' }]);
    expect(view.edges[edgeIndex('I', 'K')]).toMatchObject({ count: 0, onPath: false });
    expect(view.nodes.K).toMatchObject({ reached: true, onPath: true });
    // Its hover text says the stream stayed open, never that the connection broke.
    const title = jumpTitle(view.jumps[0]!);
    expect(title).toMatch(/^I ⇢ K, taken 1×: the content changed but no notification came \(missed-update\), though the stream that delivers notifications stayed open the whole time/);
    expect(title).not.toMatch(/notified-not-reread/);
  });

  it('2026-07-28, the listen stream open all along: I ⇢ K (lost-channel-open)', () => {
    const log = new FrameLog();
    const { c } = listeningV2(log);
    log.wait(10_000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, view, detail } = missed(log);
    expect(detail).toMatch(/; the stream that delivers its notifications stayed open all that time: the server most likely never sent it$/);
    expect(f.count('I', 'K')).toBe(0);
    expect(k.jump).toBe('lost-channel-open');
    expect(view.jumps).toEqual([{ from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'lost-channel-open' }]);
  });

  it('v1, the GET stream dropped in between and came back without resuming: the chart\'s I —lost→ K, counted', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    log.wait(2000);
    get.close('aborted');
    log.wait(2000);
    c.openGet();
    log.wait(2000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, view, detail } = missed(log);
    expect(detail).not.toMatch(/stayed open|never sent it|first due/);
    expect(detail).toMatch(/most likely lost (there|then)$/);
    expect([f.count('I', 'K'), f.global('I', 'K')]).toEqual([1, 1]);
    expect([k.edge, k.jump]).toEqual([edgeIndex('I', 'K'), undefined]);
    expect(view.jumps).toEqual([]);
    expect(view.edges[edgeIndex('I', 'K')]).toMatchObject({ count: 1, onPath: true });
  });

  it('v1, the GET stream down when the cached read was answered, back before the change was read: the arrow too', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.subscribe(POLICY);
    get.close('aborted');
    c.read(POLICY, 'v1');
    log.wait(2000);
    c.openGet();
    log.wait(2000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, detail } = missed(log);
    expect(detail).toMatch(/; a stream that delivers its notifications was down for some or all of that time: it was most likely lost then$/);
    expect([f.count('I', 'K'), k.jump]).toEqual([1, undefined]);
  });

  it('v1, no GET stream yet while it was subscribed (it opened only after): I ⇢ K (lost-no-channel), nothing broke', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(2000);
    c.openGet();
    log.wait(2000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, view, detail } = missed(log);
    expect(detail).toMatch(/while it was subscribed; no stream that could deliver it was open when it was first due \(the read, or the subscribe\)$/);
    expect([f.count('I', 'K'), k.jump]).toEqual([0, 'lost-no-channel']);
    expect(jumpTitle(view.jumps[0]!)).toMatch(/^I ⇢ K, taken 1×: the content changed but no notification came \(missed-update\), and no stream that delivers notifications was open when it was first due \(one opened only later, or never; none broke\)/);
  });

  it('v1, the GET stream closed a minute before the read and the subscribe, never back: the chart\'s I —lost→ K (it was down all that time), said so', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    log.wait(1000);
    get.close('aborted');
    log.wait(60_000);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(5000);
    c.read(POLICY, 'v2 (changed)');
    const { f, k, detail } = missed(log);
    expect([f.count('I', 'K'), f.global('I', 'K'), k.jump]).toEqual([1, 1, undefined]);
    expect(detail).toMatch(/; a stream that delivers its notifications was down for some or all of that time: it was most likely lost then$/);
  });

  it('one URI notified and not re-read, later missing an update with its stream open: two I ⇢ K reasons on one drawn arrow', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    get.updated(POLICY);
    log.wait(5000);
    c.read(POLICY, 'v2');
    log.wait(10_000);
    c.read(POLICY, 'v3 (changed)');
    const f = flowOf(run(log), log.t + 5000);
    const view = flowView(f.snap.flow, f.key);
    expect(view.jumps).toEqual([
      { from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'not-reread' },
      { from: 'I', to: 'K', count: 1, kind: 'failure', reason: 'lost-channel-open' },
    ]);
    expect(f.count('I', 'K')).toBe(0);
  });
});

describe('an unsolicited update: the server found no subscribed session, yet sent it', () => {
  const FAQ = 'file:///docs/faq.md';

  it('v1: E → F ⇢ G → I — F —yes→ G ("found a session subscribed to it") is not counted; a solicited one still is', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    c.read(FAQ, 'f1'); // cached, never subscribed
    get.updated(FAQ);
    get.updated(POLICY);
    c.read(POLICY, 'v2');
    const e = run(log);
    expect(brief(e.findings(log.t + 3000), 'info').filter((x) => x.startsWith('unsolicited-update'))).toEqual([`unsolicited-update ${FAQ} - info`]);
    const faq = flowOf(e, log.t, FAQ);
    expect(faq.path).toBe('JLEFGI');
    expect([faq.count('E', 'F'), faq.count('F', 'G'), faq.count('F', 'H'), faq.count('G', 'I')]).toEqual([1, 0, 0, 1]);
    const step = faq.snap.flow.perUri[faq.key]!.path.find((s) => s.node === 'G')!;
    expect(step.edge).toBeUndefined(); // a jump
    const policy = flowOf(e, log.t);
    expect(policy.count('F', 'G')).toBe(1);
    expect(policy.global('F', 'G')).toBe(1); // only the solicited one
    // The panel draws the jump (G is not lit out of nowhere), as an unsolicited one, not a failure; the solicited URI
    // took the chart's own arrow and has none.
    const view = flowView(faq.snap.flow, faq.key);
    expect(view.jumps).toEqual([{ from: 'F', to: 'G', count: 1, kind: 'unsolicited', reason: 'unsolicited' }]);
    expect(view.nodes.G).toMatchObject({ reached: true, onPath: true });
    expect(view.edges[edgeIndex('F', 'G')]).toMatchObject({ count: 0, onPath: false });
    expect(jumpTitle(view.jumps[0]!)).toBe(
      "F ⇢ G: the server sent notifications/resources/updated though no session or listen of it held a subscription for this URI (unsolicited-update); the chart's F → G is for an update to a subscribed session",
    );
    expect(flowView(policy.snap.flow, policy.key).jumps).toEqual([]);
    // All URIs: the FAQ's jump, with the solicited one still counted on F → G.
    const all = flowView(faq.snap.flow, null);
    expect(all.jumps).toEqual([{ from: 'F', to: 'G', count: 1, kind: 'unsolicited', reason: 'unsolicited' }]);
    expect(all.edges[edgeIndex('F', 'G')]!.count).toBe(1);
  });

  it('the panel sums the unsolicited jumps of every URI in the all-URIs chart, and counts repeats in the hover text', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    const OTHER = 'file:///docs/other.md';
    c.read(FAQ, 'f1');
    c.read(OTHER, 'o1');
    get.updated(FAQ);
    c.read(FAQ, 'f2');
    get.updated(FAQ);
    get.updated(OTHER);
    const e = run(log);
    const faq = flowOf(e, log.t, FAQ);
    const one = flowView(faq.snap.flow, faq.key).jumps;
    expect(one).toEqual([{ from: 'F', to: 'G', count: 2, kind: 'unsolicited', reason: 'unsolicited' }]);
    expect(jumpTitle(one[0]!)).toMatch(/^F ⇢ G, taken 2×: the server sent notifications\/resources\/updated though no session/);
    expect(flowView(faq.snap.flow, null).jumps).toEqual([{ from: 'F', to: 'G', count: 3, kind: 'unsolicited', reason: 'unsolicited' }]);
  });

  it('2026-07-28: an update on a listen that did not ask for the URI takes F ⇢ G too', () => {
    const log = new FrameLog();
    const { c, l } = listeningV2(log);
    c.read(FAQ, 'f1');
    l.updated(FAQ);
    const f = flowOf(run(log), log.t, FAQ);
    expect(f.path).toBe('JLEFGI');
    expect(f.count('F', 'G')).toBe(0);
    expect(flowView(f.snap.flow, f.key).jumps).toEqual([{ from: 'F', to: 'G', count: 1, kind: 'unsolicited', reason: 'unsolicited' }]);
  });
});

describe('red means reached, ever', () => {
  it('a stale overwrite (L ⇢ M) stays red after 64 more steps, as its finding stays listed; the all-URIs view too', () => {
    const log = new FrameLog();
    const { c, get } = subscribedV1(log);
    get.updated(POLICY);
    const older = c.beginRead(POLICY);
    get.updated(POLICY);
    const newer = c.beginRead(POLICY);
    newer.respond({ contents: [{ uri: POLICY, text: 'v3' }] });
    older.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    for (let i = 0; i < 15; i++) {
      get.updated(POLICY);
      c.read(POLICY, `v${4 + i}`);
    }
    const e = run(log);
    const f = flowOf(e, log.t);
    expect(f.snap.findings.some((x) => x.id === 'stale-overwrite' && x.uri === POLICY)).toBe(true);
    expect(f.path).not.toContain('M'); // the path ring (64 steps) no longer has it …
    expect(flowView(f.snap.flow, f.key).nodes.M.reached).toBe(true); // … the chart still shows it reached
    expect(flowView(f.snap.flow, null).nodes.M.reached).toBe(true);
    expect(flowView(f.snap.flow, f.key).nodes.Q.reached).toBe(false);
  });
});

describe('the chart agrees with the findings on the recorded real traces', () => {
  const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.trace.json'))) {
    it(`${file}: a URI not re-read reached K (by a jump, not I —lost→ K); a phantom reached Q`, () => {
      const parsed = parseTrace(readFileSync(join(dir, file), 'utf8'));
      if (!parsed.ok) throw new Error(parsed.error);
      const e = Engine.replay(parsed.trace.frames);
      const snap = e.snapshot(e.lastT! + 5000);
      for (const f of snap.findings) {
        const row = snap.uris.find((r) => r.uri === f.uri && r.endpoint === f.endpoint);
        if (!row) continue;
        const p = snap.flow.perUri[row.key]!;
        if (f.id === 'notified-not-reread') {
          expect(p.reached, `${f.uri}: K`).toContain('K');
          // Unless a missed-update of the same URI inferred a lost notification, the "lost" arrow is not counted.
          if (!snap.findings.some((x) => x.id === 'missed-update' && x.uri === f.uri)) expect(p.edgeCounts[edgeIndex('I', 'K')], `${f.uri}: I → K`).toBe(0);
        }
        if (f.id === 'phantom-subscription') expect(p.reached, `${f.uri}: Q`).toContain('Q');
      }
    });
  }
});
