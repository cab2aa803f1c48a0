// A client working through a list one step at a time is not late for what it has not reached yet (engine/work-run.ts):
// resubscribing after a reconnect in a serial loop, re-reading notified URIs through a queue, the SDK's own GET-stream
// retries. A false-positive audit on real SDK traffic (2026-12-05) found each reported as an error or a warning. The
// near misses — a URI the loop skips, a pause in the loop, retries that stop — are still reported.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { Engine } from '../../../shared/engine/index.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const uris = Array.from({ length: 40 }, (_, i) => `file:///docs/d${i}.md`);

function subscribedAll(log: FrameLog) {
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of uris) {
    c.read(u, `${u} v1`);
    c.subscribe(u);
  }
  return { c, get };
}

/** Reconnect, then resubscribe each URI in series, `stepMs` apart; `skip` is left out, `pauseAt` pauses the loop 3 s. */
function serialResubscribe(opts: { stepMs: number; skip?: string; pauseAt?: number }) {
  const log = new FrameLog();
  const { c, get } = subscribedAll(log);
  log.wait(500);
  get.close('aborted');
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  uris.forEach((u, i) => {
    if (i === opts.pauseAt) log.wait(3000);
    log.wait(opts.stepMs);
    if (u !== opts.skip) c.subscribe(u);
  });
  return { log, e: run(log) };
}

describe('resubscribing one URI at a time after a reconnect', () => {
  it('40 URIs, 100 ms apart (4 s in all): nothing, at any moment', () => {
    const { log, e } = serialResubscribe({ stepMs: 100 });
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
    expect(e.snapshot(log.t).findings.filter((f) => f.severity !== 'info')).toEqual([]);
    // Mid-loop too: the URIs not reached yet are not phantoms while the loop goes on.
    const mid = new Engine();
    mid.applyAll(log.frames.slice(0, log.frames.length - 60));
    const midSnap = mid.snapshot(mid.lastT! + 50);
    expect(midSnap.uris.filter((r) => r.clientBelievesSubscribed && !r.serverHasSubscription).length).toBeGreaterThan(5);
    expect(midSnap.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const flow = e.snapshot(log.t + 3000).flow;
    expect(Object.values(flow.perUri).every((p) => !p.reached.includes('Q'))).toBe(true);
  });

  it('near miss: the loop leaves one URI out — reported once the loop is over', () => {
    const { e } = serialResubscribe({ stepMs: 100, skip: uris[7] });
    expect(brief(findingsAfter(e, 3000))).toEqual([`cached-not-subscribed ${uris[7]} lost-on-reinit error`, `phantom-subscription ${uris[7]} - error`]);
  });

  it('near miss: the loop pauses 3 s halfway — the URIs after the pause were late (history)', () => {
    const { e, log } = serialResubscribe({ stepMs: 50, pauseAt: 20 });
    const late = e.snapshot(log.t + 3000).findings.filter((f) => f.id === 'phantom-subscription');
    expect(late.map((f) => f.uri).sort()).toEqual(uris.slice(20).sort());
    expect(late.every((f) => !f.open)).toBe(true);
  });
});

describe('re-reading notified URIs one after another', () => {
  function queue(opts: { stepMs: number; skip?: string }) {
    const log = new FrameLog();
    const { c, get } = subscribedAll(log);
    for (const u of uris) get.updated(u);
    for (const u of uris) {
      log.wait(opts.stepMs);
      if (u !== opts.skip) c.read(u, `${u} v2`);
    }
    return { log, e: run(log) };
  }

  it('40 notifications at once, re-read in series 100 ms apart: no late re-read, re-read share 1', () => {
    const { log, e } = queue({ stepMs: 100 });
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
    const snap = e.snapshot(log.t + 3000);
    expect(snap.metrics.rereadShare).toBe(1);
    expect(Object.values(snap.flow.perUri).every((p) => !p.reached.includes('K'))).toBe(true);
  });

  it('near miss: the queue skips one URI — its notification is not re-read, said once the queue is done', () => {
    const { e } = queue({ stepMs: 100, skip: uris[30] });
    expect(brief(findingsAfter(e, 3000))).toEqual([`notified-not-reread ${uris[30]} - warning`]);
  });
});

describe("the SDK client's own GET-stream retries", () => {
  function blip(retries: Array<{ afterMs: number; status: number }>) {
    const log = new FrameLog();
    const { c, get } = subscribedAll(log);
    log.wait(200);
    get.close('failed');
    for (const r of retries) {
      log.wait(r.afterMs);
      c.openGet({ status: r.status });
    }
    return { log, e: run(log) };
  }

  it('dropped, a 503 at 1 s, reopened at 2.5 s: no finding', () => {
    const { e } = blip([
      { afterMs: 1000, status: 503 },
      { afterMs: 1500, status: 200 },
    ]);
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
  });

  it('reopened only after 3 s without any attempt between: history, saying when it was reopened', () => {
    const { e, log } = blip([{ afterMs: 3000, status: 200 }]);
    const f = e.snapshot(log.t + 3000).findings.filter((x) => x.id === 'no-delivery-channel');
    expect(f.length).toBe(uris.length);
    expect(f.every((x) => !x.open && /closed at seq \d+ and was reopened only 3\.\d s later$/.test(x.detail ?? ''))).toBe(true);
  });

  it('near miss: 503 on both retries, then the SDK gives up: the channel is gone (open error)', () => {
    const { e } = blip([
      { afterMs: 1000, status: 503 },
      { afterMs: 1500, status: 503 },
    ]);
    const f = findingsAfter(e, 3000).filter((x) => x.id === 'no-delivery-channel');
    expect(f.length).toBe(uris.length);
    expect(f.every((x) => x.open && x.severity === 'error')).toBe(true);
  });
});
