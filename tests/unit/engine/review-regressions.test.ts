// False positives and misses found by a protocol review (2026-12-02), each pinned by the trace that showed it.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, notification, request, result, SERVER_CAPS, SERVER_INFO, StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';
const B = 'file:///docs/b.md';
const doc = (text: string) => ({ contents: [{ uri: A, mimeType: 'text/markdown', text }] });

function subscribedSession(log: FrameLog) {
  const c = new StreamableClient(log, URL, '2025-06-18');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(A, 'v1');
  c.subscribe(A);
  log.wait(1000);
  return { c, get };
}

describe('no false positives on healthy traffic', () => {
  it('two quick notifications, two re-reads answered in order: no missed-update', () => {
    const log = new FrameLog();
    const { c, get } = subscribedSession(log);
    get.updated(A);
    const r1 = c.beginRead(A);
    get.updated(A);
    const r2 = c.beginRead(A);
    r1.respond(doc('v2'));
    r2.respond(doc('v3'));
    log.wait(100);
    expect(brief(findingsAfter(run(log), 5000))).toEqual([]);
  });

  it('a notification while an earlier read is in flight, then a re-read: no missed-update', () => {
    const log = new FrameLog();
    const { c, get } = subscribedSession(log);
    const r1 = c.beginRead(A);
    get.updated(A);
    const r2 = c.beginRead(A);
    r1.respond(doc('v1'));
    r2.respond(doc('v2'));
    log.wait(100);
    expect(brief(findingsAfter(run(log), 5000))).toEqual([]);
  });

  it('a GET answered 404 (a server without a GET route) does not end a session that POSTs keep using', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.openGet({ status: 404 });
    c.read(A, 'a1');
    c.subscribe(A);
    log.wait(1000);
    c.read(A, 'a1');
    const f = findingsAfter(run(log), 3000);
    // What is true: notifications have nowhere to go. What is not: the session expired, or a phantom subscription.
    expect(brief(f)).toEqual([`no-delivery-channel ${A} refused error`]);
  });

  it('a subscribe answered after 2.5 s is neither a phantom nor "never subscribed" while it is on its way', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(A, 'a1');
    const s = c.begin('resources/subscribe', { uri: A });
    log.wait(2500);
    s.respond({});
    log.wait(200);
    expect(brief(findingsAfter(run(log), 3000))).toEqual([]);
  });

  it('a 2026-07-28 read answered input_required is not cached content; the retried read is', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    const l = c.listen([A]);
    c.read(A, 'a1');
    log.wait(1000);
    l.updated(A);
    const p = c.beginRead(A);
    c.answer(p.conn, result(p.id, { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } } }, requestState: 'st1' }), false);
    log.wait(300);
    c.begin('resources/read', { uri: A, inputResponses: { confirm: { action: 'accept', content: {} } }, requestState: 'st1' }).respond({ ...doc('a2'), ttlMs: 0, cacheScope: 'private' });
    log.wait(500);
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
    expect(e.snapshot(log.t).metrics.invalidMessages).toBe(0);
  });

});

describe('two MCP clients of one page on the same endpoint', () => {
  it('each healthy in its own session: the second initialize does not end the first session', () => {
    const log = new FrameLog();
    const B = 'file:///docs/b.md';
    const c1 = new StreamableClient(log, URL, '2025-06-18');
    const c2 = new StreamableClient(log, URL, '2025-06-18');
    c1.initialize({ sessionId: 'S1' });
    c2.initialize({ sessionId: 'S2' });
    const g1 = c1.openGet();
    const g2 = c2.openGet();
    c1.read(A, 'a1');
    c1.subscribe(A);
    c2.read(B, 'b1');
    c2.subscribe(B);
    log.wait(1000);
    g1.updated(A);
    c1.read(A, 'a2');
    g2.updated(B);
    c2.read(B, 'b2');
    log.wait(500);
    const e = run(log);
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([]);
    expect(e.snapshot(log.t).sessions.filter((s) => s.open).map((s) => s.label).sort()).toEqual(['S1', 'S2']);
  });

  it('a real re-initialize that never uses the old session again is still a reconnect without resubscribe', () => {
    const log = new FrameLog();
    const { c, get } = subscribedSession(log);
    get.close('aborted');
    c.initialize({ sessionId: 'S2' });
    c.openGet();
    log.wait(100);
    expect(brief(findingsAfter(run(log), 3000))).toEqual([`cached-not-subscribed ${A} lost-on-reinit error`, `phantom-subscription ${A} - error`]);
  });
});

describe('SEP-1699 stream polling (2025-11-25)', () => {
  function polled(resume: boolean) {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    let get = c.openGet({ ids: 'a' });
    log.sseEvent(get.conn, '', { id: 'a-0', retry: 5000 });
    c.read(A, 'v1');
    c.subscribe(A);
    log.wait(500);
    get.close('complete'); // the server closes at will, after asking for a 5 s retry
    log.wait(5000);
    if (resume) {
      get = c.openGet({ lastEventId: 'a-0', ids: 'b' });
      get.updated(A); // replayed from the event store
      c.read(A, 'v2');
    }
    log.wait(100);
    return { log, e: run(log) };
  }

  it('the wait the server asked for is not a missing delivery channel', () => {
    const { e, log } = polled(true);
    expect(brief(e.findings(log.t + 500), 'info')).toEqual([]);
  });

  it('an SDK server: retry sent only on a POST stream, the GET stream (no ids) closed and reopened after it: only the note that nothing could resume it', () => {
    // The SDK v1 client keeps one retry per transport and waits it before reopening its GET, whichever stream sent it.
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.beginRead(A).respond({ contents: [{ uri: A, text: 'v1' }] }, { priming: { id: 'p-0', retry: 5000 } });
    c.subscribe(A);
    log.wait(500);
    get.close('complete');
    const closedAt = log.t;
    log.wait(5000);
    c.openGet();
    log.wait(100);
    const e = run(log);
    // Updates sent in those 5 s are lost (the GET stream carried no event ids): a note, not a warning.
    expect(brief(e.findings(log.t + 3000), 'info')).toEqual(['resume-gap - no-event-ids info', `resume-gap ${A} no-event-ids info`]);
    // Never reopened: said once the retry and the grace have passed.
    const never = new Engine();
    never.applyAll(log.frames.filter((f) => f.t <= closedAt));
    expect(brief(never.findings(closedAt + 5000), 'info')).toEqual([]);
    expect(brief(never.findings(closedAt + 8000), 'info')).toEqual([`no-delivery-channel ${A} closed error`]);
  });

  it('two clients of one page: the first one\'s GET stream polled (closed by the server, resumed after the retry) keeps its session', () => {
    // The second initialize reads as a re-initialize of the first session (one client model per page and endpoint),
    // whose GET stream stays open: the first session is only left behind. The server's close is not the page's.
    const B = 'file:///docs/faq.md';
    const log = new FrameLog();
    const a = new StreamableClient(log, URL, '2025-11-25');
    a.initialize({ sessionId: 'S1' });
    const getA = a.openGet({ ids: 'a' });
    a.read(A, 'a1');
    a.subscribe(A);
    const b = new StreamableClient(log, URL, '2025-11-25');
    b.initialize({ sessionId: 'S2' });
    const getB = b.openGet({ ids: 'b' });
    b.read(B, 'b1');
    b.subscribe(B);
    log.wait(1000);
    log.sseEvent(getA.conn, '', { id: 'a-0', retry: 3000 });
    getA.close('complete');
    log.sseEvent(getB.conn, '', { id: 'b-0', retry: 3000 });
    getB.close('complete');
    log.wait(3000);
    a.openGet({ lastEventId: 'a-0', ids: 'c' }).updated(A);
    a.read(A, 'a2');
    b.openGet({ lastEventId: 'b-0', ids: 'd' }).updated(B);
    b.read(B, 'b2');
    log.wait(100);
    const e = run(log);
    expect(brief(e.findings(log.t + 3000), 'info')).toEqual([]);
    expect(e.snapshot(log.t).sessions.filter((x) => x.open).map((x) => x.key)).toEqual(['S1', 'S2']);
    // The page closing the first client's stream (its transport closed) ends that session.
    const closed = new FrameLog();
    const c1 = new StreamableClient(closed, URL, '2025-11-25');
    c1.initialize({ sessionId: 'S1' });
    const g1 = c1.openGet();
    c1.read(A, 'a1');
    c1.subscribe(A);
    new StreamableClient(closed, URL, '2025-11-25').initialize({ sessionId: 'S2' });
    g1.close('aborted');
    expect(run(closed).snapshot(closed.t).sessions.find((x) => x.key === 'S1')).toMatchObject({ open: false, endCause: 're-initialize' });
  });

  it('a session revived after its GET stream was polled never lapsed: a change read on it without a notification is a missed update', () => {
    const log = new FrameLog();
    const a = new StreamableClient(log, URL, '2025-11-25');
    a.initialize({ sessionId: 'S1' });
    const g = a.openGet({ ids: 'a' });
    a.read(A, 'v1');
    a.subscribe(A);
    log.sseEvent(g.conn, '', { id: 'a-0', retry: 300 });
    g.close('complete');
    new StreamableClient(log, URL, '2025-11-25').initialize({ sessionId: 'S2' });
    log.wait(300);
    a.openGet({ lastEventId: 'a-0', ids: 'c' });
    log.wait(200);
    a.read(A, 'v2');
    const e = run(log);
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([`missed-update ${A} - warning`]);
    expect(e.snapshot(log.t).sessions.map((s) => [s.key, s.open])).toEqual([['S1', true], ['S2', true]]);
    // The same when the second client holds the URI too.
    const both = new FrameLog();
    const a2 = new StreamableClient(both, URL, '2025-11-25');
    a2.initialize({ sessionId: 'S1' });
    const g2 = a2.openGet({ ids: 'a' });
    a2.read(A, 'v1');
    a2.subscribe(A);
    both.sseEvent(g2.conn, '', { id: 'a-0', retry: 300 });
    g2.close('complete');
    const b2 = new StreamableClient(both, URL, '2025-11-25');
    b2.initialize({ sessionId: 'S2' });
    b2.openGet();
    b2.subscribe(A);
    both.wait(300);
    a2.openGet({ lastEventId: 'a-0', ids: 'c' });
    both.wait(200);
    a2.read(A, 'v2');
    expect(brief(findingsAfter(run(both), 3000), 'info')).toEqual([`missed-update ${A} - warning`]);
  });

  it('a client that never resumes is reported once the retry and the grace have passed', () => {
    const { e, log } = polled(false);
    const closedAt = log.t - 5100;
    expect(brief(e.findings(closedAt + 5000), 'info')).toEqual([]);
    expect(brief(e.findings(closedAt + 8000), 'info')).toEqual([`no-delivery-channel ${A} closed error`]);
  });
});

describe('session-less 2025 servers', () => {
  it('a stateless server that answers the GET stream 405 refused it (poll), not "never opened"', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: null });
    c.openGet({ status: 405 });
    c.read(A, 'a1');
    c.subscribe(A);
    const f = run(log).findings(log.t + 3000).filter((x) => x.id === 'no-delivery-channel');
    expect(f.map((x) => [x.reason, x.detail])).toEqual([['refused', 'the server answered the GET stream with 405']]);
  });


  it.each(['2025-06-18', '2025-03-26'])('%s: a server that assigns no session id but serves the GET stream delivers to it', (version) => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, version);
    c.initialize({ sessionId: null });
    const get = c.openGet();
    c.read(A, 'a1');
    c.subscribe(A);
    log.wait(1000);
    get.updated(A);
    c.read(A, 'a2');
    log.wait(500);
    const e = run(log);
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([]);
    expect(e.snapshot(log.t).uris.find((u) => u.uri === A)).toMatchObject({ deliveryChannelOpen: true, serverHasSubscription: true });
  });
});

describe('no misses', () => {
  it('a 2026-07-28 listen refused with -32601 (method not found) is subscribe-unsupported, as a 2025 subscribe is', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(A, 'a1');
    c.begin('subscriptions/listen', { notifications: { resourceSubscriptions: [A] } }).fail(-32601, 'Method not found');
    log.wait(100);
    expect(brief(findingsAfter(run(log), 3000), 'info')).toEqual([
      `cached-not-subscribed ${A} subscribe-failed warning`,
      `subscribe-unsupported ${A} method-not-found warning`,
    ]);
  });

  /** A healthy legacy session whose endpoint event says `announced`; the page posts to `postUrl`. */
  function legacySession(announced: string, postUrl: string, base = 'http://localhost:8000') {
    const log = new FrameLog();
    const sse = log.newConn('sse');
    log.httpRequest(sse, 'GET', base + '/sse', { accept: 'text/event-stream' });
    log.httpResponse(sse, 200, base + '/sse', { 'content-type': 'text/event-stream; charset=utf-8' });
    log.sseEvent(sse, announced, { event: 'endpoint' });
    let id = 0;
    const post = (body: string) => {
      const conn = log.newConn('post');
      log.httpRequest(conn, 'POST', postUrl, { 'content-type': 'application/json' }, body);
      log.httpResponse(conn, 202, postUrl, {});
      log.httpBody(conn, 'Accepted');
      log.httpEnd(conn);
    };
    const call = (method: string, params: Record<string, unknown>, value: Record<string, unknown>) => {
      const i = id++;
      post(request(method, params, i));
      log.sseEvent(sse, result(i, value), { event: 'message' });
    };
    call('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x', version: '1' } }, { protocolVersion: '2024-11-05', capabilities: SERVER_CAPS, serverInfo: SERVER_INFO });
    post(notification('notifications/initialized'));
    call('resources/read', { uri: A }, doc('v1'));
    call('resources/subscribe', { uri: A }, {});
    log.wait(1000);
    log.sseEvent(sse, notification('notifications/resources/updated', { uri: A }), { event: 'message' });
    call('resources/read', { uri: A }, doc('v2'));
    log.wait(100);
    return run(log);
  }

  /** One healthy session of that id: subscribed, re-read, no finding, every request answered. */
  function expectHealthy(e: ReturnType<typeof run>, session: string) {
    const snap = e.snapshot((e.lastT ?? 0) + 3000);
    expect(snap.sessions.map((s) => [s.label, s.transport])).toEqual([[session, 'http-sse']]);
    expect(snap.uris.find((u) => u.uri === A)).toMatchObject({ cached: true, clientBelievesSubscribed: true, serverHasSubscription: true });
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([]);
    expect([snap.metrics.unknownMessages, snap.metrics.subscribeSucceeded]).toEqual([0, 1]);
  }

  it('legacy HTTP+SSE against the Python SDK (`/messages/?session_id=…`) is decoded as one session', () => {
    expectHealthy(legacySession('/messages/?session_id=1beded10f176', 'http://localhost:8000/messages/?session_id=1beded10f176'), '1beded10f176');
  });

  it('legacy HTTP+SSE against the Go SDK (`?sessionid=…`, POSTs to the SSE path itself)', () => {
    expectHealthy(legacySession('/sse?sessionid=ABCDEF123', 'http://localhost:8000/sse?sessionid=ABCDEF123'), 'ABCDEF123');
  });

  it('legacy HTTP+SSE with a bare `?…` endpoint, or the session in the path, is found by the announced URL', () => {
    expectHealthy(legacySession('?id=XYZ', 'http://localhost:8000/sse?id=XYZ'), 'http://localhost:8000/sse?id=XYZ');
    const inPath = 'http://localhost:8000/messages/9f8e7d';
    expectHealthy(legacySession('/messages/9f8e7d', inPath), inPath);
  });
});

describe('a capture that began mid-session (after Clear, or a log trimmed at its cap)', () => {
  /** A healthy, subscribed session; `skip` frames (its initialize, GET and subscribe) are what the capture missed. */
  function subscribedSession() {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(A, 'v1');
    c.subscribe(A);
    return { log, c, get, skip: log.frames.length };
  }

  function midSession() {
    const { log, c, get, skip } = subscribedSession();
    get.updated(A);
    c.read(A, 'v2');
    log.wait(5000);
    c.read(A, 'v2');
    return { log, frames: log.frames.slice(skip) };
  }

  it('knows the session from its first message (partial), and does not call a URI never subscribed', () => {
    const { log, frames } = midSession();
    const e = new Engine();
    e.applyAll(frames);
    const snap = e.snapshot(log.t + 3000);
    expect(snap.sessions.map((s) => [s.key, s.observedFromStart])).toEqual([['S1', false]]);
    const f = findingsAfter(e, 3000).filter((x) => x.id === 'cached-not-subscribed');
    expect(f.map((x) => [x.reason, x.severity, x.session])).toEqual([['not-seen-subscribing', 'info', 'S1']]);
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
  });

  it('a GET stream Clear kept (its initialize gone): its session is live, picked up mid-way, before any other request', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const skip = log.frames.length;
    c.openGet();
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(e.snapshot(log.t).sessions.map((s) => [s.key, s.open, s.observedFromStart, s.deliveryChannelOpen])).toEqual([['S1', true, false, true]]);
    expect(e.snapshot(log.t).metrics.activeSessions).toBe(1);
  });

  it('a log that lost the initialize request: its answer (on an unknown connection) does not claim the session', () => {
    const { log, c } = subscribedSession();
    c.beginRead(A).httpStatus(404, -32001, 'Session not found');
    const e = new Engine();
    e.applyAll(log.frames.slice(1));
    const row = e.snapshot(log.t + 3000).uris.find((u) => u.uri === A)!;
    // The 404 ended S1 for the client that used it: nothing is held by an ended session.
    expect([row.serverHasSubscription, row.heldBy]).toEqual([false, []]);
  });

  it("an open GET stream whose request is gone belongs to its document's endpoint and session, once they are known", () => {
    const { log, c, get, skip } = subscribedSession();
    // After Clear: a notification on the stream comes first, then the client's traffic.
    get.updated(A);
    c.read(A, 'v2');
    log.wait(1000);
    get.updated(A);
    c.read(A, 'v3');
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    const snap = e.snapshot(log.t + 3000);
    // The first notification came before anything said where the stream goes: it stays unattributed. The second is
    // the client's, on its session's GET stream.
    expect(snap.uris.filter((u) => u.endpoint === URL).map((u) => [u.uri, u.notifications])).toEqual([[A, 1]]);
    expect(snap.streams.filter((s) => s.open).map((s) => [s.kind, s.endpoint, s.session])).toEqual([['get', URL, 'S1']]);
  });

  it('a page that also speaks 2026 to another endpoint: its 2025 GET stream whose request is gone is still adopted', () => {
    const { log, c, get, skip } = subscribedSession();
    const modern = new ModernClient(log, 'http://localhost:3001/mcp');
    get.updated(A);
    c.read(A, 'v2');
    modern.discover();
    modern.read('file:///docs/other.md', 'o1');
    log.wait(1000);
    get.updated(A);
    c.read(A, 'v3');
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(e.snapshot(log.t + 3000).streams.filter((s) => s.open).map((s) => [s.kind, s.endpoint, s.session])).toEqual([['get', URL, 'S1']]);
  });

  it('a session seen from its start still says never subscribed', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(A, 'v1');
    expect(brief(findingsAfter(run(log), 3000))).toEqual([`cached-not-subscribed ${A} never-subscribed warning`]);
  });
});


describe('an answer whose id is the string form of the numeric request id', () => {
  it('answers it, as the SDK clients take it (Number(response.id)): the read is cached', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const conn = log.newConn('post');
    log.httpRequest(conn, 'POST', URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-06-18' }, request('resources/read', { uri: A }, 5));
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, JSON.stringify({ jsonrpc: '2.0', id: '5', result: { contents: [{ uri: A, text: 'v1' }] } }));
    log.httpEnd(conn);
    // A string that is not how the number is written ("05") is another id.
    const other = log.newConn('post');
    log.httpRequest(other, 'POST', URL, { 'content-type': 'application/json', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-06-18' }, request('resources/read', { uri: B }, 6));
    log.httpResponse(other, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(other, JSON.stringify({ jsonrpc: '2.0', id: '06', result: { contents: [{ uri: B, text: 'v1' }] } }));
    log.httpEnd(other);
    const snap = run(log).snapshot(log.t);
    expect(snap.uris.find((u) => u.uri === A)).toMatchObject({ cached: true });
    expect(snap.uris.find((u) => u.uri === B)?.cached ?? false).toBe(false);
  });

  it('a 2026 listen answered so ends as its answer says (an error: refused, not dropped)', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(A, 'v1');
    const m = c as unknown as { headers(method: string): Record<string, string>; params(method: string, p: unknown): unknown };
    const conn = log.newConn('listen');
    log.httpRequest(conn, 'POST', URL, m.headers('subscriptions/listen'), request('subscriptions/listen', m.params('subscriptions/listen', { notifications: { resourceSubscriptions: [A] } }) as never, 7));
    log.httpResponse(conn, 200, URL, { 'content-type': 'application/json' });
    log.httpBody(conn, JSON.stringify({ jsonrpc: '2.0', id: '7', error: { code: -32601, message: 'Method not found' } }));
    log.httpEnd(conn);
    const e = run(log);
    expect(e.snapshot(log.t).sessions.map((s) => s.endCause)).toEqual(['listen-error']);
    expect(brief(findingsAfter(e, 3000))).toEqual([`cached-not-subscribed ${A} subscribe-failed warning`, `subscribe-unsupported ${A} method-not-found warning`]);
  });
});

describe('a POST stream with event ids that the page aborted', () => {
  it('is not waited for on a resumed GET: the subscribe it carried failed (the SDK resumes only what it did not abort)', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(A, 'v1');
    const headers = { 'content-type': 'application/json', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-11-25' };
    const post = (outcome: 'aborted' | 'failed') => {
      const conn = log.newConn('post');
      log.httpRequest(conn, 'POST', URL, headers, request('resources/subscribe', { uri: A }, outcome === 'aborted' ? 77 : 78));
      log.httpResponse(conn, 200, URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
      log.sseEvent(conn, '', { id: `e-${outcome}` });
      log.wait(500);
      log.httpEnd(conn, outcome, 'body');
    };
    post('aborted');
    // Nothing was left to resume there: a GET without Last-Event-ID is no resume gap.
    c.openGet();
    log.wait(10_000);
    let e = run(log);
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([`cached-not-subscribed ${A} subscribe-failed warning`]);
    expect(e.snapshot(log.t).metrics.subscribeFailed).toBe(1);
    // A stream that broke (not aborted) may still be resumed: its subscribe stays in flight, judged by its answer.
    post('failed');
    e = run(log);
    expect(e.snapshot(log.t).metrics.subscribeFailed).toBe(1);
  });
});
