// A re-read sent past the grace and still unanswered when the page unloads is a late re-read (history), as for
// notified-not-reread (a review, 2026-12-05).
import { expect, it } from 'vitest';
import { run } from '../../../support/analyze.ts';
import { FrameLog } from '../../../support/frame-log.ts';
import { StreamableClient } from '../../../support/mcp-clients.ts';
const URL = 'http://127.0.0.1:3000/mcp';
const P = 'file:///docs/policy.md';
it('a late re-read still in flight at unload leaves no history (notified-not-reread records its late re-read)', () => {
  const log = new FrameLog();
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const g = c.openGet({ ids: 'ev' });
  g.priming();
  c.read(P, 'v1'); c.subscribe(P);
  g.close('failed');
  log.wait(500);
  const g2 = c.openGet({ ids: 'ev2' });
  g2.updated(P);
  log.wait(5000);
  c.beginRead(P); // late (past the grace), in flight
  log.wait(200);
  log.pageEnd('http://localhost:8080/');
  const fs = run(log).findings(log.t + 60_000).filter((f) => f.uri === P);
  expect(fs.map((f) => f.id)).toContain('resume-gap');
});
