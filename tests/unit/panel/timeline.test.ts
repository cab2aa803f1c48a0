import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SessionView, StreamView } from '../../../shared/engine/types.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { errorResponse, ModernClient, StreamableClient } from '../../support/mcp-clients.ts';
import { run } from '../../support/analyze.ts';
import { Engine } from '../../../shared/engine/index.ts';
import {
  TimelineIndex,
  fitWindow,
  followLive,
  gapsWithin,
  lowerBound,
  nearestMark,
  maxZoomSpan,
  panBy,
  positionOf,
  readAt,
  scrubSteps,
  sessionLanes,
  staleSeverityAt,
  staleIntervals,
  tOf,
  tickLabel,
  withCursorInView,
  tickStep,
  ticks,
  visibleRange,
  xOf,
  zoomAt,
} from '../../../panel/model/timeline.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

/** Subscribe, notify, re-read; then a reconnect that does not resubscribe. */
function reconnectWithoutResubscribe() {
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/');
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  log.wait(500);
  get.updated(POLICY);
  log.wait(20);
  c.read(POLICY, 'v2');
  log.wait(1000);
  get.close('aborted');
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  log.wait(500);
  return log;
}

describe('TimelineIndex', () => {
  it('collects reads as bars, subscribes and notifications as marks, on the row key lane', () => {
    const log = reconnectWithoutResubscribe();
    const e = run(log);
    const snap = e.snapshot(log.t + 3000);
    const idx = new TimelineIndex();
    idx.update(snap.messages);
    const key = snap.uris[0]!.key;
    const lane = idx.lanes.get(key)!;
    expect(lane.uri).toBe(POLICY);
    expect(lane.reads).toHaveLength(2);
    expect(lane.reads.every((r) => r.t1 !== undefined && r.t1 >= r.t0 && !r.failed)).toBe(true);
    expect(lane.marks.map((m) => m.kind)).toEqual(['subscribe', 'notify']);
    expect(idx.consumed).toBe(snap.messages.count);
    // Incremental: a second update with nothing new changes nothing.
    idx.update(snap.messages);
    expect(lane.reads).toHaveLength(2);
  });

  it('marks a failed subscribe and takes listen filters as subscribes (2026)', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1');
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32601, 'Method not found');
    const m = new ModernClient(log, 'http://localhost:3000/mcp2026');
    m.discover();
    m.read('postgres://kb/articles/1', 'a');
    m.listen(['postgres://kb/articles/1']);
    const e = run(log);
    const idx = new TimelineIndex();
    idx.update(e.snapshot(log.t).messages);
    const subs = [...idx.lanes.values()].flatMap((l) => l.marks.filter((x) => x.kind === 'subscribe').map((x) => [l.uri, x.failed]));
    expect(subs).toEqual([
      [POLICY, true],
      ['postgres://kb/articles/1', false],
    ]);
  });
  it('marks a URI the listen acknowledgement leaves out as refused (2026), also when the ack comes in a later update', () => {
    const log = new FrameLog('d');
    const m = new ModernClient(log, 'http://localhost:3000/mcp2026');
    m.discover();
    m.read('postgres://kb/articles/1', 'a');
    m.read('postgres://kb/articles/2', 'b');
    const stream = m.listen(['postgres://kb/articles/1', 'postgres://kb/articles/2'], { ack: false });
    const e = new Engine();
    e.applyAll(log.frames);
    const idx = new TimelineIndex();
    idx.update(e.messageList());
    const subs = () => [...idx.lanes.values()].flatMap((l) => l.marks.filter((x) => x.kind === 'subscribe').map((x) => [l.uri, x.failed]));
    expect(subs()).toEqual([
      ['postgres://kb/articles/1', false],
      ['postgres://kb/articles/2', false],
    ]);
    const before = log.frames.length;
    stream.ack(['postgres://kb/articles/1']);
    e.applyAll(log.frames.slice(before));
    idx.update(e.messageList());
    expect(subs()).toEqual([
      ['postgres://kb/articles/1', false],
      ['postgres://kb/articles/2', true],
    ]);
    // The listen ends with an error an hour later: what it acknowledged was subscribed all along.
    const later = log.frames.length;
    log.wait(3_600_000);
    stream.send(errorResponse(stream.id, -32603, 'server shutting down'));
    stream.close('complete');
    e.applyAll(log.frames.slice(later));
    idx.update(e.messageList());
    expect(subs()).toEqual([
      ['postgres://kb/articles/1', false],
      ['postgres://kb/articles/2', true],
    ]);
  });
});

describe('session lanes', () => {
  it('show no gap where the stream history was left out (only the latest streams are kept), only real ones', () => {
    const log = new FrameLog('doc1');
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    // The server closes the GET stream every 10 s and the client reopens it at once (a proxy timeout), 260 times.
    for (let i = 0; i < 260; i++) {
      const g = c.openGet();
      log.wait(10_000);
      g.close('complete');
    }
    log.wait(30_000);
    c.openGet();
    log.wait(1000);
    const snap = run(log).snapshot(log.t);
    expect(snap.streamsKnownFrom).toBeDefined();
    const lane = sessionLanes(snap.sessions, snap.streams, snap.now, snap.streamsKnownFrom)[0]!;
    // (Between a close and the reopen, a few ms each: real, and too short to see.)
    expect(lane.gaps.filter((g) => g.t1 - g.t0 >= 1000).map((g) => Math.round((g.t1 - g.t0) / 1000))).toEqual([30]);
    expect(run(log).snapshot(log.t).streams.length).toBeLessThan(262);
  });

  it('shows the session boundary, the reconnect and the channel gap', () => {
    const log = reconnectWithoutResubscribe();
    const e = run(log);
    const snap = e.snapshot(log.t);
    const lanes = sessionLanes(snap.sessions, snap.streams, log.t);
    expect(lanes.map((l) => [l.label, l.end !== undefined, l.reconnectAfter])).toEqual([
      ['S1', true, false],
      ['S2', false, true],
    ]);
    expect(lanes[0]!.endCause).toBe('re-initialize');
    // S1's GET stream opened right after initialize: the only gap is the moment before it.
    expect(lanes[0]!.channels).toHaveLength(1);
  });

  it('a second listen beside an open one is no reconnect; one after a listen ended is (as the engine counts)', () => {
    const log = new FrameLog('doc1');
    const m = new ModernClient(log, 'http://localhost:3000/mcp2026');
    m.discover();
    const first = m.listen(['file:///a.md']);
    log.wait(100);
    m.listen(['file:///b.md']);
    log.wait(100);
    first.drop();
    log.wait(100);
    m.listen(['file:///a.md']);
    log.wait(100);
    // A third beside the re-established one: no reconnect either (the drop was before the one before it).
    m.listen(['file:///c.md']);
    log.wait(100);
    const snap = run(log).snapshot(log.t);
    expect(snap.metrics.reconnects).toBe(1);
    expect(sessionLanes(snap.sessions, snap.streams, log.t).map((l) => l.reconnectAfter)).toEqual([false, false, true, false]);
  });

  it('lanes of any sessions and streams agree with the per-session scan they replace (channels, gaps, reconnects)', () => {
    /** The plain definition: each session scans every stream and every sibling. */
    const naive = (sessions: SessionView[], streams: StreamView[], now: number) =>
      sessions.map((s) => {
        const to = s.open ? now : (s.endT ?? s.startT);
        const siblings = sessions.filter((o) => o.doc === s.doc && o.endpoint === s.endpoint);
        const channels = s.kind === 'listen' ? [{ t0: s.startT, t1: to }] : streams
          .filter((st) => st.session === s.key && st.endpoint === s.endpoint)
          .map((st) => ({ t0: Math.max(st.openT, s.startT), t1: Math.min(st.open ? now : (st.closeT ?? st.openT), to) }))
          .filter((i) => i.t1 >= i.t0);
        let reconnect: boolean;
        if (s.kind !== 'listen') reconnect = siblings.some((o) => o !== s && o.kind === s.kind && o.startT < s.startT);
        else {
          const before = siblings.filter((o) => o !== s && o.kind === 'listen' && o.startT < s.startT);
          const previous = Math.max(...before.map((o) => o.startT));
          reconnect = before.some((o) => !o.open && (o.endT ?? o.startT) >= previous && (o.endT ?? o.startT) <= s.startT);
        }
        return { channels, reconnect };
      });
    const session = fc.record({
      kind: fc.constantFrom('session' as const, 'listen' as const),
      client: fc.integer({ min: 0, max: 2 }),
      startT: fc.integer({ min: 0, max: 20 }),
      length: fc.option(fc.integer({ min: 0, max: 20 })),
    });
    const stream = fc.record({ of: fc.nat(), endpoint: fc.boolean(), openT: fc.integer({ min: 0, max: 40 }), length: fc.option(fc.integer({ min: 0, max: 20 })) });
    fc.assert(
      fc.property(fc.array(session, { maxLength: 12 }), fc.array(stream, { maxLength: 12 }), (ss, sts) => {
        const sessions = ss.map((x, i) => ({
          key: `k${i % 5}${i >= 5 ? ` #${i}` : ''}`, label: `k${i}`, kind: x.kind, endpoint: `e${x.client % 2}`, doc: `d${x.client}`,
          startT: x.startT, open: x.length === null, endT: x.length === null ? undefined : x.startT + x.length,
          subscriptions: [], deliveryChannelOpen: false, observedFromStart: true,
        })) as unknown as SessionView[];
        const streams = sts.map((x, i) => {
          const of = sessions.length ? sessions[x.of % sessions.length]! : undefined;
          return {
            stream: `g${i}`, kind: 'get', endpoint: x.endpoint ? (of?.endpoint ?? 'e0') : 'e1', session: of?.key, openT: x.openT,
            open: x.length === null, closeT: x.length === null ? undefined : x.openT + x.length,
          };
        }) as unknown as StreamView[];
        const lanes = sessionLanes(sessions, streams, 50);
        expect(lanes.map((l) => ({ channels: l.channels, reconnect: l.reconnectAfter }))).toEqual(naive(sessions, streams, 50));
      }),
      { numRuns: 500 },
    );
  });

  it('gapsWithin merges overlapping intervals', () => {
    expect(gapsWithin(0, 100, [])).toEqual([{ t0: 0, t1: 100 }]);
    expect(gapsWithin(0, 100, [{ t0: 10, t1: 30 }, { t0: 20, t1: 40 }, { t0: 60, t1: 120 }])).toEqual([
      { t0: 0, t1: 10 },
      { t0: 40, t1: 60 },
    ]);
    expect(gapsWithin(0, 100, [{ t0: -5, t1: 200 }])).toEqual([]);
  });

  it('stale intervals come from open staleness findings, per row', () => {
    const log = reconnectWithoutResubscribe();
    const e = run(log);
    const now = log.t + 3000;
    const snap = e.snapshot(now);
    const iv = staleIntervals(snap, now).get(snap.uris[0]!.key)!;
    expect(iv.length).toBeGreaterThan(0);
    expect(iv.every((i) => i.t1 === now && i.t0 < now)).toBe(true);
    // The lane label is red while an interval reaches the lane's now; a resolved one (even of zero length) is history.
    expect(staleSeverityAt(iv, now)).toBeDefined();
    expect(staleSeverityAt([{ t0: 10, t1: 10, severity: 'error' }], now)).toBeUndefined();
    expect(staleSeverityAt([{ t0: 10, t1: 20, severity: 'warning' }], 15)).toBe('warning');
  });
});

describe('window maths', () => {
  const w = { start: 1000, end: 2000 };
  it('maps time to x and back', () => {
    expect(xOf(w, 1500, 500)).toBe(250);
    expect(tOf(w, 250, 500)).toBe(1500);
  });
  it('zooms around an anchor, within limits', () => {
    const z = zoomAt(w, 0.5, 1200);
    expect(z.end - z.start).toBe(500);
    expect(xOf(z, 1200, 100)).toBeCloseTo(xOf(w, 1200, 100));
    expect(zoomAt(w, 1e-9, 1500).end - zoomAt(w, 1e-9, 1500).start).toBe(5);
  });
  it('pans by pixels, follows live, fits the data', () => {
    expect(panBy(w, 100, 500)).toEqual({ start: 800, end: 1800 });
    const f = followLive(w, 10_000);
    expect(f.end - f.start).toBeCloseTo(1000);
    expect(f.end).toBeGreaterThan(10_000);
    const fit = fitWindow(0, 10_000);
    expect(fit.start).toBeLessThan(0);
    expect(fit.end).toBeGreaterThan(10_000);
    expect(fitWindow(5, 5).end - fitWindow(5, 5).start).toBeGreaterThanOrEqual(1000);
  });
  it('keeps the replay cursor in view: moves the window (same span) only when the cursor is outside it', () => {
    const live = followLive({ start: 0, end: 120_000 }, 1_000_000);
    expect(withCursorInView(live, null)).toBe(live);
    expect(withCursorInView(live, live.start + 10)).toBe(live);
    const back = withCursorInView(live, 500_000);
    expect(back.end - back.start).toBeCloseTo(live.end - live.start);
    expect(back.start).toBeLessThan(500_000);
    expect(back.end).toBeGreaterThan(500_000);
    const ahead = withCursorInView(w, 5000);
    expect(ahead.start <= 5000 && ahead.end >= 5000).toBe(true);
  });
  it('ticks are readable steps at least minPx apart', () => {
    expect(tickStep({ start: 0, end: 10_000 }, 1000, 80)).toBe(1000);
    expect(tickStep({ start: 0, end: 60_000 }, 600, 80)).toBe(10_000);
    const t = ticks({ start: 50, end: 10_000 }, 1000, 80);
    expect(t[0]).toBe(1000);
    expect(t.at(-1)).toBe(10_000);
  });
  it('binary searches sorted events', () => {
    const xs = [1, 3, 3, 7, 9].map((t) => ({ t }));
    expect(lowerBound(xs, 3, (x) => x.t)).toBe(1);
    expect(lowerBound(xs, 10, (x) => x.t)).toBe(5);
    expect(visibleRange(xs, { start: 2, end: 7 }, (x) => x.t)).toEqual([1, 4]);
    const marks = [10, 20, 30].map((t, index) => ({ t, index, kind: 'notify' as const, failed: false }));
    expect(nearestMark(marks, 22, 5)?.t).toBe(20);
    expect(nearestMark(marks, 25, 2)).toBeUndefined();
  });
  it('finds the read bar under a time', () => {
    const log = reconnectWithoutResubscribe();
    const e = run(log);
    const idx = new TimelineIndex();
    idx.update(e.snapshot(log.t).messages);
    const lane = [...idx.lanes.values()][0]!;
    const bar = lane.reads[1]!;
    expect(readAt(lane, (bar.t0 + (bar.t1 ?? bar.t0)) / 2, 1, log.t)).toBe(bar);
    expect(readAt(lane, bar.t0 - 100, 1, log.t)).toBeUndefined();
  });
});

describe('scrubber steps', () => {
  it('stops at each distinct instant, in time order even when document clocks interleave, counting its messages', () => {
    const times = [100, 105, 103, 200, 200, 950];
    const steps = scrubSteps({ count: times.length, store: { tAt: (i: number) => times[i]! } } as never);
    expect([...steps.t]).toEqual([100, 105, 200, 950]);
    expect([...steps.upTo]).toEqual([1, 3, 5, 6]);
    expect(positionOf(steps, 99)).toBe(0);
    expect(positionOf(steps, 105)).toBe(1);
    expect(positionOf(steps, 199)).toBe(1);
    expect(positionOf(steps, 200)).toBe(2);
    expect(positionOf(steps, 10_000)).toBe(3);
    // Every stop maps back to itself: the arrow keys always move (two messages in one millisecond are one stop).
    for (let k = 0; k < steps.length; k++) expect(positionOf(steps, steps.t[k]!)).toBe(k);
    expect(scrubSteps(undefined).length).toBe(0);
    // A real log: the last stop includes every message.
    const log = reconnectWithoutResubscribe();
    const snap = run(log).snapshot(log.t);
    const real = scrubSteps(snap.messages);
    expect(real.upTo[real.length - 1]).toBe(snap.messages.count);
  });
});

describe('timeline zoom and axis', () => {
  it('zooms out to twenty times the data (at least a minute), not to a week for half a second of traffic', () => {
    const max = maxZoomSpan(500);
    expect(max).toBe(60_000);
    let w = { start: 0, end: 500 };
    for (let i = 0; i < 30; i++) w = zoomAt(w, 2, 250, max);
    expect(w.end - w.start).toBe(60_000);
    expect(maxZoomSpan(3600_000)).toBe(20 * 3600_000);
    // A window already wider (a live follow window) is not shrunk by zooming out.
    const wide = zoomAt({ start: 0, end: 120_000 }, 2, 0, max);
    expect(wide.end - wide.start).toBe(120_000);
    // Zooming in is not limited by it.
    expect(zoomAt({ start: 0, end: 60_000 }, 0.5, 0, max).end).toBe(30_000);
  });
  it('puts day ticks on local midnight', () => {
    const start = new Date(2026, 11, 1, 15, 0).getTime();
    const ts = ticks({ start, end: start + 6 * 86_400_000 }, 400);
    expect(ts.length).toBeGreaterThan(0);
    for (const t of ts) expect([new Date(t).getHours(), new Date(t).getMinutes()]).toEqual([0, 0]);
  });
  it('a window of any span draws a bounded number of ticks: weeks, months, years (a trace whose times run over decades)', () => {
    for (const [start, end] of [
      [0, Date.UTC(2026, 0, 1)],
      [-3e14, Date.UTC(2026, 0, 1)],
      [-8.64e15, 8.64e15],
      [Date.UTC(2026, 0, 1), Date.UTC(2026, 3, 1)],
    ] as const) {
      const ts = ticks({ start, end }, 1000, 80);
      expect(ts.length, `${start}..${end}`).toBeLessThanOrEqual(13);
      expect(ts.length, `${start}..${end}`).toBeGreaterThan(0);
      expect(ts.every(Number.isFinite)).toBe(true);
    }
    expect(tickStep({ start: 0, end: 6 * 86_400_000 }, 400)).toBe(2 * 86_400_000);
    const t = new Date(2026, 0, 1).getTime();
    expect(tickLabel(t, 365 * 86_400_000, (x) => String(x))).toBe('Jan 1 2026');
  });
  it('labels day ticks with the date (every label read 00:00:00)', () => {
    const t = new Date(2026, 11, 2, 0, 0, 0).getTime();
    const clock = (x: number) => new Date(x).toTimeString().slice(0, 8) + '.000';
    expect(tickLabel(t, 86_400_000, clock)).toBe('Dec 2');
    expect(tickLabel(t, 3600_000, clock)).toBe('00:00:00');
    expect(tickLabel(t + 5, 100, clock)).toBe(clock(t + 5));
  });
});
