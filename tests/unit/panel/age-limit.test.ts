// The URI table's over-age mark and is:stale judge a cache age by the bound the engine uses (UriRow.ageLimitMs), not
// the learned cadence the row shows (a review, 2026-12-05: a healthy subscribed URI's age cell was bold, no finding behind).
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { matchesRow, parseFilter } from '../../../panel/model/filter.ts';
import { ageTitle, expectedMaxAgeText, isOverAge } from '../../../panel/model/uri-table.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { notifiedBurst, subscribedWithGet } from '../../support/burst.ts';

const POLICY = 'file:///docs/policy.md';

describe('cache age against the bound in force', () => {
  it('a learned cadence marks no age while the URI is held with a channel open; once the channel closes it does', () => {
    const log = new FrameLog();
    const s = subscribedWithGet(log, POLICY);
    notifiedBurst(log, s, POLICY);
    const { get } = s;
    const now = log.t + 10_000;
    const stale = parseFilter('is:stale');
    const open = Engine.replay(log.frames).snapshot(now);
    const row = open.uris[0]!;
    expect(open.findings).toEqual([]);
    expect([row.expectedMaxAgeSource, row.ageLimitSource, row.ageLimitMs]).toEqual(['learned', 'default', 600_000]);
    expect(row.expectedMaxAgeMs).toBeLessThan(2200);
    expect(row.cacheAgeMs).toBeGreaterThan(row.expectedMaxAgeMs);
    expect(isOverAge(row, now)).toBe(false);
    expect(matchesRow(stale, { row, sessions: row.heldBy })).toBe(false);
    expect(ageTitle(row)).toMatch(/^expected at most [\d.]+ s \(learned\); judged by 10 min 00 s \(default\) while subscribed with a channel open$/);

    get.close();
    const closed = Engine.replay(log.frames).snapshot(now).uris[0]!;
    expect([closed.ageLimitSource, closed.ageLimitMs]).toEqual(['learned', closed.expectedMaxAgeMs]);
    expect(isOverAge(closed, now)).toBe(true);
    expect(matchesRow(stale, { row: closed, sessions: closed.heldBy })).toBe(true);
    expect(ageTitle(closed)).toMatch(/^expected at most [\d.]+ s \(learned\)$/);
  });
});

describe('the rule a URI is judged by', () => {
  it('names the pattern of the first matching rule, as the engine applies them (a review: "1 min 00 s (rule)" named none)', () => {
    const log = new FrameLog();
    subscribedWithGet(log, POLICY);
    const rules = [
      { pattern: 'file:///docs/**', maxAgeMs: 60_000 },
      { pattern: 'file:///docs/policy.md', maxAgeMs: 5_000 },
    ];
    const row = Engine.replay(log.frames, { freshnessRules: rules }).snapshot(log.t).uris[0]!;
    expect(row).toMatchObject({ expectedMaxAgeSource: 'rule', expectedMaxAgeMs: 60_000, expectedMaxAgeRule: 'file:///docs/**' });
    expect(ageTitle(row)).toBe('expected at most 1 min 00 s (rule file:///docs/**)');
    expect(expectedMaxAgeText(row)).toBe('1 min 00 s (rule file:///docs/**)');
    // Reordered, the other rule applies and is named.
    const swapped = Engine.replay(log.frames, { freshnessRules: [rules[1]!, rules[0]!] }).snapshot(log.t).uris[0]!;
    expect(expectedMaxAgeText(swapped)).toBe('5.0 s (rule file:///docs/policy.md)');
    // Without a rule, no pattern.
    const plain = Engine.replay(log.frames).snapshot(log.t).uris[0]!;
    expect(plain.expectedMaxAgeRule).toBeUndefined();
    expect(expectedMaxAgeText(plain)).toBe('10 min 00 s (default)');
  });
});
