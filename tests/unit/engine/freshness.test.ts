// Expected freshness: user rule > server ttlMs > learned notification cadence > global default, first match wins —
// as a function, and through the engine on a 2025 session whose notifications arrive at a steady cadence.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { compileRules, expectedFreshness, LEARN_AFTER } from '../../../shared/engine/freshness.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const POLICY = 'file:///docs/policy.md';
const rules = compileRules([{ pattern: 'file:///docs/*', maxAgeMs: 5_000 }]);
const cadence = [10_000, 10_000, 12_000];

describe('expectedFreshness precedence', () => {
  it('a rule beats ttlMs, ttlMs beats the learned cadence, the cadence beats the default', () => {
    expect(expectedFreshness(POLICY, rules, 30_000, 5, cadence, 60_000)).toEqual({ maxAgeMs: 5_000, source: 'rule' });
    expect(expectedFreshness(POLICY, [], 30_000, 5, cadence, 60_000)).toEqual({ maxAgeMs: 30_000, source: 'ttl' });
    expect(expectedFreshness(POLICY, [], undefined, 5, cadence, 60_000)).toEqual({ maxAgeMs: 30_000, source: 'learned' });
    expect(expectedFreshness(POLICY, [], 0, 5, cadence, 60_000)).toEqual({ maxAgeMs: 30_000, source: 'learned' });
    expect(expectedFreshness(POLICY, [], undefined, LEARN_AFTER - 1, cadence, 60_000)).toEqual({ maxAgeMs: 60_000, source: 'default' });
    expect(expectedFreshness('postgres://kb/x', rules, undefined, 0, [], 60_000)).toEqual({ maxAgeMs: 60_000, source: 'default' });
  });

  it('the engine learns a URI cadence from its notifications (3 × the median interval), and a rule overrides it', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v0');
    c.subscribe(POLICY);
    for (let i = 1; i <= 5; i++) {
      log.wait(10_000);
      get.updated(POLICY);
      c.read(POLICY, `v${i}`);
    }
    const row = (e: Engine) => e.snapshot(log.t + 100).uris.find((u) => u.uri === POLICY)!;
    const learned = row(Engine.replay(log.frames));
    expect(learned.expectedMaxAgeSource).toBe('learned');
    // Each interval is 10 s plus the few ms the frames in between take.
    expect(learned.expectedMaxAgeMs).toBeGreaterThanOrEqual(30_000);
    expect(learned.expectedMaxAgeMs).toBeLessThan(30_100);
    const ruled = row(Engine.replay(log.frames, { freshnessRules: [{ pattern: 'file:///docs/**', maxAgeMs: 1_000 }] }));
    expect(ruled).toMatchObject({ expectedMaxAgeSource: 'rule', expectedMaxAgeMs: 1_000 });
  });
});
