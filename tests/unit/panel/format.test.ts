import { describe, expect, it } from 'vitest';
import { elementId, formatAgo, formatBytes, formatDuration, formatShare, middleId, shortId } from '../../../panel/model/format.ts';

describe('format', () => {
  it('durations scale from ms to days', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850.4)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(12_400)).toBe('12 s');
    expect(formatDuration(184_000)).toBe('3 min 04 s');
    expect(formatDuration(7_500_000)).toBe('2 h 05 min');
    expect(formatDuration(3 * 86_400_000 + 4 * 3600_000)).toBe('3 d 4 h');
    expect(formatDuration(-1500)).toBe('-1.5 s');
    expect(formatDuration(Number.NaN)).toBe('—');
    // A unit's edge reads in the next unit; no "-0" (a panel audit, 2026-12-04).
    expect([formatDuration(999.6), formatDuration(9960), formatDuration(59_700), formatDuration(-0.3)]).toEqual(['1.0 s', '10 s', '1 min 00 s', '0 ms']);
    expect(formatBytes(Number.NaN)).toBe('—');
    expect([formatDuration(86_399_500), formatDuration(3_599_500)]).toEqual(['1 d 0 h', '1 h 00 min']);
  });
  it('ago, bytes, shares, ids', () => {
    expect(formatAgo(undefined, 5)).toBe('—');
    expect(formatAgo(1000, 4000)).toBe('3.0 s ago');
    expect(formatAgo(5000, 4000)).toBe('0 ms ago');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
    expect(formatShare(null)).toBe('—');
    expect(formatShare(0.666)).toBe('67 %');
    expect(shortId('0123456789abcdef')).toBe('01234567…');
    expect(shortId('S1')).toBe('S1');
  });

  it('a session cut in the middle keeps the tail that tells ids with one start apart (the Messages session column)', () => {
    // Every WebSocket of a page: `<12-char document id>.<n>` (the first 8 characters were the same for all).
    expect(middleId('k3j4h5g6f7d8.1')).not.toBe(middleId('k3j4h5g6f7d8.2'));
    expect(middleId('k3j4h5g6f7d8.12')).toBe('k3j…d8.12');
    // A 2026 listen known by its request id: `listen:12` read `listen:1`.
    expect(middleId('listen:12')).toBe('listen:12');
    expect(middleId('listen:123')).not.toBe(middleId('listen:124'));
    expect(middleId('550e8400-e29b-41d4-a716-446655440000')).toBe('550…40000');
    expect(middleId('550e8400-e29b-41d4-a716-446655440000')).toHaveLength(9);
    expect(middleId('S1')).toBe('S1');
  });
});

describe('coarse ticking cells', () => {
  it('row ids are one per key: keys that differ only in punctuation get different ids, each a valid id', () => {
    const keys = ['d1 file:///x/a.b', 'd1 file:///x/a/b', 'd1 file:///x/a_b', 'd1 file:///x/a_2f_b', 'S1 #2', 'S1_#2', 'S1__2', 'ü 😀', 'ü 😁'];
    const ids = keys.map((k) => elementId('uri-row-', k));
    expect(new Set(ids).size).toBe(keys.length);
    for (const id of ids) expect(id).toMatch(/^uri-row-[A-Za-z0-9_-]+$/);
    expect(elementId('uri-row-', 'abc-1')).toBe('uri-row-abc-1');
  });

  it('change at most once a second', async () => {
    const { formatAge, formatAgoCoarse } = await import('../../../panel/model/format.ts');
    expect(formatAge(10)).toBe('< 1 s');
    expect(formatAge(1400)).toBe('1 s');
    expect(formatAge(1999)).toBe('2 s');
    expect(formatAge(59_400)).toBe('59 s');
    expect(formatAge(59_999)).toBe('1 min 00 s');
    expect(formatAge(61_000)).toBe('1 min 01 s');
    expect(formatAgoCoarse(undefined, 0)).toBe('—');
    expect(formatAgoCoarse(1000, 1500)).toBe('just now');
    expect(formatAgoCoarse(1000, 4400)).toBe('3 s ago');
  });

  it('round an age as the drawer does: the table and the drawer agree at the same instant', async () => {
    const { formatAge, formatDuration } = await import('../../../panel/model/format.ts');
    // The audit's case: 33.6 s read `33 s` in the table and `34 s` in the drawer.
    expect(formatAge(33_600)).toBe(formatDuration(33_600));
    for (let ms = 9_950; ms < 4 * 3600_000; ms += 997) expect(formatAge(ms)).toBe(formatDuration(ms));
    // Under 10 s the drawer shows tenths; the cell is the nearest second of the same age.
    expect(formatAge(3_600)).toBe('4 s');
    expect(formatDuration(3_600)).toBe('3.6 s');
  });
});
