// What the decoder remembers about one open HTTP exchange, EventSource or WebSocket while its frames keep coming.
// Dropped when the exchange ends, so memory follows open connections, not history.
import type { HeaderMap } from '../frames.ts';
import type { ConnInfo, DecodedMessage, StreamKind } from './types.ts';

export interface Conn {
  info: ConnInfo;
  source: 'fetch' | 'es' | 'ws';
  url: string;
  reqHeaders: HeaderMap;
  /** Requests sent in this exchange still waiting for their response (NO_PENDING before the first: never push onto it). */
  pending: DecodedMessage[];
  /** Protocol version claimed by the exchange (header or `_meta`). */
  version: string | undefined;
  status: number;
  sse: boolean;
  /** Set once the response head (or es-open / ws-open) made it a stream. */
  stream: string | undefined;
  streamKind: StreamKind;
  streamOpen: boolean;
  /** An EventSource reconnects on its own: each open is a new stream (and, for legacy SSE, a new session). */
  opens: number;
  lastSseId: string | undefined;
  /** lastSseId came from a resume (the GET's Last-Event-ID), no event since: the end seq of the stream that delivered it. */
  lastSseIdFrom: number | undefined;
  /** The last SSE `retry` the server sent on this stream (ms): how long it asked the client to wait before resuming. */
  lastRetry: number | undefined;
  /** A GET stream without a session header that may turn out to be the legacy HTTP+SSE transport. */
  legacyCandidate: boolean;
  /** A GET whose Last-Event-ID resumes a per-request (POST) stream: its stream is that kind, not the standalone GET. */
  resumesPost: boolean;
  /** On such a resumed stream, an answer arrived: the request it resumed for is done. */
  resumedAnswered: boolean;
  /** A non-2xx head arrived; its body explains it. */
  errorStatus: boolean;
  /** `post:<conn>`, built once: the request body, the JSON answer and the stream id all use it. */
  post: string | undefined;
  /** The request body was a JSON-RPC batch (an array, also one cut at capture). */
  batch: boolean;
  /**
   * A GET reopening a session's GET stream that ended without event ids (SessionTrack.idlessGets): told on the stream's
   * open, or handed back to the session when this GET gets no stream.
   */
  unresumable: IdlessGap | undefined;
}

export function postStream(c: Conn): string {
  return (c.post ??= `post:${c.info.conn}`);
}

/**
 * A connection's `pending` until its first request: one shared frozen empty list (the pairing makes a list of one
 * then). `[]` and a push made a 17-slot store, ~180 bytes, for the one request of almost every exchange.
 */
export const NO_PENDING: DecodedMessage[] = Object.freeze([]) as unknown as DecodedMessage[];

/** `c` made as newConn makes a new one (every field, in newConn's order): a connection that ended, used again. */
export function resetConn(c: Conn, info: ConnInfo, source: Conn['source'], url: string, reqHeaders: HeaderMap): Conn {
  c.info = info;
  c.source = source;
  c.url = url;
  c.reqHeaders = reqHeaders;
  // Its list, emptied by the answers, is kept for the next request (nothing else refers to it); else NO_PENDING.
  if (c.pending.length !== 0) c.pending = NO_PENDING;
  c.version = undefined;
  c.status = 0;
  c.sse = false;
  c.stream = undefined;
  c.streamKind = 'post';
  c.streamOpen = false;
  c.opens = 0;
  c.lastSseId = undefined;
  c.lastSseIdFrom = undefined;
  c.lastRetry = undefined;
  c.legacyCandidate = false;
  c.resumesPost = false;
  c.resumedAnswered = false;
  c.batch = false;
  c.errorStatus = false;
  c.post = undefined;
  c.unresumable = undefined;
  return c;
}

export function newConn(info: ConnInfo, source: Conn['source'], url: string, reqHeaders: HeaderMap): Conn {
  return {
    info,
    source,
    url,
    reqHeaders,
    pending: NO_PENDING,
    version: undefined,
    status: 0,
    sse: false,
    stream: undefined,
    streamKind: 'post',
    streamOpen: false,
    opens: 0,
    lastSseId: undefined,
    lastSseIdFrom: undefined,
    lastRetry: undefined,
    legacyCandidate: false,
    resumesPost: false,
    resumedAnswered: false,
    batch: false,
    errorStatus: false,
    post: undefined,
    unresumable: undefined,
  };
}

/**
 * Open connections by id, in creation order like a Map. The newest sits in a slot outside the Map: almost every
 * exchange ends before the next one starts, so most never enter it (a Map insert and delete per exchange cost ~2 % of
 * a replay). An id seen again keeps its place, as with Map.set.
 */
export class ConnTable {
  private map = new Map<string, Conn>();
  private newestId: string | undefined = undefined;
  private newest: Conn | undefined = undefined;

  get(id: string): Conn | undefined {
    return id === this.newestId ? this.newest : this.map.get(id);
  }

  set(id: string, c: Conn): void {
    if (id === this.newestId) this.newest = c;
    else if (this.map.has(id)) this.map.set(id, c);
    else {
      this.flush();
      this.newestId = id;
      this.newest = c;
    }
  }

  delete(id: string): void {
    if (id === this.newestId) {
      this.newestId = undefined;
      this.newest = undefined;
    } else this.map.delete(id);
  }

  /** Every open connection, oldest first (a copy: the caller may delete while it walks them). */
  entries(): [string, Conn][] {
    this.flush();
    return [...this.map];
  }

  private flush(): void {
    if (this.newestId === undefined) return;
    this.map.set(this.newestId, this.newest!);
    this.newestId = undefined;
    this.newest = undefined;
  }
}

/** Per-session transport memory: the negotiated version and the ended streams a GET could resume. */
/** A stream of a session that ended with something left to resume. */
export interface EndedStream {
  stream: string;
  kind: StreamKind;
  lastId: string;
  endedSeq: number;
  endedT: number;
  /** Where it was: only a GET to the same endpoint resumes it (and, without a known id, only its own document's). */
  endpoint: string;
  doc: string;
  /** A GET resumed it with its last id (so a later GET without Last-Event-ID is not about it). */
  resumed?: true;
  /** It delivered no event of its own: lastId is what it resumed from, delivered by the stream that ended at this seq. */
  idFromSeq?: number;
  /**
   * A per-request stream the server closed after a `retry` (SEP-1699 polling): the client resumes it by a GET of its
   * own after that wait, and may reopen its GET stream (without Last-Event-ID) first.
   */
  polling?: true;
}

export interface SessionTrack {
  version: string | undefined;
  /** Most recent first, capped: ended streams that carried SSE ids. */
  ended: EndedStream[];
  /**
   * Most recent first, capped: per-request streams that carried SSE ids and ended complete (answered). Nothing is left
   * to resume on them, but a client may resume one anyway (the SDK's does after an error answer: only a result ends
   * a request for it): that GET is the stream resumed, not the session's GET stream, and its id is a known one.
   */
  answered?: EndedStream[];
  /**
   * The last SSE `retry` on any stream of the session: the SDK client keeps one for its whole transport
   * (`_serverRetryMs`) and waits that long before it reopens its GET stream, whichever stream sent it.
   */
  lastRetry?: number;
  /**
   * The session's GET streams that ended without ever carrying an event id (the server keeps no event store, or sent
   * nothing on it yet): nothing can resume them, so the next GET of the same document and endpoint is told what it
   * cannot get back. One per document and endpoint; cleared by that GET, or by a GET stream of theirs with ids.
   */
  idlessGets?: IdlessGap[];
}

/**
 * Where and when a session's GET stream without event ids ended: only a GET of the same document to the same endpoint
 * is its return (session ids are the servers' own: two servers may both say "1"; a reloaded page that resumes the
 * stored id did not live through the old page's gap).
 */
export interface IdlessGap {
  seq: number;
  t: number;
  endpoint: string;
  doc: string;
}

export const MAX_ENDED_STREAMS = 8;
export const MAX_ANSWERED_STREAMS = 16;
