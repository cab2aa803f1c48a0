// HAR 1.2 of a tab's MCP traffic, built from frames: one entry per fetch exchange, EventSource and WebSocket, with
// request and response headers, bodies, timings, and a stream's Server-Sent Events in Chrome's own
// `_eventSourceMessages` (what its Network panel exports and imports: one per event, its time in seconds) and, with
// what that lacks (keep-alive comments, retry, cut events' sizes and hashes, ms offsets), in our `_sseEvents`.
// WebSocket messages use Chrome's own `_webSocketMessages`. Frames are redacted at capture; `redact` (default on) re-applies the rules to every frame
// (redact-frame.ts) as a second line for traces from elsewhere and secret headers named after the capture. Pure: no browser or Node API.
import type { Frame, HeaderMap, Payload } from './frames.ts';
import { utf8Length } from './payload.ts';
import { REDACTED_PREFIX, decodeComponent } from './redact.ts';
import { redactFrame } from './redact-frame.ts';

export interface HarOptions {
  creatorName?: string;
  creatorVersion?: string;
  /** Re-apply header and URL redaction (default true). Values already redacted are left as they are. */
  redact?: boolean;
  /** Header names redacted in addition to the built-in list (lower-case). */
  extraSecretHeaders?: readonly string[];
  /** Frames the log lost before the export (its cap) and messages it refused: said in `log.comment`. */
  dropped?: { frames: number; rejected?: number };
  /**
   * The export instant (ms since the epoch; the view's clock, an imported trace's createdAt): an exchange still open
   * then (outcome `open`: a live GET or listen stream, a request waiting for its answer) runs to it, so a stream open
   * for minutes is not shown as the few ms to its last frame. Default: the export's latest frame. Never before the
   * exchange's own last frame. One whose document was replaced without a page-end (outcome `page-gone`) ends at
   * the next top-level page's start instead, when that is earlier.
   */
  now?: number;
  /**
   * Seqs of frames the panel hid on purpose (an iframe page that left, its frames interleaved with a new page's in
   * the same segment): a hole of only those in the export's seqs is no loss, not marked as a gap (code review 3, item 2).
   */
  hiddenSeqs?: ReadonlySet<number>;
}

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarSseEvent {
  /** Milliseconds since the epoch when the event was read. */
  t: number;
  /** Milliseconds after the entry started. */
  offsetMs: number;
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  /** An SSE comment line (keep-alive) instead of an event. */
  comment?: string;
  truncated?: { bytes: number; hash: string };
}

/** One Server-Sent Event as Chrome's Network panel exports and imports it (`_eventSourceMessages`). */
export interface HarEventSourceMessage {
  /** Seconds since the epoch (as `_webSocketMessages`: Chrome's importer puts an entry's clock on the epoch in seconds). */
  time: number;
  /** The event's type: `message` when the server named none (as EventSource dispatches it). */
  eventName: string;
  /** The event's id field ('' when none). */
  eventId: string;
  data: string;
}

export interface HarWebSocketMessage {
  type: 'send' | 'receive';
  /** Seconds since the epoch (Chrome's format). */
  time: number;
  opcode: 1 | 2;
  /**
   * The text (a binary frame the page could read is decoded as UTF-8 at capture and shown as text, opcode 1), or empty
   * for opcode 2: a binary frame that was not read (`_note` says what it was).
   */
  data: string;
  _note?: string;
  /** The message was cut at the capture cap: `data` is a prefix. */
  _truncated?: { bytes: number; hash: string };
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: never[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: never[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    /** Chrome's field for a failed request (its importer shows the entry as failed): set only for a real failure. */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: number; wait: number; receive: number };
  _resourceType: 'fetch' | 'eventsource' | 'websocket';
  comment?: string;
  _sseEvents?: HarSseEvent[];
  _eventSourceMessages?: HarEventSourceMessage[];
  _webSocketMessages?: HarWebSocketMessage[];
  /** How the exchange ended as the page saw it, and the frame seqs it was built from. */
  _mcp: {
    conn: string;
    outcome?: string;
    error?: string;
    seqs: [number, number];
    redirected?: boolean;
    finalUrl?: string;
    /** An EventSource's reconnections after its first open. */
    reconnects?: number;
    /** A WebSocket's close, as the page saw it. */
    close?: { code: number; reason: string; wasClean: boolean };
    /** Its opening frames are not in the log (its cap dropped them, or a trace cut them off): method and URL unknown. */
    partial?: true;
    /**
     * It went on (its response begun, not ended) across frames missing from the export (seqs `[first, last]` missing,
     * from the first such gap to the last): the log's trim kept its opening frames, but any of its own frames among
     * the missing ones (events, messages, a body) are not in the entry.
     */
    gap?: [number, number];
  };
}

export interface HarLog {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: Array<{ startedDateTime: string; id: string; title: string; pageTimings: Record<string, never> }>;
    entries: HarEntry[];
    comment: string;
  };
}

export const HAR_REDACTION_NOTE =
  'Secrets are redacted: Authorization, Cookie and auth-like headers and token-like query parameters (also in ' +
  `Referer and Location) are replaced by ${REDACTED_PREFIX}<hash>]; bodies above the capture cap keep a prefix, their size and a hash. ` +
  'Message bodies are as the page sent and received them.';
/**
 * What the log lost, for `log.comment` ('' when nothing): the frames its cap dropped, the messages it refused, and the
 * entries that show it (`gapped`: exchanges that went on across frames missing from the export, `partial`: those
 * whose opening frames are missing).
 */
function droppedNote(d: HarOptions['dropped'], gapped: number, partial: number): string {
  const parts: string[] = [];
  if (d && d.frames > 0) parts.push(`${d.frames} frame${d.frames === 1 ? ' was' : 's were'} dropped by the log's cap before this export`);
  if (gapped > 0) {
    parts.push(
      `${gapped} exchange${gapped === 1 ? '' : 's'} went on across frames missing from this export (the log kept ${gapped === 1 ? 'its' : 'their'} opening frames): ` +
        `what ${gapped === 1 ? 'it' : 'they'} had among them (events, messages, a body) is missing (_mcp.gap)`,
    );
  }
  if (partial > 0) parts.push(`${partial} exchange${partial === 1 ? ' has' : 's have'} only ${partial === 1 ? 'its' : 'their'} later frames: how ${partial === 1 ? 'it' : 'they'} began is missing (_mcp.partial)`);
  if (d?.rejected) parts.push(`${d.rejected} message${d.rejected === 1 ? ' was' : 's were'} refused by the extension as malformed`);
  return parts.length ? ` ${parts.join('; ')}.` : '';
}

/** The secret headers the user named in the settings, which this export redacted too ('' when none). */
function extraHeadersNote(extra: readonly string[]): string {
  const names = [...new Set(extra)];
  if (!names.length) return '';
  return ` Also redacted, as named in the extension's settings: the header${names.length === 1 ? '' : 's'} ${names.join(', ')}.`;
}

export const HAR_UNREDACTED_NOTE =
  'Not redacted again by this export: headers and URLs are as stored (redacted at capture by this extension; a trace from elsewhere may not be). ' +
  'Message bodies are as the page sent and received them.';

const iso = (t: number): string => new Date(t).toISOString();

function headerList(h: HeaderMap): HarNameValue[] {
  return Object.entries(h).map(([name, value]) => ({ name, value }));
}

function queryList(url: string): HarNameValue[] {
  const q = url.indexOf('?');
  if (q < 0) return [];
  const h = url.indexOf('#', q);
  const out: HarNameValue[] = [];
  for (const part of url.slice(q + 1, h < 0 ? undefined : h).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push({ name: decodeComponent(eq < 0 ? part : part.slice(0, eq)), value: decodeComponent(eq < 0 ? '' : part.slice(eq + 1)) });
  }
  return out;
}


/**
 * Bytes of a captured payload; -1 when unknown (a body that was not text at capture: its text is a description, and
 * its size is known only when `truncated` carries it).
 */
function payloadSize(p: Payload): number {
  if (p.opaque) return p.truncated ? p.truncated.bytes : -1;
  return p.truncated ? p.truncated.bytes : utf8Length(p.text);
}

/** HAR request URLs exclude the fragment (HAR 1.2 `request.url`). */
function withoutFragment(u: string): string {
  const h = u.indexOf('#');
  return h < 0 ? u : u.slice(0, h);
}

function truncationNote(p: Payload): string | undefined {
  if (p.opaque) return `not text at capture; text is a description${p.truncated ? ` (${p.truncated.bytes} bytes, hash ${p.truncated.hash} of its bytes)` : ''}`;
  if (p.truncated) return `truncated at capture: ${p.truncated.bytes} bytes in full, hash ${p.truncated.hash}; text is a prefix`;
  return undefined;
}

/** The SSE wire form of the captured events, so the body reads like what the server sent. */
export function sseText(events: readonly HarSseEvent[]): string {
  let out = '';
  for (const e of events) {
    if (e.comment !== undefined) {
      out += `: ${e.comment}\n\n`;
      continue;
    }
    if (e.id !== undefined) out += `id: ${e.id}\n`;
    if (e.event !== undefined) out += `event: ${e.event}\n`;
    if (e.retry !== undefined) out += `retry: ${e.retry}\n`;
    for (const line of (e.data ?? '').split('\n')) out += `data: ${line}\n`;
    out += '\n';
  }
  return out;
}

/** Chrome's `_eventSourceMessages` of the captured events (comments are not events: they have no place there). */
export function eventSourceMessages(events: readonly HarSseEvent[]): HarEventSourceMessage[] {
  const out: HarEventSourceMessage[] = [];
  for (const e of events) {
    if (e.comment !== undefined) continue;
    out.push({ time: e.t / 1000, eventName: e.event ?? 'message', eventId: e.id ?? '', data: e.data ?? '' });
  }
  return out;
}

interface Building {
  entry: HarEntry;
  startT: number;
  responseT: number | undefined;
  lastT: number;
  endT: number | undefined;
  /** Bytes the text of cut SSE events lacks, and how many were cut. */
  missingBytes: number;
  cutEvents: number;
  /** The document that opened it: its page-end ends it. */
  doc: string;
  /** The response body was not text at capture (its size comes from the exchange's end). */
  opaqueBody: boolean;
  firstSeq: number;
  lastSeq: number;
  /**
   * The JSON-RPC ids the request asked about; undefined until its body is read as JSON-RPC (none captured, cut at
   * capture, not JSON, a partial entry whose request frame is gone): then any answer counts as done.
   */
  askedIds: Set<string> | undefined;
  /** The ids of the JSON-RPC answers (results and errors) its response carried. */
  answeredIds: Set<string>;
}

/**
 * The JSON-RPC messages of a text (one message or a batch), or undefined when it is not JSON (a body cut at capture,
 * not text, not JSON-RPC).
 */
function rpcMessages(text: string): Record<string, unknown>[] | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const all = Array.isArray(v) ? v : [v];
  return all.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m));
}

const rpcId = (id: unknown): string | undefined => (typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined);

/**
 * The ids of the requests (a method and an id) among the messages of a request body that wait for an answer. A
 * 2026-07-28 `subscriptions/listen` does not: its answer only comes when the server ends the stream gracefully, and the
 * page closing it (an abort mid-body) is the 2026 form of a GET stream closed by its AbortController.
 */
function requestIds(text: string): Set<string> | undefined {
  const msgs = rpcMessages(text);
  if (!msgs) return undefined;
  const out = new Set<string>();
  for (const m of msgs) {
    const id = rpcId(m.id);
    if (typeof m.method === 'string' && m.method !== 'subscriptions/listen' && id !== undefined) out.add(id);
  }
  return out;
}

/** Adds the ids of the answers (a result or an error, no method) among the messages of a response text. */
function addAnswerIds(text: string, into: Set<string>): void {
  for (const m of rpcMessages(text) ?? []) {
    const id = rpcId(m.id);
    if (m.method === undefined && id !== undefined && ('result' in m || 'error' in m)) into.add(id);
  }
}

/**
 * A fetch aborted while its body was read did what it was for (no `_error`): a GET stream the page closed, a DELETE,
 * an empty 202, a POST whose JSON-RPC answers had all come (the SDK then releases or cancels the rest; a listen's own
 * id is not waited for, see requestIds: a `subscriptions/listen` the page closed is done). A POST aborted
 * before its answer came (its request timed out, the user cancelled it) failed.
 */
function abortedAfterPurpose(b: Building): boolean {
  const method = b.entry.request.method;
  if (method === 'GET' || method === 'DELETE' || b.entry.response.status === 202) return true;
  if (b.askedIds === undefined) return b.answeredIds.size > 0;
  for (const id of b.askedIds) if (!b.answeredIds.has(id)) return false;
  return true;
}

/** Builds the HAR for `frames` (any order; they are sorted by seq). */
export function buildHar(frames: readonly Frame[], options: HarOptions = {}): HarLog {
  const steps = buildHarSteps(frames, options);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Are the seqs [from, to) all hidden on purpose? Stops at the first that is not (a cap's hole: at once). */
function allHidden(from: number, to: number, hidden: ReadonlySet<number> | undefined): boolean {
  if (!hidden || hidden.size < to - from) return false;
  for (let s = from; s < to; s++) if (!hidden.has(s)) return false;
  return true;
}

/** How many frames, then entries, buildHarSteps handles between two yields. */
const HAR_STEP_FRAMES = 512;
const HAR_STEP_ENTRIES = 64;

/**
 * buildHar in steps, for a caller that spreads a large export over several tasks (the panel: PanelStore's exports).
 * Yields how far it got (0–1: the frames read, then the entries finished) every few hundred frames and entries;
 * returns the HAR. The same work as buildHar, only paused in between.
 */
export function* buildHarSteps(frames: readonly Frame[], options: HarOptions = {}): Generator<number, HarLog, void> {
  const redact = options.redact ?? true;
  const extra = (options.extraSecretHeaders ?? []).map((h) => h.toLowerCase());
  // Redaction again, whole frames (headers, URLs, the legacy endpoint, subprotocols, error texts): see redact-frame.ts.
  const sorted = (redact ? frames.map((f) => redactFrame(f, extra)) : [...frames]).sort((a, b) => a.seq - b.seq);
  const pages: HarLog['log']['pages'] = [];
  const pageOfSegment = new Map<number, string>();
  const open = new Map<string, Building>();
  /** Exchanges their page's end closed, by connection. */
  const endedWithPage = new Map<string, Building>();
  const done: Building[] = [];
  /** Top-level page starts, in seq order: a later one of another document replaced an unended one. */
  const topStarts: { seq: number; t: number; doc: string }[] = [];
  /** Each document's last frame seq (a document back from the back/forward cache is still alive). */
  const lastSeqOfDoc = new Map<string, number>();

  const start = (f: Frame, conn: string, method: string, u: string, headers: HeaderMap, type: HarEntry['_resourceType']): Building => {
    const entry: HarEntry = {
      startedDateTime: iso(f.t),
      time: 0,
      request: { method, url: withoutFragment(u), httpVersion: 'unknown', cookies: [], headers: headerList(headers), queryString: queryList(withoutFragment(u)), headersSize: -1, bodySize: 0 },
      response: { status: 0, statusText: '', httpVersion: 'unknown', cookies: [], headers: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1 },
      cache: {},
      timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 },
      _resourceType: type,
      _mcp: { conn, seqs: [f.seq, f.seq] },
    };
    const page = pageOfSegment.get(f.segment);
    if (page !== undefined) entry.pageref = page;
    const b: Building = { entry, startT: f.t, responseT: undefined, lastT: f.t, endT: undefined, missingBytes: 0, cutEvents: 0, doc: f.doc, opaqueBody: false, firstSeq: f.seq, lastSeq: f.seq, askedIds: undefined, answeredIds: new Set() };
    const prev = open.get(conn);
    if (prev) done.push(prev);
    open.set(conn, b);
    return b;
  };

  const startPartial = (f: Frame, conn: string): Building => {
    const type = f.kind.startsWith('es-') ? 'eventsource' : f.kind.startsWith('ws-') ? 'websocket' : 'fetch';
    const b = start(f, conn, type === 'fetch' ? 'UNKNOWN' : 'GET', f.kind === 'http-response' ? f.url : '', {}, type);
    if (type === 'websocket') b.entry._webSocketMessages = [];
    b.entry._mcp.partial = true;
    b.entry.comment = 'The log no longer has how this exchange began (its cap dropped the oldest frames): method and URL unknown.';
    return b;
  };

  let prevSeq: number | undefined;
  let stepped = 0;
  for (const f of sorted) {
    if (++stepped % HAR_STEP_FRAMES === 0) yield (0.6 * stepped) / sorted.length;
    if (prevSeq !== undefined && f.seq > prevSeq + 1 && !allHidden(prevSeq + 1, f.seq, options.hiddenSeqs)) {
      // Frames missing here (the log's cap dropped them; its trim kept the openers of what went on): an exchange whose
      // response had begun and not ended may have lost some of its own among them.
      for (const b of open.values()) {
        if (b.responseT === undefined || b.endT !== undefined) continue;
        const g = b.entry._mcp.gap;
        b.entry._mcp.gap = [g ? g[0] : prevSeq + 1, f.seq - 1];
      }
    }
    prevSeq = f.seq;
    lastSeqOfDoc.set(f.doc, f.seq);
    if (f.kind === 'page-end') {
      // A page kept in the back/forward cache may come back with its connections: not an end.
      if (f.persisted) continue;
      // Whatever its document still had open ended with it.
      for (const [conn, b] of open) {
        if (b.doc !== f.doc || b.endT !== undefined) continue;
        b.endT = f.t;
        b.lastT = f.t;
        b.entry._mcp.outcome = 'page-ended';
        done.push(b);
        open.delete(conn);
        endedWithPage.set(conn, b);
      }
      continue;
    }
    if (f.kind === 'page-start') {
      if (f.top) topStarts.push({ seq: f.seq, t: f.t, doc: f.doc });
      if (f.top && !pageOfSegment.has(f.segment)) {
        const id = `page_${f.segment}`;
        pageOfSegment.set(f.segment, id);
        pages.push({ startedDateTime: iso(f.t), id, title: f.url, pageTimings: {} });
      }
      continue;
    }
    if (f.kind === 'http-request') {
      const b = start(f, f.conn, f.method, f.url, f.headers, 'fetch');
      if (f.body) {
        const note = truncationNote(f.body);
        // Without a Content-Type header the capture does not know what fetch sent (text/plain for a string, a Blob's
        // own type, form encoding for URLSearchParams, nothing for a buffer).
        const mimeType = f.headers['content-type'] ?? 'x-unknown';
        b.entry.request.postData = { mimeType, text: f.body.text, ...(note ? { comment: note } : {}) };
        b.entry.request.bodySize = payloadSize(f.body);
        b.askedIds = f.body.opaque || f.body.truncated ? undefined : requestIds(f.body.text);
      }
      continue;
    }
    if (f.kind === 'es-connect') {
      start(f, f.conn, 'GET', f.url, { accept: 'text/event-stream' }, 'eventsource');
      continue;
    }
    if (f.kind === 'ws-connect') {
      const b = start(f, f.conn, 'GET', f.url, f.protocols.length ? { 'sec-websocket-protocol': f.protocols.join(', ') } : {}, 'websocket');
      b.entry._webSocketMessages = [];
      continue;
    }
    const conn = 'conn' in f ? f.conn : undefined;
    // A frame of an exchange whose opening frames are gone still gets an entry (a capture error alone makes none).
    // A frame its document sent after its page-end (the hook flushes at pagehide) belongs to the entry that ended.
    const b = conn === undefined ? undefined : (open.get(conn) ?? endedWithPage.get(conn) ?? (f.kind === 'capture-error' ? undefined : startPartial(f, conn)));
    if (!b) continue;
    b.lastT = f.t;
    b.lastSeq = f.seq;
    const e = b.entry;
    // Ended with its page: what comes after adds to it, the end stays the page's.
    const pageEndT = endedWithPage.get(conn!) === b ? b.endT : undefined;
    switch (f.kind) {
      case 'http-response':
        b.responseT = f.t;
        e.response.status = f.status;
        e.response.statusText = f.statusText;
        e.response.headers = headerList(f.headers);
        e.response.content.mimeType = f.headers['content-type'] ?? 'x-unknown';
        // An event stream always has the field, even while no event came yet.
        if (e.response.content.mimeType.startsWith('text/event-stream')) e._sseEvents ??= [];
        // fetch followed the redirect: this is the final response (its own redirectURL is empty); where it ended up
        // is kept beside it. HAR's redirectURL is the Location of a 3xx response, which the page never sees.
        if (f.redirected) {
          e._mcp.redirected = true;
          e._mcp.finalUrl = f.url;
        }
        break;
      case 'http-body': {
        e.response.content.text = f.body.text;
        e.response.content.size = Math.max(0, payloadSize(f.body));
        e.response.bodySize = payloadSize(f.body);
        b.opaqueBody = f.body.opaque === true;
        if (!f.body.opaque) addAnswerIds(f.body.text, b.answeredIds);
        const note = truncationNote(f.body);
        if (note) e.response.content.comment = note;
        break;
      }
      case 'sse-event': {
        const ev: HarSseEvent = { t: f.t, offsetMs: f.t - b.startT, data: f.data.text };
        if (f.id !== undefined) ev.id = f.id;
        if (f.event !== undefined) ev.event = f.event;
        if (f.retry !== undefined) ev.retry = f.retry;
        if (f.data.truncated) ev.truncated = f.data.truncated;
        (e._sseEvents ??= []).push(ev);
        if (!f.data.truncated) addAnswerIds(f.data.text, b.answeredIds);
        // A cut event's text is a prefix: count the bytes it lacks (the entry's text is the events' wire form).
        if (f.data.truncated) {
          b.missingBytes += f.data.truncated.bytes - utf8Length(f.data.text);
          b.cutEvents++;
        }
        break;
      }
      case 'sse-comment':
        (e._sseEvents ??= []).push({ t: f.t, offsetMs: f.t - b.startT, comment: f.text });
        break;
      case 'es-open':
        if (b.responseT !== undefined) e._mcp.reconnects = (e._mcp.reconnects ?? 0) + 1;
        b.responseT ??= f.t;
        e.response.status = 200;
        e.response.statusText = 'OK';
        e.response.content.mimeType = 'text/event-stream';
        e._sseEvents ??= [];
        break;
      case 'es-error':
        if (f.readyState === 2) {
          b.endT = f.t;
          e._mcp.outcome = 'failed';
          e._mcp.error = b.responseT === undefined ? 'EventSource could not connect' : 'EventSource failed and gave up';
          e.response._error = e._mcp.error;
        }
        break;
      case 'es-close':
        b.endT = f.t;
        e._mcp.outcome = 'aborted';
        break;
      case 'ws-open':
        b.responseT = f.t;
        e.response.status = 101;
        e.response.statusText = 'Switching Protocols';
        if (f.protocol) e.response.headers = [{ name: 'sec-websocket-protocol', value: f.protocol }];
        break;
      case 'ws-message':
        e._webSocketMessages?.push(
          f.data.opaque
            ? { type: f.dir === 'out' ? 'send' : 'receive', time: f.t / 1000, opcode: 2, data: '', _note: f.data.text }
            : { type: f.dir === 'out' ? 'send' : 'receive', time: f.t / 1000, opcode: 1, data: f.data.text, ...(f.data.truncated ? { _truncated: f.data.truncated, _note: truncationNote(f.data) } : {}) },
        );
        break;
      case 'ws-close':
        b.endT = f.t;
        e._mcp.outcome = f.wasClean ? 'complete' : 'failed';
        e._mcp.close = { code: f.code, reason: f.reason, wasClean: f.wasClean };
        if (b.responseT === undefined) e.response._error = e._mcp.error ?? 'WebSocket could not connect';
        break;
      case 'ws-error':
        e._mcp.error = 'WebSocket error';
        e.response._error = e._mcp.error;
        break;
      case 'http-end':
        b.endT = f.t;
        e._mcp.outcome = f.outcome;
        if (f.error) {
          e._mcp.error = `${f.error.name}: ${f.error.message}`;
          // `_error` (Chrome's: its importer shows the entry as failed) only for a failure: a network or stream error,
          // an abort before the head, a POST aborted mid-body before its answer came (a request timeout, a cancel).
          // The page or its SDK cancelling or releasing the body once the exchange did its work (an empty 202 or a
          // DELETE's answer released unread, a GET stream or a 2026 subscriptions/listen closed by its AbortController,
          // a POST's stream after its answer) is how such exchanges end when all is well: outcome `aborted` and the
          // reason in `_mcp` only.
          if (!(f.outcome === 'aborted' && f.phase === 'body' && abortedAfterPurpose(b))) e.response._error = e._mcp.error;
        }
        // The bytes read are the size of a stream, of a body that was not text, and of one that never came (a 204).
        if (e._sseEvents || b.opaqueBody || (e.response.content.text === undefined && f.phase === 'body')) {
          e.response.bodySize = f.bytes;
          e.response.content.size = f.bytes;
        }
        break;
      case 'capture-error':
        e._mcp.error = `capture error in ${f.where}: ${f.message}`;
        break;
    }
    if (pageEndT !== undefined) {
      b.endT = b.lastT = pageEndT;
      e._mcp.outcome = 'page-ended';
    }
  }

  // In time order, as HAR readers expect (documents of several frames have their own clocks); seq breaks ties.
  const all = [...done, ...open.values()].sort((a, b) => a.startT - b.startT || a.firstSeq - b.firstSeq);
  // The export instant: given, else the latest frame of the export (frame times are wall-clock, comparable across documents).
  const exportT = options.now ?? sorted.reduce((m, f) => Math.max(m, f.t), -Infinity);
  const entries: HarEntry[] = [];
  for (const b of all) {
    if (entries.length % HAR_STEP_ENTRIES === HAR_STEP_ENTRIES - 1) yield 0.6 + (0.4 * entries.length) / all.length;
    const e = b.entry;
    // Still open when the export was made (a live stream, a request waiting for its answer): it lasts to the export.
    if (b.endT === undefined && e._mcp.outcome === undefined) e._mcp.outcome = 'open';
    let openEnd = exportT;
    if (e._mcp.outcome === 'open') {
      // Its document ended without a page-end (a crash, a lost page-end) if a later top-level page of another
      // document started and its own document sent nothing after: it ends there at the latest, not at the export.
      const gone = topStarts.find((p) => p.seq > b.lastSeq && p.doc !== b.doc);
      if (gone && (lastSeqOfDoc.get(b.doc) ?? -1) < gone.seq) {
        e._mcp.outcome = 'page-gone';
        openEnd = Math.min(exportT, gone.t);
      }
    }
    const end = b.endT ?? (e._mcp.outcome === 'open' || e._mcp.outcome === 'page-gone' ? Math.max(b.lastT, openEnd) : b.lastT);
    const resp = b.responseT ?? end;
    e.timings.wait = Math.max(0, resp - b.startT);
    e.timings.receive = Math.max(0, end - resp);
    e.time = e.timings.send + e.timings.wait + e.timings.receive;
    e._mcp.seqs = [b.firstSeq, b.lastSeq];
    if (e._mcp.gap) {
      const note = `Frames ${e._mcp.gap[0]}–${e._mcp.gap[1]} are missing from this export (the log's cap dropped them while this exchange went on): any of its own frames among them (events, messages, its body) are not here.`;
      e.comment = e.comment ? `${e.comment} ${note}` : note;
    }
    if (e._sseEvents) {
      e._eventSourceMessages = eventSourceMessages(e._sseEvents);
      e.response.content.text = sseText(e._sseEvents);
      // The wire bytes when the stream's end said how many; else what the text holds (plus what cut events lacked).
      e.response.content.size = e.response.bodySize >= 0 ? e.response.bodySize : utf8Length(e.response.content.text) + b.missingBytes;
      if (e.response.content.mimeType === 'x-unknown') e.response.content.mimeType = 'text/event-stream';
      if (b.cutEvents > 0) e.response.content.comment = `${b.cutEvents} event${b.cutEvents === 1 ? '' : 's'} cut at capture (their text is a prefix; ${b.missingBytes} bytes missing; each event's _sseEvents entry has its size and hash)`;
    }
    entries.push(e);
  }

  return {
    log: {
      version: '1.2',
      creator: { name: options.creatorName ?? 'MCP Subscription Devtools', version: options.creatorVersion ?? '0' },
      pages,
      entries,
      comment:
        (redact ? HAR_REDACTION_NOTE + extraHeadersNote(extra) : HAR_UNREDACTED_NOTE) +
        droppedNote(options.dropped, entries.filter((e) => e._mcp.gap).length, entries.filter((e) => e._mcp.partial).length),
    },
  };
}

/** How many entries harJsonSteps writes between two yields. */
const HAR_JSON_STEP = 16;
/** Stands for the entries in the log's own JSON (a string no HAR field holds: its quotes are part of it). */
const ENTRIES_MARK = '\u0000mcp-devtools-entries\u0000';

/**
 * `JSON.stringify(har, null, 1)` in pieces, an entry at a time: the pieces yielded, joined in order, are that text byte
 * for byte (the HAR file the panel writes). Yields every few entries, so a large export's text is made over several
 * tasks and never held as one string (the panel turns each batch into a Blob).
 */
export function* harJsonSteps(har: HarLog): Generator<{ parts: string[]; entries: number }, void, void> {
  // The log without its entries, written as JSON.stringify writes it all; the entries go where their mark is.
  const shell = JSON.stringify({ ...har, log: { ...har.log, entries: ENTRIES_MARK } }, null, 1);
  // Split at the log's own "entries" key: a page's title or URL can hold the mark's text too (an imported trace's URL
  // is any string), but no JSON string holds a raw line break, so only the key starts a line with it.
  const key = '\n  "entries": ';
  const mark = key + JSON.stringify(ENTRIES_MARK);
  const at = shell.indexOf(mark) + key.length;
  const head = shell.slice(0, at);
  const tail = shell.slice(at + JSON.stringify(ENTRIES_MARK).length);
  const entries = har.log.entries;
  if (entries.length === 0) {
    yield { parts: [head, '[]', tail], entries: 0 };
    return;
  }
  // An entry is at depth 3 (the root, log, entries): each of its lines indented by three more spaces. A JSON string
  // holds no raw line break, so every '\n' of an entry's text is one of its own lines.
  let parts: string[] = [head, '[\n'];
  for (let i = 0; i < entries.length; i++) {
    parts.push(`${i === 0 ? '' : ',\n'}   ${JSON.stringify(entries[i], null, 1).replaceAll('\n', '\n   ')}`);
    if ((i + 1) % HAR_JSON_STEP === 0 && i + 1 < entries.length) {
      yield { parts, entries: i + 1 };
      parts = [];
    }
  }
  parts.push('\n  ]', tail);
  yield { parts, entries: entries.length };
}
