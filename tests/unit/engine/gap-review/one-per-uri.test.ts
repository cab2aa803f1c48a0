// resume-gap per URI is one finding per URI, not per URI per session: a client that re-initializes three times and
// reads each URI again only later has three notes, each counted three times (a review counted 1,765 on the bench trace).
import { expect, it } from 'vitest';
import { run } from '../../../support/analyze.ts';
import { FrameLog } from '../../../support/frame-log.ts';
import { StreamableClient } from '../../../support/mcp-clients.ts';
const URL = 'http://127.0.0.1:3000/mcp';
it('URIs x reconnects: one lapse finding per URI per session', () => {
  const uris = ['a', 'b', 'c'].map((x) => `file:///docs/${x}.md`);
  const log = new FrameLog();
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S0' });
  for (const u of uris) { c.read(u, 'v0'); c.subscribe(u); }
  for (let k = 1; k <= 3; k++) {
    log.wait(1000);
    c.begin('ping').httpStatus(404);
    c.initialize({ sessionId: `S${k}` });
    for (const u of uris) c.subscribe(u);
    // the app re-reads each URI only when it next needs it, past the grace
    for (const u of uris) { log.wait(2500); c.read(u, `v${k}`); }
  }
  const fs = run(log).findings(log.t + 60_000).filter((f) => f.id === 'resume-gap');
  expect(fs.length, 'one per URI, not per URI per session').toBeLessThanOrEqual(3);
});
