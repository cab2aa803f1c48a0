// cache-age-exceeded is about the client's cache entry: it names the session whose read wrote the entry, so it never
// begins before the session it names, and one entry past its bound is one occurrence across a reconnect. An audit of
// the demo (freeplay with --rule file:**=1000, 2026-12-05): the entry read in the first session, past its bound from
// 16:18:50.046, was a second finding naming the session that replaced it, which began only at 16:18:56.27.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const RULE = { freshnessRules: [{ pattern: 'file:**', maxAgeMs: 1000 }] };

describe('cache-age-exceeded across a reconnect', () => {
  it('the entry read in S1, past its bound before S2 began: one finding, naming S1, both entries’ times as its occurrences', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(12_000);
    c.read(POLICY, 'v2'); // the first entry, 11 s past its bound, replaced: history
    log.wait(7_000);
    c.delete();
    c.initialize({ sessionId: 'S2' });
    const e = Engine.replay(log.frames, RULE);
    const now = log.t + 60_000;
    const s2 = e.snapshot(now).sessions.find((s) => s.label === 'S2')!;
    const ages = e.findings(now).filter((f) => f.id === 'cache-age-exceeded');
    expect(ages.map((f) => [f.session, f.count, f.open, f.spans?.length])).toEqual([['S1', 2, true, 2]]);
    for (const f of ages) if (f.session === 'S2') expect(f.firstT).toBeGreaterThanOrEqual(s2.startT);
  });

  it('an entry read in S2 names S2', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.subscribe(POLICY);
    c.delete();
    c.initialize({ sessionId: 'S2' });
    c.read(POLICY, 'v1');
    const e = Engine.replay(log.frames, RULE);
    expect(e.findings(log.t + 60_000).filter((f) => f.id === 'cache-age-exceeded').map((f) => [f.session, f.count])).toEqual([['S2', 1]]);
  });
});
