// A review of the work runs (2026-12-05): the 30 s cap counted from the run's start, so on a page that ticked or polled
// for half a minute the excuses switched off for good. It counts from the wait's start now.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const TICK = 'file:///status.json';
const uris = Array.from({ length: 40 }, (_, i) => `file:///docs/d${i}.md`);

function queue(tickForMs: number) {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of [TICK, ...uris]) {
    c.read(u, `${u} v1`);
    c.subscribe(u);
  }
  // A ticking resource, re-read at each notification: 1 s apart.
  for (let t = 0; t < tickForMs; t += 1000) {
    log.wait(950);
    get.updated(TICK);
    c.read(TICK, `tick ${t}`);
  }
  // Now the exact work-runs.test.ts queue case: 40 notifications at once, re-read in series 100 ms apart.
  for (const u of uris) get.updated(u);
  for (const u of uris) {
    log.wait(100);
    c.read(u, `${u} v2`);
  }
  return run(log);
}

describe('the cap counts from the wait, not from the run', () => {
  it('queue right after 5 s of ticking: excused (as intended)', () => {
    expect(brief(findingsAfter(queue(5000), 3000))).toEqual([]);
  });
  it('the same queue after 40 s of ticking: excused as well (a long-lived page is no different)', () => {
    expect(brief(findingsAfter(queue(40_000), 3000))).toEqual([]);
  });
});

describe('SEP-1699 polling GET, then the SDK 503 blip', () => {
  function polling(pollForMs: number) {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    for (const u of uris.slice(0, 3)) {
      c.read(u, `${u} v1`);
      c.subscribe(u);
    }
    let get = c.openGet({ ids: 'e' });
    for (let t = 0; t < pollForMs; t += 1000) {
      log.sseEvent(get.conn, '', { id: `p${t}`, retry: 500 });
      log.wait(400);
      get.close('complete');
      log.wait(500);
      get = c.openGet({ ids: 'e' });
    }
    // The exact blip of work-runs.test.ts: dropped, 503 at 1 s, reopened 1.5 s later.
    log.wait(200);
    get.close('failed');
    log.wait(1000);
    c.openGet({ status: 503 });
    log.wait(1500);
    c.openGet();
    return run(log);
  }
  it('after 5 s of polling: no finding', () => {
    expect(brief(findingsAfter(polling(5000), 3000)).filter((x) => x.startsWith('no-delivery'))).toEqual([]);
  });
  it('after 40 s of polling: no finding either (the same blip, 40 s into the page)', () => {
    expect(brief(findingsAfter(polling(40_000), 3000)).filter((x) => x.startsWith('no-delivery'))).toEqual([]);
  });
});
