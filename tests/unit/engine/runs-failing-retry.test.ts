// From a second review of the work runs (2026-12-05): see docs/engine.md, Runs of work.
// Was a false negative: a client retrying a failing re-read within the grace kept the re-reading run alive: that URI's
// own failure, and any URI notified after it and ignored, were excused for up to 30 s, and a re-read finally sent in
// that window was "queued", leaving no history either. A keyed run counts each URI once: a retry is no new step.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const A = 'file:///status.json';
const B = 'file:///docs/policy.md';

function setup() {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of [A, B]) { c.read(u, `${u} v1`); c.subscribe(u); }
  return { log, c, get };
}

describe('failing re-read retried within the grace', () => {
  for (const gap of [2500, 950]) {
    it(`A's re-read fails, retried every ${gap} ms x8, then succeeds: reported (open mid-way, history after)`, () => {
      const { log, c, get } = setup();
      get.updated(A);
      for (let i = 0; i < 8; i++) { log.wait(gap); c.beginRead(A).fail(-32603, 'backend busy'); }
      const midOpen = brief(run(log).findings(log.t));
      log.wait(gap); c.read(A, 'v2');
      expect(midOpen).toEqual([`notified-not-reread ${A} - warning`]); // at 950 ms, before the fix: []
      expect(brief(findingsAfter(run(log), 3000))).toEqual([`notified-not-reread ${A} - warning`]); // at 950 ms, before the fix: []
    });
  }
  it('B notified after A and ignored ~19 s, while A\'s failing re-read is retried every 950 ms: B reported', () => {
    const { log, c, get } = setup();
    get.updated(A);
    log.wait(10);
    get.updated(B);
    for (let i = 0; i < 20; i++) { log.wait(950); c.beginRead(A).fail(-32603, 'backend busy'); }
    const midOpen = brief(run(log).findings(log.t));
    c.read(B, 'B v2');
    log.wait(100); c.read(A, 'A v2');
    expect(midOpen).toContain(`notified-not-reread ${B} - warning`); // before the fix: []
    expect(brief(findingsAfter(run(log), 3000))).toContain(`notified-not-reread ${B} - warning`); // before the fix: only A
  });
});
