// One subscribe the server never advertised and answers -32601 is one subscribe-unsupported: the answer confirms what
// the request showed. An audit of the demo (2026-12-05): it was counted twice (at the request, not advertised; at the
// answer, method not found) and the drawer showed only the answer's reason.
import { describe, expect, it } from 'vitest';
import { findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const BOTH = 'the server capabilities have no resources.subscribe; the server answered -32601 (method not found)';

const unsupported = (log: FrameLog) => findingsAfter(run(log), 3000).filter((f) => f.id === 'subscribe-unsupported');
const facts = (log: FrameLog) => unsupported(log).map((f) => [f.reason, f.count, f.spans?.length ?? 0, f.detail, f.session]);

describe('subscribe-unsupported, once per subscribe', () => {
  it('2025: not advertised, then -32601 for it: one occurrence, both facts, the request and answer as evidence', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1', capabilities: { resources: {} } });
    c.read(POLICY, 'v1');
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32601, 'Method not found');
    expect(facts(log)).toEqual([['not-advertised', 1, 0, BOTH, 'S1']]);
    const req = log.frames.find((f) => f.kind === 'http-request' && f.body !== undefined && JSON.stringify(f.body).includes('resources/subscribe'))!;
    expect(unsupported(log)[0]!.evidence[0]).toBe(req.seq);
  });

  it('2025: two such subscribes are two occurrences', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1', capabilities: { resources: {} } });
    c.read(POLICY, 'v1');
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32601, 'Method not found');
    log.wait(1000);
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32601, 'Method not found');
    expect(facts(log)).toEqual([['not-advertised', 2, 2, BOTH, 'S1']]);
  });

  it('2025: advertised, yet -32601: method-not-found alone (the server’s side)', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1');
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32601, 'Method not found');
    expect(facts(log)).toEqual([['method-not-found', 1, 0, 'the server answered -32601 (method not found)', 'S1']]);
  });

  it('2026-07-28: a listen without the capability, refused -32601: one occurrence, named by the listen', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover({ resources: {} });
    c.read(POLICY, 'a1');
    c.begin('subscriptions/listen', { notifications: { resourceSubscriptions: [POLICY] } }).fail(-32601, 'Method not found');
    const [f, ...rest] = unsupported(log);
    expect(rest).toEqual([]);
    expect([f!.reason, f!.count, f!.detail, f!.session !== undefined]).toEqual(['not-advertised', 1, BOTH, true]);
  });
});
