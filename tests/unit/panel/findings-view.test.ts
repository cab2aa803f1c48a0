import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/engine/index.ts';
import { parseFilter } from '../../../panel/model/filter.ts';
import { findingDetail, findingMatches, sortFindings } from '../../../panel/model/findings-view.ts';
import { COVERAGE_REASONS, PHANTOM_REASONS, reasonEntry } from '../../../shared/findings/catalogue.ts';
import { findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const POLICY = 'file:///docs/policy.md';

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
  it('sorts open first, then worst, then earliest, then session-wide before per-URI, then by key', () => {
    const list = [
      f({ key: 'a', open: false, severity: 'error', firstT: 0, lastT: 9 }),
      f({ key: 'b', severity: 'info', firstT: 0, lastT: 5 }),
      f({ key: 'c', severity: 'error', firstT: 3, lastT: 9 }),
      f({ key: 'd', severity: 'error', firstT: 1, lastT: 9 }),
      f({ key: 'e', severity: 'error', firstT: 3, lastT: 9, uri: POLICY }),
      f({ key: 'f', severity: 'error', firstT: 3, lastT: 9 }),
    ];
    const order = ['d', 'c', 'f', 'e', 'b', 'a'];
    expect(sortFindings(list).map((x) => x.key)).toEqual(order);
    // Stable whatever order they came in.
    expect(sortFindings([...list].reverse()).map((x) => x.key)).toEqual(order);
  });

  it('server restart, never re-initialized: the expired session comes before the URIs it left phantom and uncovered', () => {
    // demo scenario server-restart: the 404 ends S1, and in the same frame the subscription becomes a phantom and the
    // cached URI uncovered; all three are open errors with the same times.
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, `${POLICY} v1`);
    c.subscribe(POLICY);
    log.wait(2000);
    get.close('failed');
    c.beginRead(POLICY).httpStatus(404, -32001, 'Session not found');
    const shown = sortFindings(findingsAfter(run(log), 5000));
    expect(shown.map((x) => x.id)).toEqual(['session-expired-not-reinitialized', 'cached-not-subscribed', 'phantom-subscription']);
    expect(new Set(shown.map((x) => `${x.severity} ${x.open} ${x.firstT}`)).size).toBe(1);
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
    const cns = 'cached-not-subscribed' as const;
    expect(findingDetail({ id: cns, reason: 'lost-on-reinit', detail: 'S1 ended (http-404) at seq 9' })).toBe('lost when its session ended: S1 ended (http-404) at seq 9');
    expect(findingDetail({ id: cns, reason: 'refused-in-ack', detail: 'refused in the listen acknowledgement at seq 16' })).toBe('refused in the listen acknowledgement at seq 16');
    expect(findingDetail({ id: 'subscribe-unsupported', reason: 'not-advertised', detail: 'the server capabilities have no resources.subscribe' })).toBe('the server capabilities have no resources.subscribe');
    expect(findingDetail({ id: 'cache-age-exceeded', reason: 'ttl', detail: 'cached 8 s ago; expected at most 5 s (ttl)' })).toBe('cached 8 s ago; expected at most 5 s (ttl)');
    expect(findingDetail({ id: 'resume-gap', reason: 'no-last-event-id', detail: 'the new GET sent no Last-Event-ID' })).toBe('the new GET sent no Last-Event-ID');
    // resume-gap's reasons have labels (the drawer's), but its details say them: not twice here.
    expect(findingDetail({ id: 'resume-gap', reason: 'subscription-lapsed', detail: 'cached before its subscription was lost at seq 9' })).toBe('cached before its subscription was lost at seq 9');
    expect(findingDetail({ id: 'resume-gap', reason: 'subscription-lapsed' })).toBe('subscribed again, not read again');
    expect(findingDetail({ id: cns, reason: 'never-subscribed' })).toBe('never subscribed');
    expect(findingDetail({ id: cns, detail: 'x' })).toBe('x');
    // Every coverage reason keeps its label.
    for (const [reason, entry] of Object.entries(COVERAGE_REASONS)) expect(findingDetail({ id: cns, reason })).toBe(entry.label);
  });

  it("names a phantom's reason too, in the catalogue's words as the drawer does (subscribe-not-offered showed no label)", () => {
    const detail = 'S1 ended (re-initialize) at seq 9; the current server does not advertise resources.subscribe';
    expect(findingDetail({ id: 'phantom-subscription', reason: 'subscribe-not-offered', detail })).toBe(`the server no longer offers subscriptions: ${detail}`);
    expect(findingDetail({ id: 'phantom-subscription', reason: 'subscribe-not-offered' })).toBe(PHANTOM_REASONS['subscribe-not-offered'].label);
    // On the engine's findings (a client re-initialized onto a server without resources.subscribe): every finding
    // whose reason the catalogue names says it first.
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'policy v1');
    c.subscribe(POLICY);
    log.wait(1000);
    get.close('aborted');
    c.initialize({ sessionId: 'S2', capabilities: { resources: { listChanged: true } } });
    c.openGet();
    const found = findingsAfter(run(log), 3000).filter((x) => reasonEntry(x.id, x.reason) !== undefined);
    expect(found.map((x) => `${x.id} ${x.reason}`).sort()).toEqual(['cached-not-subscribed lost-on-reinit', 'phantom-subscription subscribe-not-offered']);
    for (const x of found) expect(findingDetail(x)).toBe(`${reasonEntry(x.id, x.reason)!.label}: ${x.detail}`);
  });
});

describe('free text and the Client column', () => {
  it('finds a finding by its client tag when the column shows one', () => {
    const f = { id: 'cached-not-subscribed', key: 'k', severity: 'warning', firstT: 0, lastT: 0, evidence: [], count: 1, open: true, title: 'Cached, but nobody is subscribed', explanation: '', fix: '', uri: 'file:///docs/policy.md', endpoint: 'http://localhost:3002/ws' } as Finding;
    expect(findingMatches(f, parseFilter('3002/ws'), [], 'localhost:3002/ws')).toBe(true);
    expect(findingMatches(f, parseFilter('3002/ws'))).toBe(false);
  });
});
