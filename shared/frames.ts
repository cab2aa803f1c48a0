// The one data type that crosses every boundary: a transport-level observation made in the page.
// The hook creates PageFrames; the background stamps them into Frames (tab sequence, browser frame, page segment).
// Everything else (sessions, subscriptions, findings) is derived from Frames by the engine. Pure types, no runtime code
// beyond the tiny guards at the bottom.

/** Header names are lower-cased; values of secrets are already redacted (see redact.ts). */
export type HeaderMap = Record<string, string>;

/**
 * A captured text body or message. `truncated` is present when the original was larger than the cap: `text` then holds
 * a prefix, `bytes` the full UTF-8 size and `hash` a hash of the full text (hash.ts), so two capped bodies still compare.
 */
export interface Payload {
  text: string;
  truncated?: { bytes: number; hash: string };
  /** The body was not text (binary WebSocket frame, Blob we could not read, FormData…): `text` is a description. */
  opaque?: boolean;
}

export interface ErrorInfo {
  /** `AbortError`, `TypeError`, … exactly as the page saw it. */
  name: string;
  message: string;
}

/** Fields every page frame has. */
export interface FrameCommon {
  /** Random id of the document (one per page load per frame) that made the observation. */
  doc: string;
  /** Per-document counter, from 1, without gaps: the background uses (doc, n) to keep each frame exactly once. */
  n: number;
  /** Wall-clock time in ms since the epoch, with sub-ms precision (performance.timeOrigin + performance.now()). */
  t: number;
}

/** A new document started (hook installed). `top` is true for the tab's top-level frame. */
export interface PageStartFrame extends FrameCommon {
  kind: 'page-start';
  url: string;
  top: boolean;
}

/** The document is going away (pagehide). Everything it had open ends here. */
export interface PageEndFrame extends FrameCommon {
  kind: 'page-end';
  url: string;
  /** pagehide with persisted=true: the page went into the back/forward cache and may come back. */
  persisted: boolean;
}

/** fetch() was called with something we consider MCP traffic (see mcp-detect.ts). */
export interface HttpRequestFrame extends FrameCommon {
  kind: 'http-request';
  /** Unique per tab; links request, response, body, SSE events and end. */
  conn: string;
  method: string;
  /** Absolute URL, secrets in the query redacted. */
  url: string;
  headers: HeaderMap;
  body?: Payload;
}

/** The fetch() promise resolved: the response head. */
export interface HttpResponseFrame extends FrameCommon {
  kind: 'http-response';
  conn: string;
  status: number;
  statusText: string;
  /** `response.url` (after redirects), redacted. */
  url: string;
  redirected: boolean;
  /** Only the headers page JS can see (CORS may hide some: mcp-session-id needs Access-Control-Expose-Headers). */
  headers: HeaderMap;
}

/** The complete body of a non-streaming response (JSON etc.), read from a clone. */
export interface HttpBodyFrame extends FrameCommon {
  kind: 'http-body';
  conn: string;
  body: Payload;
}

/**
 * One Server-Sent Event, from a fetch() text/event-stream response or a native EventSource.
 * `event` is absent for the default "message" type.
 */
export interface SseEventFrame extends FrameCommon {
  kind: 'sse-event';
  conn: string;
  id?: string;
  event?: string;
  data: Payload;
  retry?: number;
}

/** An SSE comment line (`: keep-alive`). */
export interface SseCommentFrame extends FrameCommon {
  kind: 'sse-comment';
  conn: string;
  text: string;
}

/**
 * A fetch exchange ended. `phase` says whether it failed before a response arrived ('request') or while reading the body
 * ('body'). `complete` = body read to the end; `aborted` = AbortSignal; `failed` = network or stream error.
 */
export interface HttpEndFrame extends FrameCommon {
  kind: 'http-end';
  conn: string;
  outcome: 'complete' | 'aborted' | 'failed';
  phase: 'request' | 'body';
  error?: ErrorInfo;
  /** Body bytes seen (0 when phase is 'request'). */
  bytes: number;
}

/** `new EventSource(url)` was called on an MCP candidate. */
export interface EsConnectFrame extends FrameCommon {
  kind: 'es-connect';
  conn: string;
  url: string;
  withCredentials: boolean;
}

/** The EventSource fired `open` (a (re)connection succeeded). */
export interface EsOpenFrame extends FrameCommon {
  kind: 'es-open';
  conn: string;
}

/** The EventSource fired `error`: it reconnects (`readyState` 0) or gave up (2). */
export interface EsErrorFrame extends FrameCommon {
  kind: 'es-error';
  conn: string;
  readyState: number;
}

/** The page called `eventSource.close()`. */
export interface EsCloseFrame extends FrameCommon {
  kind: 'es-close';
  conn: string;
}

/** `new WebSocket(url, protocols)` was called. */
export interface WsConnectFrame extends FrameCommon {
  kind: 'ws-connect';
  conn: string;
  url: string;
  protocols: string[];
}

export interface WsOpenFrame extends FrameCommon {
  kind: 'ws-open';
  conn: string;
  /** The negotiated subprotocol ('' when none). */
  protocol: string;
}

/** One WebSocket message; `dir` 'out' = page sent it, 'in' = page received it. */
export interface WsMessageFrame extends FrameCommon {
  kind: 'ws-message';
  conn: string;
  dir: 'out' | 'in';
  data: Payload;
}

export interface WsCloseFrame extends FrameCommon {
  kind: 'ws-close';
  conn: string;
  code: number;
  reason: string;
  wasClean: boolean;
}

export interface WsErrorFrame extends FrameCommon {
  kind: 'ws-error';
  conn: string;
}

/** A tap failed internally. The page was not affected; this frame says what we could not capture. */
export interface CaptureErrorFrame extends FrameCommon {
  kind: 'capture-error';
  where: string;
  message: string;
  conn?: string;
}

export type PageFrame =
  | PageStartFrame
  | PageEndFrame
  | HttpRequestFrame
  | HttpResponseFrame
  | HttpBodyFrame
  | SseEventFrame
  | SseCommentFrame
  | HttpEndFrame
  | EsConnectFrame
  | EsOpenFrame
  | EsErrorFrame
  | EsCloseFrame
  | WsConnectFrame
  | WsOpenFrame
  | WsMessageFrame
  | WsCloseFrame
  | WsErrorFrame
  | CaptureErrorFrame;

export type FrameKind = PageFrame['kind'];

/** What the background adds when it accepts a page frame into a tab's log. */
export interface FrameStamp {
  /** Per-tab sequence number, from 1, strictly increasing, never reused (also after a service-worker restart). */
  seq: number;
  /** The browser's frame id (0 = top-level frame) taken from the runtime sender, never from the message. */
  frameId: number;
  /** Page segment: increments when the tab's top-level document changes (navigation/reload). */
  segment: number;
}

/** A frame as stored in the tab log, exported in traces and fed to the engine. */
export type Frame = PageFrame & FrameStamp;

/** A PageFrame without the fields the hook's emitter fills in (doc, n, t). Used by the taps. */
export type FrameDraft = PageFrame extends infer F ? (F extends PageFrame ? Omit<F, 'doc' | 'n' | 't'> : never) : never;

/** Every kind, for validation and exhaustive tests. */
export const FRAME_KINDS: readonly FrameKind[] = [
  'page-start',
  'page-end',
  'http-request',
  'http-response',
  'http-body',
  'sse-event',
  'sse-comment',
  'http-end',
  'es-connect',
  'es-open',
  'es-error',
  'es-close',
  'ws-connect',
  'ws-open',
  'ws-message',
  'ws-close',
  'ws-error',
  'capture-error',
];

/** The connection id of a frame, when it belongs to one. */
export function connOf(frame: PageFrame): string | undefined {
  return 'conn' in frame ? frame.conn : undefined;
}

/**
 * A frame of the page's traffic, not its lifecycle (a page's start or end): a trace of lifecycle frames alone has
 * nothing to analyse (the CLI refuses it, the panel says so).
 */
export function isTraffic(frame: PageFrame): boolean {
  return frame.kind !== 'page-start' && frame.kind !== 'page-end';
}
