// The timeline's read bars that get no answer: one still waiting long after it began is drawn and found under the
// pointer; one whose exchange failed or was aborted ends there, failed, and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { run } from '../../support/analyze.ts';
import { describeRead, readAt, TimelineIndex, type UriLane } from '../../../panel/model/timeline.ts';
import { drawTimeline, type Palette } from '../../../panel/components/timeline-draw.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

/** A Path2D stand-in that keeps its rectangles, and a 2D context that keeps what each fill() was given. */
class FakePath {
  rects: number[][] = [];
  rect(...a: number[]) {
    this.rects.push(a);
  }
  moveTo() {}
  lineTo() {}
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
const P = { read: 'READ', error: 'ERROR' } as Palette;
const g = globalThis as { Path2D?: unknown };
const hadPath2D = g.Path2D;
beforeAll(() => void (g.Path2D = FakePath));
afterAll(() => void (g.Path2D = hadPath2D));

/** The read rectangles drawn for one lane in a 600 px window. */
function drawnReads(lane: UriLane, w: { start: number; end: number }, now: number): { read: number; failed: number } {
  const fills: Array<{ style: string; path: FakePath }> = [];
  drawTimeline({ ctx: recordingCtx(fills), width: 600, height: 100, window: w, lanes: [{ kind: 'uri', id: lane.key, label: lane.uri, uri: lane.uri, lane, stale: [], selected: false }], firstLane: 0, offsetY: 0, now, scrubT: null, boundaries: [], p: P });
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
