// First-version list rows: one row per JSON-RPC message or transport event, with the context a developer scans for
// (direction, transport, session, method, id, error, URI). Incremental: keeps per-connection context as frames arrive,
// and the requests waiting for their answers (PendingRequests), so an answer's row names its request's method and URI.
import type { Frame, Payload } from '../shared/frames.ts';
import { sniffTruncated } from '../shared/decode/jsonrpc.ts';
import { wsSessionId } from '../shared/decode/decoder.ts';

export interface FrameRow {
  seq: number;
  t: number;
  dir: 'out' | 'in' | '';
  transport: string;
  /**
   * The frames that opened its connection (an `http-request`, `ws-connect`, `es-connect`) are not in view — dropped at
   * the log's frame cap — so `transport` is inferred from the frame's kind (inferredTransport): `WebSocket`,
   * `EventSource`, or `HTTP ?` / `SSE ?` where the kind leaves the method, or fetch against EventSource, unknown.
   */
  transportInferred: boolean;
  /**
   * The session id it is filed under (a WebSocket's `ws:<conn>`, a 2026 listen's request id); the views name a listen's
   * rows by `conn` (sessionIdOn: the engine's label for the listen of that connection).
   */
  session: string;
  /** Its frame's connection ('' for a page's own frames). */
  conn: string;
  method: string;
  id: string;
  error: string;
  uri: string;
  /** Every URI the message names when it names several (a 2026 listen's filter, its acknowledgement); else empty. */
  uris: readonly string[];
  /** Transport-level text when the row is not a JSON-RPC message. */
  note: string;
  frameId: number;
  segment: number;
  /**
   * The row's place among its frame's rows (a JSON-RPC batch is one frame, several rows), fixed when built: the list's
   * key. Counting within the shown rows instead gave a batch row another meaning once a filter hid its siblings.
   */
  part: number;
}

const NO_URIS: readonly string[] = Object.freeze([]);

interface ConnContext {
  transport: string;
  session: string;
  /** Made up from a later frame: the connection's opening frames are not in view (FrameRow.transportInferred). */
  inferred: boolean;
  /** The response's content type, once known: whether a body that is not JSON is a fault (see pushMessages). */
  contentType: string;
}

function sessionFromUrl(url: string): string {
  const m = /[?&]sessionId=([^&]+)/.exec(url);
  return m ? decodeURIComponent(m[1]!) : '';
}

type Dir = FrameRow['dir'];

/** One row, always built in the same shape (spreading partial rows cost ~15 µs a frame: 1.6–2.3 s for 100k frames). */
function row(f: Frame, dir: Dir, transport: string, session: string, method: string, id: string, error: string, uri: string, note: string, uris = NO_URIS): FrameRow {
  const conn = ('conn' in f ? f.conn : undefined) ?? '';
  return { seq: f.seq, t: f.t, dir, transport, transportInferred: false, session, conn, method, id, error, uri, uris, note, frameId: f.frameId, segment: f.segment, part: 0 };
}

/** The frames that open a connection: any other frame of a connection not seen opening lost its opening frames. */
const OPENS: ReadonlySet<Frame['kind']> = new Set<Frame['kind']>(['http-request', 'es-connect', 'ws-connect']);

/**
 * What a frame's kind says of the transport of a connection whose opening frames are not in view: a WebSocket's and an
 * EventSource's frames are their own; a fetch exchange's do not say its method, and an SSE event may be a fetch stream's
 * (`HTTP GET`, `HTTP POST`) or an EventSource's.
 */
export function inferredTransport(kind: Frame['kind']): string {
  if (kind.startsWith('ws-')) return 'WebSocket';
  if (kind.startsWith('es-')) return 'EventSource';
  return kind.startsWith('sse-') ? 'SSE ?' : 'HTTP ?';
}
/** A request id as a row shows it: an object or array id (invalid, but sent) as JSON, not `[object Object]`. */
function idText(id: unknown): string {
  if (id === undefined || id === null) return '';
  return typeof id === 'object' ? JSON.stringify(id) : String(id);
}

/** A request id as a pairing key: 1 and "1" are different ids (as idKey in the engine). */
function idKey(id: unknown): string {
  return typeof id === 'number' ? `n${id}` : typeof id === 'string' ? `s${id}` : `j${JSON.stringify(id)}`;
}

/** A request still waiting for its answer: what the answer's row borrows (its own message names neither). */
interface PendingRequest {
  method: string;
  uri: string;
  uris: readonly string[];
  /** The direction it travelled. */
  dir: Dir;
  /** The keys it is filed under (by connection, and by session when it had one). */
  byConn: string;
  bySession: string;
  conn: string;
  /** Answered, forgotten at the cap, or its exchange ended with no way left to answer it. */
  done: boolean;
}

/**
 * Requests waiting for their answers, to show an answer with its request's method and URI (`resources/read (result)`),
 * so `method:` and `uri:` find it too. Filed by connection (a streamable-HTTP POST, a WebSocket: the answer comes back
 * on it) and by session (legacy SSE: the answer comes on the GET stream; a server's request answered by a new POST),
 * with the request's direction (ids of each side are their own). Bounded: a long recording with requests never answered
 * (a page gone, a server that dropped them, a client retrying a dead server) forgets the oldest beyond `cap` requests,
 * first in, first out; an exchange that ends takes the requests only it could answer along.
 */
export class PendingRequests {
  private readonly map = new Map<string, PendingRequest>();
  /** Per connection, the requests sent on it (an answer with no readable id takes the only one; its end drops them). */
  private readonly perConn = new Map<string, PendingRequest[]>();
  /** The requests waiting, oldest first (a Set keeps insertion order): what the cap forgets first. */
  private readonly live = new Set<PendingRequest>();
  constructor(private readonly cap = 20_000) {}

  /** Requests waiting. */
  get size(): number {
    return this.live.size;
  }

  add(dir: Dir, conn: string, session: string, id: unknown, method: string, uri: string, uris: readonly string[]): void {
    const k = `${dir}${idKey(id)}`;
    const p: PendingRequest = { method, uri, uris, dir, byConn: `c${conn}\n${k}`, bySession: session === '' ? '' : `s${session}\n${k}`, conn, done: false };
    // The id reused on the same connection: the earlier request can no longer be told apart, and is not counted on
    // (takeOnly saw two waiting where one could be answered).
    const reused = this.map.get(p.byConn);
    if (reused) this.remove(reused);
    this.map.set(p.byConn, p);
    if (p.bySession !== '') this.map.set(p.bySession, p);
    const list = this.perConn.get(conn);
    if (list) list.push(p);
    else this.perConn.set(conn, [p]);
    this.live.add(p);
    while (this.live.size > this.cap) this.remove(this.live.values().next().value!);
  }

  /** The request an answer travelling in `dir` answers (taken: answered once), or undefined. */
  take(dir: Dir, conn: string, session: string, id: unknown): PendingRequest | undefined {
    const k = `${dir === 'in' ? 'out' : 'in'}${idKey(id)}`;
    let p = this.map.get(`c${conn}\n${k}`);
    if (!p && session !== '') p = this.map.get(`s${session}\n${k}`);
    if (!p) return undefined;
    this.remove(p);
    return p;
  }

  /**
   * An answer whose id is not readable (cut at capture before it): the request it answers if exactly one from the
   * other side waits on this connection (one exchange, as the engine pairs it), else undefined.
   */
  takeOnly(dir: Dir, conn: string): PendingRequest | undefined {
    let only: PendingRequest | undefined;
    for (const p of this.perConn.get(conn) ?? []) {
      if (p.done || p.dir === dir) continue;
      if (only) return undefined;
      only = p;
    }
    if (only) this.remove(only);
    return only;
  }

  /** The connection's exchange ended: no answer comes on it now; a request filed by session may still be answered. */
  endConn(conn: string): void {
    const list = this.perConn.get(conn);
    if (!list) return;
    this.perConn.delete(conn);
    for (const p of list) {
      if (p.done) continue;
      if (this.map.get(p.byConn) === p) this.map.delete(p.byConn);
      if (p.bySession === '') this.remove(p);
    }
  }

  private remove(p: PendingRequest): void {
    if (p.done) return;
    p.done = true;
    this.live.delete(p);
    // Only when it is the same request under the key (a newer request may have reused the id).
    if (this.map.get(p.byConn) === p) this.map.delete(p.byConn);
    if (p.bySession !== '' && this.map.get(p.bySession) === p) this.map.delete(p.bySession);
    const list = this.perConn.get(p.conn);
    if (list) {
      const i = list.indexOf(p);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.perConn.delete(p.conn);
    }
  }
}

/** Where a payload travelled: what its rows say about it and how its requests and answers pair. */
interface Via {
  dir: Dir;
  transport: string;
  session: string;
  conn: string;
  /** The body is declared JSON (content type): text that does not parse is a fault even if it does not look like JSON. */
  json: boolean;
  pending: PendingRequests;
}

/** Whether the content type says JSON (`application/json`, `application/json-rpc`, `…+json`). */
function isJsonType(contentType: string | undefined): boolean {
  return contentType !== undefined && /json/i.test(contentType);
}

/** The rows of a payload: one per JSON-RPC message (a batch is several), or one saying what the body is. */
function pushMessages(rows: FrameRow[], f: Frame, p: Payload, via: Via): void {
  const { dir, transport, session } = via;
  if (p.opaque) return void rows.push(row(f, dir, transport, session, '', '', '', '', p.text));
  if (p.truncated) return void rows.push(truncated(f, p, via));
  // An empty body (a 202 to a notification, a 405) is not malformed JSON-RPC.
  if (p.text.length === 0 || (p.text.charCodeAt(0) <= 32 && p.text.trim() === '')) return void rows.push(row(f, dir, transport, session, '', '', '', '', '(empty body)'));
  let v: unknown;
  try {
    v = JSON.parse(p.text);
  } catch {
    // Text that neither says nor looks like JSON is not a broken message: the legacy SSE transport answers every POST
    // with a text/plain `Accepted` (as the engine, which reads only bodies starting with { or [). Flagged, it made every
    // legacy POST red and is:error matched them all.
    const first = p.text.trimStart().charCodeAt(0);
    if (!via.json && first !== 123 && first !== 91) return void rows.push(row(f, dir, transport, session, '', '', '', '', `text body: ${p.text.slice(0, 80)}`));
    return void rows.push(row(f, dir, transport, session, '', '', 'not JSON', '', p.text.slice(0, 80)));
  }
  if (!Array.isArray(v)) return void rows.push(described(f, v, via));
  // An empty batch is invalid JSON-RPC, not nothing (the engine holds it as an invalid message).
  if (v.length === 0) return void rows.push(row(f, dir, transport, session, '', '', 'empty batch', '', '[]'));
  for (let k = 0; k < v.length; k++) {
    const r = described(f, v[k], via);
    r.part = k;
    rows.push(r);
  }
}

/**
 * A body cut at the capture cap: what its prefix says (method, id, whether it answers, the first URI), as the engine
 * reads it (sniffTruncated), with the size; a big resources/read answer is the usual one cut, and showed nothing else.
 */
function truncated(f: Frame, p: Payload, via: Via): FrameRow {
  const s = sniffTruncated(p.text);
  const head = p.text.length > 4096 ? p.text.slice(0, 4096) : p.text;
  let uri = /"uri"\s*:\s*"([^"\\]{1,2000})"/.exec(head)?.[1] ?? '';
  let method = s.method ?? (s.isResponse ? (s.isError ? '(error)' : '(result)') : '');
  const note = `truncated body (${p.truncated!.bytes} bytes)`;
  if (s.isResponse) {
    // Its id is usually past the cut: then the one request waiting on this exchange is its match.
    const req = s.id !== undefined ? via.pending.take(via.dir, via.conn, via.session, s.id) : via.pending.takeOnly(via.dir, via.conn);
    if (req) {
      method = `${req.method} ${method}`;
      if (uri === '') uri = req.uri;
    }
  } else if (s.method !== undefined && s.id !== undefined) via.pending.add(via.dir, via.conn, via.session, s.id, s.method, uri, NO_URIS);
  return row(f, via.dir, via.transport, via.session, method, idText(s.id), s.isError ? '(error, body cut)' : '', uri, note);
}

function described(f: Frame, v: unknown, via: Via): FrameRow {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const params = o.params as Record<string, unknown> | undefined;
  const result = o.result as Record<string, unknown> | undefined;
  const contents = result !== null && typeof result === 'object' && Array.isArray(result.contents) ? (result.contents[0] as Record<string, unknown> | undefined) : undefined;
  const err = o.error;
  const isRequest = typeof o.method === 'string';
  let method = isRequest ? (o.method as string) : 'result' in o ? '(result)' : err !== undefined ? '(error)' : '';
  const id = idText(o.id);
  // Not a JSON-RPC message at all (a number in a batch, an object without jsonrpc 2.0 or anything to say): shown as
  // such, and is:error finds it, instead of a blank row.
  const invalid = typeof v !== 'object' || v === null || Array.isArray(v) || o.jsonrpc !== '2.0' || (method === '' && err === undefined);
  // An error that is not the {code, message} object (a bare string from a sloppy server) is shown as it is, not as
  // `undefined `.
  const error =
    err !== undefined && err !== null
      ? typeof err === 'object'
        ? `${String((err as { code?: unknown }).code ?? '')} ${String((err as { message?: unknown }).message ?? '')}`.trim() || 'error'
        : String(err)
      : invalid
        ? 'not JSON-RPC'
        : '';
  let uri = params !== null && typeof params === 'object' && typeof params.uri === 'string' ? params.uri : typeof contents?.uri === 'string' ? contents.uri : '';
  // 2026-07-28: a listen request and its acknowledgement name their URIs in a filter.
  let uris = NO_URIS;
  const filter = params !== null && typeof params === 'object' ? (params.notifications as Record<string, unknown> | undefined) : undefined;
  if (uri === '' && filter !== null && typeof filter === 'object' && Array.isArray(filter.resourceSubscriptions)) {
    const list = filter.resourceSubscriptions.filter((u): u is string => typeof u === 'string');
    if (list.length) {
      uri = list[0]!;
      uris = list;
    }
  }
  if (id !== '') {
    if (isRequest) via.pending.add(via.dir, via.conn, via.session, o.id, method, uri, uris);
    else if (method !== '') {
      // An answer names neither method nor (but for a read) URI: its request's, so `method:resources/read` and
      // `uri:` find the answer beside the request.
      const req = via.pending.take(via.dir, via.conn, via.session, o.id);
      if (req) {
        method = `${req.method} ${method}`;
        if (uri === '') {
          uri = req.uri;
          uris = req.uris;
        }
      }
    }
  }
  return row(f, via.dir, via.transport, via.session, method, id, error, uri, '', uris);
}

export class FrameRows {
  readonly rows: FrameRow[] = [];

  /**
   * `inferUnknown`: frames before the first in view were dropped (at the log's cap), so a connection not seen opening
   * lost its opening frames there — its transport is inferred and said so. When nothing was dropped, such a frame is
   * of a connection whose exchange already ended (its id seen again): no inference, no "dropped at the cap" tooltip (a
   * review, 2026-12-05). The panel's store knows which; a trim while live (dropBefore) makes it true.
   */
  constructor(private inferUnknown = true) {}

  private readonly conns = new Map<string, ConnContext>();
  /** Requests waiting for their answers (see PendingRequests). */
  readonly pending = new PendingRequests();

  /**
   * The rows of frames before `seq` go (the log dropped those frames at its cap), except those of the frames its trim
   * kept (`kept`: the openers of exchanges going on, the page-start).
   */
  dropBefore(seq: number, kept?: ReadonlySet<number>): void {
    this.inferUnknown = true;
    let n = 0;
    while (n < this.rows.length && this.rows[n]!.seq < seq) n++;
    if (n === 0) return;
    const stay = kept?.size ? this.rows.slice(0, n).filter((r) => kept.has(r.seq)) : [];
    this.rows.splice(0, n, ...stay);
  }

  add(frame: Frame): void {
    const rows = this.rows;
    const first = rows.length;
    this.addRows(frame);
    // Rows of a connection whose opening frames went at the cap: their transport is a guess, and the list says so.
    if (this.inferred) for (let i = first; i < rows.length; i++) rows[i]!.transportInferred = true;
  }

  /** Whether the frame addRows took last belongs to a connection whose opening frames are not in view. */
  private inferred = false;

  private addRows(frame: Frame): void {
    const rows = this.rows;
    const conn = 'conn' in frame && frame.conn ? frame.conn : '';
    let ctx = conn ? this.conns.get(conn) : undefined;
    // A frame of a connection not seen opening (its opening frames were dropped at the log's cap, the view rebuilt from
    // what is left): the transport its kind says, and for a WebSocket its session (the connection's, as ws-connect
    // files it); an HTTP response's session header still comes below. It was a blank transport.
    if (conn && !ctx && !OPENS.has(frame.kind) && this.inferUnknown) {
      ctx = { transport: inferredTransport(frame.kind), session: frame.kind.startsWith('ws-') ? wsSessionId(conn) : '', contentType: '', inferred: true };
      this.conns.set(conn, ctx);
    } else if (ctx?.inferred && ctx.transport === 'SSE ?' && !frame.kind.startsWith('sse-')) {
      // A later frame tells an SSE stream's kind: an http-end ends a fetch, an es-error an EventSource.
      ctx.transport = inferredTransport(frame.kind);
    }
    this.inferred = ctx?.inferred === true && !OPENS.has(frame.kind);
    const transport = ctx?.transport ?? '';
    const session = ctx?.session ?? '';
    const pending = this.pending;
    /** A transport row: no JSON-RPC fields. */
    const note = (text: string, dir: Dir = '', error = ''): void => void rows.push(row(frame, dir, transport, session, '', '', error, '', text));
    /** A payload on a message channel (SSE, WebSocket): every message is meant to be JSON-RPC. */
    const messages = (p: Payload, dir: Dir): void => pushMessages(rows, frame, p, { dir, transport, session, conn, json: true, pending });

    switch (frame.kind) {
      case 'page-start':
        return note(`${frame.top ? 'page' : 'frame'} ${frame.url}`);
      case 'page-end':
        // persisted: the page went into the back/forward cache (it may come back), it was not unloaded.
        return note(`${frame.persisted ? 'into back/forward cache' : 'unload'} ${frame.url}`);
      case 'http-request': {
        const c: ConnContext = { transport: `HTTP ${frame.method}`, session: frame.headers['mcp-session-id'] ?? sessionFromUrl(frame.url), contentType: '', inferred: false };
        this.conns.set(frame.conn, c);
        if (!frame.body) return void rows.push(row(frame, 'out', c.transport, c.session, '', '', '', '', frame.url));
        const first = rows.length;
        pushMessages(rows, frame, frame.body, { dir: 'out', transport: c.transport, session: c.session, conn, json: isJsonType(frame.headers['content-type']), pending });
        // A 2026 listen has no session: its stream is known by the listen's id (as in the Sessions view).
        for (let i = first; c.session === '' && i < rows.length; i++) {
          const r = rows[i]!;
          if (r.method === 'subscriptions/listen' && r.id !== '') {
            c.session = r.id;
            for (let k = first; k < rows.length; k++) rows[k]!.session = r.id;
          }
        }
        return;
      }
      case 'http-response': {
        const sid = frame.headers['mcp-session-id'];
        if (ctx && sid) ctx.session = sid;
        const type = frame.headers['content-type'] ?? '';
        if (ctx) ctx.contentType = type;
        // A 4xx/5xx is a failed exchange (a session the server no longer knows, a crash): red, as devtools' Network
        // panel shows it, and is:error finds it.
        const error = frame.status >= 400 ? `HTTP ${frame.status}` : '';
        return void rows.push(row(frame, 'in', transport, ctx?.session ?? '', '', '', error, '', `HTTP ${frame.status} ${type}`));
      }
      case 'http-body':
        return pushMessages(rows, frame, frame.body, { dir: 'in', transport, session, conn, json: isJsonType(ctx?.contentType), pending });
      case 'sse-event':
        if (frame.event === 'endpoint') {
          if (ctx) ctx.session = sessionFromUrl(frame.data.text);
          return void rows.push(row(frame, 'in', transport, ctx?.session ?? '', '', '', '', '', `endpoint ${frame.data.text}`));
        }
        if (frame.data.text === '') return note(frame.id === undefined ? 'SSE event (no data)' : `SSE event id=${frame.id} (no data)`, 'in');
        return messages(frame.data, 'in');
      case 'sse-comment':
        return note(`: ${frame.text}`, 'in');
      case 'http-end':
        // The exchange is over: its context goes (a long capture would keep one per request), and so do the requests
        // only it could have answered.
        this.conns.delete(frame.conn);
        this.pending.endConn(frame.conn);
        // A network or stream failure is an error (the page's own abort is not: an SDK closing its stream aborts it).
        return note(`end ${frame.outcome}${frame.error ? ` (${frame.error.name}: ${frame.error.message})` : ''}`, '', frame.outcome === 'failed' ? (frame.error?.name ?? 'failed') : '');
      case 'es-connect': {
        const c: ConnContext = { transport: 'EventSource', session: sessionFromUrl(frame.url), contentType: '', inferred: false };
        this.conns.set(frame.conn, c);
        // The connect row has the session its URL names, as the rows after it (it had none: its context was new).
        return void rows.push(row(frame, 'out', c.transport, c.session, '', '', '', '', frame.url));
      }
      case 'es-open':
        return note('open');
      case 'es-error':
        // Closed for good (readyState 2): no es-close follows, and the stream is lost: an error. (readyState 0: the
        // browser reconnects by itself; said, not flagged.)
        if (frame.readyState === 2) {
          this.conns.delete(frame.conn);
          this.pending.endConn(frame.conn);
        }
        return frame.readyState === 2 ? note('closed by error', '', 'closed by error') : note('error, reconnecting');
      case 'es-close':
        this.conns.delete(frame.conn);
        this.pending.endConn(frame.conn);
        return note('closed by page');
      case 'ws-connect': {
        // The socket is the session: filed under the session id the engine gives it (ws:<conn>), so the list names it
        // as the other views do (WebSocket #n) and `session:` finds it by that name. It was the bare connection id.
        const session = wsSessionId(frame.conn);
        this.conns.set(frame.conn, { transport: 'WebSocket', session, contentType: '', inferred: false });
        return void rows.push(row(frame, 'out', 'WebSocket', session, '', '', '', '', frame.url));
      }
      case 'ws-open':
        return note(`open ${frame.protocol}`);
      case 'ws-message':
        return messages(frame.data, frame.dir);
      case 'ws-close':
        this.conns.delete(frame.conn);
        this.pending.endConn(frame.conn);
        // Not closed cleanly (1006: the connection dropped without a close frame): an error, as devtools shows it.
        return note(`close ${frame.code} ${frame.reason}`, '', frame.wasClean ? '' : `close ${frame.code}`);
      case 'ws-error':
        return note('error', '', 'WebSocket error');
      case 'capture-error':
        return note(`${frame.where}: ${frame.message}`, '', 'capture error');
    }
  }
}

/** A row's key in the Messages list, `seq.part`: its frame and its place among that frame's rows (a batch is several). */
export function rowKey(rows: readonly Pick<FrameRow, 'seq' | 'part'>[], i: number): string {
  const r = rows[i]!;
  return `${r.seq}.${r.part}`;
}

/** The index of the row with key `seq.part` in rows sorted by seq (binary search), or -1 (also when filtered out). */
export function rowIndexOf(rows: readonly Pick<FrameRow, 'seq' | 'part'>[], key: string): number {
  const dot = key.indexOf('.');
  const seq = Number(key.slice(0, dot));
  const part = Number(key.slice(dot + 1));
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.seq < seq) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < rows.length && rows[i]!.seq === seq; i++) if (rows[i]!.part === part) return i;
  return -1;
}
