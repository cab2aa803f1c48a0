// While replaying, a URI's lane label says stale exactly when its row does (is:stale): both judge a stop at the
// replayed snapshot's instant, the end of the quiet time the stop stands for.
import { describe, expect, it } from 'vitest';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { parseFilter } from '../../../panel/model/filter.ts';
import { laneNowOf, scrubSteps, staleIntervals, staleSeverityAt } from '../../../panel/model/timeline.ts';
import { filterRows } from '../../../panel/model/uri-table.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

timerAnimationFrames();
const frames = settle;

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

describe('lane labels while replaying', () => {
  it('agree with the table at every stop, before a quiet hour too (the label said fresh, the row cache-age-exceeded)', async () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(3_600_000);
    c.read('file:///other', 'x');
    const s = new PanelStore();
    s.add(log.frames.map((f, i) => ({ ...f, seq: i + 1, segment: 1 })));
    await frames();
    const steps = scrubSteps(s.snapshot.value!.messages);
    const disagree: unknown[] = [];
    let staleStops = 0;
    for (let k = 0; k < steps.length; k++) {
      s.setScrub(steps.t[k]!);
      const snap = s.shown.value!;
      const at = laneNowOf(snap, s.scrubT.value, s.now.value);
      const staleRows = new Set(filterRows(snap, parseFilter('is:stale')).map((r) => r.key));
      if (staleRows.size) staleStops++;
      for (const row of filterRows(snap, parseFilter(''))) {
        // As the lane's label is drawn (staleSeverityAt): coloured exactly when the row is stale.
        const label = staleSeverityAt(staleIntervals(snap, at).get(row.key) ?? [], at) !== undefined;
        if (label !== staleRows.has(row.key)) disagree.push({ stop: k, uri: row.uri, row: staleRows.has(row.key), label });
      }
    }
    expect(staleStops).toBeGreaterThan(0);
    expect(disagree).toEqual([]);
  });
});

describe('a stop never shows what came after it', () => {
  /** Subscribed over a GET stream; a notification; half an hour later the stream fails; another half hour, a read; a DELETE. */
  async function quietHour(): Promise<{ s: PanelStore; tNotify: number; tClose: number; tDelete: number }> {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(1000);
    get.updated(POLICY);
    const tNotify = log.t;
    c.read(POLICY, 'v2');
    log.wait(1_800_000);
    get.close('failed');
    const tClose = log.t;
    log.wait(1_800_000);
    c.read(POLICY, 'v2');
    log.wait(3_600_000);
    c.delete();
    const tDelete = log.frames.find((f) => f.kind === 'http-request' && f.method === 'DELETE')!.t;
    const s = new PanelStore();
    s.add(log.frames.map((f, i) => ({ ...f, seq: i + 1, segment: 1 })));
    await frames();
    return { s, tNotify, tClose, tDelete };
  }

  it('the stream that failed half an hour after a notification is open at the notification, and closes at a stop of its own', async () => {
    const { s, tNotify, tClose } = await quietHour();
    const steps = scrubSteps(s.snapshot.value!.messages);
    s.setScrub(tNotify);
    let snap = s.shown.value!;
    expect(snap.streams.filter((x) => x.kind === 'get').map((x) => x.open)).toEqual([true]);
    expect(snap.uris.find((u) => u.uri === POLICY)!.deliveryChannelOpen).toBe(true);
    expect(snap.findings.map((f) => f.id)).not.toContain('no-delivery-channel');
    // The stream's end is a stop (no message came with it): there it is closed.
    expect([...steps.t]).toContain(tClose);
    s.setScrub(tClose);
    snap = s.shown.value!;
    expect(snap.streams.filter((x) => x.kind === 'get').map((x) => [x.open, x.closeT])).toEqual([[false, tClose]]);
  });

  it('a session ended by a DELETE an hour after the last message is open at that message, and ends at its own stop', async () => {
    const { s, tDelete } = await quietHour();
    const steps = scrubSteps(s.snapshot.value!.messages);
    const before = [...steps.t].filter((t) => t < tDelete).at(-1)!;
    s.setScrub(before);
    expect(s.shown.value!.sessions.map((x) => x.endT)).toEqual([undefined]);
    const end = [...steps.t].find((t) => t >= tDelete)!;
    s.setScrub(end);
    expect(s.shown.value!.sessions.map((x) => [x.endCause, x.endT! <= end])).toEqual([['delete', true]]);
  });

  it('at every stop, nothing opened, closed or ended after the stop', async () => {
    const { s } = await quietHour();
    const steps = scrubSteps(s.snapshot.value!.messages);
    const late: unknown[] = [];
    for (let k = 0; k < steps.length; k++) {
      const t = steps.t[k]!;
      s.setScrub(t);
      const snap = s.shown.value!;
      for (const x of snap.streams) if (x.openT > t || (x.closeT ?? -Infinity) > t) late.push({ stop: k, stream: x.stream });
      for (const x of snap.sessions) if (x.startT > t || (x.endT ?? -Infinity) > t) late.push({ stop: k, session: x.key });
    }
    expect(late).toEqual([]);
  });
});

describe('a failed exchange', () => {
  it('is a stop of its own: at the stop before, its read is still in flight', async () => {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const p = c.beginRead(POLICY);
    const sent = log.t;
    log.wait(60_000);
    log.httpEnd(p.conn, 'failed');
    const failedAt = log.t;
    const s = new PanelStore();
    s.add(log.frames.map((f, i) => ({ ...f, seq: i + 1, segment: 1 })));
    await frames();
    const steps = [...scrubSteps(s.snapshot.value!.messages).t];
    expect(steps).toContain(failedAt);
    s.setScrub(sent);
    const before = s.shown.value!;
    expect(before.messages.store.noAnswers.filter((x) => x.t <= before.now)).toEqual([]);
    s.setScrub(failedAt);
    const after = s.shown.value!;
    expect(after.messages.store.noAnswers.filter((x) => x.t <= after.now)).toHaveLength(1);
  });
});
