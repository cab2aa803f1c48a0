// The Messages view's rows: one per JSON-RPC message (a batch is several) or transport event, with the context of its
// connection (transport, session).
import { describe, expect, it } from 'vitest';
import { FrameRows, rowIndexOf, rowKey } from '../../../panel/frame-rows.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient } from '../../support/mcp-clients.ts';
import { matchesMessage, parseFilter } from '../../../panel/model/filter.ts';

const URL = 'http://localhost:3000/mcp';
const pick = ({ dir, transport, session, method, id, error, uri, note }: FrameRows['rows'][number]) => ({ dir, transport, session, method, id, error, uri, note });

function rowsOf(log: FrameLog) {
  const rows = new FrameRows();
  for (const f of log.frames) rows.add(f);
  return rows.rows;
}

describe('Messages rows', () => {
  it('a request, its SSE answer and the session the answer named, then the same session on the next request', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, {}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///a.md' } }));
    log.httpResponse('c1', 200, URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
    log.sseEvent('c1', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [{ uri: 'file:///a.md', text: 'x' }] } }), { id: 'e1' });
    log.sseEvent('c1', '', { id: 'e2' });
    log.httpEnd('c1');
    log.httpRequest('c2', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } }));
    expect(rowsOf(log).map(pick)).toEqual([
      { dir: 'out', transport: 'HTTP POST', session: '', method: 'resources/read', id: '1', error: '', uri: 'file:///a.md', note: '' },
      { dir: 'in', transport: 'HTTP POST', session: 'S1', method: '', id: '', error: '', uri: '', note: 'HTTP 200 text/event-stream' },
      { dir: 'in', transport: 'HTTP POST', session: 'S1', method: '(result)', id: '1', error: '', uri: 'file:///a.md', note: '' },
      { dir: 'in', transport: 'HTTP POST', session: 'S1', method: '', id: '', error: '', uri: '', note: 'SSE event id=e2 (no data)' },
      { dir: '', transport: 'HTTP POST', session: 'S1', method: '', id: '', error: '', uri: '', note: 'end complete' },
      { dir: 'out', transport: 'HTTP POST', session: 'S1', method: '(error)', id: '2', error: '-32601 nope', uri: '', note: '' },
    ]);
  });

  it('a 2026 listen: its stream is known by the listen id, and the request and acknowledgement name every URI of the filter', () => {
    const log = new FrameLog();
    const m = new ModernClient(log, 'http://localhost:3000/mcp2026');
    m.discover();
    const stream = m.listen(['file:///a.md', 'file:///b.md'], { accepted: ['file:///a.md'] });
    stream.updated('file:///a.md');
    const rows = rowsOf(log);
    const listen = rows.filter((r) => r.session === stream.id);
    expect(listen.map((r) => r.method)).toEqual(['subscriptions/listen', '', 'notifications/subscriptions/acknowledged', 'notifications/resources/updated']);
    expect(listen[0]!.uris).toEqual(['file:///a.md', 'file:///b.md']);
    expect(listen[2]!.uris).toEqual(['file:///a.md']);
    // The filter finds them: by the listen's id, and by a URI of the filter (also the one the server refused).
    const ctx = { staleUris: new Set(['file:///b.md']), phantomUris: new Set<string>(), problemUris: new Set<string>() };
    const shown = (q: string) => rows.filter((r) => matchesMessage(parseFilter(q), r, ctx)).map((r) => r.method);
    expect(shown(`session:${stream.id}`)).toEqual(['subscriptions/listen', '', 'notifications/subscriptions/acknowledged', 'notifications/resources/updated']);
    expect(shown('uri:b.md')).toEqual(['subscriptions/listen']);
    expect(shown('uri:**a.md')).toEqual(['subscriptions/listen', 'notifications/subscriptions/acknowledged', 'notifications/resources/updated']);
    expect(shown('is:stale')).toEqual(['subscriptions/listen']);
    // Other rows keep no URI list.
    expect(rows.filter((r) => r.session !== stream.id).every((r) => r.uris.length === 0)).toBe(true);
  });

  it('a batch is one row per message; empty, malformed, cut and opaque bodies say what they are', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', `${URL}?sessionId=L1`, {}, JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 'a', method: 'ping' }]));
    log.httpResponse('c1', 202, URL, {});
    log.httpBody('c1', '  ');
    log.httpBody('c1', '{"jsonrpc":');
    log.httpBody('c1', { text: '{"jsonrpc":"2.0","id":3,"res', truncated: { bytes: 90_000, hash: 'h' } });
    log.httpBody('c1', { text: '[binary body, 12 bytes]', opaque: true });
    const rows = rowsOf(log).map(pick);
    expect(rows.map((r) => [r.method, r.id, r.session])).toEqual([
      ['notifications/initialized', '', 'L1'],
      ['ping', 'a', 'L1'],
      ['', '', 'L1'],
      ['', '', 'L1'],
      ['', '', 'L1'],
      ['', '', 'L1'],
      ['', '', 'L1'],
    ]);
    expect(rows.slice(2).map((r) => [r.error, r.note])).toEqual([
      ['', 'HTTP 202 '],
      ['', '(empty body)'],
      ['not JSON', '{"jsonrpc":'],
      ['', 'truncated body (90000 bytes)'],
      ['', '[binary body, 12 bytes]'],
    ]);
  });

  it('an empty batch, and batch elements that are not JSON-RPC, are rows that say so (they were none, or blank)', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, {}, '[]');
    log.httpRequest('c2', 'POST', URL, {}, JSON.stringify([1, 'x', { foo: 1 }, { jsonrpc: '2.0', id: 1, method: 'ping' }]));
    log.httpResponse('c2', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c2', JSON.stringify([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }, { jsonrpc: '2.0', id: 1, result: {} }]));
    const rows = rowsOf(log).map(pick);
    expect(rows.filter((r) => r.note !== 'HTTP 200 application/json').map((r) => [r.method, r.id, r.error, r.note])).toEqual([
      ['', '', 'empty batch', '[]'],
      ['', '', 'not JSON-RPC', ''],
      ['', '', 'not JSON-RPC', ''],
      ['', '', 'not JSON-RPC', ''],
      ['ping', '1', '', ''],
      ['(error)', '', '-32600 Invalid Request', ''],
      ['(result)', '1', '', ''],
    ]);
  });

  it('an exchange that ended leaves no context behind: a later frame of its connection id starts afresh', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpEnd('c1');
    log.httpBody('c1', JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
    const rows = rowsOf(log).map(pick);
    expect(rows[1]).toMatchObject({ transport: 'HTTP GET', session: 'S1', note: 'end complete' });
    expect(rows[2]).toMatchObject({ transport: '', session: '', method: 'ping' });
  });
});

describe('Messages rows: failures, bodies, pairs and keys (an audit of the Messages view, 2026-12)', () => {
  const none = { staleUris: new Set<string>(), phantomUris: new Set<string>(), problemUris: new Set<string>() };
  const errors = (rows: FrameRows['rows']) => rows.filter((r) => matchesMessage(parseFilter('is:error'), r, none));

  it('HTTP 4xx/5xx, a failed fetch, a WebSocket error or unclean close and an EventSource closed by error are errors', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'file:///a' } }));
    log.httpResponse('c1', 404, URL, { 'content-type': 'text/plain' });
    log.httpEnd('c1');
    log.httpRequest('c2', 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpEnd('c2', 'failed', 'request');
    // The page's own abort (an SDK closing its stream) and a 200 are not.
    log.httpRequest('c3', 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpResponse('c3', 200, URL, { 'content-type': 'text/event-stream' });
    log.httpEnd('c3', 'aborted', 'body');
    log.emit({ kind: 'ws-connect', conn: 'd.1', url: 'ws://x/ws', protocols: ['mcp'] });
    log.emit({ kind: 'ws-error', conn: 'd.1' });
    log.emit({ kind: 'ws-close', conn: 'd.1', code: 1006, reason: '', wasClean: false });
    log.emit({ kind: 'ws-connect', conn: 'd.2', url: 'ws://x/ws', protocols: ['mcp'] });
    log.emit({ kind: 'ws-close', conn: 'd.2', code: 1000, reason: 'bye', wasClean: true });
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://x/sse', withCredentials: false });
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 0 });
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 2 });
    const rows = rowsOf(log);
    expect(errors(rows).map((r) => [r.error, r.note])).toEqual([
      ['HTTP 404', 'HTTP 404 text/plain'],
      ['TypeError', 'end failed (TypeError: Failed to fetch)'],
      ['WebSocket error', 'error'],
      ['close 1006', 'close 1006 '],
      ['closed by error', 'closed by error'],
    ]);
  });

  it('a batch row keeps its key when a filter hides its siblings (the selection stayed on the same place, not the same message)', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, {}, JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///x' } },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'file:///y' } },
    ]));
    const all = rowsOf(log);
    expect(all.map((r) => r.part)).toEqual([0, 1, 2]);
    const shown = all.filter((r) => matchesMessage(parseFilter('method:resources'), r, none));
    const picked = rowKey(all, 1);
    expect(shown[rowIndexOf(shown, picked)]!.id).toBe('2');
    expect(rowKey(shown, 1)).toBe(rowKey(all, 2));
    // The hidden row is not found (rather than another row in its place).
    expect(rowIndexOf(shown, rowKey(all, 0))).toBe(-1);
  });

  it('small things: an EventSource connect row has its session; no `id=` without an id; a string error; an object id; the back/forward cache', () => {
    const log = new FrameLog();
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://x/sse?sessionId=ABC', withCredentials: false });
    log.sseEvent('e1', '');
    log.sseEvent('e1', JSON.stringify({ jsonrpc: '2.0', id: 8, error: 'boom' }));
    log.sseEvent('e1', JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, result: {} }));
    log.pageEnd('http://app/', true);
    log.pageEnd('http://app/', false);
    const rows = rowsOf(log).map(pick);
    expect(rows[0]).toMatchObject({ transport: 'EventSource', session: 'ABC' });
    expect(rows[1]!.note).toBe('SSE event (no data)');
    expect(rows[2]).toMatchObject({ method: '(error)', error: 'boom' });
    expect(rows[3]).toMatchObject({ id: '{"a":1}' });
    expect(rows[4]!.note).toBe('into back/forward cache http://app/');
    expect(rows[5]!.note).toBe('unload http://app/');
  });
});
