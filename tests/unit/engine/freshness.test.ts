// Expected freshness: user rule > server ttlMs > learned notification cadence > global default, first match wins —
// as a function, and through the engine on a 2025 session whose notifications arrive at a steady cadence.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { compileRules, expectedFreshness, globToRegExp, LEARN_AFTER } from '../../../shared/engine/freshness.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { notifiedBurst, subscribedWithGet } from '../../support/burst.ts';

const POLICY = 'file:///docs/policy.md';
const rules = compileRules([{ pattern: 'file:///docs/*', maxAgeMs: 5_000 }]);
const cadence = [10_000, 10_000, 12_000];

describe('expectedFreshness precedence', () => {
  it('a rule beats ttlMs, ttlMs beats the learned cadence, the cadence beats the default', () => {
    expect(expectedFreshness(POLICY, rules, 30_000, 5, cadence, 60_000)).toEqual({ maxAgeMs: 5_000, source: 'rule', rule: 'file:///docs/*' });
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

describe('freshness edges (2026-12-05 audit)', () => {
  const subscribed = (log: FrameLog) => subscribedWithGet(log, POLICY);
  /** Subscribed, then five notifications 700 ms apart, each re-read. */
  const notified = (log: FrameLog) => {
    const s = subscribed(log);
    notifiedBurst(log, s, POLICY);
    return s;
  };

  it('a ** followed by a slash also spans no folder, as in gitignore', () => {
    const re = globToRegExp('file:///docs/**/*.md');
    expect(['file:///docs/a.md', 'file:///docs/x/a.md', 'file:///docs/x/y/a.md'].map((u) => re.test(u))).toEqual([true, true, true]);
    expect(re.test('file:///docsa.md')).toBe(false);
    expect(globToRegExp('**').test('file:///a/b')).toBe(true);
    expect(globToRegExp('file:///*').test('file:///a/b')).toBe(false);
  });

  it('a burst of notifications is one, not a cadence of milliseconds; a cadence needs two real intervals', () => {
    const log = new FrameLog();
    const { c, get } = subscribed(log);
    log.wait(5000);
    get.updated(POLICY);
    get.updated(POLICY);
    get.updated(POLICY);
    c.read(POLICY, 'v1');
    const row = Engine.replay(log.frames).snapshot(log.t + 50).uris[0]!;
    expect([row.expectedMaxAgeSource, row.findings]).toEqual(['default', []]);
    expect(expectedFreshness(POLICY, [], undefined, 3, [10_000], 60_000).source).toBe('default');
  });

  it('a learned cadence is no cache-age bound while a notification can come (held, channel open): the default is', () => {
    // A real-SDK audit, 2026-12-05: five edits 700 ms apart taught "at most 2102 ms", and 3 s after the burst a healthy
    // subscribed client that re-read every notification was flagged.
    const log = new FrameLog();
    const { get } = notified(log);
    const e = Engine.replay(log.frames);
    // 10 s after the burst: past the cadence and the grace.
    const row = e.snapshot(log.t + 10_000).uris[0]!;
    // The row still says the cadence; nothing is found against it.
    expect([row.expectedMaxAgeSource, row.findings]).toEqual(['learned', []]);
    expect(row.expectedMaxAgeMs).toBeLessThan(2200);
    expect(e.findings(log.t + 10_000)).toEqual([]);
    // The default still applies (the slow fallback check): a note past 10 minutes, as for a URI with no cadence.
    expect(e.findings(log.t + 11 * 60_000).map((f) => [f.id, f.reason, f.severity])).toEqual([['cache-age-exceeded', 'default', 'info']]);
    // With the channel gone no notification can come: the cadence is the bound again (beside no-delivery-channel).
    get.close();
    const closed = Engine.replay(log.frames).findings(log.t + 10_000).filter((f) => f.id === 'cache-age-exceeded');
    expect(closed.map((f) => [f.reason, f.severity])).toEqual([['learned', 'info']]);
  });

  it('a learned cadence set aside while a notification could come is the bound again from when that stopped, not backdated', () => {
    // A review, 2026-12-05: closed a minute after the burst, the finding began at the last read plus the cadence, ~58 s
    // before the close, over a span the engine had ruled not stale.
    const burst = () => {
      const log = new FrameLog();
      const { c, get } = notified(log);
      log.wait(60_000);
      return { log, c, get };
    };
    const age = (log: FrameLog) => Engine.replay(log.frames).findings(log.t + 10_000).filter((f) => f.id === 'cache-age-exceeded');
    // The channel closes: from the close.
    const a = burst();
    const closedAt = a.log.t;
    a.get.close();
    const [closed] = age(a.log);
    expect(closed?.reason).toBe('learned');
    expect(closed!.firstT).toBeGreaterThanOrEqual(closedAt);
    expect(closed!.firstT).toBeLessThan(closedAt + 100);
    // The client unsubscribes with the channel open: from the unsubscribe.
    const b = burst();
    const unsubscribedAt = b.log.t;
    b.c.unsubscribe(POLICY);
    const [f] = age(b.log);
    expect(f?.reason).toBe('learned');
    expect(f!.firstT).toBeGreaterThanOrEqual(unsubscribedAt);
    expect(f!.firstT).toBeLessThan(unsubscribedAt + 100);
    // Closed before the cadence ran out: the read plus the cadence, as before.
    const e = new FrameLog();
    const s = notified(e);
    const readAt = e.t;
    s.get.close();
    const [g] = age(e);
    expect(g?.reason).toBe('learned');
    expect(g!.firstT).toBeGreaterThan(readAt + 1500);
    expect(g!.firstT).toBeLessThan(readAt + 2200);
  });

  it('a steady ticker faster than a second is still learned (measured between bursts)', () => {
    const log = new FrameLog();
    const { c, get } = subscribed(log);
    for (let i = 0; i < 10; i++) {
      log.wait(500);
      get.updated(POLICY);
      c.read(POLICY, `v${i}`);
    }
    const row = Engine.replay(log.frames).snapshot(log.t + 50).uris[0]!;
    expect(row.expectedMaxAgeSource).toBe('learned');
    expect(row.expectedMaxAgeMs).toBeGreaterThanOrEqual(1500);
    expect(row.expectedMaxAgeMs).toBeLessThan(1600);
  });

  it('a time spent older than a rule stays as history once re-read, or once the page unloads; a short one does not', () => {
    const rule = { freshnessRules: [{ pattern: 'file:///docs/*', maxAgeMs: 60_000 }] };
    const log = new FrameLog();
    log.pageStart('http://localhost:8080/');
    const { c } = subscribed(log);
    log.wait(300_000);
    c.read(POLICY, 'v0');
    const reread = Engine.replay(log.frames, rule).findings(log.t + 1000).filter((f) => f.id === 'cache-age-exceeded');
    expect(reread.map((f) => [f.severity, f.open, f.reason, Math.round((f.lastT - f.firstT) / 1000)])).toEqual([['warning', false, 'rule', 240]]);
    log.wait(100_000);
    log.pageEnd('http://localhost:8080/');
    const unloaded = Engine.replay(log.frames, rule).findings(log.t + 1000).filter((f) => f.id === 'cache-age-exceeded');
    expect(unloaded.map((f) => [f.count, f.open])).toEqual([[2, false]]);
    // Re-read a second after the bound: within the grace, no history.
    const quick = new FrameLog();
    const q = subscribed(quick);
    quick.wait(60_500);
    q.c.read(POLICY, 'v0');
    expect(Engine.replay(quick.frames, rule).findings(quick.t + 1000).filter((f) => f.id === 'cache-age-exceeded')).toEqual([]);
  });

  it('says a bound under 1 s in milliseconds, as the panel formats durations (formatDuration)', () => {
    const log = new FrameLog();
    subscribed(log);
    const e = Engine.replay(log.frames, { freshnessRules: [{ pattern: '**', maxAgeMs: 400 }] });
    // Past the bound for the grace (2 s), as a condition settles.
    expect(e.findings(log.t + 2300).find((x) => x.id === 'cache-age-exceeded')).toBeUndefined();
    const f = e.findings(log.t + 2500).find((x) => x.id === 'cache-age-exceeded')!;
    expect(f.detail).toMatch(/^cached \d\.\d s ago; expected at most 400 ms \(rule\)$/);
    // A bound of seconds reads as the URI row's tooltip reads it (it said "3000 ms" in the Findings Detail column
    // beside "3.0 s" in the tooltip: a live review, 2026-12).
    const three = Engine.replay(log.frames, { freshnessRules: [{ pattern: '**', maxAgeMs: 3000 }] });
    const g = three.findings(log.t + 5100).find((x) => x.id === 'cache-age-exceeded')!;
    expect(g.detail).toMatch(/; expected at most 3\.0 s \(rule\)$/);
  });

  it('says an age and its bound in ms when they would read the same in the coarser unit (3040 ms past 3000 ms is not "3.0 s; at most 3.0 s")', () => {
    const log = new FrameLog();
    subscribed(log);
    const e = Engine.replay(log.frames, { freshnessRules: [{ pattern: '**', maxAgeMs: 3000 }], graceMs: 10 });
    let first: string | undefined;
    for (let k = 2900; k < 3200 && first === undefined; k += 5) first = e.findings(log.t + k).find((x) => x.id === 'cache-age-exceeded')?.detail;
    expect(first).toMatch(/^cached 30\d\d ms ago; expected at most 3000 ms \(rule\)$/);
    // Apart in the coarser unit, both read in it.
    expect(e.findings(log.t + 4500).find((x) => x.id === 'cache-age-exceeded')!.detail).toMatch(/^cached 4\.\d s ago; expected at most 3\.0 s \(rule\)$/);
  });
});
