// A review of the work runs (2026-12-05): a client re-initializing every second and never resubscribing kept the
// resubscribing run alive and erased phantom-subscription. An initialize begins a run; only resubscribes are its work.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const U = 'file:///docs/policy.md';

function scenario(loop: boolean) {
  const log = new FrameLog();
  log.pageStart('http://localhost:5173/');
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(U, 'v1');
  c.subscribe(U);
  log.wait(1000);
  get.close('failed');
  for (let i = 0; i < (loop ? 20 : 1); i++) {
    log.wait(loop ? 1000 : 0);
    c.initialize({ sessionId: `S${i + 2}` });
  }
  if (!loop) log.wait(20_000);
  log.pageEnd('http://localhost:5173/');
  return run(log);
}

describe('re-initialize loop, then reload', () => {
  it('one re-initialize, no resubscribe, reload 20 s later: phantom + cached-not-subscribed history', () => {
    const b = brief(findingsAfter(scenario(false), 5000));
    expect(b).toContain(`phantom-subscription ${U} - error`);
  });
  it('re-initializing every second for 20 s, never resubscribing, then a reload: reported all the same (no work, no excuse)', () => {
    const b = brief(findingsAfter(scenario(true), 5000));
    expect(b).toContain(`phantom-subscription ${U} - error`);
  });
});
