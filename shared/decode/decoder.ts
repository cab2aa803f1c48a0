// Frames → decoded MCP messages and transport events, for every transport the hook sees: Streamable HTTP (POST with a
// JSON or SSE answer, the GET stream, DELETE, sessions by Mcp-Session-Id), 2026-07-28 (no sessions, listen streams,
// version claims in `_meta`), legacy HTTP+SSE (`endpoint` event, POSTs by `sessionId`) and WebSocket.
// It knows transports, not meaning: what a session *is* and when it ends is the engine's call. Never throws.
import type {
  EsConnectFrame,
  Frame,
  FrameStamp,
  HttpBodyFrame,
  HttpEndFrame,
  HttpRequestFrame,
  HttpResponseFrame,
  SseEventFrame,
  WsConnectFrame,
  WsMessageFrame,
} from '../frames.ts';
import { ConnTable, MAX_ANSWERED_STREAMS, MAX_ENDED_STREAMS, newConn, NO_PENDING, postStream, resetConn, type Conn, type EndedStream, type IdlessGap, type SessionTrack } from './conn-state.ts';
import { MessageReader, peekCalls, prepareInto, scratchPayload, type PayloadContext, type PeekedVersion, type PreparedPayload } from './message-reader.ts';
import { RequestPairing } from './pairing.ts';
import { sniffTruncated } from './jsonrpc.ts';
import { firstNonSpace, startsArray } from './batch-prefix.ts';
import { isModernVersion, M, MODERN_ONLY_METHODS, SUBSCRIPTION_ID_META_KEY } from './protocol.ts';
import type { ConnInfo, DecodedMessage, DecodeSink, Direction, ExchangeRole, RequestId, StreamKind, Transport } from './types.ts';
import { endpointOf, legacySessionParam, queryParam, resolveAgainst } from './url-parts.ts';
import { redactUrl, unkeyedMarker } from '../redact.ts';

// Hot-path helpers are plain functions, not inline arrows: arrows allocate per call (and tsx wraps each in __name).
function anyModernOnly(methods: readonly string[] | undefined): boolean {
  if (methods === undefined) return false;
  for (let i = 0; i < methods.length; i++) if (MODERN_ONLY_METHODS.has(methods[i]!)) return true;
  return false;
}
/** The request-head event of a body without requests (frozen: shared by every such event). */
const NO_METHODS: string[] = Object.freeze([]) as unknown as string[];
/** Closed WebSockets remembered, to drop what a page sent on one after its close (see onWsMessage). */
const MAX_CLOSED_WS = 256;

function isOut(m: DecodedMessage): boolean {
  return m.dir === 'out';
}
const NO_MESSAGES: DecodedMessage[] = Object.freeze([]) as unknown as DecodedMessage[];
function isListenRequest(v: unknown): boolean {
  return (v as { method?: unknown } | null)?.method === M.listen;
}
/** The subscription id a 2026 listen stream's message carries in `params._meta` (undefined if none, or not JSON). */
function subscriptionIdIn(text: string): RequestId | undefined {
  if (!text.includes(SUBSCRIPTION_ID_META_KEY)) return undefined;
  try {
    const v = JSON.parse(text) as { params?: { _meta?: Record<string, unknown> } };
    const id = v?.params?._meta?.[SUBSCRIPTION_ID_META_KEY];
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Most recent first, capped. */
function remember(list: EndedStream[], x: EndedStream, cap: number): void {
  list.unshift(x);
  if (list.length > cap) list.length = cap;
}

/**
 * The id-less gap of `doc`'s GET stream to `endpoint`, taken off the session's list (a function of its own: a closure in
 * the request handler made V8 keep that handler's variables in a context on every request — the replay went ~20 %
 * slower, measured by an A/B of the engine bench).
 */
function takeGap(track: SessionTrack, endpoint: string, doc: string): IdlessGap | undefined {
  const gaps = track.idlessGets!;
  for (let i = 0; i < gaps.length; i++) {
    const g = gaps[i]!;
    if (g.endpoint !== endpoint || g.doc !== doc) continue;
    gaps.splice(i, 1);
    if (gaps.length === 0) track.idlessGets = undefined;
    return g;
  }
  return undefined;
}

/** The ended stream of the session on `endpoint` whose last event id is `id` (session ids are each server's own). */
function endedWithId(ended: SessionTrack['ended'], id: string, endpoint: string): EndedStream | undefined {
  for (const x of ended) if (x.lastId === id && x.endpoint === endpoint) return x;
  return undefined;
}

/**
 * The latest ended stream of the session that `doc`'s GET to `endpoint` without (or with an unknown) Last-Event-ID is
 * compared with: its own document's only (a reloaded page that resumes the stored session id did not live through the
 * old page's streams; another server may number its sessions alike). `unresumed`: skip the per-request streams resumed
 * since or closed for polling (see onRequest).
 */
function lastEnded(ended: SessionTrack['ended'], endpoint: string, doc: string, unresumed: boolean): EndedStream | undefined {
  for (const x of ended) {
    if (x.endpoint !== endpoint || x.doc !== doc) continue;
    if (!unresumed || x.kind === 'get' || (!x.resumed && !x.polling)) return x;
  }
  return undefined;
}

/** Every ConnInfo has every field, in one order: one object shape wherever it is read (decoder, engine, store). */
function connInfo(
  conn: string,
  doc: string,
  endpoint: string,
  transport: Transport,
  generation: ConnInfo['generation'],
  role: ExchangeRole,
  session: string | undefined = undefined,
  listenId: RequestId | undefined = undefined,
): ConnInfo {
  return { conn, doc, endpoint, transport, generation, role, session, listenId };
}

/**
 * A WebSocket's session id: it has no Mcp-Session-Id, the socket is the session, named after the hook's connection id.
 * The Messages view files a socket's rows under it too, so it names them as the other views name the session.
 */
export function wsSessionId(conn: string): string {
  return `ws:${conn}`;
}

/** The endpoint of a connection whose start the log does not have (its request was trimmed or lost). */
export const UNKNOWN_ENDPOINT = '(unknown endpoint)';

/** A page frame as the engine receives it: stamped with seq. */
type S<F> = F & FrameStamp;
/** The wire event for a request's head. */
type RequestHead = Extract<Parameters<DecodeSink['wire']>[0], { type: 'request-head' }>;
/** The wire event for requests that will never be answered. */
type ExchangeFailed = Extract<Parameters<DecodeSink['wire']>[0], { type: 'exchange-failed' }>;

export class Decoder {
  private conns = new ConnTable();
  private sessions = new Map<string, SessionTrack>();
  /** Legacy HTTP+SSE sessions announced by an `endpoint` event: by their session id, and by the whole POST URL. */
  private legacy = new Map<string, { endpoint: string; session: string }>();
  /** Endpoints whose GET stream announced a legacy session: a GET to one is a legacy candidate (see onRequest). */
  private legacyEndpoints = new Set<string>();
  /** WebSockets that closed (the newest MAX_CLOSED_WS): a message logged on one after its close was never sent. */
  private closedWs = new Set<string>();
  private pairing = new RequestPairing();
  private reader: MessageReader;
  private peeked: PeekedVersion = { metaVersion: undefined, nameField: undefined, nameValue: undefined, one: undefined };
  /** Every payload is prepared into this one object: one frame is decoded at a time, and nothing keeps it. */
  private payload = scratchPayload();
  /** With a sink that keeps no request-head (keepsNoMessages): the one event refilled per request, and its mcpName. */
  private head: RequestHead | undefined;
  private headName: { field: string; value: string } | undefined;
  /** The last HTTP exchange that ended, for the next request to use again (a Conn per request was ~40 bytes a frame). */
  private spareConn: Conn | undefined;
  private lastUrl = '';
  private lastEndpoint = '';
  /**
   * Per document, the one Streamable HTTP endpoint its requests went to (undefined once there were two) and the session
   * they used last: what a connection whose request the log does not have (after Clear, a trimmed log) belongs to.
   */
  private docEndpoints = new Map<string, { endpoint: string | undefined; session: string | undefined }>();
  /** The same for a document's 2026 requests (kept apart: a page may speak both generations, to two endpoints). */
  private docModernEndpoints = new Map<string, { endpoint: string | undefined; session: string | undefined }>();
  private lastDoc = '';
  private lastDocEndpoint = '';
  private lastDocSession: string | undefined = undefined;
  private lastDocModern = false;

  constructor(private sink: DecodeSink) {
    this.reader = new MessageReader(this.pairing, this, sink.keepsNoMessages === true);
    if (sink.keepsNoMessages === true) {
      this.head = { type: 'request-head', info: connInfo('', '', '', 'streamable-http', '2025', 'other'), method: '', headers: {}, requestMethods: NO_METHODS, metaVersion: undefined, mcpName: undefined };
      this.headName = { field: '', value: '' };
      this.peeked.one = [''];
    }
  }

  get messageCount(): number {
    return this.reader.messageCount;
  }

  push(f: Frame): void {
    switch (f.kind) {
      case 'http-request':
        return this.onRequest(f);
      case 'http-response':
        return this.onResponse(f);
      case 'http-body':
        return this.onBody(f);
      case 'sse-event':
        return this.onSseEvent(f);
      case 'http-end':
        return this.onEnd(f);
      case 'es-connect':
        return this.onEsConnect(f);
      case 'es-open': {
        const c = this.conns.get(f.conn);
        if (!c) return;
        c.opens++;
        c.stream = `sse:${f.conn}#${c.opens}`;
        c.streamKind = 'sse';
        c.legacyCandidate = true;
        return;
      }
      case 'es-error': {
        const c = this.conns.get(f.conn);
        if (!c) return;
        this.closeStream(c, f, 'failed', f.readyState !== 2);
        this.failLegacyWaiting(c, f);
        // A reconnected legacy stream announces a new endpoint (a new session); forget the old one.
        c.info = { ...c.info, session: undefined };
        if (f.readyState === 2) this.conns.delete(f.conn);
        return;
      }
      case 'es-close': {
        const c = this.conns.get(f.conn);
        if (!c) return;
        this.closeStream(c, f, 'aborted');
        this.failLegacyWaiting(c, f);
        this.conns.delete(f.conn);
        return;
      }
      case 'ws-connect':
        return this.onWsConnect(f);
      case 'ws-open': {
        const c = this.conns.get(f.conn);
        if (!c) return;
        c.streamOpen = true;
        this.sink.wire({ type: 'stream-open', info: c.info, stream: c.stream!, kind: 'ws' }, f.seq, f.t);
        return;
      }
      case 'ws-message':
        return this.onWsMessage(f);
      case 'ws-close': {
        const c = this.conns.get(f.conn);
        if (!c) return;
        this.closeStream(c, f, f.wasClean ? 'complete' : 'failed');
        // The socket carried every answer: what it still owed will never come (the SDK rejects with "Connection closed").
        const owed = c.pending.length === 0 ? NO_MESSAGES : c.pending.filter(isOut);
        if (owed.length > 0) this.failWaiting(c.info, owed, { cause: 'connection-closed' }, f.seq, f.t);
        this.conns.delete(f.conn);
        this.closedWs.add(f.conn);
        if (this.closedWs.size > MAX_CLOSED_WS) this.closedWs.delete(this.closedWs.values().next().value!);
        return;
      }
      case 'ws-error': {
        const c = this.conns.get(f.conn);
        if (c) this.closeStream(c, f, 'failed');
        return;
      }
      case 'page-start':
        this.sink.wire({ type: 'page-start', doc: f.doc, url: f.url, top: f.top }, f.seq, f.t);
        return;
      case 'page-end':
        for (const [id, c] of this.conns.entries()) {
          if (c.info.doc !== f.doc) continue;
          // Not for a page going into the back/forward cache: its connections close, but the page (and its client) stays.
          this.closeStream(c, f, 'aborted', false, !f.persisted);
          this.conns.delete(id);
          // What the page still waited for will never come to it (its bar on the timeline ran to now for ever).
          const owed = c.pending.length === 0 ? NO_MESSAGES : c.pending.filter(isOut);
          if (owed.length > 0 && !f.persisted) this.failWaiting(c.info, owed, { cause: 'page-left' }, f.seq, f.t);
        }
        this.sink.wire({ type: 'page-end', doc: f.doc, persisted: f.persisted }, f.seq, f.t);
        return;
      case 'sse-comment':
      case 'capture-error':
        return;
      default: {
        const never: never = f;
        void never;
      }
    }
  }

  /** Where the reader hands each message (a method, not a closure: an engine's state must hold no functions, see fork.ts). */
  deliver(m: DecodedMessage, value: unknown, info: ConnInfo): void {
    // The negotiated version belongs to the session; learn it from the initialize answer.
    if (m.kind === 'result' && m.method === M.initialize && m.session !== undefined && value && typeof value === 'object') {
      const result = (value as { result?: { protocolVersion?: unknown } }).result;
      if (typeof result?.protocolVersion === 'string') {
        this.track(m.session).version = result.protocolVersion;
        m.version = result.protocolVersion;
      }
    }
    this.sink.message(m, value, info);
    if (m.kind === 'notification' && m.dir === 'out' && m.method === M.cancelled) this.onClientCancel(m, value, info);
  }

  /**
   * The page cancelled one of its requests (the SDK does on a timeout or an abort): it rejected it and will ignore a
   * late answer, so for the client the request failed. A listen is the engine's (it withdraws the listen).
   */
  private onClientCancel(m: DecodedMessage, value: unknown, info: ConnInfo): void {
    const id = (value as { params?: { requestId?: unknown } } | null)?.params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    // A listen is not withdrawn here: it stays paired (its stream may still end with an answer).
    const keep = (r: DecodedMessage) => r.method === M.listen;
    let req: DecodedMessage | undefined;
    if (info.transport === 'websocket') req = this.pairing.withdraw(id, this.conns.get(info.conn)?.pending, undefined, keep);
    else {
      // On HTTP the request waits in the exchange that sent it (same session, or without one: same page and
      // endpoint), or, answered elsewhere, in its session.
      const session = info.session;
      for (const [, c] of this.conns.entries()) {
        if (c.pending.length === 0 || c.info.session !== session || (session === undefined && (c.info.doc !== info.doc || c.info.endpoint !== info.endpoint))) continue;
        if ((req = this.pairing.withdraw(id, c.pending, undefined, keep))) break;
      }
      if (!req && session !== undefined) req = this.pairing.withdraw(id, undefined, session, keep);
    }
    if (req) this.failWaiting(info, [req], { cause: 'cancelled' }, m.seq, m.t);
  }

  /**
   * The legacy stream of a session ended: the 202-accepted requests waiting for their answer on it get none. A POST
   * still open holds its request too: it is taken from there as well (that POST's end must not fail it again).
   */
  private failLegacyWaiting(c: Conn, f: Frame): void {
    const session = c.info.session;
    if (c.info.transport !== 'http-sse' || c.info.role !== 'get' || session === undefined) return;
    const owed = this.pairing.drainOut(session);
    if (owed.length === 0) return;
    const gone = new Set(owed);
    for (const [, other] of this.conns.entries()) {
      if (other === c || other.info.session !== session || other.pending.length === 0) continue;
      // In place: the list is this Conn's own (the reader's context reaches it through the Conn).
      let k = 0;
      for (const r of other.pending) if (!gone.has(r)) other.pending[k++] = r;
      other.pending.length = k;
    }
    this.failWaiting(c.info, owed, { cause: 'connection-closed' }, f.seq, f.t);
  }

  /** Requests that will never be answered: forgotten by the pairing, and said (how: the HTTP status, or why else). */
  private failWaiting(info: ConnInfo, requests: DecodedMessage[], how: Pick<ExchangeFailed, 'status' | 'cause' | 'outcome'>, seq: number, t: number): void {
    this.pairing.forget(requests);
    this.sink.wire({ type: 'exchange-failed', info, requests, ...how }, seq, t);
  }

  private track(session: string): SessionTrack {
    let s = this.sessions.get(session);
    if (!s) this.sessions.set(session, (s = { version: undefined, ended: [] }));
    return s;
  }

  private versionFor(c: Conn): string | undefined {
    if (c.info.generation === '2026') return c.version;
    const s = c.info.session;
    return (s !== undefined ? this.sessions.get(s)?.version : undefined) ?? c.version;
  }

  /** One scratch context, refilled per payload: the reader never keeps it, and this runs for every message. */
  private scratch: PayloadContext = {
    info: connInfo('', '', '', 'streamable-http', '2025', 'other'),
    seq: 0,
    t: 0,
    doc: '',
    conn: '',
    dir: 'in',
    transport: 'streamable-http',
    generation: '2025',
    version: undefined,
    endpoint: '',
    session: undefined,
    stream: '',
    streamKind: 'post',
    sseId: undefined,
    waiting: { pending: [] },
    legacy: false,
    websocket: false,
    batch: false,
  };

  private ctx(c: Conn, f: Frame, dir: Direction, stream: string, streamKind: StreamKind, sseId?: string): PayloadContext {
    const x = this.scratch;
    x.info = c.info;
    x.seq = f.seq;
    x.t = f.t;
    x.doc = f.doc;
    x.conn = c.info.conn;
    x.dir = dir;
    x.transport = c.info.transport;
    x.generation = c.info.generation;
    x.version = this.versionFor(c);
    x.endpoint = c.info.endpoint;
    x.session = c.info.session;
    x.stream = stream;
    x.streamKind = streamKind;
    x.sseId = sseId;
    x.waiting = c;
    x.legacy = c.info.transport === 'http-sse';
    x.websocket = c.info.transport === 'websocket';
    x.batch = c.batch;
    return x;
  }

  /** A frame for a connection we never saw the start of (the log was trimmed): decode it with what we know. */
  private stub(f: Frame & { conn: string }): Conn {
    const info = connInfo(f.conn, f.doc, UNKNOWN_ENDPOINT, 'streamable-http', '2025', 'other');
    const c = newConn(info, 'fetch', '', {});
    this.conns.set(f.conn, c);
    return c;
  }

  /**
   * A connection without its request belongs to the one endpoint its document talks to, in the session it used last:
   * from then on its messages are that client's (an SSE stream of it is that session's GET stream, open).
   */
  private adopt(c: Conn, f: S<SseEventFrame>): void {
    // 2026 has no GET stream: a stream that outlives its request and whose messages name a subscription id is a
    // listen's (the one stream made to last), on the endpoint the document's 2026 requests go to.
    const id = subscriptionIdIn(f.data.text);
    if (id !== undefined) {
      const modern = this.docModernEndpoints.get(c.info.doc);
      if (modern?.endpoint === undefined) return;
      c.info = connInfo(c.info.conn, c.info.doc, modern.endpoint, 'streamable-http', '2026', 'post', undefined, id);
      c.stream = `listen:${c.info.conn}`;
      c.streamKind = 'listen';
      c.streamOpen = true;
      this.sink.wire({ type: 'stream-open', info: c.info, stream: c.stream, kind: 'listen' }, f.seq, f.t);
      return;
    }
    const known = this.docEndpoints.get(c.info.doc);
    if (known?.endpoint === undefined) return;
    // A page that speaks 2026 too: an event that reads as 2026 (its _meta keys, a result type) is a 2026 request's
    // stream, not the 2025 session's GET stream.
    if (this.docModernEndpoints.get(c.info.doc)?.endpoint !== undefined && /io\.modelcontextprotocol\/|"resultType"/.test(f.data.text)) return;
    c.info = connInfo(c.info.conn, c.info.doc, known.endpoint, 'streamable-http', '2025', 'get', known.session);
    if (c.sse || c.stream === undefined) {
      c.stream = `get:${c.info.conn}`;
      c.streamKind = 'get';
      c.streamOpen = true;
      this.sink.wire({ type: 'stream-open', info: c.info, stream: c.stream, kind: 'get' }, f.seq, f.t);
    }
  }

  /** Where a document's requests go (only when it changed since the last request: this runs for every one). */
  private noteDocEndpoint(doc: string, endpoint: string, session: string | undefined, modern: boolean): void {
    if (doc === this.lastDoc && endpoint === this.lastDocEndpoint && session === this.lastDocSession && modern === this.lastDocModern) return;
    this.lastDoc = doc;
    this.lastDocEndpoint = endpoint;
    this.lastDocSession = session;
    this.lastDocModern = modern;
    const map = modern ? this.docModernEndpoints : this.docEndpoints;
    const known = map.get(doc);
    if (!known) map.set(doc, { endpoint, session });
    else if (known.endpoint === endpoint) known.session = session ?? known.session;
    else known.endpoint = undefined;
  }

  private onRequest(f: S<HttpRequestFrame>): void {
    const h = f.headers;
    const verb = f.method === 'POST' || f.method === 'GET' ? f.method : f.method.toUpperCase();
    const role: ExchangeRole = verb === 'POST' ? 'post' : verb === 'GET' ? 'get' : verb === 'DELETE' ? 'delete' : 'other';
    // Almost every request goes to the same URL: remember the last one's endpoint.
    if (f.url !== this.lastUrl) {
      this.lastUrl = f.url;
      this.lastEndpoint = endpointOf(f.url);
    }
    let endpoint = this.lastEndpoint;
    let transport: Transport = 'streamable-http';
    let session = h['mcp-session-id'];
    if (session === undefined && this.legacy.size > 0) {
      // The URL the endpoint event announced, exactly (any session parameter, or the session in the path); else its
      // session parameter (the page may add parameters of its own).
      let leg = this.legacy.get(f.url);
      if (!leg && f.url.includes('?')) {
        const sid = legacySessionParam(f.url);
        leg = sid !== undefined ? this.legacy.get(sid) : undefined;
      }
      if (leg) {
        transport = 'http-sse';
        session = leg.session;
        endpoint = leg.endpoint;
      }
    }
    const body: PreparedPayload | undefined = f.body && f.body.text.length > 0 ? prepareInto(this.payload, f.body) : undefined;
    const methods = body ? peekCalls(body, this.peeked) : undefined;
    const metaVersion = body ? this.peeked.metaVersion : undefined;
    const headerVersion = h['mcp-protocol-version'];
    const modern =
      transport === 'streamable-http' &&
      ((headerVersion !== undefined && isModernVersion(headerVersion)) ||
        (metaVersion !== undefined && isModernVersion(metaVersion)) ||
        anyModernOnly(methods));
    let listenId: RequestId | undefined;
    if (body && !body.truncated && body.problem === undefined && methods !== undefined && methods.includes(M.listen)) {
      const listen = body.values.find(isListenRequest) as { id?: RequestId } | undefined;
      listenId = listen?.id;
    }
    const info = connInfo(f.conn, f.doc, endpoint, transport, modern ? '2026' : '2025', role, session, listenId);
    if (transport === 'streamable-http') this.noteDocEndpoint(f.doc, endpoint, session, modern);
    const spare = this.spareConn;
    this.spareConn = undefined;
    const c = spare !== undefined ? resetConn(spare, info, 'fetch', f.url, h) : newConn(info, 'fetch', f.url, h);
    c.version = modern ? (metaVersion ?? headerVersion) : headerVersion;
    // The SDK's legacy client sends MCP-Protocol-Version on its reconnect GET: an endpoint that announced a legacy
    // session before may do so again, whatever the headers say.
    c.legacyCandidate = role === 'get' && session === undefined && (headerVersion === undefined || this.legacyEndpoints.has(endpoint));
    this.conns.set(f.conn, c);
    const nameField = body ? this.peeked.nameField : undefined;
    const head = this.head;
    if (head === undefined) {
      const mcpName = nameField !== undefined ? { field: nameField, value: this.peeked.nameValue! } : undefined;
      this.sink.wire({ type: 'request-head', info, method: verb, headers: h, requestMethods: methods ?? NO_METHODS, metaVersion, mcpName }, f.seq, f.t);
    } else {
      head.info = info;
      head.method = verb;
      head.headers = h;
      head.requestMethods = methods ?? NO_METHODS;
      head.metaVersion = metaVersion;
      let mcpName: { field: string; value: string } | undefined;
      if (nameField !== undefined) {
        mcpName = this.headName!;
        mcpName.field = nameField;
        mcpName.value = this.peeked.nameValue!;
      }
      head.mcpName = mcpName;
      this.sink.wire(head, f.seq, f.t);
    }
    if (role === 'get' && session !== undefined) {
      const track = this.sessions.get(session);
      const ended = track?.ended ?? [];
      const lastEventId = h['last-event-id'];
      const unanswered = lastEventId !== undefined ? endedWithId(ended, lastEventId, endpoint) : undefined;
      const answered = lastEventId !== undefined && !unanswered ? endedWithId(track?.answered ?? [], lastEventId, endpoint) : undefined;
      const match = unanswered ?? answered;
      // Resuming a per-request stream (the SDK client does, with the POST's last event id): that stream again, no GET.
      if (match?.kind === 'post-sse') c.resumesPost = true;
      // Its answer came already: nothing is left to resume on it when it ends again.
      if (answered) c.resumedAnswered = true;
      if (match) {
        match.resumed = true;
        // The stream it opens goes on from that id: ended again before a new event, it is resumed by the same id (the
        // SDK v1 client then sends none: the next gap is of this stream, not of the one resumed — a resumption audit,
        // 2026-12-05, found it dated from the first drop).
        c.lastSseId = lastEventId;
        c.lastSseIdFrom = match.idFromSeq ?? match.endedSeq;
      }
      // Without Last-Event-ID: compared with the last stream that ended and was not resumed since (a per-request stream
      // resumed with its own id, and whose answer came, is not this GET's business; nor is one the server closed for
      // polling, which the client resumes after its `retry`: the plain GET reopening the GET stream may come first).
      const previous = match ?? lastEnded(ended, endpoint, f.doc, lastEventId === undefined);
      // The GET stream before this one carried no ids: nothing can resume it. Said when this GET's stream opens (the
      // gap is over then); a GET that gets no stream hands it back to the next one.
      // (Also when the stream compared with is a per-request one: the GET stream's own gap is this GET's to close.)
      if (track?.idlessGets && previous?.kind !== 'get' && lastEventId === undefined) c.unresumable = takeGap(track, endpoint, f.doc);
      this.sink.wire(
        { type: 'get-request', info, lastEventId, previous, matchesKnownId: match !== undefined },
        f.seq,
        f.t,
      );
    }
    if (body) {
      c.batch = body.batch || (body.truncated && startsArray(body.payload.text));
      this.reader.read(body, this.ctx(c, f, 'out', postStream(c), 'post'));
    }
  }

  private onResponse(f: S<HttpResponseFrame>): void {
    const c = this.conns.get(f.conn) ?? this.stub(f);
    c.status = f.status;
    const contentType = f.headers['content-type'] ?? '';
    c.sse = contentType.includes('text/event-stream');
    const sid = f.headers['mcp-session-id'];
    if (c.info.session === undefined && sid !== undefined && c.info.transport === 'streamable-http' && c.info.generation === '2025') {
      // A new object, never a mutation: messages already decoded keep the info they were seen with.
      c.info = { ...c.info, session: sid };
    }
    const ok = f.status >= 200 && f.status < 300;
    if (!ok) c.errorStatus = true;
    // A successful POST head says nothing the messages will not (this runs for every exchange).
    if (!ok || c.info.role !== 'post') {
      this.sink.wire({ type: 'response-head', info: c.info, status: f.status, contentType, sse: c.sse, headers: f.headers }, f.seq, f.t);
    }
    if (!ok || !c.sse) this.handBackUnresumable(c);
    if (!ok) return;
    if (!c.sse) {
      c.stream = postStream(c);
      c.streamKind = 'post';
      return;
    }
    const kind: StreamKind = c.info.role === 'get' && !c.resumesPost ? 'get' : c.info.listenId !== undefined ? 'listen' : 'post-sse';
    c.stream = `${kind}:${f.conn}`;
    c.streamKind = kind;
    // A GET without a session may be the legacy transport: its `endpoint` event decides (see onSseEvent).
    if (kind === 'get' && c.legacyCandidate) return;
    c.streamOpen = true;
    const e: Extract<Parameters<DecodeSink['wire']>[0], { type: 'stream-open' }> = { type: 'stream-open', info: c.info, stream: c.stream, kind };
    if (c.unresumable && kind === 'get') e.unresumable = { seq: c.unresumable.seq, t: c.unresumable.t };
    c.unresumable = undefined;
    this.sink.wire(e, f.seq, f.t);
  }

  /** A GET that reopened nothing: the gap it was to close goes on, for the session's next GET to tell. */
  private handBackUnresumable(c: Conn): void {
    const gap = c.unresumable;
    if (!gap) return;
    c.unresumable = undefined;
    const session = c.info.session;
    if (session === undefined) return;
    const gaps = (this.track(session).idlessGets ??= []);
    // (A GET stream that ended since is the newer gap.)
    if (!gaps.some((g) => g.endpoint === gap.endpoint && g.doc === gap.doc)) gaps.push(gap);
  }

  private onBody(f: S<HttpBodyFrame>): void {
    const c = this.conns.get(f.conn) ?? this.stub(f);
    if (c.errorStatus) this.sink.wire({ type: 'http-error-body', info: c.info, status: c.status, text: f.body.text }, f.seq, f.t);
    if (f.body.opaque) return;
    const text = f.body.text;
    const i = firstNonSpace(text);
    if (i === text.length) return;
    const first = text.charCodeAt(i);
    // Only JSON is MCP ({ or [); an HTML error page is not a message.
    if (first !== 123 && first !== 91) return;
    this.reader.read(prepareInto(this.payload, f.body), this.ctx(c, f, 'in', postStream(c), 'post'));
  }

  private onSseEvent(f: S<SseEventFrame>): void {
    const c = this.conns.get(f.conn) ?? this.stub(f);
    if (c.info.endpoint === UNKNOWN_ENDPOINT && f.event !== 'endpoint') this.adopt(c, f);
    if (f.id !== undefined) {
      c.lastSseId = f.id;
      c.lastSseIdFrom = undefined;
    }
    // An answer (a message with `result` or `error` and no method), sniffed as a cut payload is.
    if (c.resumesPost && !c.resumedAnswered && sniffTruncated(f.data.text).isResponse) c.resumedAnswered = true;
    if (f.retry !== undefined) {
      c.lastRetry = f.retry;
      if (c.info.session !== undefined && c.info.transport === 'streamable-http') this.track(c.info.session).lastRetry = f.retry;
    }
    if (f.event === 'endpoint') return this.onLegacyEndpoint(c, f);
    if (f.event !== undefined && f.event !== 'message') return;
    if (f.data.text.length === 0 && !f.data.truncated) return; // priming event or empty keep-alive
    if (!c.streamOpen && c.stream !== undefined && c.legacyCandidate) {
      // No endpoint event came: a plain SSE stream after all.
      c.legacyCandidate = false;
      c.streamOpen = true;
      this.sink.wire({ type: 'stream-open', info: c.info, stream: c.stream, kind: c.streamKind }, f.seq, f.t);
    }
    const stream = c.stream ?? `sse:${f.conn}`;
    this.reader.read(prepareInto(this.payload, f.data), this.ctx(c, f, 'in', stream, c.stream ? c.streamKind : 'sse', f.id));
  }

  private onLegacyEndpoint(c: Conn, f: S<SseEventFrame>): void {
    // The page's POSTs are logged with their secrets redacted: so is the URL they are matched against. The hook redacts
    // the endpoint event with the very salt of the POSTs (one document), so such a URL is left as it is; a trace taken
    // before the hook redacted endpoint events has the announced URL in clear and its POSTs' markers unkeyed (before
    // 2026-12-06): redacted the same way, it matches them.
    const postUrl = redactUrl(resolveAgainst(c.url, f.data.text), unkeyedMarker);
    const sid = legacySessionParam(postUrl) ?? postUrl;
    c.info = { ...c.info, transport: 'http-sse', generation: '2025', session: sid, role: 'get' };
    c.legacyCandidate = false;
    c.stream = c.source === 'es' ? `sse:${f.conn}#${c.opens}` : `sse:${f.conn}`;
    c.streamKind = 'sse';
    c.streamOpen = true;
    const entry = { endpoint: c.info.endpoint, session: sid };
    this.legacyEndpoints.add(c.info.endpoint);
    this.legacy.set(sid, entry);
    if (postUrl !== sid) this.legacy.set(postUrl, entry);
    this.sink.wire({ type: 'legacy-endpoint', info: c.info, stream: c.stream, postUrl }, f.seq, f.t);
    this.sink.wire({ type: 'stream-open', info: c.info, stream: c.stream, kind: 'sse' }, f.seq, f.t);
  }

  private onEnd(f: S<HttpEndFrame>): void {
    const c = this.conns.get(f.conn);
    if (!c) return;
    if (c.unresumable) this.handBackUnresumable(c);
    this.closeStream(c, f, f.outcome);
    // Almost every exchange was answered: no list to build then.
    const unanswered: DecodedMessage[] = c.pending.length === 0 ? NO_MESSAGES : c.pending.filter(isOut);
    const legacyAccepted = c.info.transport === 'http-sse' && c.status >= 200 && c.status < 300;
    // A stream that carried event ids can be resumed with GET + Last-Event-ID: its answers may still come there. Not
    // one the page aborted itself: its client gave those requests up (the SDK resumes only a stream it did not abort).
    const resumable = c.lastSseId !== undefined && !c.errorStatus && f.phase === 'body' && f.outcome !== 'aborted';
    if (unanswered.length > 0 && resumable && c.info.session !== undefined) this.pairing.moveToSession(unanswered, c.info.session);
    else if (unanswered.length > 0 && !legacyAccepted && !resumable) {
      const how = { ...(c.status ? { status: c.status } : {}), ...(f.outcome !== 'complete' ? { outcome: f.outcome } : {}) };
      this.failWaiting(c.info, unanswered, how, f.seq, f.t);
    }
    this.failLegacyWaiting(c, f);
    this.conns.delete(f.conn);
    // Nothing refers to an ended exchange's Conn any more (the reader's context is refilled before it is read again).
    // Its unanswered requests went on above as copies: the spare must not hold them (and their bodies) until the next
    // request, nor give each fork a copy.
    if (c.pending.length !== 0) c.pending = NO_PENDING;
    this.spareConn = c;
  }

  /**
   * A session's GET stream ended: without an event id it leaves a gap nothing can resume (told to its document's next
   * GET to the endpoint, SessionTrack.idlessGets); with one, that document's earlier gap is over. (Out of closeStream,
   * which runs for every streamed answer: kept small, it stays fast.)
   */
  private noteGetStreamEnd(c: Conn, session: string, f: Frame): void {
    const { endpoint, doc } = c.info;
    const track = c.lastSseId === undefined ? this.track(session) : this.sessions.get(session);
    if (!track) return;
    const others = (track.idlessGets ?? []).filter((g) => g.endpoint !== endpoint || g.doc !== doc);
    if (c.lastSseId === undefined) others.push({ seq: f.seq, t: f.t, endpoint, doc });
    track.idlessGets = others.length > 0 ? others : undefined;
  }

  private closeStream(c: Conn, f: Frame, outcome: 'complete' | 'aborted' | 'failed', reconnecting = false, pageLeft = false): void {
    if (!c.streamOpen || c.stream === undefined) return;
    c.streamOpen = false;
    const e: Extract<Parameters<DecodeSink['wire']>[0], { type: 'stream-close' }> = {
      type: 'stream-close',
      info: c.info,
      stream: c.stream,
      kind: c.streamKind,
      outcome,
    };
    if (reconnecting) e.reconnecting = true;
    if (pageLeft) e.pageLeft = true;
    const session = c.info.session;
    // SEP-1699 polling: a server that closes a resumable stream after sending `retry` expects a resume after it. The
    // GET stream is reopened after the session's last `retry`, whichever stream sent it (SDK servers prime POST
    // streams only, and the client keeps one retry per transport).
    const retry = c.lastRetry ?? (c.streamKind === 'get' && session !== undefined ? this.sessions.get(session)?.lastRetry : undefined);
    if (retry !== undefined && (c.lastSseId !== undefined || c.streamKind === 'get')) e.retryMs = retry;
    this.sink.wire(e, f.seq, f.t);
    // Only a stream with something left to resume counts: the session's GET stream, or a per-request stream that
    // ended before its answer. A POST answered on its own SSE stream (server-everything answers initialize that way)
    // is complete; a GET after it without Last-Event-ID loses nothing.
    // Not a per-request stream the page aborted itself: its client gave it up (onEnd fails its requests).
    // A resumed per-request stream that ends before its answer again is resumed again by its last id.
    const resumable = c.streamKind === 'get' || (c.streamKind === 'post-sse' && outcome !== 'aborted' && (c.pending.some(isOut) || (c.resumesPost && !c.resumedAnswered)));
    // (Not the streams a leaving page drops: nothing of it comes back.)
    if (c.streamKind === 'get' && session !== undefined && !pageLeft) this.noteGetStreamEnd(c, session, f);
    if (c.lastSseId === undefined || session === undefined) return;
    const ended: EndedStream = { stream: c.stream, kind: c.streamKind, lastId: c.lastSseId, endedSeq: f.seq, endedT: f.t, endpoint: c.info.endpoint, doc: c.info.doc };
    if (c.lastSseIdFrom !== undefined) ended.idFromSeq = c.lastSseIdFrom;
    if (resumable) {
      if (c.streamKind === 'post-sse' && retry !== undefined && outcome === 'complete') ended.polling = true;
      remember(this.track(session).ended, ended, MAX_ENDED_STREAMS);
    } else if (c.streamKind === 'post-sse' && outcome !== 'aborted') {
      const track = this.track(session);
      remember((track.answered ??= []), ended, MAX_ANSWERED_STREAMS);
    }
  }

  private onEsConnect(f: S<EsConnectFrame>): void {
    const info = connInfo(f.conn, f.doc, endpointOf(f.url), 'http-sse', '2025', 'get');
    const c = newConn(info, 'es', f.url, {});
    c.legacyCandidate = true;
    this.conns.set(f.conn, c);
  }

  private onWsConnect(f: S<WsConnectFrame>): void {
    const info = connInfo(f.conn, f.doc, endpointOf(f.url), 'websocket', '2025', 'other', wsSessionId(f.conn));
    const c = newConn(info, 'ws', f.url, {});
    c.stream = info.session;
    c.streamKind = 'ws';
    this.conns.set(f.conn, c);
  }

  private onWsMessage(f: S<WsMessageFrame>): void {
    let c = this.conns.get(f.conn);
    // Sent on a socket that had closed: the browser dropped it (a trace from before the hook stopped logging those).
    if (!c && this.closedWs.has(f.conn)) return;
    if (!c || c.source !== 'ws') {
      // Never saw this WebSocket open (or the id was reused by something else): decode it as a WebSocket anyway.
      c = this.stub(f);
      c.source = 'ws';
      c.info = { ...c.info, transport: 'websocket', session: wsSessionId(f.conn) };
      c.stream = c.info.session;
      c.streamKind = 'ws';
    }
    if (f.data.opaque) return;
    this.reader.read(prepareInto(this.payload, f.data), this.ctx(c, f, f.dir, c.stream!, 'ws'));
  }
}
