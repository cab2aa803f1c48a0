// A client that never subscribes but re-reads a URI within its declared freshness (DESIGN §1.5: polling is a valid
// strategy) gets cached-not-subscribed/never-subscribed as a note while it keeps doing so, and the warning once its
// cache outlives that bound, or when it read only once (a real-SDK audit, 2026-12-05: v2_ttl_poll_healthy was warned).
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const PAGE = 'http://localhost:8080/kb';

/** A 2026 client reading POLICY `reads` times, `every` ms apart, answered with a ttlMs of `ttlMs` (0: none). */
function poller(reads: number, every: number, ttlMs = 2000) {
  const log = new FrameLog();
  log.pageStart(PAGE);
  const c = new ModernClient(log, URL);
  c.discover();
  for (let i = 0; i < reads; i++) {
    if (i > 0) log.wait(every);
    c.read(POLICY, 'v1', ttlMs > 0 ? { ttlMs, cacheScope: 'private' } : undefined);
  }
  return { log };
}

describe('never-subscribed, polled', () => {
  it('re-read within its ttlMs: a note while the cache stays within it, the warning once it outlives it', () => {
    const { log } = poller(3, 3000);
    const e = run(log);
    const f = findingsAfter(e, 1000);
    expect(brief(f, 'info')).toEqual([`cached-not-subscribed ${POLICY} never-subscribed info`]);
    expect(f[0]!.detail).toBe('no resources/subscribe or listen was sent for it; the client polls it instead: read again within its expected freshness, 2.0 s (ttl)');
    // The catalogue's fix (subscribe, or keep polling), not the one for a server without subscriptions.
    expect(f[0]!.fix).toMatch(/^Subscribe to every URI you cache/);
    // Stopped: past the ttlMs and the grace (as cache-age-exceeded counts it), the same finding is the warning.
    const later = findingsAfter(e, 5000);
    expect(brief(later)).toEqual([`cache-age-exceeded ${POLICY} ttl warning`, `cached-not-subscribed ${POLICY} never-subscribed warning`]);
    expect(later.find((x) => x.id === 'cached-not-subscribed')!.detail).toMatch(/it was polled, but not read again within its expected freshness, 2\.0 s \(ttl\), after the read at seq \d+$/);
  });

  it('read once: the warning (the scenario tests keep this)', () => {
    expect(brief(findingsAfter(run(poller(1, 0).log), 2500))).toEqual([`cached-not-subscribed ${POLICY} never-subscribed warning`]);
  });

  it('re-read, but later than its ttlMs and the grace: the warning', () => {
    // (The time past the ttlMs between the reads stays as cache-age-exceeded's history.)
    expect(brief(findingsAfter(run(poller(3, 4500).log), 1000))).toEqual([`cache-age-exceeded ${POLICY} ttl warning`, `cached-not-subscribed ${POLICY} never-subscribed warning`]);
  });

  it('re-read with no declared bound (the 10-minute default is a guess, no promise to poll against): the warning', () => {
    expect(brief(findingsAfter(run(poller(3, 3000, 0).log), 1000))).toEqual([`cached-not-subscribed ${POLICY} never-subscribed warning`]);
  });

  it('a user rule is a declared bound too', () => {
    const e = run(poller(3, 3000, 0).log, { freshnessRules: [{ pattern: 'file:///docs/*', maxAgeMs: 5000 }] });
    expect(brief(findingsAfter(e, 1000), 'info')).toEqual([`cached-not-subscribed ${POLICY} never-subscribed info`]);
  });

  it('two reads a few ms apart (a component mounted twice) are one read, not a poll: the warning', () => {
    // A review, 2026-12-05: the second read of a double mount counted as polling within the ttlMs.
    expect(brief(findingsAfter(run(poller(2, 5).log), 2500))).toEqual([`cached-not-subscribed ${POLICY} never-subscribed warning`]);
    // A double mount on each of two polls is still a poll.
    const log = new FrameLog();
    log.pageStart(PAGE);
    const c = new ModernClient(log, URL);
    c.discover();
    for (const wait of [0, 5, 3000, 5]) {
      log.wait(wait);
      c.read(POLICY, 'v1', { ttlMs: 2000, cacheScope: 'private' });
    }
    expect(brief(findingsAfter(run(log), 500), 'info')).toEqual([`cached-not-subscribed ${POLICY} never-subscribed info`]);
  });

  it('a client polling faster than the grace still polls (reads are one only within the grace of the first of theirs)', () => {
    expect(brief(findingsAfter(run(poller(6, 800).log), 500), 'info')).toEqual([`cached-not-subscribed ${POLICY} never-subscribed info`]);
  });

  it('a poller that stops and unloads its page: the time past the bound is kept as the warning', () => {
    const { log } = poller(3, 3000);
    log.wait(10_000);
    log.pageEnd(PAGE);
    const e = run(log);
    const cns = findingsAfter(e, 1000).filter((x) => x.id === 'cached-not-subscribed');
    expect(cns.map((x) => [x.severity, x.open])).toEqual([['warning', false]]);
  });
});
