// Requests that will never be answered must not stay "in flight" for good: a subscribe in flight holds back the
// subscription findings of its URI. Found by an audit of the legacy and WebSocket transports (2026-12-04) with real
// SDK runs: a socket or legacy stream that closes owes its answers for ever (the SDK rejects them with "Connection
// closed"), and a request the client cancelled (the SDK does on a timeout) is one it has given up.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, notification, request, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const A = 'file:///docs/a.md';
const doc = (text: string) => ({ contents: [{ uri: A, mimeType: 'text/markdown', text }] });
const WS = 'ws://localhost:3002/ws';

function uriRow(log: FrameLog) {
  return run(log).snapshot(log.t + 10_000).uris.find((u) => u.uri === A)!;
}

describe('a WebSocket that closes with requests unanswered', () => {
  it('fails them: the subscribe the server never confirmed is not believed, and the new session is judged', () => {
    const log = new FrameLog();
    const a = new WsClient(log, WS);
    a.connect();
    a.initialize();
    a.call('resources/read', { uri: A }, doc('v1'));
    a.ask('resources/subscribe', { uri: A });
    a.close(false);
    log.wait(100);
    const b = new WsClient(log, WS);
    b.connect();
    b.initialize();
    log.wait(100);
    expect(uriRow(log).clientBelievesSubscribed).toBe(false);
    expect(brief(findingsAfter(run(log), 10_000))).toEqual([`cached-not-subscribed ${A} subscribe-failed warning`]);
  });

  it('a read the socket never answered is failed, said why', () => {
    const log = new FrameLog();
    const a = new WsClient(log, WS);
    a.connect();
    a.initialize();
    a.ask('resources/read', { uri: A });
    a.close(false);
    const row = uriRow(log);
    expect(row.readsInFlight).toBe(0);
    expect(row.lastReadFailed).toBe('no answer (the connection closed first)');
  });
});

describe('a message logged on a WebSocket after its close (a trace from before the hook stopped logging them)', () => {
  it('is dropped: it does not bring the socket back as an open session', () => {
    const log = new FrameLog();
    const a = new WsClient(log, WS);
    a.connect();
    a.initialize();
    a.call('resources/read', { uri: A }, doc('v1'));
    a.close(true);
    a.ask('resources/subscribe', { uri: A });
    const snap = run(log).snapshot(log.t + 10_000);
    expect(snap.sessions.map((s) => [s.endpoint, s.open])).toEqual([[WS, false]]);
    expect(snap.uris.map((u) => u.endpoint)).toEqual([WS]);
  });
});

describe('a legacy SSE stream that ends with accepted requests unanswered', () => {
  for (const via of ['fetch', 'eventsource'] as const) {
    it(`fails them (${via}), so a reconnect that does not subscribe again is judged`, () => {
      const log = new FrameLog();
      const c = new LegacySseClient(log, 'http://localhost:3001/sse', via);
      c.connect('s1');
      c.initialize();
      c.call('resources/read', { uri: A }, doc('v1'));
      c.ask('resources/subscribe', { uri: A });
      c.drop();
      log.wait(100);
      c.connect('s2');
      c.initialize();
      log.wait(100);
      expect(uriRow(log).clientBelievesSubscribed).toBe(false);
      expect(brief(findingsAfter(run(log), 10_000)).filter((f) => f.startsWith('cached-not-subscribed'))).toEqual([
        `cached-not-subscribed ${A} subscribe-failed warning`,
      ]);
    });
  }

  it('the SDK reconnect GET carries MCP-Protocol-Version: still the legacy stream, not a second GET stream left open', () => {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse');
    c.connect('s1');
    c.initialize();
    c.drop();
    c.connect('s2', '', '2024-11-05');
    c.initialize();
    const snap = run(log).snapshot(log.t);
    expect(snap.streams.map((s) => [s.kind, s.open, s.session])).toEqual([
      ['sse', false, 's1'],
      ['sse', true, 's2'],
    ]);
  });

  it('a request whose POST is still open when the stream drops is failed once, not again when that POST fails', () => {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse');
    c.connect('s1');
    c.initialize();
    const post = log.newConn('post');
    log.httpRequest(post, 'POST', c.postUrl, { 'content-type': 'application/json' }, request('resources/subscribe', { uri: A }, 50));
    c.drop();
    log.httpEnd(post, 'failed', 'request');
    const m = run(log).snapshot(log.t + 10_000).metrics;
    expect([m.subscribeRequested, m.subscribeFailed]).toEqual([1, 1]);
  });

  it('leaves requests of another session alone', () => {
    const log = new FrameLog();
    const one = new LegacySseClient(log, 'http://localhost:3001/sse');
    const two = new LegacySseClient(log, 'http://localhost:3001/sse');
    one.connect('s1');
    two.connect('s2');
    one.initialize();
    two.initialize();
    const id = two.ask('resources/read', { uri: A });
    one.drop();
    two.serverNotify('x/y');
    log.sseEvent(two.conn, JSON.stringify({ jsonrpc: '2.0', id, result: doc('v2') }), { event: 'message' });
    expect(uriRow(log)).toMatchObject({ cached: true, readsInFlight: 0 });
    expect(uriRow(log).lastReadFailed).toBeUndefined();
  });
});

describe('a request the client cancelled', () => {
  it('Streamable HTTP: a cancelled subscribe is one the client gave up; a late answer does not make it believed', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(A, 'v1');
    const sub = c.begin('resources/subscribe', { uri: A });
    log.wait(60_000);
    c.notify('notifications/cancelled', { requestId: sub.id, reason: 'Request timed out' });
    expect(uriRow(log).clientBelievesSubscribed).toBe(false);
    expect(brief(findingsAfter(run(log), 10_000)).filter((f) => f.startsWith('cached-not-subscribed'))).toEqual([
      `cached-not-subscribed ${A} subscribe-failed warning`,
    ]);
    sub.respond({});
    const after = run(log);
    expect(after.snapshot(log.t + 10_000).uris.find((u) => u.uri === A)!.clientBelievesSubscribed).toBe(false);
  });

  it('Streamable HTTP without a session (a stateless server): a cancelled read is failed too', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-06-18');
    c.initialize({ sessionId: null });
    const r = c.begin('resources/read', { uri: A });
    log.wait(60_000);
    c.notify('notifications/cancelled', { requestId: r.id, reason: 'Request timed out' });
    expect(uriRow(log)).toMatchObject({ readsInFlight: 0, lastReadFailed: 'cancelled by the client' });
  });

  it('WebSocket and legacy: a cancelled read is failed, said why; a cancel of an unknown id changes nothing', () => {
    const log = new FrameLog();
    const ws = new WsClient(log, WS);
    ws.connect();
    ws.initialize();
    const id = ws.ask('resources/read', { uri: A });
    ws.send(notification('notifications/cancelled', { requestId: 999 }));
    expect(uriRow(log).readsInFlight).toBe(1);
    ws.send(notification('notifications/cancelled', { requestId: id }));
    expect(uriRow(log)).toMatchObject({ readsInFlight: 0, lastReadFailed: 'cancelled by the client' });

    const log2 = new FrameLog();
    const leg = new LegacySseClient(log2, 'http://localhost:3001/sse');
    leg.connect('s1');
    leg.initialize();
    const rid = leg.ask('resources/read', { uri: A });
    leg.notify('notifications/cancelled', { requestId: rid });
    expect(uriRow(log2)).toMatchObject({ readsInFlight: 0, lastReadFailed: 'cancelled by the client' });
  });
});
