// Scripted MCP clients that write the frames a real page would produce through the hook: the SDK's header sets, its
// JSON key order ({method, params, jsonrpc, id} for requests, {result, jsonrpc, id} for answers), 202s for
// notifications, SSE framing (`event: message`, ids, priming events) and the 2026 `_meta` envelope. Tests read like
// the traffic they describe: `client.initialize(); client.read(uri, text); get.notify(updated(uri))`.
import type { HeaderMap } from '../../shared/frames.ts';
import type { FrameLog } from './frame-log.ts';
import { redactUrl, redactValue } from '../../shared/redact.ts';

type Json = Record<string, unknown>;
export type Outcome = 'complete' | 'aborted' | 'failed';

export function request(method: string, params: Json | undefined, id: number | string): string {
  return JSON.stringify(params === undefined ? { method, jsonrpc: '2.0', id } : { method, params, jsonrpc: '2.0', id });
}
export function notification(method: string, params?: Json): string {
  return JSON.stringify(params === undefined ? { method, jsonrpc: '2.0' } : { method, params, jsonrpc: '2.0' });
}
export function result(id: number | string | null, value: Json): string {
  return JSON.stringify({ result: value, jsonrpc: '2.0', id });
}
export function errorResponse(id: number | string | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id });
}
export function updated(uri: string, meta?: Json): [string, Json] {
  return ['notifications/resources/updated', meta ? { uri, _meta: meta } : { uri }];
}

export const SERVER_CAPS = { resources: { subscribe: true, listChanged: true }, tools: {} };
export const SERVER_INFO = { name: 'kb-server', version: '1.0.0' };
const CLIENT_INFO = { name: 'kb-viewer', version: '0.1.0' };

/** An open SSE response the server writes to (GET stream, per-request stream, listen stream). */
export class SseStream {
  private ids = 0;
  constructor(
    protected log: FrameLog,
    readonly conn: string,
    private idPrefix: string | undefined,
  ) {}
  get lastId(): string | undefined {
    return this.idPrefix === undefined || this.ids === 0 ? undefined : `${this.idPrefix}-${this.ids}`;
  }
  private nextId(): string | undefined {
    return this.idPrefix === undefined ? undefined : `${this.idPrefix}-${++this.ids}`;
  }
  /** SEP-1699 priming event: an id and empty data. */
  priming(): this {
    this.log.sseEvent(this.conn, '', { id: this.nextId()! });
    return this;
  }
  send(text: string): this {
    const id = this.nextId();
    this.log.sseEvent(this.conn, text, id === undefined ? { event: 'message' } : { event: 'message', id });
    return this;
  }
  notify(method: string, params?: Json): this {
    return this.send(notification(method, params));
  }
  updated(uri: string, meta?: Json): this {
    return this.notify(...updated(uri, meta));
  }
  close(outcome: Outcome = 'complete'): void {
    this.log.httpEnd(this.conn, outcome, 'body');
  }
}

/** A request sent and not yet answered; answer it later to script out-of-order responses. */
export class PendingCall {
  constructor(
    private client: HttpClientBase,
    readonly conn: string,
    readonly id: number | string,
  ) {}
  /** `priming`: the SDK server's first event on a POST stream (an id and `retry`, no data), before the answer. */
  respond(value: Json, opts: { sse?: boolean; priming?: { id: string; retry: number } } = {}): void {
    this.client.answer(this.conn, result(this.id, this.client.decorateResult(value)), opts.sse ?? opts.priming !== undefined, opts.priming);
  }
  fail(code: number, message: string): void {
    this.client.answer(this.conn, errorResponse(this.id, code, message), false);
  }
  /** Answer with an HTTP error status and a JSON-RPC error body (id null), as the SDK server does. */
  httpStatus(status: number, code = -32000, message = 'error'): void {
    this.client.httpError(this.conn, status, errorResponse(null, code, message));
  }
  /** The fetch failed before any response (server down). */
  networkError(): void {
    this.client.log.httpEnd(this.conn, 'failed', 'request');
  }
}

export abstract class HttpClientBase {
  protected nextId = 0;
  constructor(
    readonly log: FrameLog,
    readonly url: string,
  ) {}
  protected abstract headers(method?: string, name?: string): HeaderMap;
  protected abstract params(method: string, params: Json | undefined): Json | undefined;
  abstract decorateResult(value: Json): Json;
  protected responseHeaders(contentType: string): HeaderMap {
    return { 'content-type': contentType };
  }

  begin(method: string, params?: Json): PendingCall {
    const id = this.nextId++;
    const conn = this.log.newConn('post');
    const name = typeof params?.uri === 'string' ? params.uri : typeof params?.name === 'string' ? params.name : undefined;
    this.log.httpRequest(conn, 'POST', this.url, this.headers(method, name), request(method, this.params(method, params), id));
    return new PendingCall(this, conn, id);
  }

  call(method: string, params?: Json, value: Json = {}, opts: { sse?: boolean } = {}): PendingCall {
    const p = this.begin(method, params);
    p.respond(value, opts);
    return p;
  }

  /** A notification POSTed: the server answers 202 with no body. */
  notify(method: string, params?: Json, status = 202): void {
    this.postAccepted(notification(method, params), status);
  }

  /** A response to a server request (`result(id, …)`), POSTed: 202 with no body. */
  respondToServer(body: string): void {
    this.postAccepted(body);
  }

  private postAccepted(body: string, status = 202): void {
    const conn = this.log.newConn('post');
    this.log.httpRequest(conn, 'POST', this.url, this.headers(), body);
    this.log.httpResponse(conn, status, this.url, {});
    this.log.httpBody(conn, '');
    this.log.httpEnd(conn);
  }

  answer(conn: string, body: string, sse: boolean, priming?: { id: string; retry: number }): void {
    if (sse) {
      this.log.httpResponse(conn, 200, this.url, this.responseHeaders('text/event-stream'));
      if (priming) this.log.sseEvent(conn, '', priming);
      this.log.sseEvent(conn, body, { event: 'message' });
      this.log.httpEnd(conn);
      return;
    }
    this.log.httpResponse(conn, 200, this.url, this.responseHeaders('application/json'));
    this.log.httpBody(conn, body);
    this.log.httpEnd(conn, 'complete', 'body', body.length);
  }

  httpError(conn: string, status: number, body: string): void {
    this.log.httpResponse(conn, status, this.url, { 'content-type': 'application/json' });
    this.log.httpBody(conn, body);
    this.log.httpEnd(conn, 'complete', 'body', body.length);
  }

  read(uri: string, text: string, extra: Json = {}): PendingCall {
    return this.call('resources/read', { uri }, { contents: [{ uri, mimeType: 'text/markdown', text }], ...extra });
  }

  beginRead(uri: string): PendingCall {
    return this.begin('resources/read', { uri });
  }

  list(resources: Json[]): PendingCall {
    return this.call('resources/list', {}, { resources });
  }
}

/** SDK-style Streamable HTTP client of the session generation (≤ 2025-11-25). */
export class StreamableClient extends HttpClientBase {
  sessionId: string | undefined;
  negotiated: string | undefined;
  /** Set false to script a client that forgets MCP-Protocol-Version after init. */
  sendVersionHeader = true;
  /** What MCP-Protocol-Version says when sent (undefined: the negotiated version), to script a mismatch. */
  versionHeader: string | undefined;

  constructor(
    log: FrameLog,
    url: string,
    readonly version = '2025-11-25',
  ) {
    super(log, url);
  }

  protected headers(): HeaderMap {
    const h: HeaderMap = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (this.sessionId !== undefined) h['mcp-session-id'] = this.sessionId;
    if (this.negotiated !== undefined && this.sendVersionHeader) h['mcp-protocol-version'] = this.versionHeader ?? this.negotiated;
    return h;
  }
  protected params(_method: string, params: Json | undefined): Json | undefined {
    return params;
  }
  decorateResult(value: Json): Json {
    return value;
  }
  protected override responseHeaders(contentType: string): HeaderMap {
    const h: HeaderMap = { 'content-type': contentType };
    if (this.sessionId !== undefined) h['mcp-session-id'] = this.sessionId;
    return h;
  }

  /** initialize → InitializeResult (with Mcp-Session-Id) → notifications/initialized (202). */
  initialize(opts: { sessionId?: string | null; capabilities?: Json; serverVersion?: string } = {}): void {
    this.sessionId = undefined;
    this.negotiated = undefined;
    const id = this.nextId++;
    const conn = this.log.newConn('post');
    const params = { protocolVersion: this.version, capabilities: {}, clientInfo: CLIENT_INFO };
    this.log.httpRequest(conn, 'POST', this.url, this.headers(), request('initialize', params, id));
    const sid = opts.sessionId === undefined ? `sess-${conn}` : opts.sessionId;
    const h: HeaderMap = { 'content-type': 'application/json' };
    if (sid !== null) h['mcp-session-id'] = sid;
    this.log.httpResponse(conn, 200, this.url, h);
    const negotiated = opts.serverVersion ?? this.version;
    this.log.httpBody(conn, result(id, { protocolVersion: negotiated, capabilities: opts.capabilities ?? SERVER_CAPS, serverInfo: SERVER_INFO }));
    this.log.httpEnd(conn);
    if (sid !== null) this.sessionId = sid;
    this.negotiated = negotiated;
    this.notify('notifications/initialized');
  }

  subscribe(uri: string): PendingCall {
    return this.call('resources/subscribe', { uri }, {});
  }
  unsubscribe(uri: string): PendingCall {
    return this.call('resources/unsubscribe', { uri }, {});
  }

  /** Open the standalone GET stream. `ids` gives the server's event ids a prefix (resumability on). */
  openGet(opts: { status?: number; lastEventId?: string; ids?: string } = {}): SseStream {
    const conn = this.log.newConn('get');
    const h = this.headers();
    delete h['content-type'];
    h.accept = 'text/event-stream';
    if (opts.lastEventId !== undefined) h['last-event-id'] = opts.lastEventId;
    this.log.httpRequest(conn, 'GET', this.url, h);
    const status = opts.status ?? 200;
    if (status !== 200) {
      this.log.httpResponse(conn, status, this.url, {});
      this.log.httpBody(conn, '');
      this.log.httpEnd(conn);
      return new SseStream(this.log, conn, undefined);
    }
    this.log.httpResponse(conn, 200, this.url, this.responseHeaders('text/event-stream'));
    return new SseStream(this.log, conn, opts.ids);
  }

  delete(status = 200): void {
    const conn = this.log.newConn('del');
    this.log.httpRequest(conn, 'DELETE', this.url, this.headers());
    this.log.httpResponse(conn, status, this.url, {});
    this.log.httpBody(conn, '');
    this.log.httpEnd(conn);
  }
}

export const MODERN = '2026-07-28';

/** SDK v2-style client of the 2026-07-28 generation: no sessions, `_meta` envelope, Mcp-Method headers, listen. */
export class ModernClient extends HttpClientBase {
  private listens = 0;
  /** Set false to script a client that omits Mcp-Method / MCP-Protocol-Version. */
  sendHeaders = true;
  /** What MCP-Protocol-Version says (the body's `_meta` says the 2026-07-28 version), to script a mismatch. */
  versionHeader = MODERN;
  /** What the Mcp-Name header carries for a body's name or uri (undefined: no header); the SDK sends it as it is. */
  mcpNameOf: (value: string) => string | undefined = (value) => value;

  protected headers(method?: string, name?: string): HeaderMap {
    const h: HeaderMap = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (method !== undefined && this.sendHeaders) {
      h['mcp-protocol-version'] = this.versionHeader;
      h['mcp-method'] = method;
      const header = name !== undefined ? this.mcpNameOf(name) : undefined;
      if (header !== undefined) h['mcp-name'] = header;
    }
    return h;
  }
  protected params(_method: string, params: Json | undefined): Json {
    return {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    };
  }
  decorateResult(value: Json): Json {
    return { ...value, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } };
  }

  discover(capabilities: Json = SERVER_CAPS): PendingCall {
    return this.call('server/discover', {}, { supportedVersions: [MODERN], capabilities, serverInfo: SERVER_INFO, ttlMs: 0, cacheScope: 'public' });
  }

  override read(uri: string, text: string, extra: Json = {}): PendingCall {
    return super.read(uri, text, { ttlMs: 0, cacheScope: 'private', ...extra });
  }

  /**
   * subscriptions/listen; the server acknowledges `accepted` (default: everything requested) as its first event. `id`:
   * the request's id (default: `listen:<n>`, as the SDK numbers them; a number, as another client may).
   */
  listen(resourceSubscriptions: string[], opts: { accepted?: string[]; ack?: boolean; id?: string | number } = {}): ListenStream {
    const id = opts.id ?? `listen:${++this.listens}`;
    const conn = this.log.newConn('listen');
    const filter = { resourceSubscriptions };
    this.log.httpRequest(conn, 'POST', this.url, this.headers('subscriptions/listen'), request('subscriptions/listen', this.params('subscriptions/listen', { notifications: filter }), id));
    this.log.httpResponse(conn, 200, this.url, { 'content-type': 'text/event-stream' });
    const stream = new ListenStream(this.log, conn, id, this);
    if (opts.ack !== false) stream.ack(opts.accepted ?? resourceSubscriptions);
    return stream;
  }

  /** The listen the SDK client opens by itself for ClientOptions.listChanged (again after every reconnect): no URIs. */
  listenListChanged(): ListenStream {
    const id = `listen:${++this.listens}`;
    const conn = this.log.newConn('listen');
    const notifications = { resourcesListChanged: true };
    this.log.httpRequest(conn, 'POST', this.url, this.headers('subscriptions/listen'), request('subscriptions/listen', this.params('subscriptions/listen', { notifications }), id));
    this.log.httpResponse(conn, 200, this.url, { 'content-type': 'text/event-stream' });
    const stream = new ListenStream(this.log, conn, id, this);
    stream.notify('notifications/subscriptions/acknowledged', { notifications, _meta: { 'io.modelcontextprotocol/subscriptionId': id } });
    return stream;
  }

  /** The page closes a listen: the SDK aborts the request and sends notifications/cancelled for its id. */
  cancel(stream: ListenStream): void {
    this.log.httpEnd(stream.conn, 'aborted', 'body');
    this.notify('notifications/cancelled', { requestId: stream.id });
  }
}

export class ListenStream extends SseStream {
  constructor(
    log: FrameLog,
    conn: string,
    readonly id: string | number,
    private client: ModernClient,
  ) {
    super(log, conn, undefined);
  }
  private meta(): Json {
    return { 'io.modelcontextprotocol/subscriptionId': this.id };
  }
  ack(resourceSubscriptions: string[]): this {
    const notifications = resourceSubscriptions.length ? { resourceSubscriptions } : {};
    return this.notify('notifications/subscriptions/acknowledged', { notifications, _meta: this.meta() });
  }
  override updated(uri: string): this {
    return this.notify('notifications/resources/updated', { uri, _meta: this.meta() });
  }
  /** Graceful end: the listen request's result with resultType complete, then the stream closes. */
  complete(): void {
    this.send(result(this.id, { resultType: 'complete', _meta: { ...this.meta(), 'io.modelcontextprotocol/serverInfo': SERVER_INFO } }));
    this.close('complete');
  }
  /** The stream ends without the graceful result (server crash, proxy timeout). */
  drop(outcome: Outcome = 'failed'): void {
    this.close(outcome);
  }
  get owner(): ModernClient {
    return this.client;
  }
}

/** Legacy HTTP+SSE (2024-11-05): GET /sse announces `/message?sessionId=…`; POSTs get 202; answers come on the stream. */
export class LegacySseClient {
  conn = '';
  postUrl = '';
  private nextId = 0;
  constructor(
    private log: FrameLog,
    readonly sseUrl: string,
    private via: 'fetch' | 'eventsource' = 'fetch',
  ) {}

  /**
   * `query` is added to the announced endpoint (`&api_key=…`): the page's POSTs carry it redacted, as the hook logs
   * them (`mark`: the marker, keyed by default; unkeyedMarker for a trace from before markers were keyed).
   * `version`: the MCP-Protocol-Version header of the GET (the SDK client sends it on a reconnect).
   */
  connect(sessionId: string, query = '', version?: string, mark: (value: string) => string = redactValue): void {
    if (this.via === 'fetch' || this.conn === '') {
      this.conn = this.log.newConn(this.via === 'fetch' ? 'sse' : 'es');
      if (this.via === 'fetch') {
        this.log.httpRequest(this.conn, 'GET', this.sseUrl, { accept: 'text/event-stream', ...(version ? { 'mcp-protocol-version': version } : {}) });
        this.log.httpResponse(this.conn, 200, this.sseUrl, { 'content-type': 'text/event-stream' });
      } else {
        this.log.emit({ kind: 'es-connect', conn: this.conn, url: this.sseUrl, withCredentials: false });
      }
    }
    if (this.via === 'eventsource') this.log.emit({ kind: 'es-open', conn: this.conn });
    this.postUrl = redactUrl(new URL(`/message?sessionId=${sessionId}${query}`, this.sseUrl).href, mark);
    this.log.sseEvent(this.conn, `/message?sessionId=${sessionId}${query}`, { event: 'endpoint' });
  }

  private post(body: string): void {
    const conn = this.log.newConn('post');
    this.log.httpRequest(conn, 'POST', this.postUrl, { 'content-type': 'application/json' }, body);
    this.log.httpResponse(conn, 202, this.postUrl, {});
    this.log.httpBody(conn, 'Accepted');
    this.log.httpEnd(conn);
  }

  call(method: string, params: Json | undefined, value: Json = {}): void {
    const id = this.ask(method, params);
    this.log.sseEvent(this.conn, result(id, value), { event: 'message' });
  }

  /** A request POSTed and accepted (202); its answer would come on the stream. Returns its id. */
  ask(method: string, params: Json | undefined): number {
    const id = this.nextId++;
    this.post(request(method, params, id));
    return id;
  }

  notify(method: string, params?: Json): void {
    this.post(notification(method, params));
  }

  initialize(): void {
    this.call('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: CLIENT_INFO }, {
      protocolVersion: '2024-11-05',
      capabilities: SERVER_CAPS,
      serverInfo: SERVER_INFO,
    });
    this.notify('notifications/initialized');
  }

  serverNotify(method: string, params?: Json): void {
    this.log.sseEvent(this.conn, notification(method, params), { event: 'message' });
  }

  /** The stream dies; an EventSource then reconnects by itself (readyState 0). */
  drop(): void {
    if (this.via === 'fetch') this.log.httpEnd(this.conn, 'failed', 'body');
    else this.log.emit({ kind: 'es-error', conn: this.conn, readyState: 0 });
  }
}

/** SDK v1 WebSocket transport: subprotocol `mcp`, one JSON-RPC message per text frame. */
export class WsClient {
  conn = '';
  private nextId = 0;
  constructor(
    private log: FrameLog,
    readonly url: string,
  ) {}
  connect(): void {
    this.conn = this.log.newConn('ws');
    this.log.emit({ kind: 'ws-connect', conn: this.conn, url: this.url, protocols: ['mcp'] });
    this.log.emit({ kind: 'ws-open', conn: this.conn, protocol: 'mcp' });
  }
  send(text: string): void {
    this.log.emit({ kind: 'ws-message', conn: this.conn, dir: 'out', data: { text } });
  }
  receive(text: string): void {
    this.log.emit({ kind: 'ws-message', conn: this.conn, dir: 'in', data: { text } });
  }
  call(method: string, params: Json | undefined, value: Json = {}): void {
    this.receive(result(this.ask(method, params), value));
  }
  /** A request sent and not answered (yet). Returns its id. */
  ask(method: string, params: Json | undefined): number {
    const id = this.nextId++;
    this.send(request(method, params, id));
    return id;
  }
  initialize(): void {
    this.call('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: CLIENT_INFO }, {
      protocolVersion: '2025-03-26',
      capabilities: SERVER_CAPS,
      serverInfo: SERVER_INFO,
    });
    this.send(notification('notifications/initialized'));
  }
  close(wasClean = false): void {
    this.log.emit({ kind: 'ws-close', conn: this.conn, code: wasClean ? 1000 : 1006, reason: '', wasClean });
  }
}
