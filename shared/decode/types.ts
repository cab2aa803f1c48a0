// The decoded view of the wire: JSON-RPC messages with the transport context the engine needs (endpoint, protocol
// generation, session, stream, direction, pairing), plus the transport events that are not messages (stream opened or
// closed, HTTP status, resume attempts). Pure types. Nothing here is ever thrown: bad input becomes a value.
import type { HeaderMap } from '../frames.ts';
import type { EndedStream } from './conn-state.ts';

/** 'out' = the page sent it (client → server); 'in' = the page received it. */
export type Direction = 'out' | 'in';

/** How the page talks to the server. */
export type Transport = 'streamable-http' | 'http-sse' | 'websocket';

/** Protocol generation: '2025' = session-based revisions up to 2025-11-25; '2026' = 2026-07-28 and later (no sessions). */
export type Generation = '2025' | '2026';

/**
 * The channel a message travelled on. `post` = a JSON response body (or the request body itself), `post-sse` = a
 * per-request SSE response, `get` = the standalone GET stream of a session, `listen` = a 2026 `subscriptions/listen`
 * stream, `sse` = the legacy HTTP+SSE stream, `ws` = a WebSocket.
 */
export type StreamKind = 'post' | 'post-sse' | 'get' | 'listen' | 'sse' | 'ws';

export type MessageKind = 'request' | 'notification' | 'result' | 'error' | 'invalid';

export type RequestId = string | number;

/** One JSON-RPC message as seen on the wire, with its context. Immutable except `pair` on requests (set once). */
export interface DecodedMessage {
  /** Position in the engine's message list (0-based, dense). */
  index: number;
  /** Frame that carried it (several messages share a seq in a batch). */
  seq: number;
  t: number;
  doc: string;
  conn: string;
  dir: Direction;
  transport: Transport;
  generation: Generation;
  /** Negotiated or claimed protocol version, when known. */
  version?: string;
  /** origin + path of the MCP endpoint (for legacy HTTP+SSE: the SSE URL). */
  endpoint: string;
  /** Session id (Mcp-Session-Id, legacy sessionId, `ws:<conn>`); absent on 2026 and before a session exists. */
  session?: string;
  /** `<kind>:<conn>`. */
  stream: string;
  streamKind: StreamKind;
  kind: MessageKind;
  /** The method; on responses, the method of the paired request. */
  method?: string;
  id?: RequestId | null;
  /**
   * Index of the paired message: on a response, its request (set at creation); on a request, its response (filled in
   * once when the response arrives — the only field that ever changes, and only from undefined to a number).
   */
  pair?: number;
  /** Frame seq of the paired message (same lifecycle as `pair`). */
  pairSeq?: number;
  /** Position inside a JSON-RPC batch (2025-03-26). */
  batch?: number;
  /** false for a well-formed message whose method this tool does not know. */
  known: boolean;
  /** Why the message is invalid, or which schema rule it breaks (kind stays what the envelope says). */
  problem?: string;
  /** The payload was cut at the capture cap: `raw` is a prefix, `hash` identifies the full text. */
  truncated?: boolean;
  hash?: string;
  /** Full size of a truncated payload in bytes. */
  bytes?: number;
  /** Resource URI the message is about (read, subscribe, unsubscribe, updated), when it has one. */
  uri?: string;
  /** SSE event id that carried it. */
  sseId?: string;
  /** The payload text (for a batch, the whole batch; `batch` says which element). Parse it with `decodedJson()`. */
  raw: string;
}

/** What an HTTP exchange is for, from the request. */
export type ExchangeRole = 'post' | 'get' | 'delete' | 'other';

/**
 * The transport identity of one HTTP exchange / EventSource / WebSocket, shared by its messages and the events about
 * it. Never mutated: when something changes (the session id arrives on the initialize answer), the decoder makes a
 * new one, so a message's info is the one it was seen with.
 */
export interface ConnInfo {
  conn: string;
  doc: string;
  endpoint: string;
  transport: Transport;
  generation: Generation;
  role: ExchangeRole;
  session?: string;
  /** Set on a POST whose body is a `subscriptions/listen` request. */
  listenId?: RequestId;
}

/** Transport facts that are not JSON-RPC messages. */
export type WireEvent =
  | {
      type: 'request-head';
      info: ConnInfo;
      method: string;
      headers: HeaderMap;
      /** Methods of the JSON-RPC requests in the body (empty for GET/DELETE or notifications only). */
      requestMethods: string[];
      /** A modern `_meta` protocol-version claim in the body, if any. */
      metaVersion: string | undefined;
      /** The body field a 2026 `Mcp-Name` header must mirror (tools/call name, resources/read uri…), if the request has one. */
      mcpName: { field: string; value: string } | undefined;
    }
  | { type: 'response-head'; info: ConnInfo; status: number; contentType: string; sse: boolean; headers: HeaderMap }
  | {
      type: 'http-error-body';
      info: ConnInfo;
      status: number;
      /** The body text of a non-2xx response (what it says about the session matters for 400s). */
      text: string;
    }
  | {
      type: 'stream-open';
      info: ConnInfo;
      stream: string;
      kind: StreamKind;
      /** A session's GET stream back after one that carried no event ids ended (`seq`, `t`): nothing could resume it. */
      unresumable?: { seq: number; t: number };
    }
  | {
      type: 'stream-close';
      info: ConnInfo;
      stream: string;
      kind: StreamKind;
      /** complete = ended normally (server closed), aborted = the page aborted it, failed = network/stream error. */
      outcome: 'complete' | 'aborted' | 'failed';
      /** An EventSource that will reconnect on its own (readyState 0). */
      reconnecting?: boolean;
      /**
       * Closed because its page document went (a page-end that is not a back/forward-cache one; the page-end event
       * follows): not the client closing it nor the transport dropping — the session ends with the page (`unload`).
       */
      pageLeft?: boolean;
      /** The server's last `retry` on a stream that carried event ids: it asked to be resumed after this many ms. */
      retryMs?: number;
    }
  | {
      type: 'get-request';
      info: ConnInfo;
      /** The Last-Event-ID request header, if sent. */
      lastEventId: string | undefined;
      /** The most recent ended stream of the same session that carried event ids, and the last id it carried. */
      previous: EndedStream | undefined;
      /** True when `lastEventId` equals the last id of some ended stream of the session. */
      matchesKnownId: boolean;
    }
  | { type: 'legacy-endpoint'; info: ConnInfo; stream: string; postUrl: string }
  | {
      type: 'exchange-failed';
      info: ConnInfo;
      /** Requests of this exchange that got no JSON-RPC response (the page saw an exception). */
      requests: DecodedMessage[];
      status?: number;
      /** Why, when not the exchange's own failure: the client cancelled the request, the connection that would carry its answer closed, or the page itself went. */
      cause?: 'cancelled' | 'connection-closed' | 'page-left';
      /** How the exchange itself ended, when not normally: the page aborted it, or the network or stream failed. */
      outcome?: 'aborted' | 'failed';
    }
  | { type: 'page-end'; doc: string; persisted: boolean }
  | { type: 'page-start'; doc: string; url: string; top: boolean };

/** Where decoded output goes. The engine implements it; tests can too. */
export interface DecodeSink {
  /**
   * `value` is the parsed JSON-RPC object (undefined for invalid or truncated messages); `info` the exchange it came
   * on. `m` is the decoder's own object: a sink that keeps it must not rely on `pair` of requests being filled later.
   */
  message(m: DecodedMessage, value: unknown, info: ConnInfo): void;
  wire(e: WireEvent, seq: number, t: number): void;
  /**
   * The sink keeps no message object once `message` returns (the engine keeps columns), nor a request-head event (nor
   * its mcpName, nor its requestMethods list) once `wire` returns: the decoder then hands every message but a request in
   * one object it refills, every request-head in another, and a body's one method in one list it refills, not a new one
   * each (a request is the pairing's, made anew).
   */
  readonly keepsNoMessages?: boolean;
}
