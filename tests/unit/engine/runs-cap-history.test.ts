// From a second review of the work runs (2026-12-05): see docs/engine.md, Runs of work.
// Was a false negative: a 30 s cap only bounded how long a wait stayed open unreported, so a channel back inside it
// left no history, however long it was missing (here ~25 s of 503s, retried every second). The cap is 10 s now.
import { expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
it('GET answered 503 every 1 s for 25 s, then 200: the 25 s without a channel is history', () => {
  const log = new FrameLog();
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read('file:///a.md', 'v1'); c.subscribe('file:///a.md');
  log.wait(200); get.close('failed');
  const t0 = log.t;
  while (log.t - t0 < 25_000) { log.wait(1000); c.openGet({ status: 503 }); }
  c.openGet();
  expect(brief(findingsAfter(run(log), 3000))).toEqual(['no-delivery-channel file:///a.md closed error']); // before the fix: []
});
