// What the decoder remembers about one open HTTP exchange, EventSource or WebSocket while its frames keep coming.
// Dropped when the exchange ends, so memory follows open connections, not history.
import type { HeaderMap } from '../frames.ts';
import type { ConnInfo, DecodedMessage, StreamKind } from './types.ts';

export interface Conn {
  info: ConnInfo;
  source: 'fetch' | 'es' | 'ws';
  url: string;
  reqHeaders: HeaderMap;
  /** Requests sent in this exchange still waiting for their response. */
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
  /** The last SSE `retry` the server sent on this stream (ms): how long it asked the client to wait before resuming. */
  lastRetry: number | undefined;
  /** A GET stream without a session header that may turn out to be the legacy HTTP+SSE transport. */
  legacyCandidate: boolean;
  /** A non-2xx head arrived; its body explains it. */
  errorStatus: boolean;
  /** `post:<conn>`, built once: the request body, the JSON answer and the stream id all use it. */
  post: string | undefined;
}

export function postStream(c: Conn): string {
  return (c.post ??= `post:${c.info.conn}`);
}

export function newConn(info: ConnInfo, source: Conn['source'], url: string, reqHeaders: HeaderMap): Conn {
  return {
    info,
    source,
    url,
    reqHeaders,
    pending: [],
    version: undefined,
    status: 0,
    sse: false,
    stream: undefined,
    streamKind: 'post',
    streamOpen: false,
    opens: 0,
    lastSseId: undefined,
    lastRetry: undefined,
    legacyCandidate: false,
    errorStatus: false,
    post: undefined,
  };
}

/** Per-session transport memory: the negotiated version and the ended streams a GET could resume. */
export interface SessionTrack {
  version: string | undefined;
  /** Most recent first, capped: ended streams that carried SSE ids. */
  ended: { stream: string; lastId: string; endedSeq: number }[];
}

export const MAX_ENDED_STREAMS = 8;
