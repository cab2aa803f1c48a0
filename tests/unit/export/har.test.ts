import { describe, expect, it } from 'vitest';
import { buildHar, sseText } from '../../../shared/har.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient, request } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

function traffic(): FrameLog {
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/kb?token=abc');
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet({ ids: 'e' });
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  log.wait(200);
  get.updated(POLICY);
  log.wait(10);
  c.read(POLICY, 'v2');
  get.close('aborted');
  return log;
}

describe('buildHar', () => {
  it('is HAR 1.2 with one entry per exchange, a page, timings and bodies', () => {
    const log = traffic();
    const har = buildHar(log.frames, { creatorVersion: '1.2.3' });
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'MCP Subscription Devtools', version: '1.2.3' });
    expect(har.log.comment).toMatch(/^Secrets are redacted/);
    expect(buildHar(log.frames, { redact: false }).log.comment).toMatch(/^Not redacted again by this export/);
    expect(har.log.pages).toHaveLength(1);
    expect(har.log.pages[0]!.title).toMatch(/token=%5Bredacted%3A|token=\[redacted:/);
    const posts = har.log.entries.filter((e) => e.request.method === 'POST');
    const requests = log.frames.filter((f) => f.kind === 'http-request');
    expect(har.log.entries).toHaveLength(requests.length);
    const init = posts[0]!;
    expect(init.pageref).toBe(har.log.pages[0]!.id);
    expect(JSON.parse(init.request.postData!.text).method).toBe('initialize');
    expect(init.request.headers).toContainEqual({ name: 'content-type', value: 'application/json' });
    expect(init.response.status).toBe(200);
    expect(init.response.headers).toContainEqual({ name: 'mcp-session-id', value: 'S1' });
    expect(JSON.parse(init.response.content.text!).result.protocolVersion).toBe('2025-11-25');
    expect(init.response.content.size).toBe(init.response.content.text!.length);
    expect(init._mcp.outcome).toBe('complete');
    for (const e of har.log.entries) {
      expect(Date.parse(e.startedDateTime)).toBeGreaterThan(0);
      expect(e.time).toBe(e.timings.send + e.timings.wait + e.timings.receive);
      expect(e.timings.wait).toBeGreaterThanOrEqual(0);
      expect(e.cache).toEqual({});
    }
  });

  it('keeps the GET stream events in _sseEvents and as an SSE body', () => {
    const har = buildHar(traffic().frames);
    const get = har.log.entries.find((e) => e.request.method === 'GET')!;
    expect(get._resourceType).toBe('fetch');
    expect(get._sseEvents).toHaveLength(1);
    const ev = get._sseEvents![0]!;
    expect(ev.id).toBe('e-1');
    expect(JSON.parse(ev.data!).method).toBe('notifications/resources/updated');
    expect(ev.offsetMs).toBeGreaterThan(0);
    expect(get.response.content.mimeType).toBe('text/event-stream');
    expect(get.response.content.text).toBe(sseText(get._sseEvents!));
    expect(get.response.content.text).toMatch(/^id: e-1\nevent: message\ndata: \{/);
    expect(get._mcp.outcome).toBe('aborted');
  });

  it("gives a stream's events in Chrome's _eventSourceMessages too (seconds since the epoch, eventName, eventId, data), comments left out", () => {
    const log = new FrameLog('d');
    const connect = log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.wait(250);
    const endpoint = log.emit({ kind: 'sse-event', conn: 'e1', event: 'endpoint', data: { text: '/message?sessionId=abc' } });
    log.emit({ kind: 'sse-comment', conn: 'e1', text: 'keep-alive' });
    log.wait(1_000);
    const plain = log.emit({ kind: 'sse-event', conn: 'e1', id: '7', data: { text: '{"jsonrpc":"2.0","method":"m"}' } });
    const fetched = buildHar(traffic().frames).log.entries.find((e) => e.request.method === 'GET')!;
    const es = buildHar(log.frames).log.entries.find((e) => e._resourceType === 'eventsource')!;
    expect(es._eventSourceMessages).toEqual([
      { time: endpoint.t / 1000, eventName: 'endpoint', eventId: '', data: '/message?sessionId=abc' },
      { time: plain.t / 1000, eventName: 'message', eventId: '7', data: '{"jsonrpc":"2.0","method":"m"}' },
    ]);
    // Not the entry's start: each event its own time.
    expect(es._eventSourceMessages![1]!.time * 1000 - Date.parse(es.startedDateTime)).toBeCloseTo(plain.t - connect.t, 3);
    expect(plain.t - connect.t).toBeGreaterThan(1_250);
    // A fetch stream's events too, beside _sseEvents.
    expect(fetched._eventSourceMessages).toEqual(fetched._sseEvents!.map((e) => ({ time: e.t / 1000, eventName: e.event ?? 'message', eventId: e.id ?? '', data: e.data })));
    // An entry that is not a stream has none.
    expect(buildHar(traffic().frames).log.entries.filter((e) => e.request.method === 'POST').every((e) => e._eventSourceMessages === undefined)).toBe(true);
  });

  it('lets an exchange still open at the export run to the export instant (time = the sum of the timings)', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'e' });
    get.updated(POLICY);
    const getLast = log.t;
    log.wait(5_000);
    c.read(POLICY, 'v1');
    const last = log.t;
    const stream = (o: Parameters<typeof buildHar>[1] = {}) => buildHar(log.frames, o).log.entries.find((e) => e.request.method === 'GET')!;
    const startT = (e: ReturnType<typeof stream>) => Date.parse(e.startedDateTime);
    const check = (e: ReturnType<typeof stream>, endT: number) => {
      expect(e._mcp.outcome).toBe('open');
      expect(e.time).toBe(e.timings.send + e.timings.wait + e.timings.receive);
      // startedDateTime is whole ms: the entry's length is the end less its start, within that rounding.
      expect(Math.abs(startT(e) + e.time - endT)).toBeLessThan(1);
    };
    // Given the instant (the panel's clock, a trace's createdAt): to it, the wait for the head unchanged.
    const at = stream({ now: last + 60_000 });
    check(at, last + 60_000);
    expect(at.time).toBeGreaterThan(65_000);
    expect(at.timings.receive).toBeGreaterThan(65_000);
    // Without one: to the export's latest frame (the read 5 s later), not to the stream's own last event.
    const latest = stream();
    check(latest, last);
    expect(latest.time).toBeGreaterThan(5_000);
    expect(latest.timings.wait).toBe(at.timings.wait);
    // An instant before the stream's last frame does not shorten it.
    check(stream({ now: getLast - 1_000 }), getLast);
    // An exchange that ended keeps its own end.
    const read = buildHar(log.frames, { now: last + 60_000 }).log.entries.at(-1)!;
    expect(read._mcp.outcome).toBe('complete');
    expect(read.time).toBeLessThan(100);
  });

  it('ends an open exchange of a document replaced without a page-end at the next page, not at the export', () => {
    // docA opens a GET stream and crashes (no page-end); docB starts an hour later; the export is two hours after.
    const a = new FrameLog('docA');
    a.pageStart('http://localhost:8080/a');
    const c = new StreamableClient(a, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'e' });
    const bStart = a.t + 3_600_000;
    const b = new FrameLog('docB', bStart, a.lastSeq);
    const bPage = b.pageStart('http://localhost:8080/b').t;
    const cb = new StreamableClient(b, URL);
    cb.initialize({ sessionId: 'S2' });
    const cbGet = cb.openGet({ ids: 'f' });
    const now = bStart + 7_200_000;
    const entries = buildHar([...a.frames, ...b.frames], { now }).log.entries;
    const gone = entries.find((e) => e._mcp.conn === get.conn)!;
    expect(gone._mcp.outcome).toBe('page-gone');
    expect(Math.abs(Date.parse(gone.startedDateTime) + gone.time - bPage)).toBeLessThan(1);
    expect(gone.time).toBeLessThan(3_601_000);
    expect(gone.time).toBe(gone.timings.send + gone.timings.wait + gone.timings.receive);
    // docB's own stream is still open and runs to the export.
    const live = entries.find((e) => e._mcp.conn === cbGet.conn)!;
    expect(live._mcp.outcome).toBe('open');
    expect(Math.abs(Date.parse(live.startedDateTime) + live.time - now)).toBeLessThan(1);
    // A document that came back (the back/forward cache) after the other page started is not gone.
    const back = new FrameLog('docA', bStart + 10, b.lastSeq);
    back.pageStart('http://localhost:8080/a');
    const restored = buildHar([...a.frames, ...b.frames, ...back.frames], { now }).log.entries.find((e) => e._mcp.conn === get.conn)!;
    expect(restored._mcp.outcome).toBe('open');
  });

  it('gives an event stream without events an empty _sseEvents', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet().close('aborted');
    const get = buildHar(log.frames).log.entries.find((e) => e.request.method === 'GET')!;
    expect(get._sseEvents).toEqual([]);
    expect(get.response.content.text).toBe('');
  });

  it('redacts again by default (values already redacted stay as they are), and only when asked', () => {
    const log = new FrameLog('d');
    const conn = log.newConn('post');
    log.httpRequest(conn, 'POST', `${URL}?api_key=secret1`, { authorization: 'Bearer xyz', 'x-tenant': 't1', cookie: '[redacted:0000abcd]' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, '{"jsonrpc":"2.0","id":1,"result":{}}');
    log.httpEnd(conn);
    const e = buildHar(log.frames, { extraSecretHeaders: ['X-Tenant'] }).log.entries[0]!;
    const h = Object.fromEntries(e.request.headers.map((x) => [x.name, x.value]));
    expect(h.authorization).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(h['x-tenant']).toMatch(/^\[redacted:/);
    expect(h.cookie).toBe('[redacted:0000abcd]');
    expect(e.request.url).not.toContain('secret1');
    expect(e.request.queryString[0]!.value).toMatch(/^\[redacted:/);
    const raw = buildHar(log.frames, { redact: false }).log.entries[0]!;
    expect(raw.request.headers.find((x) => x.name === 'authorization')!.value).toBe('Bearer xyz');
  });

  it('names the secret headers the settings add in log.comment when it redacted them, and only then', () => {
    const log = new FrameLog('d');
    const conn = log.newConn('post');
    log.httpRequest(conn, 'POST', URL, { 'x-tenant': 't1', 'x-org-key': 'k1' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    log.httpEnd(conn);
    const comment = (o: Parameters<typeof buildHar>[1]) => buildHar(log.frames, o).log.comment;
    expect(comment({ extraSecretHeaders: ['X-Tenant'] })).toMatch(/^Secrets are redacted: .*Also redacted, as named in the extension's settings: the header x-tenant\./);
    expect(comment({ extraSecretHeaders: ['x-tenant', 'X-Org-Key', 'X-TENANT'] })).toContain("as named in the extension's settings: the headers x-tenant, x-org-key.");
    expect(comment({})).not.toMatch(/settings/);
    expect(comment({ extraSecretHeaders: [] })).not.toMatch(/settings/);
    // Not redacted again: the export applied nothing, so it names nothing.
    expect(comment({ extraSecretHeaders: ['x-tenant'], redact: false })).not.toContain('x-tenant');
  });

  it('flags as _error only real failures: not a body the page or its SDK cancelled or released after a complete head', () => {
    const log = new FrameLog('d');
    const exchange = (method: string, status: number, end: Record<string, unknown> | null) => {
      const conn = log.newConn('c');
      log.httpRequest(conn, method, URL, {}, method === 'POST' ? '{"jsonrpc":"2.0","method":"notifications/initialized"}' : undefined);
      if (status) log.httpResponse(conn, status, URL, status === 202 ? {} : { 'content-type': 'application/json' });
      if (end) log.emit({ kind: 'http-end', conn, bytes: 0, ...end } as never);
      return conn;
    };
    const cancelled = { name: 'AbortError', message: 'the page cancelled the body' };
    const conns = [
      // An empty 202 the SDK released, a DELETE's 200 cancelled unread, a GET stream its AbortController closed.
      exchange('POST', 202, { outcome: 'aborted', phase: 'body', error: cancelled }),
      exchange('DELETE', 200, { outcome: 'aborted', phase: 'body', error: cancelled }),
      exchange('GET', 200, { outcome: 'aborted', phase: 'body', error: { name: 'AbortError', message: 'signal is aborted without reason' } }),
      // Failures: aborted before the head, a network error, a stream broken mid-body.
      exchange('POST', 0, { outcome: 'aborted', phase: 'request', error: { name: 'AbortError', message: 'signal timed out' } }),
      exchange('POST', 0, { outcome: 'failed', phase: 'request', error: { name: 'TypeError', message: 'Failed to fetch' } }),
      exchange('GET', 200, { outcome: 'failed', phase: 'body', error: { name: 'TypeError', message: 'network error' } }),
    ];
    const entries = buildHar(log.frames).log.entries;
    const byConn = (c: string) => entries.find((e) => e._mcp.conn === c)!;
    expect(conns.map((c) => byConn(c).response._error)).toEqual([
      undefined,
      undefined,
      undefined,
      'AbortError: signal timed out',
      'TypeError: Failed to fetch',
      'TypeError: network error',
    ]);
    // How it ended stays said, in _mcp.
    expect([byConn(conns[0]!)._mcp.outcome, byConn(conns[0]!)._mcp.error]).toEqual(['aborted', 'AbortError: the page cancelled the body']);
  });

  it('marks _mcp.gap on an exchange going on (its response begun) where the frames skip seqs; not one that had not begun or had ended', () => {
    const log = new FrameLog('d');
    const get = log.newConn('get');
    log.httpRequest(get, 'GET', URL, { accept: 'text/event-stream' });
    log.httpResponse(get, 200, URL, { 'content-type': 'text/event-stream' });
    const waiting = log.newConn('p');
    log.httpRequest(waiting, 'POST', URL, { 'content-type': 'application/json' }, '{"jsonrpc":"2.0","id":1,"method":"tools/call"}');
    const done = log.newConn('d');
    log.httpRequest(done, 'DELETE', URL, {});
    log.httpResponse(done, 200, URL, {});
    log.httpEnd(done);
    for (let i = 0; i < 6; i++) log.sseEvent(get, `{"jsonrpc":"2.0","method":"notifications/message","params":{"i":${i}}}`);
    log.httpResponse(waiting, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(waiting, '{"jsonrpc":"2.0","id":1,"result":{}}');
    log.httpEnd(waiting);
    // The log's trim dropped the DELETE's and three of the stream's events, keeping the openers.
    const gone = log.frames.filter((f) => (f.kind === 'sse-event' && f.seq < log.frames.at(-7)!.seq + 3) || ('conn' in f && f.conn === done));
    const left = log.frames.filter((f) => !gone.includes(f));
    const har = buildHar(left);
    const missing = gone.map((f) => f.seq).sort((a, b) => a - b);
    const byConn = (c: string) => har.log.entries.find((e) => e._mcp.conn === c)!;
    expect(byConn(get)._mcp.gap).toEqual([missing[0], missing.at(-1)]);
    expect(byConn(get).comment).toMatch(/^Frames \d+–\d+ are missing from this export/);
    expect(byConn(waiting)._mcp.gap).toBeUndefined();
    expect(har.log.comment).toContain('1 exchange went on across frames missing from this export');
    // All frames: nothing marked, nothing said.
    const whole = buildHar(log.frames);
    expect(whole.log.entries.some((e) => e._mcp.gap)).toBe(false);
    expect(whole.log.comment).not.toContain('_mcp.gap');
  });

  it('does not mark a hole of seqs the panel hid on purpose as a gap (hiddenSeqs; code review 3, item 2)', () => {
    const log = new FrameLog('d');
    const get = log.newConn('get');
    log.httpRequest(get, 'GET', URL, { accept: 'text/event-stream' });
    log.httpResponse(get, 200, URL, { 'content-type': 'text/event-stream' });
    for (let i = 0; i < 6; i++) log.sseEvent(get, `{"jsonrpc":"2.0","method":"notifications/message","params":{"i":${i}}}`);
    // Frames of another document (a left iframe page's) the panel hid, interleaved: two of the stream's events.
    const hidden: Frame[] = log.frames.filter((f) => f.kind === 'sse-event').slice(1, 3);
    const shown = log.frames.filter((f) => !hidden.includes(f));
    const hiddenSeqs = new Set(hidden.map((f) => f.seq));
    const har = buildHar(shown, { hiddenSeqs });
    expect(har.log.entries.some((e) => e._mcp.gap)).toBe(false);
    expect(har.log.comment ?? '').not.toContain('_mcp.gap');
    // A hole partly hidden, partly dropped by the cap: still a gap.
    const more = buildHar(shown.filter((f) => f.seq !== hidden.at(-1)!.seq + 1), { hiddenSeqs });
    expect(more.log.entries.find((e) => e._mcp.conn === get)!._mcp.gap).toEqual([hidden[0]!.seq, hidden.at(-1)!.seq + 1]);
    // Without the option (the same hole): marked, as before.
    expect(buildHar(shown).log.entries.find((e) => e._mcp.conn === get)!._mcp.gap).toEqual([hidden[0]!.seq, hidden.at(-1)!.seq]);
  });

  it('keeps _error for a POST aborted mid-body before its JSON-RPC answer came; not once every answer was seen', () => {
    const log = new FrameLog('d');
    const timedOut = { name: 'TimeoutError', message: 'signal timed out' };
    const post = (request: string, contentType: string, answers: string[]) => {
      const conn = log.newConn('p');
      log.httpRequest(conn, 'POST', URL, { 'content-type': 'application/json' }, request);
      log.httpResponse(conn, 200, URL, { 'content-type': contentType });
      for (const a of answers) {
        if (contentType === 'text/event-stream') log.sseEvent(conn, a);
        else log.httpBody(conn, a);
      }
      log.emit({ kind: 'http-end', conn, bytes: 0, outcome: 'aborted', phase: 'body', error: timedOut } as never);
      return conn;
    };
    const call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow"}}';
    const conns = [
      // Aborted before the answer: a timeout on an SSE response (a progress notification only), on a JSON head.
      post(call, 'text/event-stream', ['{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}']),
      post(call, 'application/json', []),
      // A batch of two with one answer only.
      post(`[${call},{"jsonrpc":"2.0","id":"b","method":"ping"}]`, 'text/event-stream', ['{"jsonrpc":"2.0","id":7,"result":{}}']),
      // Its answer came, the rest of the stream was released: done.
      post(call, 'text/event-stream', ['{"jsonrpc":"2.0","id":7,"result":{"content":[]}}']),
      post(call, 'application/json', ['{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"no"}}']),
      // An answer to another id is not this one's.
      post(call, 'text/event-stream', ['{"jsonrpc":"2.0","id":8,"result":{}}']),
    ];
    const entries = buildHar(log.frames).log.entries;
    const byConn = (c: string) => entries.find((e) => e._mcp.conn === c)!;
    const failed = 'TimeoutError: signal timed out';
    expect(conns.map((c) => byConn(c).response._error)).toEqual([failed, failed, failed, undefined, undefined, failed]);
    expect(conns.map((c) => byConn(c)._mcp.outcome)).toEqual(Array(6).fill('aborted'));
  });

  it('a 2026 subscriptions/listen the page closed has no _error (a GET stream closed by its AbortController); a failed one has', () => {
    const log = new FrameLog('d');
    const c = new ModernClient(log, URL);
    // Closed by the page: its id is only ever answered at the server's graceful complete().
    const closed = c.listen([POLICY]);
    closed.updated(POLICY);
    c.cancel(closed);
    const closedNumeric = c.listen([POLICY], { id: 12 });
    c.cancel(closedNumeric);
    // Failures: the stream broken mid-body, aborted before its head, a network error before its head.
    const broken = c.listen([POLICY]);
    broken.drop('failed');
    const beforeHead = log.newConn('listen');
    const body = request('subscriptions/listen', { notifications: { resourceSubscriptions: [POLICY] } }, 'listen:9');
    log.httpRequest(beforeHead, 'POST', URL, { 'content-type': 'application/json' }, body);
    log.httpEnd(beforeHead, 'aborted', 'request');
    const network = log.newConn('listen');
    log.httpRequest(network, 'POST', URL, { 'content-type': 'application/json' }, body);
    log.httpEnd(network, 'failed', 'request');
    // A batch with a listen and a call aborted before the call's answer still failed.
    const batch = log.newConn('p');
    log.httpRequest(batch, 'POST', URL, { 'content-type': 'application/json' }, `[${body},${request('tools/call', { name: 'slow' }, 3)}]`);
    log.httpResponse(batch, 200, URL, { 'content-type': 'text/event-stream' });
    log.httpEnd(batch, 'aborted', 'body');
    const entries = buildHar(log.frames).log.entries;
    const byConn = (conn: string) => entries.find((e) => e._mcp.conn === conn)!;
    const aborted = 'AbortError: The user aborted a request.';
    expect([closed.conn, closedNumeric.conn, broken.conn, beforeHead, network, batch].map((conn) => byConn(conn).response._error)).toEqual([
      undefined,
      undefined,
      'TypeError: Failed to fetch',
      aborted,
      'TypeError: Failed to fetch',
      aborted,
    ]);
    expect([byConn(closed.conn)._mcp.outcome, byConn(closed.conn)._mcp.error]).toEqual(['aborted', aborted]);
  });

  it('keeps _error for a POST with no captured body, or a partial one, aborted mid-body before any answer', () => {
    const log = new FrameLog('d');
    const timedOut = { name: 'TimeoutError', message: 'signal timed out' };
    const post = (answers: string[]) => {
      const conn = log.newConn('p');
      log.httpRequest(conn, 'POST', URL, { 'content-type': 'application/json' });
      log.httpResponse(conn, 200, URL, { 'content-type': 'text/event-stream' });
      for (const a of answers) log.sseEvent(conn, a);
      log.emit({ kind: 'http-end', conn, bytes: 0, outcome: 'aborted', phase: 'body', error: timedOut } as never);
      return conn;
    };
    const none = post([]);
    const answered = post(['{"jsonrpc":"2.0","id":7,"result":{}}']);
    const failed = 'TimeoutError: signal timed out';
    const whole = buildHar(log.frames).log.entries;
    const byConn = (entries: typeof whole, conn: string) => entries.find((e) => e._mcp.conn === conn)!;
    expect(byConn(whole, none).request.postData).toBeUndefined();
    expect([byConn(whole, none).response._error, byConn(whole, answered).response._error]).toEqual([failed, undefined]);
    // The requests' frames dropped (the cap): partial entries, method UNKNOWN, the same rule.
    const partial = buildHar(log.frames.filter((f) => f.kind !== 'http-request')).log.entries;
    expect(byConn(partial, none).request.method).toBe('UNKNOWN');
    expect([byConn(partial, none).response._error, byConn(partial, answered).response._error]).toEqual([failed, undefined]);
  });

  it('notes truncated bodies, keeps failures, WebSocket messages and EventSource streams', () => {
    const log = new FrameLog('d');
    const a = log.newConn('post');
    log.httpRequest(a, 'POST', URL, {}, '{"jsonrpc":"2.0","id":1,"method":"resources/read"}');
    log.httpResponse(a, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(a, { text: '{"jsonrpc":"2.0","id":1,"res', truncated: { bytes: 500_000, hash: 'h1' } });
    log.httpEnd(a);
    const b = log.newConn('post');
    log.httpRequest(b, 'POST', URL, {}, '{"jsonrpc":"2.0","id":2,"method":"ping"}');
    log.emit({ kind: 'http-end', conn: b, outcome: 'failed', phase: 'request', bytes: 0, error: { name: 'TypeError', message: 'Failed to fetch' } });
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://localhost:3000/ws', protocols: ['mcp'] });
    log.emit({ kind: 'ws-open', conn: 'w1', protocol: 'mcp' });
    log.emit({ kind: 'ws-message', conn: 'w1', dir: 'out', data: { text: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' } });
    log.emit({ kind: 'ws-message', conn: 'w1', dir: 'in', data: { text: '{"jsonrpc":"2.0","id":1,"result":{}}' } });
    log.emit({ kind: 'ws-close', conn: 'w1', code: 1000, reason: '', wasClean: true });
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.emit({ kind: 'sse-event', conn: 'e1', event: 'endpoint', data: { text: '/message?sessionId=abc' } });
    log.emit({ kind: 'sse-comment', conn: 'e1', text: 'keep-alive' });
    const entries = buildHar(log.frames).log.entries;
    expect(entries).toHaveLength(4);
    expect(entries[0]!.response.content.comment).toMatch(/500000 bytes/);
    expect(entries[0]!.response.content.size).toBe(500_000);
    expect(entries[1]!.response.status).toBe(0);
    expect(entries[1]!.response._error).toBe('TypeError: Failed to fetch');
    expect(entries[2]!._resourceType).toBe('websocket');
    expect(entries[2]!.response.status).toBe(101);
    expect(entries[2]!._webSocketMessages!.map((m) => m.type)).toEqual(['send', 'receive']);
    expect(entries[3]!._resourceType).toBe('eventsource');
    expect(entries[3]!._sseEvents!.map((e) => e.event ?? e.comment)).toEqual(['endpoint', 'keep-alive']);
    expect(entries[3]!.response.content.text).toBe('event: endpoint\ndata: /message?sessionId=abc\n\n: keep-alive\n\n');
  });

  it('keeps HAR 1.2 sizes and URLs honest: SSE size = body bytes, unknown sizes -1, no fragment, no fake redirectURL', () => {
    const log = new FrameLog('d');
    log.pageStart('http://localhost:8080/cb#access_token=frag-secret&state=1');
    // An SSE answer: two events and a keep-alive; the stream's end counted 240 bytes on the wire.
    const s = log.newConn('post');
    log.httpRequest(s, 'POST', `${URL}#frag`, { 'content-type': 'application/json' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    log.httpResponse(s, 200, URL, { 'content-type': 'text/event-stream' });
    log.sseEvent(s, '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}', { id: '1' });
    log.emit({ kind: 'sse-comment', conn: s, text: 'keep-alive' });
    log.sseEvent(s, '{"jsonrpc":"2.0","id":1,"result":{}}', { id: '2' });
    log.httpEnd(s, 'complete', 'body', 240);
    // A stream still open: its size is what its text holds, plus what a cut event lacks.
    const o = log.newConn('get');
    log.httpRequest(o, 'GET', URL, { 'mcp-session-id': 'S1' });
    log.httpResponse(o, 200, URL, { 'content-type': 'text/event-stream' });
    log.sseEvent(o, { text: '{"jsonrpc":"2.0","meth', truncated: { bytes: 1000, hash: 'h' } });
    // A FormData upload and a redirect followed by fetch.
    const f = log.newConn('post');
    log.emit({ kind: 'http-request', conn: f, method: 'POST', url: URL, headers: {}, body: { text: '[FormData body]', opaque: true } });
    log.emit({ kind: 'http-response', conn: f, status: 200, statusText: 'OK', url: `${URL}/moved?code=c1`, redirected: true, headers: { 'content-type': 'application/octet-stream' } });
    log.httpBody(f, { text: '[binary body, 12 bytes]', opaque: true });
    log.httpEnd(f, 'complete', 'body', 12);
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://localhost:3000/ws', protocols: [] });
    log.emit({ kind: 'ws-open', conn: 'w1', protocol: '' });
    log.emit({ kind: 'ws-message', conn: 'w1', dir: 'in', data: { text: '[binary frame, 4 bytes]', opaque: true } });
    const har = buildHar(log.frames);
    const [sse, open, form, ws] = har.log.entries;
    expect(har.log.pages[0]!.title).not.toContain('frag-secret');
    expect(sse!.request.url).toBe(URL);
    expect(sse!.response.bodySize).toBe(240);
    expect(sse!.response.content.size).toBe(240);
    const text = open!.response.content.text!;
    expect(open!.response.bodySize).toBe(-1);
    expect(open!.response.content.size).toBe(new TextEncoder().encode(text).length + 1000 - '{"jsonrpc":"2.0","meth'.length);
    expect(form!.request.bodySize).toBe(-1);
    expect(form!.request.postData!.mimeType).toBe('x-unknown');
    // A body that was not text: its size is the bytes the exchange's end counted.
    expect(form!.response.bodySize).toBe(12);
    expect(form!.response.content.size).toBe(12);
    // The stream still open says so, and says its event was cut.
    expect(open!._mcp.outcome).toBe('open');
    expect(open!.response.content.comment).toMatch(/^1 event cut at capture \(their text is a prefix; \d+ bytes missing/);
    expect(sse!.response.content.comment).toBeUndefined();
    expect(form!.response.redirectURL).toBe('');
    expect(form!._mcp).toMatchObject({ redirected: true });
    expect(form!._mcp.finalUrl).toMatch(/\/mcp\/moved\?code=%5Bredacted/);
    expect(ws!._webSocketMessages).toEqual([{ type: 'receive', time: expect.any(Number), opcode: 2, data: '', _note: '[binary frame, 4 bytes]' }]);
  });

  it('gives an EventSource that opened but got no event an empty stream body', () => {
    const log = new FrameLog('d');
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    log.emit({ kind: 'es-open', conn: 'e1' });
    const e = buildHar(log.frames).log.entries[0]!;
    expect(e._sseEvents).toEqual([]);
    expect(e.response.content.text).toBe('');
  });

  it('queries without the fragment, cut WebSocket messages, bodies that never came, pages that ended, time order', () => {
    const log = new FrameLog('d');
    const a = log.newConn('post');
    log.httpRequest(a, 'POST', `${URL}?x=1#/cb?code=SECRET`, {}, 'hello');
    log.httpResponse(a, 204, URL, {});
    log.httpEnd(a, 'complete', 'body', 0);
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://localhost:3000/ws', protocols: ['mcp'] });
    log.emit({ kind: 'ws-open', conn: 'w1', protocol: 'mcp' });
    log.emit({ kind: 'ws-message', conn: 'w1', dir: 'in', data: { text: 'abc', truncated: { bytes: 999_999, hash: 'hh' } } });
    // An iframe's document (its own clock, a little behind) opens a stream and goes away.
    const frame = new FrameLog('iframe', log.t - 50, log.lastSeq);
    const g = frame.newConn('get');
    frame.httpRequest(g, 'GET', URL, {});
    frame.httpResponse(g, 200, URL, { 'content-type': 'text/event-stream' });
    // A page going into the back/forward cache ends nothing; its real page-end does.
    frame.pageEnd('http://localhost:8080/frame', true);
    frame.emit({ kind: 'page-start', url: 'http://localhost:8080/frame', top: false });
    frame.sseEvent(g, '{"jsonrpc":"2.0","method":"notifications/message","params":{}}');
    frame.pageEnd('http://localhost:8080/frame');
    const entries = buildHar([...log.frames, ...frame.frames]).log.entries;
    const [post, ws, get] = [entries.find((e) => e.request.method === 'POST')!, entries.find((e) => e._resourceType === 'websocket')!, entries.find((e) => e.request.method === 'GET' && e._resourceType === 'fetch')!];
    expect(post.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(post.request.postData!.mimeType).toBe('x-unknown');
    expect([post.response.bodySize, post.response.content.size]).toEqual([0, 0]);
    expect(ws._webSocketMessages![0]).toMatchObject({ data: 'abc', _truncated: { bytes: 999_999, hash: 'hh' }, _note: expect.stringMatching(/^truncated at capture/) });
    expect(ws._mcp.outcome).toBe('open');
    expect(get._mcp.outcome).toBe('page-ended');
    expect(get._sseEvents).toHaveLength(1);
    // In time order: the iframe's stream started before the WebSocket by its clock.
    const starts = entries.map((e) => Date.parse(e.startedDateTime));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(entries.indexOf(get)).toBeLessThan(entries.indexOf(ws));
  });

  it('counts an EventSource\'s reconnections and says how connections failed or closed', () => {
    const log = new FrameLog('d');
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 0 });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 0 });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.emit({ kind: 'es-connect', conn: 'e2', url: 'http://localhost:3001/sse', withCredentials: false });
    log.emit({ kind: 'es-error', conn: 'e2', readyState: 2 });
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://localhost:3002/', protocols: ['mcp'] });
    log.emit({ kind: 'ws-open', conn: 'w1', protocol: 'mcp' });
    log.emit({ kind: 'ws-close', conn: 'w1', code: 1006, reason: 'gone', wasClean: false });
    log.emit({ kind: 'ws-connect', conn: 'w2', url: 'ws://localhost:3003/', protocols: [] });
    log.emit({ kind: 'ws-error', conn: 'w2' });
    log.emit({ kind: 'ws-close', conn: 'w2', code: 1006, reason: '', wasClean: false });
    log.emit({ kind: 'ws-connect', conn: 'w3', url: 'ws://localhost:3004/', protocols: [] });
    log.emit({ kind: 'ws-close', conn: 'w3', code: 1006, reason: '', wasClean: false });
    log.emit({ kind: 'es-error', conn: 'e1', readyState: 2 });
    const [e1, e2, w1, w2, w3] = buildHar(log.frames).log.entries;
    expect(w3!.response._error).toBe('WebSocket could not connect');
    expect(e1!._mcp.reconnects).toBe(2);
    expect(e1!.response._error).toBe('EventSource failed and gave up');
    expect([e2!._mcp.outcome, e2!.response._error]).toEqual(['failed', 'EventSource could not connect']);
    expect(w1!._mcp.close).toEqual({ code: 1006, reason: 'gone', wasClean: false });
    expect(w1!.response._error).toBeUndefined();
    expect(w2!.response._error).toBe('WebSocket error');
  });

  it('redacts again what capture could not or did not: the legacy endpoint, quoted URLs in errors, subprotocols', () => {
    const log = new FrameLog('d');
    log.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    log.emit({ kind: 'es-open', conn: 'e1' });
    log.emit({ kind: 'sse-event', conn: 'e1', event: 'endpoint', data: { text: '/messages/abc123?api_key=SECRET42' } });
    const f = log.newConn('post');
    log.httpRequest(f, 'POST', URL, {}, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    log.emit({ kind: 'http-end', conn: f, outcome: 'failed', phase: 'request', bytes: 0, error: { name: 'TypeError', message: 'Request cannot be constructed from a URL that includes credentials: http://user:SECRETPW@h/' } });
    log.emit({ kind: 'ws-connect', conn: 'w1', url: 'ws://localhost:3002/', protocols: ['mcp', 'base64url.bearer.authorization.k8s.io.SECRETTOK'] });
    log.emit({ kind: 'ws-open', conn: 'w1', protocol: 'mcp' });
    const text = JSON.stringify(buildHar(log.frames));
    for (const secret of ['SECRET42', 'SECRETPW', 'SECRETTOK']) expect(text).not.toContain(secret);
    const [es, post, ws] = buildHar(log.frames).log.entries;
    expect(es!._sseEvents![0]!.data).toMatch(/^\/messages\/abc123\?api_key=%5Bredacted%3A[0-9a-f]{8}%5D$/);
    expect(post!.response._error).toMatch(/^TypeError: Request cannot be constructed .*http:\/\/%5Bredacted%3A[0-9a-f]{8}%5D@h\/$/);
    expect(ws!.request.headers[0]!.value).toMatch(/^mcp, \[redacted:[0-9a-f]{8}\]$/);
    expect(JSON.stringify(buildHar(log.frames, { redact: false }))).toContain('SECRET42');
  });

  it('keeps the frames of an exchange whose opening frames the log cap dropped, marked partial, and says what was lost', () => {
    const frames = traffic().frames;
    // The cap took the oldest frames: everything up to and including the GET stream's response head.
    const getReq = frames.find((f) => f.kind === 'http-request' && f.method === 'GET');
    const getConn = getReq?.kind === 'http-request' ? getReq.conn : '';
    const cut = frames.findIndex((f) => f.kind === 'http-response' && f.conn === getConn) + 1;
    const kept = frames.slice(cut);
    const har = buildHar(kept, { dropped: { frames: cut, rejected: 1 } });
    const partial = har.log.entries.filter((e) => e._mcp.partial);
    expect(partial.map((e) => e._mcp.conn)).toContain(getConn);
    const get = partial.find((e) => e._mcp.conn === getConn)!;
    expect(get.request.method).toBe('UNKNOWN');
    expect(get.comment).toMatch(/cap dropped the oldest frames/);
    expect(get._sseEvents!.map((e) => e.data)).toEqual([expect.stringContaining('notifications/resources/updated')]);
    expect(get._mcp.outcome).toBe('aborted');
    expect(har.log.comment).toContain(`${cut} frames were dropped by the log's cap before this export`);
    expect(har.log.comment).toContain('1 message was refused');
    expect(buildHar(frames).log.entries.some((e) => e._mcp.partial)).toBe(false);
    expect(buildHar(frames).log.comment).not.toMatch(/dropped/);
  });

  it('frames a document sent after its page-end join the entry that ended with it, not a partial one', () => {
    const log = new FrameLog('d');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    log.emit({ kind: 'page-end', url: 'http://localhost:8080/', persisted: false });
    get.close('aborted');
    const har = buildHar(log.frames);
    expect(har.log.entries.some((e) => e._mcp.partial)).toBe(false);
    const entry = har.log.entries.find((e) => e._mcp.conn === get.conn)!;
    expect(entry._mcp.outcome).toBe('page-ended');
    expect(entry._mcp.seqs[1]).toBe(log.frames.at(-1)!.seq);
  });

  it('orders the same whatever order the frames come in', () => {
    const frames = traffic().frames;
    const reversed = [...frames].reverse() as Frame[];
    expect(buildHar(reversed)).toEqual(buildHar(frames));
  });
});
