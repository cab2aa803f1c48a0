// Answers a client's SDK would refuse must not change what the engine says the client holds (found by a bad-input
// review, 2026-12-03): each case is the trace that showed a false finding.
import { describe, expect, it } from 'vitest';
import { messageAt } from '../../../shared/engine/index.ts';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { checkResult } from '../../../shared/decode/validate.ts';
import { ModernClient, request, result, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';
const doc = (text: string) => ({ contents: [{ uri: A, mimeType: 'text/markdown', text }] });

function session(log: FrameLog) {
  const c = new StreamableClient(log, URL, '2025-06-18');
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  return c;
}

function uriRow(log: FrameLog) {
  return run(log).snapshot(log.t + 10_000).uris.find((u) => u.uri === A);
}

describe('WebSocket: an error with id null', () => {
  it('answers the message the server could not read, not the request that happens to be waiting', () => {
    const log = new FrameLog();
    const ws = new WsClient(log, 'ws://localhost:3000/mcp');
    ws.connect();
    ws.initialize();
    ws.send(request('resources/read', { uri: A }, 9));
    ws.receive(result(9, doc('v1')));
    ws.send(request('resources/subscribe', { uri: A }, 10));
    ws.send('garbage');
    ws.receive(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    ws.receive(result(10, {}));
    log.wait(1000);
    const e = run(log);
    const snap = e.snapshot(log.t + 3000);
    const answers = [];
    for (let i = 0; i < snap.messages.count; i++) {
      const m = messageAt(snap.messages, i)!;
      if (m.kind === 'error' || (m.kind === 'result' && m.method === 'resources/subscribe')) answers.push([m.kind, m.pair !== undefined]);
    }
    expect(answers).toEqual([
      ['error', false],
      ['result', true],
    ]);
    expect(snap.uris.find((u) => u.uri === A)?.serverHasSubscription).toBe(true);
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
  });
});

describe('responses the SDK refuses', () => {
  it('a response with both result and error is invalid and answers nothing: the subscribe is still on its way', () => {
    const log = new FrameLog();
    const c = session(log);
    c.read(A, 'v1');
    const sub = c.begin('resources/subscribe', { uri: A });
    c.answer(sub.conn, JSON.stringify({ jsonrpc: '2.0', id: sub.id, result: {}, error: { code: -32601, message: 'Method not found' } }), false);
    const e = run(log);
    const snap = e.snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.problem, last.pair]).toEqual(['invalid', 'a response with both result and error', undefined]);
    expect(snap.uris.find((u) => u.uri === A)?.serverHasSubscription).toBe(false);
  });

  it('a result that is not an object is invalid and answers nothing: a subscribe so answered is not held', () => {
    const log = new FrameLog();
    const c = session(log);
    c.read(A, 'v1');
    const sub = c.begin('resources/subscribe', { uri: A });
    c.answer(sub.conn, JSON.stringify({ jsonrpc: '2.0', id: sub.id, result: null }), false);
    const snap = run(log).snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.problem, last.pair]).toEqual(['invalid', 'result is not an object', undefined]);
    expect(snap.uris.find((u) => u.uri === A)?.serverHasSubscription).toBe(false);
  });

  it('a read answered with a bad ttlMs is still cached (the SDK takes its default), and shown with its problem', () => {
    const log = new FrameLog();
    const c = session(log);
    c.read(A, 'v1', { ttlMs: -1 });
    const snap = run(log).snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.problem]).toEqual(['result', 'result.ttlMs is not a non-negative number']);
    expect(snap.uris.find((u) => u.uri === A)?.cached).toBe(true);
  });

  it('a read answered with contents of the wrong shape caches nothing (the SDK rejects it), and is shown as such', () => {
    const log = new FrameLog();
    const c = session(log);
    c.read(A, 'v1');
    c.subscribe(A);
    const r = c.beginRead(A);
    r.respond({ contents: 'nope' });
    log.wait(1000);
    const e = run(log);
    const snap = e.snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.problem]).toEqual(['result', 'result.contents is not an array']);
    // The cache still holds the first answer: its read time is the first read's.
    const row = snap.uris.find((u) => u.uri === A)!;
    expect(row.cached).toBe(true);
    expect(row.cacheReadAt).toBeLessThan(last.t);
  });

  it('a cut error answer to a subscribe is an error: the subscription is not held', () => {
    const log = new FrameLog();
    const c = session(log);
    c.read(A, 'v1');
    const sub = c.begin('resources/subscribe', { uri: A });
    log.httpResponse(sub.conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(sub.conn, { text: `{"jsonrpc":"2.0","id":${sub.id},"error":{"code":-32602,"message":"Unknown resource ${'x'.repeat(40)}`, truncated: { bytes: 9000, hash: 'h1' } });
    log.httpEnd(sub.conn);
    log.wait(1000);
    const e = run(log);
    const snap = e.snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.truncated, last.pair !== undefined]).toEqual(['error', true, true]);
    const row = snap.uris.find((u) => u.uri === A)!;
    expect(row.serverHasSubscription).toBe(false);
    expect(row.clientBelievesSubscribed).toBe(false);
  });

  it('a cut read answer is still cached content (known by its hash)', () => {
    const log = new FrameLog();
    const c = session(log);
    const r = c.beginRead(A);
    log.httpResponse(r.conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(r.conn, { text: `{"result":{"contents":[{"uri":"${A}","text":"${'y'.repeat(100)}`, truncated: { bytes: 9000, hash: 'h2' } });
    log.httpEnd(r.conn);
    expect(uriRow(log)?.cached).toBe(true);
  });
});

describe('a blob that is not base64', () => {
  it('the SDK refuses the read (atob fails): nothing cached, the read failed; a valid blob is cached', () => {
    const log = new FrameLog();
    const c = session(log);
    c.beginRead(A).respond({ contents: [{ uri: A, mimeType: 'image/png', blob: 'not base64!' }] });
    let row = uriRow(log)!;
    expect(row).toMatchObject({ cached: false, lastReadFailed: 'answer refused: result.contents[0].blob is not base64' });
    c.beginRead(A).respond({ contents: [{ uri: A, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }] });
    row = uriRow(log)!;
    expect(row.cached).toBe(true);
    expect(row.lastReadFailed).toBeUndefined();
  });
});

describe('2026-07-28 reads the SDK client refuses', () => {
  const base = { contents: [{ uri: A, text: 'v' }], resultType: 'complete', ttlMs: 0, cacheScope: 'private' };

  it.each([
    ['ttlMs 1.5', { ttlMs: 1.5 }, 'result.ttlMs is not a non-negative integer (required in 2026-07-28)'],
    ['ttlMs missing', { ttlMs: undefined }, 'result.ttlMs is not a non-negative integer (required in 2026-07-28)'],
    ['cacheScope "shared"', { cacheScope: 'shared' }, 'result.cacheScope is not "public" or "private" (required in 2026-07-28)'],
  ])('%s: nothing cached, the read failed, no freshness finding for content the client never had', (_name, extra, problem) => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(A, 'v1', extra);
    const e = run(log);
    const snap = e.snapshot(log.t + 10);
    const last = messageAt(snap.messages, snap.messages.count - 1)!;
    expect([last.kind, last.problem]).toEqual(['result', problem]);
    expect(snap.uris.find((u) => u.uri === A)).toMatchObject({ cached: false, lastReadFailed: `answer refused: ${problem}` });
    expect(brief(findingsAfter(e, 3_600_000))).toEqual([]);
  });

  it('a refused re-read leaves the earlier content cached', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(A, 'v1', { ttlMs: 60_000 });
    c.read(A, 'v2', { ttlMs: -1 });
    expect(run(log).snapshot(log.t + 10).uris.find((u) => u.uri === A)).toMatchObject({ cached: true, ttlMs: 60_000 });
  });

  it('checked as the SDK does: resultType required and complete; a 2025 answer keeps the lenient ttlMs rule', () => {
    const { resultType: _r, ...noType } = base;
    expect(checkResult('resources/read', { result: noType }, '2026').problem).toBe('result.resultType is missing (a 2026-07-28 server must send it)');
    expect(checkResult('resources/read', { result: { ...base, resultType: 'partial' } }, '2026').problem).toBe('result.resultType is not "complete"');
    expect(checkResult('resources/read', { result: { resultType: 'input_required', inputRequests: {} } }, '2026').problem).toBeUndefined();
    expect(checkResult('resources/read', { result: base }, '2026').problem).toBeUndefined();
    expect(checkResult('resources/read', { result: { contents: base.contents, ttlMs: 1.5 } }, '2025').problem).toBeUndefined();
  });
});
