// The Messages view's rows: one per JSON-RPC message (a batch is several) or transport event, with the context of its
// connection (transport, session).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FrameRows, PendingRequests, rowIndexOf, rowKey } from '../../../panel/frame-rows.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient } from '../../support/mcp-clients.ts';
import { matchesMessage, parseFilter } from '../../../panel/model/filter.ts';

const URL = 'http://localhost:3000/mcp';
const pick = ({ dir, transport, session, method, id, error, uri, note }: FrameRows['rows'][number]) => ({ dir, transport, session, method, id, error, uri, note });

function rowsOf(log: FrameLog, inferUnknown = true) {
  const rows = new FrameRows(inferUnknown);
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
      { dir: 'in', transport: 'HTTP POST', session: 'S1', method: 'resources/read (result)', id: '1', error: '', uri: 'file:///a.md', note: '' },
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
      // The cut body still says what its prefix does (here its id; see the truncated-body test).
      ['', '3', 'L1'],
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
      ['ping (result)', '1', '', ''],
    ]);
  });

  it('an exchange that ended leaves no context behind: a later frame of its connection id starts afresh', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpEnd('c1');
    log.httpBody('c1', JSON.stringify({ jsonrpc: '2.0', method: 'ping' }));
    const rows = rowsOf(log).map(pick);
    expect(rows[1]).toMatchObject({ transport: 'HTTP GET', session: 'S1', note: 'end complete' });
    // Nothing of the ended exchange: a connection not seen opening, its transport what the frame's kind says.
    expect(rows[2]).toMatchObject({ transport: 'HTTP ?', session: '', method: 'ping' });
    expect(rowsOf(log).map((r) => r.transportInferred)).toEqual([false, false, true]);
    // With nothing dropped before the view (the store says so), that connection lost no opening frames: nothing is
    // inferred, and no tooltip claims frames went at the cap.
    const whole = rowsOf(log, false);
    expect(whole.map((r) => r.transportInferred)).toEqual([false, false, false]);
    expect(pick(whole[2]!)).toMatchObject({ transport: '', method: 'ping' });
  });

  it('after the cap dropped the opening frames of a connection, its rows show the transport the frame kind says, marked inferred (it was blank)', () => {
    const log = new FrameLog();
    // Dropped at the cap: a GET stream's request and response, a WebSocket's connect, an EventSource's connect.
    log.httpRequest('g1', 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpResponse('g1', 200, URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://x/ws', protocols: ['mcp'] });
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://x/sse?sessionId=ABC', withCredentials: false });
    log.httpRequest('p1', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'file:///a.md' } }));
    const cut = log.frames.length;
    // Kept: the stream's event and end, the WebSocket's message, the EventSource's event and error, the POST's answer
    // (its response header names the session), and a request whose opening is in view.
    log.sseEvent('g1', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a.md' } }));
    log.httpEnd('g1');
    log.emit({ kind: 'ws-message', conn: 'w1', dir: 'in', data: { text: JSON.stringify({ jsonrpc: '2.0', method: 'ping', id: 1 }) } });
    log.sseEvent('e1', JSON.stringify({ jsonrpc: '2.0', method: 'ping', id: 2 }));
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 0 });
    log.httpResponse('p1', 200, URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
    log.httpBody('p1', JSON.stringify({ jsonrpc: '2.0', id: 4, result: { contents: [{ uri: 'file:///a.md', text: 'x' }] } }));
    log.httpRequest('p2', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const rows = new FrameRows();
    for (const f of log.frames.slice(cut)) rows.add(f);
    expect(rows.rows.map((r) => [r.transport, r.transportInferred, r.session, r.method || r.note])).toEqual([
      // An SSE event alone: a fetch stream's or an EventSource's; its end says a fetch.
      ['SSE ?', true, '', 'notifications/resources/updated'],
      ['HTTP ?', true, '', 'end complete'],
      // A WebSocket's session is its connection's (the engine's session id), as its connect row files it.
      ['WebSocket', true, 'ws:w1', 'ping'],
      ['SSE ?', true, '', 'ping'],
      ['EventSource', true, '', 'error, reconnecting'],
      ['HTTP ?', true, 'S1', 'HTTP 200 application/json'],
      ['HTTP ?', true, 'S1', '(result)'],
      ['HTTP POST', false, 'S1', 'notifications/initialized'],
    ]);
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

  it("the legacy transport's text/plain `Accepted` is a neutral text body; text that says or looks like JSON and fails is not JSON", () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', `${URL}?sessionId=L1`, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    log.httpResponse('c1', 202, URL, { 'content-type': 'text/plain; charset=utf-8' });
    log.httpBody('c1', 'Accepted');
    log.httpRequest('c2', 'POST', URL, {}, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }));
    log.httpResponse('c2', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c2', 'Internal error');
    log.httpRequest('c3', 'POST', URL, {}, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
    log.httpResponse('c3', 200, URL, { 'content-type': 'text/html' });
    log.httpBody('c3', ' {"jsonrpc": oops');
    const bodies = rowsOf(log).filter((r) => r.seq === 3 || r.seq === 6 || r.seq === 9);
    expect(bodies.map((r) => [r.error, r.note])).toEqual([
      ['', 'text body: Accepted'],
      ['not JSON', 'Internal error'],
      ['not JSON', ' {"jsonrpc": oops'],
    ]);
  });

  it('a recorded legacy-SSE session has no error row (each POST is answered 202 `Accepted`)', () => {
    const trace = JSON.parse(readFileSync('tests/fixtures/sdk-v1-legacy-sse.trace.json', 'utf8')) as { frames: Frame[] };
    const rows = new FrameRows();
    for (const f of trace.frames) rows.add(f);
    expect(errors(rows.rows)).toEqual([]);
    expect(rows.rows.filter((r) => r.note === 'text body: Accepted')).toHaveLength(3);
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

  it('a body cut at the cap keeps the method, id, answer marker and URI its prefix names, beside its size', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'file:///big' } }));
    log.httpResponse('c1', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c1', { text: '{"jsonrpc":"2.0","id":6,"result":{"contents":[{"uri":"file:///big","text":"xxxx', truncated: { bytes: 9_000_000, hash: 'h' } });
    log.emit({ kind: 'ws-connect', conn: 'd.1', url: 'ws://x/ws', protocols: [] });
    log.emit({ kind: 'ws-message', conn: 'd.1', dir: 'out', data: { text: '{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"arguments":{"blob":"aaaa', truncated: { bytes: 500_000, hash: 'h' } } });
    const rows = rowsOf(log).map(pick);
    expect(rows[2]).toEqual({ dir: 'in', transport: 'HTTP POST', session: 'S1', method: 'resources/read (result)', id: '6', error: '', uri: 'file:///big', note: 'truncated body (9000000 bytes)' });
    expect(rows[4]).toMatchObject({ method: 'tools/call', id: 'r1', note: 'truncated body (500000 bytes)' });
  });

  it('a cut answer in the SDK\'s key order ({result, jsonrpc, id}: its id past the cut) pairs with its own exchange, never by an "id" inside its result', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'file:///big' } }));
    log.httpRequest('c2', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: 'file:///other' } }));
    log.httpRequest('c3', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search' } }));
    for (const c of ['c1', 'c3']) log.httpResponse(c, 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c1', { text: '{"result":{"contents":[{"uri":"file:///big","text":"xxxx', truncated: { bytes: 9_000_000, hash: 'h' } });
    log.httpBody('c3', { text: '{"result":{"structuredContent":{"id":3,"uri":"file:///other","hits":["aaaa', truncated: { bytes: 500_000, hash: 'h' } });
    log.httpResponse('c2', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c2', JSON.stringify({ result: {}, jsonrpc: '2.0', id: 3 }));
    const answers = rowsOf(log).filter((r) => r.method.endsWith('(result)')).map((r) => [r.method, r.id, r.uri]);
    expect(answers).toEqual([
      ['resources/read (result)', '', 'file:///big'],
      ['tools/call (result)', '', 'file:///other'],
      ['resources/subscribe (result)', '3', 'file:///other'],
    ]);
  });

  it('an exchange that ends takes along the requests only it could answer; the bound counts requests, oldest out first', () => {
    const rows = new FrameRows();
    const log = new FrameLog();
    // A client retrying a dead server: each POST fails, nothing can answer it later (no session to answer by).
    for (let i = 0; i < 50; i++) {
      log.httpRequest(`c${i}`, 'POST', URL, {}, `{"jsonrpc":"2.0","id":${i},"method":"ping"}`);
      log.httpEnd(`c${i}`, 'failed', 'request');
    }
    for (const f of log.frames) rows.add(f);
    expect(rows.pending.size).toBe(0);
    // With a session, a request stays after its POST ends (legacy SSE answers on the GET stream): counted once.
    const p = new PendingRequests(10);
    for (let i = 0; i < 10; i++) p.add('out', `c${i}`, 'S1', i, 'ping', '', []);
    expect(p.size).toBe(10);
    // A newer request reusing an id on the session: the older one, forgotten at the bound, does not take it along.
    p.add('out', 'c10', 'S1', 0, 'tools/list', '', []);
    expect(p.size).toBe(10);
    expect(p.take('in', 'g', 'S1', 0)?.method).toBe('tools/list');
    // An id reused on one connection: one request waits there, and a cut answer with no readable id takes it.
    const q = new PendingRequests();
    q.add('out', 'w', '', 1, 'ping', '', []);
    q.add('out', 'w', '', 1, 'tools/list', '', []);
    expect(q.size).toBe(1);
    expect(q.takeOnly('in', 'w')?.method).toBe('tools/list');
  });

  it('an answer shows its request’s method and URI, so method: and uri: find it beside its request', () => {
    const log = new FrameLog();
    log.httpRequest('c1', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri: 'file:///a' } }));
    log.httpResponse('c1', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c1', JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }));
    log.httpRequest('c2', 'POST', URL, { 'mcp-session-id': 'S1' }, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'file:///b' } }));
    log.httpResponse('c2', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c2', JSON.stringify({ jsonrpc: '2.0', id: 8, error: { code: -32002, message: 'Resource not found' } }));
    // Another session's id 7 is not this one's answer; and an id answered once is not paired again.
    log.httpRequest('c3', 'POST', URL, { 'mcp-session-id': 'S2' }, '');
    log.httpResponse('c3', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c3', JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }));
    log.httpRequest('c4', 'POST', URL, { 'mcp-session-id': 'S1' }, '');
    log.httpResponse('c4', 200, URL, { 'content-type': 'application/json' });
    log.httpBody('c4', JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }));
    const rows = rowsOf(log);
    const q = (s: string) => rows.filter((r) => matchesMessage(parseFilter(s), r, none)).map((r) => `${r.method}#${r.id}`);
    expect(q('method:resources/subscribe')).toEqual(['resources/subscribe#7', 'resources/subscribe (result)#7']);
    expect(q('uri:file:///a')).toEqual(['resources/subscribe#7', 'resources/subscribe (result)#7']);
    expect(q('method:resources/read')).toEqual(['resources/read#8', 'resources/read (error)#8']);
    expect(q('uri:file:///b')).toEqual(['resources/read#8', 'resources/read (error)#8']);
    expect(q('method:(result)')).toEqual(['resources/subscribe (result)#7', '(result)#7', '(result)#7']);
  });

  it('legacy SSE: a POSTed request is paired with its answer on the GET stream, by session; a WebSocket by connection', () => {
    const log = new FrameLog();
    log.httpRequest('g', 'GET', `${URL}/sse`, {});
    log.httpResponse('g', 200, URL, { 'content-type': 'text/event-stream' });
    log.sseEvent('g', '/message?sessionId=L1', { event: 'endpoint' });
    log.httpRequest('p', 'POST', `${URL}/message?sessionId=L1`, {}, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'file:///x' } }));
    log.sseEvent('g', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { contents: [] } }));
    log.emit({ kind: 'ws-connect', conn: 'd.1', url: 'ws://x/ws', protocols: [] });
    log.emit({ kind: 'ws-message', conn: 'd.1', dir: 'out', data: { text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) } });
    // A server's request to the client, answered by the client: ids of each side are their own.
    log.emit({ kind: 'ws-message', conn: 'd.1', dir: 'in', data: { text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'roots/list' }) } });
    log.emit({ kind: 'ws-message', conn: 'd.1', dir: 'out', data: { text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { roots: [] } }) } });
    log.emit({ kind: 'ws-message', conn: 'd.1', dir: 'in', data: { text: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }) } });
    const rows = rowsOf(log).filter((r) => r.id !== '');
    expect(rows.map((r) => [r.method, r.uri])).toEqual([
      ['resources/read', 'file:///x'],
      ['resources/read (result)', 'file:///x'],
      ['tools/list', ''],
      ['roots/list', ''],
      ['roots/list (result)', ''],
      ['tools/list (result)', ''],
    ]);
  });

  it('requests never answered are forgotten beyond a bound (a long recording does not keep them all)', () => {
    const pending = new PendingRequests(100);
    for (let i = 0; i < 1000; i++) pending.add('out', `c${i}`, 'S1', i, 'ping', '', []);
    expect(pending.size).toBeLessThanOrEqual(100);
    // The newest are still there, the oldest gone.
    expect(pending.take('in', 'c999', 'S1', 999)?.method).toBe('ping');
    expect(pending.take('in', 'c0', 'S1', 0)).toBeUndefined();
    // Through the rows: 30,000 requests without answers.
    const rows = new FrameRows();
    const log = new FrameLog();
    for (let i = 0; i < 30_000; i++) log.httpRequest(`c${i}`, 'POST', URL, { 'mcp-session-id': 'S1' }, `{"jsonrpc":"2.0","id":${i},"method":"ping"}`);
    for (const f of log.frames) rows.add(f);
    expect(rows.pending.size).toBeLessThanOrEqual(20_000);
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
