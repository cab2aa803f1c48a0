// While replaying, a URI's lane label says stale exactly when its row does (is:stale): both judge a stop at the
// replayed snapshot's instant, the end of the quiet time the stop stands for.
import { describe, expect, it } from 'vitest';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { parseFilter } from '../../../panel/model/filter.ts';
import { laneNowOf, scrubSteps, staleAt, staleIntervals } from '../../../panel/model/timeline.ts';
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
        const label = staleAt(staleIntervals(snap, at).get(row.key) ?? [], at);
        if (label !== staleRows.has(row.key)) disagree.push({ stop: k, uri: row.uri, row: staleRows.has(row.key), label });
      }
    }
    expect(staleStops).toBeGreaterThan(0);
    expect(disagree).toEqual([]);
  });
});
