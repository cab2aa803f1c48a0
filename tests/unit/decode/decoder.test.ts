// The decoder on scripted wire traffic of every transport: context (endpoint, generation, session, stream, direction),
// pairing, batches, invalid and truncated payloads, and the transport events the engine builds on.
import { describe, expect, it } from 'vitest';
import { Decoder, type DecodedMessage, type WireEvent } from '../../../shared/decode/index.ts';
import { decodedJson } from '../../../shared/decode/decoded-json.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, request, result, StreamableClient, WsClient } from '../../support/mcp-clients.ts';
import { unkeyedMarker } from '../../../shared/redact.ts';

function decode(log: FrameLog) {
  const messages: DecodedMessage[] = [];
  const wire: WireEvent[] = [];
  const d = new Decoder({ message: (m) => messages.push(m), wire: (e) => wire.push(e) });
  for (const f of log.frames) d.push(f);
  return { messages, wire };
}

const URL = 'http://localhost:3000/mcp';

describe('Streamable HTTP (2025)', () => {
  it('decodes initialize, takes the session from the response header, pairs by id', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.read('file:///docs/policy.md', 'v1');
    const { messages } = decode(log);
    const [init, initRes, initialized, read, readRes] = messages;
    expect(init).toMatchObject({ kind: 'request', method: 'initialize', dir: 'out', generation: '2025', transport: 'streamable-http', endpoint: URL });
    expect(init!.session).toBeUndefined();
    expect(initRes).toMatchObject({ kind: 'result', method: 'initialize', dir: 'in', session: 'S1', version: '2025-06-18', pair: init!.index });
    expect(init!.pair).toBe(initRes!.index);
    expect(initialized).toMatchObject({ kind: 'notification', method: 'notifications/initialized', session: 'S1', version: '2025-06-18' });
    expect(read).toMatchObject({ kind: 'request', method: 'resources/read', uri: 'file:///docs/policy.md', session: 'S1' });
    expect(readRes).toMatchObject({ kind: 'result', method: 'resources/read', uri: 'file:///docs/policy.md', known: true });
    expect(readRes!.problem).toBeUndefined();
    expect(decodedJson(readRes!)).toMatchObject({ result: { contents: [{ text: 'v1' }] } });
  });

  it('opens the GET stream, carries notifications on it and reports resume facts', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'e' });
    get.priming().updated('file:///a');
    get.close('failed');
    c.openGet({});
    c.openGet({ lastEventId: 'e-2' });
    const { messages, wire } = decode(log);
    const upd = messages.find((m) => m.method === 'notifications/resources/updated')!;
    expect(upd).toMatchObject({ streamKind: 'get', session: 'S1', sseId: 'e-2', uri: 'file:///a' });
    expect(wire.filter((e) => e.type === 'stream-open').map((e) => (e as { kind: string }).kind)).toEqual(['get', 'get', 'get']);
    const gets = wire.filter((e) => e.type === 'get-request') as Extract<WireEvent, { type: 'get-request' }>[];
    expect(gets[0]!.previous).toBeUndefined();
    expect(gets[1]).toMatchObject({ previous: { lastId: 'e-2' }, matchesKnownId: false });
    expect(gets[1]!.lastEventId).toBeUndefined();
    expect(gets[2]).toMatchObject({ lastEventId: 'e-2', matchesKnownId: true });
  });

  it('decodes a JSON-RPC batch (2025-03-26) into one message per element, paired', () => {
    const log = new FrameLog();
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', URL, { 'mcp-session-id': 'S' }, `[${request('resources/read', { uri: 'a' }, 1)},${request('resources/read', { uri: 'b' }, 2)}]`);
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, `[${result(2, { contents: [{ uri: 'b', text: 'B' }] })},${result(1, { contents: [{ uri: 'a', text: 'A' }] })}]`);
    log.httpEnd(conn);
    const { messages } = decode(log);
    expect(messages.map((m) => [m.kind, m.batch, m.uri])).toEqual([
      ['request', 0, 'a'],
      ['request', 1, 'b'],
      ['result', 0, 'b'],
      ['result', 1, 'a'],
    ]);
    expect(messages[2]!.pair).toBe(1);
    expect(messages[3]!.pair).toBe(0);
    expect(decodedJson(messages[3]!)).toMatchObject({ id: 1 });
  });

  it('keeps invalid messages visible and never throws', () => {
    const log = new FrameLog();
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', URL, {}, '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}}');
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, '{"oops"');
    log.httpEnd(conn);
    const c2 = log.newConn();
    log.httpRequest(c2, 'POST', URL, {}, '{"jsonrpc":"1.0","method":"x"}');
    const { messages } = decode(log);
    expect(messages[0]).toMatchObject({ kind: 'request', problem: 'params.uri is not a string' });
    expect(messages[1]!.kind).toBe('invalid');
    expect(messages[1]!.problem).toMatch(/^not JSON/);
    expect(messages[2]).toMatchObject({ kind: 'invalid', problem: 'jsonrpc is not "2.0"' });
  });

  it('marks unknown methods as unknown, and checks other known methods with the SDK schema', () => {
    const log = new FrameLog();
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', URL, {}, request('x-vendor/thing', {}, 1));
    const c2 = log.newConn();
    log.httpRequest(c2, 'POST', URL, {}, request('tools/call', { arguments: {} }, 2));
    const { messages } = decode(log);
    expect(messages[0]).toMatchObject({ kind: 'request', known: false });
    expect(messages[1]).toMatchObject({ kind: 'request', known: true });
    expect(messages[1]!.problem).toMatch(/name/);
  });

  it('pairs a truncated response through its exchange and keeps the hash', () => {
    const log = new FrameLog();
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', URL, { 'mcp-session-id': 'S' }, request('resources/read', { uri: 'big' }, 7));
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, { text: '{"result":{"contents":[{"uri":"big","text":"aaaa', truncated: { bytes: 900000, hash: 'h123' } });
    log.httpEnd(conn);
    const { messages } = decode(log);
    expect(messages[1]).toMatchObject({ kind: 'result', method: 'resources/read', uri: 'big', truncated: true, hash: 'h123', bytes: 900000, id: 7 });
  });

  it('a truncated response with an "id" or "method" inside its result is still its own exchange\'s answer', () => {
    const log = new FrameLog();
    const other = log.newConn();
    log.httpRequest(other, 'POST', URL, { 'mcp-session-id': 'S' }, request('resources/subscribe', { uri: 'x' }, 3));
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', URL, { 'mcp-session-id': 'S' }, request('tools/call', { name: 'search' }, 7));
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, { text: '{"result":{"structuredContent":{"id":3,"method":"x","hits":["aaaa', truncated: { bytes: 900000, hash: 'h1' } });
    log.httpEnd(conn);
    const answer = decode(log).messages.find((m) => m.truncated)!;
    expect(answer).toMatchObject({ kind: 'result', method: 'tools/call', id: 7 });
  });

  it('reports an exchange that failed before a response', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S' });
    c.beginRead('file:///a').networkError();
    const { wire } = decode(log);
    const failed = wire.find((e) => e.type === 'exchange-failed') as Extract<WireEvent, { type: 'exchange-failed' }>;
    expect(failed.requests.map((m) => m.method)).toEqual(['resources/read']);
  });
});

describe('2026-07-28', () => {
  it('recognises the generation from the _meta claim and opens a listen stream', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    const l = c.listen(['file:///a']);
    l.updated('file:///a');
    l.complete();
    const { messages, wire } = decode(log);
    expect(messages.every((m) => m.generation === '2026' && m.session === undefined)).toBe(true);
    expect(messages[0]).toMatchObject({ method: 'server/discover', version: '2026-07-28' });
    const ack = messages.find((m) => m.method === 'notifications/subscriptions/acknowledged')!;
    expect(ack).toMatchObject({ streamKind: 'listen', known: true });
    expect(ack.problem).toBeUndefined();
    const end = messages.at(-1)!;
    expect(end).toMatchObject({ kind: 'result', method: 'subscriptions/listen', streamKind: 'listen' });
    expect(wire.find((e) => e.type === 'stream-open')).toMatchObject({ kind: 'listen', info: { listenId: 'listen:1' } });
  });
});

describe('server requests on a long-lived stream', () => {
  it('are paired with the POST that answers them and leave nothing behind on the stream (one per server ping)', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    for (let i = 0; i < 100; i++) {
      get.send(request('ping', undefined, `srv-${i}`));
      c.respondToServer(result(`srv-${i}`, {}));
    }
    const messages: DecodedMessage[] = [];
    const d = new Decoder({ message: (m) => messages.push(m), wire: () => undefined });
    for (const f of log.frames) d.push(f);
    const answers = messages.filter((m) => m.kind === 'result' && m.dir === 'out');
    expect(answers.length).toBe(100);
    expect(answers.every((m) => m.method === 'ping' && m.pair !== undefined)).toBe(true);
    const conns = (d as unknown as { conns: { get(id: string): { pending: unknown[] } | undefined } }).conns;
    expect(conns.get(get.conn)!.pending.length).toBe(0);
  });
});

describe('legacy HTTP+SSE', () => {
  for (const via of ['fetch', 'eventsource'] as const) {
    it(`maps POSTs to the SSE session announced by the endpoint event (${via})`, () => {
      const log = new FrameLog();
      const c = new LegacySseClient(log, 'http://localhost:3001/sse', via);
      c.connect('abc');
      c.initialize();
      c.call('resources/read', { uri: 'demo://x' }, { contents: [{ uri: 'demo://x', text: 'X' }] });
      const { messages, wire } = decode(log);
      expect(wire.find((e) => e.type === 'legacy-endpoint')).toMatchObject({ postUrl: 'http://localhost:3001/message?sessionId=abc' });
      expect(messages.every((m) => m.transport === 'http-sse' && m.session === 'abc' && m.endpoint === 'http://localhost:3001/sse')).toBe(true);
      const readRes = messages.find((m) => m.kind === 'result' && m.method === 'resources/read')!;
      expect(readRes).toMatchObject({ streamKind: 'sse', uri: 'demo://x' });
    });
  }
  it('an endpoint announced with a token in clear (a trace from before the hook redacted it) still finds its redacted POSTs', () => {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse');
    // (Such a trace's POSTs carry the markers of their time: unkeyed.)
    c.connect('abc', '&api_key=SECRET42', undefined, unkeyedMarker);
    c.initialize();
    expect(c.postUrl).not.toContain('SECRET42');
    const { messages, wire } = decode(log);
    const ep = wire.find((e) => e.type === 'legacy-endpoint');
    expect(ep).toMatchObject({ postUrl: c.postUrl });
    expect(messages.length).toBe(3);
    expect(messages.every((m) => m.transport === 'http-sse' && m.session === 'abc')).toBe(true);
  });
});

describe('WebSocket', () => {
  it('treats the connection as the session and pairs within it', () => {
    const log = new FrameLog();
    const c = new WsClient(log, 'ws://localhost:3002/');
    c.connect();
    c.initialize();
    c.call('resources/subscribe', { uri: 'u' });
    const { messages } = decode(log);
    expect(messages.every((m) => m.transport === 'websocket' && m.session === `ws:${c.conn}`)).toBe(true);
    expect(messages.at(-1)).toMatchObject({ kind: 'result', method: 'resources/subscribe', uri: 'u' });
  });
});
