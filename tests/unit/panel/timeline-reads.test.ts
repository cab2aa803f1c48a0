// The timeline's read bars: one that gets no answer (still waiting long after it began is drawn and found under the
// pointer; one whose exchange failed or was aborted ends there, failed, and says why); reads drawn apart from the
// notification marks and from each other (the re-read after a notification, two reads in flight at once), and found
// under the pointer where they are drawn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { run } from '../../support/analyze.ts';
import { describeRead, LANE_H, readAt, TimelineIndex, uriLaneHit, type UriLane } from '../../../panel/model/timeline.ts';
import { AXIS_H, drawTimeline, type Palette } from '../../../panel/components/timeline-draw.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

/** A Path2D stand-in that keeps its rectangles, and a 2D context that keeps what each fill() was given. */
class FakePath {
  rects: number[][] = [];
  /** The points of its shapes (marks), each shape from its moveTo. */
  shapes: number[][][] = [];
  rect(...a: number[]) {
    this.rects.push(a);
  }
  moveTo(x: number, y: number) {
    this.shapes.push([[x, y]]);
  }
  lineTo(x: number, y: number) {
    this.shapes.at(-1)!.push([x, y]);
  }
  closePath() {}
}
function recordingCtx(fills: Array<{ style: string; path: FakePath }>): CanvasRenderingContext2D {
  const ctx: Record<string, unknown> = {
    fillStyle: '',
    measureText: () => ({ width: 10 }),
    fill(p: unknown) {
      if (p instanceof FakePath) fills.push({ style: String(this.fillStyle), path: p });
    },
  };
  return new Proxy(ctx, { get: (o, k) => (k in o ? o[k as string] : () => {}), set: (o, k, v) => ((o[k as string] = v), true) }) as unknown as CanvasRenderingContext2D;
}
const P = { read: 'READ', error: 'ERROR', accent: 'NOTIFY', ok: 'SUBSCRIBE' } as Palette;
const g = globalThis as { Path2D?: unknown };
const hadPath2D = g.Path2D;
beforeAll(() => void (g.Path2D = FakePath));
afterAll(() => void (g.Path2D = hadPath2D));

/** What is drawn for one lane (the first, at the top) in a 600 px window: each fill's path by its colour. */
function drawLane(lane: UriLane, w: { start: number; end: number }, now: number): Array<{ style: string; path: FakePath }> {
  const fills: Array<{ style: string; path: FakePath }> = [];
  drawTimeline({ ctx: recordingCtx(fills), width: 600, height: 100, window: w, lanes: [{ kind: 'uri', id: lane.key, label: lane.uri, uri: lane.uri, lane, stale: [], selected: false }], firstLane: 0, offsetY: 0, now, scrubT: null, boundaries: [], p: P });
  return fills;
}

/** The read rectangles drawn for one lane in a 600 px window. */
function drawnReads(lane: UriLane, w: { start: number; end: number }, now: number): { read: number; failed: number } {
  const fills = drawLane(lane, w, now);
  const count = (style: string) => fills.filter((f) => f.style === style).reduce((n, f) => n + f.path.rects.length, 0);
  return { read: count('READ'), failed: count('ERROR') };
}

function laneOf(log: FrameLog, uri: string): UriLane {
  const idx = new TimelineIndex();
  idx.update(run(log).snapshot(log.t).messages);
  return [...idx.lanes.values()].find((l) => l.uri === uri)!;
}

describe('a read that never gets an answer', () => {
  it('is drawn and found under the pointer however long after it began the window starts', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1'); // answered at once: the longest closed read is 0 ms
    log.wait(100);
    c.beginRead(POLICY); // never answered
    log.wait(10 * 60_000);
    c.read('file:///other', 'x');
    const lane = laneOf(log, POLICY);
    const waiting = lane.reads.find((r) => r.t1 === undefined)!;
    const now = log.t;
    // Following live: the last two minutes, all of them inside the waiting read.
    const w = { start: now - 120_000, end: now + 3_000 };
    expect(readAt(lane, now - 60_000, (w.end - w.start) / 600, now)?.index).toBe(waiting.index);
    expect(drawnReads(lane, w, now)).toEqual({ read: 1, failed: 0 });
    expect(describeRead(waiting)).toMatch(/no answer yet$/);
  });
});

describe('a read whose exchange ends without its answer', () => {
  it('a network failure ends the bar there, failed, and says why (it stayed in flight to now, "no answer yet")', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const failedAt = log.t;
    c.beginRead(POLICY).networkError();
    log.wait(60_000);
    c.read('file:///other', 'x');
    const lane = laneOf(log, POLICY);
    const bar = lane.reads[0]!;
    expect(bar).toMatchObject({ failed: true, noAnswer: 'no answer (the request failed)' });
    expect(bar.t1).toBeGreaterThanOrEqual(failedAt);
    expect(bar.t1).toBeLessThan(failedAt + 1000);
    expect(lane.open).toEqual([]);
    expect(describeRead(bar)).toMatch(/failed after .*: no answer \(the request failed\)$/);
    // Drawn red where it was, not to now; nothing under the pointer a minute later.
    expect(drawnReads(lane, { start: bar.t0 - 1000, end: log.t }, log.t)).toEqual({ read: 0, failed: 1 });
    expect(readAt(lane, log.t - 30_000, 10, log.t)).toBeUndefined();
  });

  it('an abort by the page says so', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const p = c.beginRead(POLICY);
    log.wait(2000);
    log.httpEnd(p.conn, 'aborted', 'request');
    log.wait(1000);
    c.read('file:///other', 'x');
    const bar = laneOf(log, POLICY).reads[0]!;
    expect(bar).toMatchObject({ failed: true, noAnswer: 'no answer (the page aborted the request)' });
    expect(bar.t1! - bar.t0).toBeGreaterThanOrEqual(2000);
    expect(describeRead(bar)).toMatch(/aborted/);
  });

  it('a read still waiting when its page leaves ends there, not as a failure: the page left (a review: it ran to now for ever)', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.beginRead(POLICY);
    log.wait(500);
    log.pageEnd('http://localhost:8080/');
    const leftAt = log.t;
    log.wait(60 * 60_000);
    const bar = laneOf(log, POLICY).reads[0]!;
    // Ended there, not failed: nothing failed on the wire (the page took its requests with it).
    expect(bar).toMatchObject({ failed: false, noAnswer: 'no answer (the page left)', t1: leftAt });
    expect(describeRead(bar)).toMatch(/, ended after 50\d ms: no answer \(the page left\)$/);
  });

  it('a subscribe whose exchange failed is marked refused', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.begin('resources/subscribe', { uri: POLICY }).networkError();
    expect(laneOf(log, POLICY).marks).toMatchObject([{ kind: 'subscribe', failed: true }]);
  });

  it('an index fed before the end is known leaves the read waiting, and ends it on the next update', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const p = c.beginRead(POLICY);
    const e = run(log);
    const idx = new TimelineIndex();
    idx.update(e.snapshot(log.t).messages);
    const lane = [...idx.lanes.values()].find((l) => l.uri === POLICY)!;
    expect(lane.reads[0]!.t1).toBeUndefined();
    log.wait(500);
    p.networkError();
    e.apply(log.frames.at(-1)!);
    idx.update(e.snapshot(log.t).messages);
    expect(lane.reads[0]).toMatchObject({ failed: true });
    expect(lane.open).toEqual([]);
  });
});

describe('reads apart from notifications and from each other', () => {
  /**
   * The seed's stale overwrite: subscribed, a notification and a re-read the server holds, a second notification and a
   * re-read answered at once, then the first answer, last. Then, later, one more notification and re-read.
   */
  function staleOverwrite() {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(500);
    get.updated(POLICY);
    log.wait(2);
    const first = c.beginRead(POLICY);
    log.wait(20);
    get.updated(POLICY);
    log.wait(2);
    const second = c.beginRead(POLICY);
    log.wait(5);
    second.respond({ contents: [{ uri: POLICY, text: 'v3' }] });
    log.wait(100);
    first.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    log.wait(15_000);
    get.updated(POLICY);
    log.wait(2);
    c.read(POLICY, 'v4');
    log.wait(1000);
    return { log, lane: laneOf(log, POLICY) };
  }

  /** Rectangles as [x0, y0, x1, y1]. */
  const box = (r: number[]) => [r[0]!, r[1]!, r[0]! + r[2]!, r[1]! + r[3]!];
  const overlap = (a: number[], b: number[]) => a[0]! < b[2]! && b[0]! < a[2]! && a[1]! < b[3]! && b[1]! < a[3]!;
  const readRects = (fills: Array<{ style: string; path: FakePath }>) => fills.filter((f) => f.style === 'READ').flatMap((f) => f.path.rects.map(box));
  const shapeBoxes = (fills: Array<{ style: string; path: FakePath }>, style: string) =>
    fills
      .filter((f) => f.style === style)
      .flatMap((f) => f.path.shapes)
      .map((pts) => [Math.min(...pts.map((q) => q[0]!)), Math.min(...pts.map((q) => q[1]!)), Math.max(...pts.map((q) => q[0]!)), Math.max(...pts.map((q) => q[1]!))]);

  it('two reads in flight at once get different slots; a read sent when none is in flight takes the first again', () => {
    const { lane } = staleOverwrite();
    expect(lane.reads.map((r) => r.slot)).toEqual([0, 0, 1, 0]);
    // The first re-read is answered last (after the second): the two overlap in time.
    const [, a, b] = lane.reads;
    expect(a!.t0).toBeLessThan(b!.t0);
    expect(a!.t1).toBeGreaterThan(b!.t1!);
  });

  it('draws two overlapping reads as two bars that do not overlap (they were one bar: the overwrite looked like one read)', () => {
    const { lane } = staleOverwrite();
    const [, a, b] = lane.reads;
    // Zoomed on the two re-reads: 200 ms over 600 px.
    const rects = readRects(drawLane(lane, { start: a!.t0 - 50, end: a!.t0 + 150 }, a!.t1! + 16_000));
    expect(rects).toHaveLength(2);
    expect(overlap(rects[0]!, rects[1]!)).toBe(false);
    // Each within its own lane, under its marks' band, and as long as its exchange (x from its request to its answer).
    for (const r of rects) {
      expect(r[1]).toBeGreaterThanOrEqual(AXIS_H);
      expect(r[3]).toBeLessThanOrEqual(AXIS_H + LANE_H);
    }
    expect(rects[0]![2]! - rects[0]![0]!).toBeCloseTo(((a!.t1! - a!.t0) / 200) * 600, 0);
    expect(rects[1]![2]! - rects[1]![0]!).toBeCloseTo(((b!.t1! - b!.t0) / 200) * 600, 0);
  });

  it('draws a re-read just after a notification clear of the notification mark, also zoomed out where both fall on one pixel', () => {
    const { lane, log } = staleOverwrite();
    for (const span of [200, 120_000]) {
      const last = lane.reads.at(-1)!;
      const w = { start: last.t0 - span / 2, end: last.t0 + span / 2 };
      const fills = drawLane(lane, w, log.t);
      const notifies = shapeBoxes(fills, 'NOTIFY');
      const subscribes = shapeBoxes(fills, 'SUBSCRIBE');
      const reads = readRects(fills);
      expect(notifies.length).toBeGreaterThan(0);
      expect(reads.length).toBeGreaterThan(0);
      for (const r of reads) for (const m of [...notifies, ...subscribes]) expect(overlap(r, m), `read ${r} under mark ${m} (${span} ms shown)`).toBe(false);
      // The read at the window's middle is at least a few pixels wide, though answered within the pixel.
      const mid = reads.find((r) => r[0]! <= 300 && r[2]! >= 300)!;
      expect(mid[2]! - mid[0]!).toBeGreaterThanOrEqual(3);
    }
  });

  it('hovering finds what is drawn under the pointer: the notification above, each overlapping read in its own row', () => {
    const { lane, log } = staleOverwrite();
    const [, a, b, c] = lane.reads;
    const fills = drawLane(lane, { start: a!.t0 - 50, end: a!.t0 + 150 }, log.t);
    const [ra, rb] = readRects(fills);
    const notify = shapeBoxes(fills, 'NOTIFY')[1]!; // the second notification, just before the second read
    const tol = (200 / 600) * 4;
    // A point of a drawn shape, as the pointer's time (x over the 200 ms window) and its height in the lane.
    const at = (x: number, y: number) => uriLaneHit(lane, a!.t0 - 50 + (x / 600) * 200, y - AXIS_H, tol, log.t);
    const centre = (r: number[]) => [(r[0]! + r[2]!) / 2, (r[1]! + r[3]!) / 2] as const;
    expect(at(...centre(rb!)).bar).toBe(b);
    expect(at(...centre(ra!)).bar).toBe(a);
    // Over the second read's start, in the first read's row: the first read (it was in flight then), not the second.
    expect(at(rb![0]! + 1, centre(ra!)[1]).bar).toBe(a);
    expect(at(...centre(notify)).mark).toMatchObject({ kind: 'notify', t: lane.marks.filter((m) => m.kind === 'notify')[1]!.t });
    // Zoomed out (two minutes in 600 px): the last notification and its re-read 2 ms later share a pixel; the read's
    // row finds the read, the marks' band the notification.
    const n = lane.marks.at(-1)!;
    expect(n.kind).toBe('notify');
    const wide = (120_000 / 600) * 4;
    const rows = readRects(drawLane(lane, { start: c!.t0 - 60_000, end: c!.t0 + 60_000 }, log.t)).filter((r) => r[0]! <= 301 && r[2]! >= 299);
    expect(rows).toHaveLength(1);
    expect(uriLaneHit(lane, c!.t0, centre(rows[0]!)[1] - AXIS_H, wide, log.t)).toEqual({ mark: undefined, bar: c });
    expect(uriLaneHit(lane, c!.t0, 6, wide, log.t)).toEqual({ mark: n, bar: undefined });
  });

  it('a third read at once shares the last row and is still found there; a read sent after another failed is not stacked beside it', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const calls = [c.beginRead(POLICY), c.beginRead(POLICY), c.beginRead(POLICY)];
    log.wait(50);
    for (const call of calls) call.respond({ contents: [{ uri: POLICY, text: 'v' }] });
    const failed = c.beginRead(POLICY);
    log.wait(10);
    failed.networkError();
    log.wait(10);
    c.read(POLICY, 'v2');
    const lane = laneOf(log, POLICY);
    expect(lane.reads.map((r) => r.slot)).toEqual([0, 1, 2, 0, 0]);
    const third = lane.reads[2]!;
    expect(uriLaneHit(lane, third.t0 + 20, LANE_H - 4, 1, log.t).bar).toBe(third);
    // Fed message by message (live), the slots are the same.
    const e = run(new FrameLog('doc1'));
    const idx = new TimelineIndex();
    for (const f of log.frames) {
      e.apply(f);
      idx.update(e.snapshot(f.t).messages);
    }
    expect([...idx.lanes.values()].find((l) => l.uri === POLICY)!.reads.map((r) => r.slot)).toEqual([0, 1, 2, 0, 0]);
  });
});

describe('many reads waiting at once (a hung server re-read every second)', () => {
  it('share the last row: slots stop at the rows drawn (the search for a free slot grew as the cube of the reads waiting)', () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    for (let i = 0; i < 300; i++) {
      c.beginRead(POLICY);
      log.wait(10);
    }
    const slots = laneOf(log, POLICY).reads.map((r) => r.slot);
    expect(slots.slice(0, 3)).toEqual([0, 1, 2]);
    expect(Math.max(...slots)).toBe(2);
  });
});
