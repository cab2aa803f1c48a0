import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/engine/index.ts';
import { parseFilter } from '../../../panel/model/filter.ts';
import { findingDetail, findingMatches, sortFindings } from '../../../panel/model/findings-view.ts';

function f(over: Partial<Finding>): Finding {
  return {
    id: 'cached-not-subscribed',
    key: over.key ?? 'k',
    severity: 'warning',
    firstT: 0,
    lastT: 0,
    evidence: [],
    count: 1,
    open: true,
    title: 'Cached, but nobody is subscribed',
    explanation: '',
    fix: '',
    ...over,
  };
}

describe('findings view', () => {
  it('sorts open first, then worst, then newest', () => {
    const list = [
      f({ key: 'a', open: false, severity: 'error', lastT: 9 }),
      f({ key: 'b', severity: 'info', lastT: 5 }),
      f({ key: 'c', severity: 'error', lastT: 1 }),
      f({ key: 'd', severity: 'error', lastT: 3 }),
    ];
    expect(sortFindings(list).map((x) => x.key)).toEqual(['d', 'c', 'b', 'a']);
  });
  it('filters by finding:, uri:, session:, is:error|warning|problem and text', () => {
    const x = f({ id: 'phantom-subscription', severity: 'error', uri: 'file:///docs/policy.md', session: 'S2', detail: 'S1 ended (delete)' });
    const m = (q: string) => findingMatches(x, parseFilter(q));
    expect(m('finding:phantom')).toBe(true);
    expect(m('finding:stale')).toBe(false);
    expect(m('uri:policy')).toBe(true);
    expect(m('uri:schema')).toBe(false);
    expect(m('session:s2')).toBe(true);
    expect(m('is:error')).toBe(true);
    expect(m('is:warning')).toBe(false);
    expect(m('is:info')).toBe(false);
    expect(findingMatches(f({ id: 'unsolicited-update', severity: 'info' }), parseFilter('is:info'))).toBe(true);
    expect(m('is:problem')).toBe(true);
    expect(m('-is:error')).toBe(false);
    expect(m('delete')).toBe(true);
    // The severity and state columns' words.
    expect(m('error')).toBe(true);
    expect(m('warning')).toBe(false);
    expect(m(x.open ? 'open' : 'past')).toBe(true);
    expect(m('is:stale')).toBe(true); // a phantom is a staleness finding
    expect(m('is:phantom')).toBe(true);
    expect(findingMatches(f({ id: 'protocol-header-missing' }), parseFilter('is:stale'))).toBe(false);
    expect(findingMatches(f({ id: 'cache-age-exceeded' }), parseFilter('is:phantom'))).toBe(false);
    expect(m('is:cached')).toBe(true); // not applicable to findings: ignored
    expect(m('-is:cached')).toBe(true); // ignored when negated too
    expect(m('-method:read')).toBe(true);
    expect(findingMatches(f({ uri: undefined }), parseFilter('uri:x'))).toBe(false);
  });
  it('session: also finds a finding whose detail names a known session (the one that held a lost subscription)', () => {
    const x = f({ id: 'phantom-subscription', uri: 'file:///docs/policy.md', session: 'S2', detail: 'S1 ended (re-initialize) at seq 9' });
    const sessions = [{ label: 'S1' }, { label: 'S2' }];
    expect(findingMatches(x, parseFilter('session:S1'), sessions)).toBe(true);
    expect(findingMatches(x, parseFilter('session:S1'))).toBe(false);
    // "S10" does not name S1 (a whole id only).
    expect(findingMatches(f({ session: 'S2', detail: 'S10 ended (delete)' }), parseFilter('session:S1'), [{ label: 'S1' }, { label: 'S2' }])).toBe(false);
  });
});

describe('the Detail column', () => {
  it('puts a coverage reason in words before the detail, once, and never shows a bare code', () => {
    expect(findingDetail({ reason: 'lost-on-reinit', detail: 'S1 ended (http-404) at seq 9' })).toBe('lost when its session ended: S1 ended (http-404) at seq 9');
    expect(findingDetail({ reason: 'refused-in-ack', detail: 'refused in the listen acknowledgement at seq 16' })).toBe('refused in the listen acknowledgement at seq 16');
    expect(findingDetail({ reason: 'not-advertised', detail: 'the server capabilities have no resources.subscribe' })).toBe('the server capabilities have no resources.subscribe');
    expect(findingDetail({ reason: 'ttl', detail: 'cached 8 s ago; expected at most 5 s (ttl)' })).toBe('cached 8 s ago; expected at most 5 s (ttl)');
    expect(findingDetail({ reason: 'never-subscribed' })).toBe('never subscribed');
    expect(findingDetail({ detail: 'x' })).toBe('x');
  });
});
