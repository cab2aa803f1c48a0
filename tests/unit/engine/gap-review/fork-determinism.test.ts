// Determinism: a fork taken after any prefix, fed the rest, equals one replay (findings and URI rows), on gap scenarios.
import { expect, it } from 'vitest';
import { Engine } from '../../../../shared/engine/index.ts';
import { FrameLog } from '../../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const P = 'file:///docs/policy.md';
const Q = 'file:///docs/faq.md';

function scenarios(): FrameLog[] {
  const out: FrameLog[] = [];
  {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const g = c.openGet({ ids: 'ev' });
    g.priming();
    c.read(P, 'v1'); c.subscribe(P); c.read(Q, 'v1'); c.subscribe(Q);
    g.close('failed');
    log.wait(300);
    const r = c.beginRead(P);
    c.openGet({ status: 503 });
    log.wait(500);
    const g2 = c.openGet({ ids: 'ev2' });
    g2.priming();
    log.wait(2500);
    r.respond({ contents: [{ uri: P, text: 'v2' }] });
    g2.close('failed');
    log.wait(400);
    c.openGet();
    log.wait(2500);
    c.begin('ping').httpStatus(404);
    c.initialize({ sessionId: 'S2' });
    c.subscribe(P); c.subscribe(Q);
    log.wait(1000);
    c.read(Q, 'v3');
    c.list([{ uri: P, name: 'p' }]);
    log.wait(3000);
    log.pageEnd('http://localhost:8080/');
    out.push(log);
  }
  {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(P, 'v1');
    c.listen([P]).drop();
    log.wait(1500);
    c.listen([P]);
    log.wait(2500);
    c.read(P, 'v2');
    out.push(log);
  }
  return out;
}

it('fork after every prefix equals one replay', () => {
  for (const log of scenarios()) {
    const whole = new Engine();
    whole.applyAll(log.frames);
    const nows = [log.t, log.t + 1000, log.t + 60_000];
    const want = nows.map((n) => JSON.stringify([whole.findings(n), whole.snapshot(n).uris]));
    for (let k = 0; k <= log.frames.length; k++) {
      const e = new Engine();
      e.applyAll(log.frames.slice(0, k));
      // snapshot at the prefix (the scrubber does), then fork and go on
      e.findings((log.frames[k - 1]?.t ?? 0) + 3000);
      const f = e.fork();
      f.applyAll(log.frames.slice(k));
      const got = nows.map((n) => JSON.stringify([f.findings(n), f.snapshot(n).uris]));
      expect(got, `fork at ${k}`).toEqual(want);
      // and the original engine is unchanged by the fork's work: same as a fresh replay of the prefix
      const fresh = new Engine();
      fresh.applyAll(log.frames.slice(0, k));
      const t = (log.frames[k - 1]?.t ?? 0) + 2500;
      expect(JSON.stringify(e.findings(t))).toEqual(JSON.stringify(fresh.findings(t)));
    }
  }
});
