// A review of the work runs (2026-12-05) found real findings erased: a client re-reading one busy URI (A, notified
// every second) kept the re-reading run alive, and another URI's (B) notification ignored for 15 s was never reported.
// The run now excuses only waits it has not passed: its re-reads answer notifications in order.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const A = 'file:///status.json';
const B = 'file:///docs/policy.md';

function scenario(ticker: boolean) {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of [A, B]) {
    c.read(u, `${u} v1`);
    c.subscribe(u);
  }
  let midOpen: string[] = [];
  for (let i = 0; i < 20; i++) {
    log.wait(900);
    if (ticker) {
      get.updated(A);
      log.wait(50);
      c.read(A, `A v${i + 2}`);
    }
    if (i === 2) get.updated(B); // B changes; the client ignores it…
    if (i === 10) midOpen = brief(run(log).findings(log.t)); // …for 8 s at this point
  }
  c.read(B, 'B v2'); // …and only re-reads it ~16 s late
  return { e: run(log), midOpen };
}

describe('the re-reading run does not excuse a URI it passed over', () => {
  it('without the ticker: B reported (open mid-way, late as history)', () => {
    const { e, midOpen } = scenario(false);
    expect(midOpen).toEqual([`notified-not-reread ${B} - warning`]);
    expect(brief(findingsAfter(e, 5000))).toEqual([`notified-not-reread ${B} - warning`]);
  });
  it('with a ticker on A (notified and re-read every second): B is reported all the same — the run passed B over', () => {
    const { e, midOpen } = scenario(true);
    expect(midOpen).toEqual([`notified-not-reread ${B} - warning`]);
    expect(brief(findingsAfter(e, 5000))).toEqual([`notified-not-reread ${B} - warning`]);
  });
});
