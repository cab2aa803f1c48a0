// The decoder reuses objects for a sink that keeps none (DecodeSink.keepsNoMessages: the engine's): one message object
// refilled per message, one request-head event, one method list, the last ended exchange's Conn. What such a sink is
// handed at each delivery must be exactly what a sink that keeps everything is handed, on any stream of frames
// (exchange churn over a few connection ids, ends repeated, bodies after an end, batches, cut and broken payloads).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decoder } from '../../../shared/decode/decoder.ts';
import { NO_PENDING, newConn, resetConn, type Conn } from '../../../shared/decode/conn-state.ts';
import type { DecodedMessage } from '../../../shared/decode/types.ts';
import type { Frame } from '../../../shared/frames.ts';

/** Every message and wire event, cloned as delivered (a reused object refilled later must not matter). */
function deliveries(keepsNoMessages: boolean, frames: Frame[]): unknown[] {
  const out: unknown[] = [];
  const d = new Decoder({
    keepsNoMessages,
    message: (m, _v, info) => out.push(['message', structuredClone(m), structuredClone(info)]),
    wire: (e, seq, t) => out.push(['wire', structuredClone(e), seq, t]),
  });
  for (const f of frames) d.push(f);
  return out;
}

const URL = 'http://localhost:3000/mcp';
const URIS = ['file:///docs/', 'file:///docs/a.md', 'postgres://kb/articles/1'];
const req = (method: string, params: unknown, id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const res = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
const texts = [
  req('resources/read', { uri: URIS[1] }, 1),
  req('resources/read', { uri: URIS[0] }, 2),
  req('resources/subscribe', { uri: URIS[0] }, 2),
  req('resources/subscribe', { uri: URIS[2] }, 1),
  req('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 3),
  req('subscriptions/listen', { notifications: { resourceSubscriptions: URIS } }, 'L'),
  req('tools/call', { name: 'toolA', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }, 4),
  `[${req('resources/read', { uri: URIS[0] }, 1)},${req('resources/subscribe', { uri: URIS[1] }, 2)},{"jsonrpc":"2.0","method":"notifications/x"}]`,
  `[${res(1, { contents: [{ uri: URIS[0], text: 'b' }] })},${res(2, {})}]`,
  `[${res(1, { contents: [{ uri: URIS[0], text: 'b' }] })}]`,
  res(1, { contents: [{ uri: URIS[1], text: 'a' }] }),
  res('1', { contents: [{ uri: URIS[1], text: 'a2' }] }),
  res(2, {}),
  res(3, { protocolVersion: '2025-06-18', capabilities: { resources: { subscribe: true } }, serverInfo: { name: 's', version: '1' } }),
  res('L', { resultType: 'complete' }),
  JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
  JSON.stringify({ jsonrpc: '2.0', error: { code: -32602, message: 'not found' }, id: 1 }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: URIS[1] } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: [URIS[1]] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'L' } } }),
  req('ping', {}, 7),
  '{"jsonrpc":"2.0","id":',
  'null',
  '[]',
];
const payload = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...texts).map((text) => ({ text })) },
  { weight: 2, arbitrary: fc.constantFrom(...texts).map((text) => ({ text: text.slice(0, 30), truncated: { bytes: 99_999, hash: 'h' } })) },
  { weight: 1, arbitrary: fc.string().map((text) => ({ text })) },
);
const conn = fc.constantFrom('c1', 'c2', 'c3');
const headers = fc.record(
  { 'mcp-session-id': fc.constantFrom('S1', 'S2'), 'mcp-protocol-version': fc.constantFrom('2025-06-18', '2026-07-28'), 'content-type': fc.constantFrom('application/json', 'text/event-stream'), 'last-event-id': fc.constantFrom('e-1', 'e-2'), 'mcp-name': fc.constantFrom('dG9vbEE=', 'eA==') },
  { requiredKeys: [] },
);
const frame = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('http-request' as const), conn, method: fc.constantFrom('POST', 'GET', 'DELETE'), url: fc.constantFrom(URL, 'http://localhost:3001/message?sessionId=x'), headers, body: payload }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('http-response' as const), conn, status: fc.constantFrom(200, 202, 404, 500), statusText: fc.constant(''), url: fc.constant(URL), redirected: fc.constant(false), headers }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('http-body' as const), conn, body: payload }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('sse-event' as const), conn, data: payload, id: fc.constantFrom('e-1', 'e-2'), retry: fc.constantFrom(1000), event: fc.constantFrom('message', 'endpoint') }, { requiredKeys: ['kind', 'conn', 'data'] }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('http-end' as const), conn, outcome: fc.constantFrom('complete' as const, 'aborted' as const, 'failed' as const), phase: fc.constantFrom('request' as const, 'body' as const), bytes: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('es-connect' as const), conn, url: fc.constant('http://localhost:3001/sse'), withCredentials: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('es-open' as const, 'es-close' as const), conn }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('es-error' as const), conn, readyState: fc.constantFrom(0, 2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ws-connect' as const), conn, url: fc.constant('ws://x/'), protocols: fc.constant(['mcp']) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ws-message' as const), conn, dir: fc.constantFrom('in' as const, 'out' as const), data: payload }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('ws-close' as const), conn, code: fc.constant(1006), reason: fc.constant(''), wasClean: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('page-start' as const, 'page-end' as const), url: fc.constant('http://p/'), top: fc.boolean(), persisted: fc.boolean() }) },
);
function stamp(drafts: object[]): Frame[] {
  return drafts.map((d, i) => ({ ...d, doc: 'doc-r', n: i + 1, t: 1000 + i * 250, seq: i + 1, frameId: 0, segment: 1 }) as Frame);
}
describe('object reuse for a sink that keeps no messages', () => {
  it('delivers exactly what a keeping sink is delivered, frame by frame', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 30, maxLength: 150 }), (drafts) => {
        const frames = stamp(drafts);
        expect(deliveries(true, frames)).toEqual(deliveries(false, frames));
      }),
      { numRuns: 300 },
    );
  });

  it('a request answered through its session, still in its exchange\'s list, is not reused for a later message', () => {
    // Legacy HTTP+SSE: the POST's request waits in the POST's list and in the session; its answer comes on the GET
    // stream (taken through the session). A second answer with its id on the POST itself must still find it there.
    const post = 'http://localhost:3001/message?sessionId=x';
    const frames = stamp([
      { kind: 'es-connect', conn: 'g', url: 'http://localhost:3001/sse', withCredentials: false },
      { kind: 'es-open', conn: 'g' },
      { kind: 'sse-event', conn: 'g', event: 'endpoint', data: { text: '/message?sessionId=x' } },
      { kind: 'http-request', conn: 'p1', method: 'POST', url: post, headers: {}, body: { text: req('resources/read', { uri: URIS[1] }, 1) } },
      { kind: 'sse-event', conn: 'g', event: 'message', data: { text: res(1, { contents: [{ uri: URIS[1], text: 'a' }] }) } },
      { kind: 'http-request', conn: 'p2', method: 'POST', url: post, headers: {}, body: { text: req('resources/subscribe', { uri: URIS[0] }, 2) } },
      { kind: 'http-request', conn: 'p3', method: 'POST', url: post, headers: {}, body: { text: req('resources/read', { uri: URIS[2] }, 3) } },
      { kind: 'http-body', conn: 'p1', body: { text: res(1, { contents: [{ uri: URIS[1], text: 'a' }] }) } },
    ]);
    const kept = deliveries(true, frames);
    expect(kept).toEqual(deliveries(false, frames));
    const last = kept.at(-1) as ['message', DecodedMessage];
    expect(last[1]).toMatchObject({ kind: 'result', id: 1, method: 'resources/read', uri: URIS[1] });
    expect(last[1].pair).toBeDefined();
  });

  it('an answered request is refilled as a later message: every field, as a new one', () => {
    const frames = stamp([
      { kind: 'http-request', conn: 'c1', method: 'POST', url: URL, headers: { 'mcp-session-id': 'S1' }, body: { text: req('resources/read', { uri: URIS[1] }, 1) } },
      { kind: 'http-body', conn: 'c1', body: { text: `[${res(1, { contents: [{ uri: URIS[1], text: 'a' }] })}]` } },
      { kind: 'http-end', conn: 'c1', outcome: 'complete', phase: 'body', bytes: 0 },
      { kind: 'http-request', conn: 'c2', method: 'POST', url: URL, headers: { 'mcp-session-id': 'S2' }, body: { text: req('ping', {}, 7) } },
      { kind: 'http-body', conn: 'c2', body: { text: '{"jsonrpc":"2.0","id":' } },
      { kind: 'http-request', conn: 'c3', method: 'POST', url: URL, headers: { 'mcp-session-id': 'S1' }, body: { text: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x' }) } },
    ]);
    expect(deliveries(true, frames)).toEqual(deliveries(false, frames));
  });

  it('an exchange that ended unanswered is kept for reuse without its requests (nor their bodies)', () => {
    const d = new Decoder({ keepsNoMessages: true, message: () => undefined, wire: () => undefined });
    const big = req('resources/read', { uri: 'file:///docs/a.md', pad: 'x'.repeat(10_000) }, 1);
    for (const f of stamp([
      { kind: 'http-request', conn: 'c1', method: 'POST', url: URL, headers: { 'mcp-session-id': 'S1' }, body: { text: big } },
      { kind: 'http-end', conn: 'c1', outcome: 'failed', phase: 'request', bytes: 0 },
    ])) d.push(f);
    const spare = (d as unknown as { spareConn: Conn | undefined }).spareConn;
    expect(spare).toBeDefined();
    expect(spare!.pending).toBe(NO_PENDING);
  });

  it('resetConn makes what newConn makes: every field, in the same order; an emptied pending list is kept', () => {
    const info = { conn: 'a', doc: 'd', endpoint: 'e', transport: 'streamable-http', generation: '2025', role: 'post', session: undefined, listenId: undefined } as const;
    const dirty = newConn({ ...info, conn: 'old' }, 'ws', 'u0', { x: '1' });
    for (const k of Object.keys(dirty) as (keyof Conn)[]) {
      if (k === 'info' || k === 'pending') continue;
      const v = dirty[k];
      (dirty as unknown as Record<string, unknown>)[k] = typeof v === 'boolean' ? true : typeof v === 'number' ? 7 : 'stale';
    }
    dirty.pending = [{} as DecodedMessage];
    const headers = {};
    const reset = resetConn(dirty, info, 'fetch', 'u', headers);
    const fresh = newConn(info, 'fetch', 'u', headers);
    expect(Object.keys(reset)).toEqual(Object.keys(fresh));
    expect(reset).toEqual(fresh);
    expect(reset.pending).toBe(NO_PENDING);
    const emptied: DecodedMessage[] = [];
    reset.pending = emptied;
    expect(resetConn(reset, info, 'fetch', 'u', headers).pending).toBe(emptied);
  });
});
