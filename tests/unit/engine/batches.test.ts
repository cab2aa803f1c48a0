// JSON-RPC batches (2025-03-26) at their edges: an error with id null about one element, and a batch cut at capture.
import { describe, expect, it } from 'vitest';
import { splitArrayPrefix } from '../../../shared/decode/batch-prefix.ts';
import { hashText } from '../../../shared/hash.ts';
import { brief, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { errorResponse, request, result, StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///a.md';
const B = 'file:///b.md';
const C = 'file:///c.md';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-03-26' };

function session(): { log: FrameLog; c: StreamableClient; get: ReturnType<StreamableClient['openGet']> } {
  const log = new FrameLog();
  const c = new StreamableClient(log, URL, '2025-03-26');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet({ ids: 'g' });
  return { log, c, get };
}

const rowOf = (log: FrameLog, uri: string) => run(log).snapshot(log.t + 100).uris.find((u) => u.uri === uri)!;

describe('an error with id null in a batch', () => {
  for (const mode of ['json', 'sse'] as const) {
    it(`${mode}: is about an invalid element, not the request left waiting (JSON-RPC's own example)`, () => {
      const { log } = session();
      const k = log.newConn('post');
      log.httpRequest(k, 'POST', URL, HEADERS, `[${request('resources/read', { uri: A }, 3)},{"jsonrpc":"2.0","method":1},${request('resources/read', { uri: B }, 4)}]`);
      const answers = [result(3, { contents: [{ uri: A, text: 'a' }] }), errorResponse(null, -32600, 'Invalid Request'), result(4, { contents: [{ uri: B, text: 'b' }] })];
      if (mode === 'json') {
        log.httpResponse(k, 200, URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
        log.httpBody(k, `[${answers.join(',')}]`);
      } else {
        log.httpResponse(k, 200, URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
        for (const a of answers) log.sseEvent(k, a, { event: 'message' });
      }
      log.httpEnd(k);
      // It answered read 4 before (b.md read failed, "error -32600", and its real answer went unpaired).
      expect([A, B].map((u) => [rowOf(log, u).cached, rowOf(log, u).lastReadFailed])).toEqual([
        [true, undefined],
        [true, undefined],
      ]);
    });
  }

  it('still fails a lone request it answers, outside a batch', () => {
    const { log } = session();
    const k = log.newConn('post');
    log.httpRequest(k, 'POST', URL, HEADERS, request('resources/read', { uri: A }, 3));
    log.httpResponse(k, 200, URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
    log.httpBody(k, errorResponse(null, -32603, 'Internal error'));
    log.httpEnd(k);
    expect(rowOf(log, A).lastReadFailed).toBe('error -32603: Internal error');
  });
});

describe('a batch cut at capture', () => {
  it('splits the elements a prefix holds whole from the one the cut falls in', () => {
    expect(splitArrayPrefix(' [ {"a":"],\\"{"} , [1,2], 3 ,{"b":')).toEqual({ elements: ['{"a":"],\\"{"}', '[1,2]', '3'], rest: '{"b":' });
    expect(splitArrayPrefix('[1,2]')).toEqual({ elements: ['1', '2'], rest: '' });
    expect(splitArrayPrefix('[1,')).toEqual({ elements: ['1'], rest: '' });
    expect(splitArrayPrefix('{"jsonrpc":"2.0"')).toBeUndefined();
  });

  it('answered in one JSON body over the cap: the elements kept are read, the rest were answered past the cut (subscribes are not failed)', () => {
    const { log, c, get } = session();
    const big = (ch: string) => ch.repeat(100_000);
    const k = log.newConn('post');
    const reads = [A, B, C].map((u, i) => request('resources/read', { uri: u }, i + 10));
    const subs = [A, B, C].map((u, i) => request('resources/subscribe', { uri: u }, i + 20));
    log.httpRequest(k, 'POST', URL, HEADERS, `[${[...reads, ...subs].join(',')}]`);
    log.httpResponse(k, 200, URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
    const full = `[${[A, B, C].map((u, i) => result(i + 10, { contents: [{ uri: u, text: big('abc'[i]!) }] })).join(',')},${[20, 21, 22].map((i) => result(i, {})).join(',')}]`;
    log.httpBody(k, { text: full.slice(0, 256 * 1024), truncated: { bytes: full.length, hash: hashText(full) } });
    log.httpEnd(k, 'complete', 'body', full.length);
    log.wait(1000);
    get.updated(B);
    c.read(B, big('b'));
    const e = run(log);
    // Before: one cut message, the six requests failed 'no answer (HTTP 200)', a false cached-not-subscribed (subscribe failed).
    expect(brief(e.findings(log.t + 60_000), 'info')).toEqual([]);
    const snap = e.snapshot(log.t + 100);
    expect(snap.metrics).toMatchObject({ subscribeSucceeded: 3, subscribeFailed: 0 });
    expect(snap.uris.map((u) => [u.uri, u.cached, u.clientBelievesSubscribed, u.serverHasSubscription, u.lastReadFailed])).toEqual([
      [A, true, true, true, undefined],
      [B, true, true, true, undefined],
      [C, true, true, true, undefined],
    ]);
    // A's answer was kept whole: its content and size are known. C's was answered past the cut: its own identity, no size.
    expect(snap.uris[0]!.size).toBe(100_000);
    expect(snap.uris[2]!.size).toBeUndefined();
    expect(new Set(snap.uris.map((u) => u.contentHash)).size).toBe(3);
  });
});
