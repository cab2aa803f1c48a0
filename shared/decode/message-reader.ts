// Turns one captured payload (a request body, a JSON response body, an SSE event's data, a WebSocket message) into
// DecodedMessages: parse, classify the envelope, check the method's shape, pair responses with requests.
// Never throws: a payload that is not JSON, not JSON-RPC or cut at the capture cap becomes a visible message too.
import type { Payload } from '../frames.ts';
import { splitArrayPrefix } from './batch-prefix.ts';
import { classifyInto, sniffTruncated } from './jsonrpc.ts';
import type { RequestPairing } from './pairing.ts';
import { canonicalMethod, M, MCP_NAME_SOURCE } from './protocol.ts';
import type { ConnInfo, DecodedMessage, Direction, MessageKind, StreamKind } from './types.ts';
import { checkCall, checkResult } from './validate.ts';

/** Everything about where a payload was seen that its messages inherit. */
export interface PayloadContext {
  info: ConnInfo;
  seq: number;
  t: number;
  doc: string;
  conn: string;
  dir: Direction;
  transport: DecodedMessage['transport'];
  generation: DecodedMessage['generation'];
  version: string | undefined;
  endpoint: string;
  session: string | undefined;
  stream: string;
  streamKind: StreamKind;
  sseId: string | undefined;
  /** The exchange (its Conn): its pending requests (responses are looked up there first, requests registered there). */
  waiting: { pending: DecodedMessage[] };
  /**
   * Whether answers to requests may arrive on another connection of the session: always on legacy HTTP+SSE, and for
   * requests the server sends (the page answers with a new POST). Never on WebSocket, where the connection is the scope.
   */
  legacy: boolean;
  websocket: boolean;
  /** The exchange's request was a JSON-RPC batch: an error with id null is about one of its elements, not its one request. */
  batch: boolean;
}

/** `m` answers `req`: each names the other, and the answer takes the request's method and URI. */
function answers(m: DecodedMessage, req: DecodedMessage): void {
  m.pair = req.index;
  m.pairSeq = req.seq;
  req.pair = m.index;
  req.pairSeq = m.seq;
  if (req.method !== undefined) m.method = req.method;
  if (req.uri !== undefined) m.uri = req.uri;
}

/** A payload parsed once (a request body is peeked at before its messages are read). One object, no spreading. */
export interface PreparedPayload {
  payload: Payload;
  truncated: boolean;
  /** Why it is not JSON (undefined when it parsed). */
  problem: string | undefined;
  values: unknown[];
  batch: boolean;
}

const NO_VALUES: unknown[] = Object.freeze([]) as unknown as unknown[];

/** Parse once, into one object (jsonrpc.ts parsePayload gives the same verdicts). */
export function preparePayload(payload: Payload): PreparedPayload {
  return prepareInto({ payload, truncated: false, problem: undefined, values: NO_VALUES, batch: false }, payload);
}

/** A PreparedPayload the decoder refills for every payload (nothing keeps it, nor its `values`), with its array of one. */
export interface ScratchPayload extends PreparedPayload {
  one: unknown[];
}

export function scratchPayload(): ScratchPayload {
  const one: unknown[] = [undefined];
  return { payload: { text: '' }, truncated: false, problem: undefined, values: one, batch: false, one };
}

/**
 * preparePayload into `out`: this runs for every payload, and a single message (almost all of them) reuses `out`'s
 * array of one rather than a new one (scratch objects only: `out.values` is overwritten by the next payload).
 */
export function prepareInto(out: PreparedPayload | ScratchPayload, payload: Payload): PreparedPayload {
  out.payload = payload;
  out.truncated = false;
  out.problem = undefined;
  out.batch = false;
  if (payload.truncated) {
    out.truncated = true;
    out.values = NO_VALUES;
    return out;
  }
  let v: unknown;
  try {
    v = JSON.parse(payload.text);
  } catch (e) {
    out.problem = `not JSON: ${(e as Error).message}`;
    out.values = NO_VALUES;
    return out;
  }
  if (!Array.isArray(v)) {
    if ('one' in out) {
      out.one[0] = v;
      out.values = out.one;
    } else out.values = [v];
    return out;
  }
  if (v.length === 0) {
    out.problem = 'empty JSON-RPC batch';
    out.values = NO_VALUES;
    return out;
  }
  out.values = v;
  out.batch = true;
  return out;
}

/** What peekCalls found besides the methods; one object reused (the caller reads it at once). */
export interface PeekedVersion {
  metaVersion: string | undefined;
  /** The first request's value that a 2026 `Mcp-Name` header must mirror (MCP_NAME_SOURCE), and its field. */
  nameField: string | undefined;
  nameValue: string | undefined;
  /**
   * When set (a sink that keeps no request-head: DecodeSink.keepsNoMessages), the list peekCalls returns for a body
   * with one request, refilled for every body; a body with more gets a list of its own.
   */
  one: string[] | undefined;
}

/**
 * Methods of the requests in a prepared payload (undefined when there are none); a modern `_meta` protocol-version
 * claim, if one is present, goes into `out`.
 */
export function peekCalls(p: PreparedPayload, out: PeekedVersion): string[] | undefined {
  let methods: string[] | undefined;
  out.metaVersion = undefined;
  out.nameField = undefined;
  out.nameValue = undefined;
  if (p.truncated) {
    const s = sniffTruncated(p.payload.text);
    return s.method !== undefined ? [s.method] : undefined;
  }
  const values = p.values;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'object' || v === null) continue;
    const o = v as Record<string, unknown>;
    const params = o.params as Record<string, unknown> | undefined;
    if (typeof o.method === 'string' && o.id !== undefined) {
      const method = canonicalMethod(o.method);
      if (methods === undefined) {
        const field = MCP_NAME_SOURCE.get(method);
        const value = field !== undefined && params && typeof params === 'object' ? params[field] : undefined;
        if (typeof value === 'string') {
          out.nameField = field;
          out.nameValue = value;
        }
      }
      // A literal of one (or the caller's list of one), not push onto []: that grows a 17-slot store (~180 bytes) for
      // the one method of almost every request.
      if (methods === undefined) {
        const one = out.one;
        if (one !== undefined) {
          one[0] = method;
          methods = one;
        } else methods = [method];
      } else {
        if (methods === out.one) methods = [methods[0]!];
        methods.push(method);
      }
    }
    const meta = params && typeof params === 'object' ? (params._meta as Record<string, unknown> | undefined) : undefined;
    const claim = meta && typeof meta === 'object' ? meta['io.modelcontextprotocol/protocolVersion'] : undefined;
    if (typeof claim === 'string') out.metaVersion ??= claim;
  }
  return methods;
}

function uriParam(v: Record<string, unknown>): string | undefined {
  const p = v.params as Record<string, unknown> | undefined;
  const uri = p && typeof p === 'object' ? p.uri : undefined;
  return typeof uri === 'string' ? uri : undefined;
}

function answerScope(ctx: PayloadContext): string | undefined {
  if (ctx.websocket) return undefined;
  return ctx.legacy || ctx.dir === 'in' ? ctx.session : undefined;
}

const URI_METHODS: ReadonlySet<string> = new Set([M.read, M.subscribe, M.unsubscribe, M.updated]);

/** Where a reader hands the messages it read. */
export interface MessageOut {
  deliver(m: DecodedMessage, value: unknown, info: ConnInfo): void;
}

export class MessageReader {
  private count = 0;

  /** `reuse`: the sink keeps no message object but requests (see `scratch`). */
  constructor(
    private pairing: RequestPairing,
    private out: MessageOut,
    private readonly reuse = false,
  ) {}

  get messageCount(): number {
    return this.count;
  }

  /**
   * With `reuse`, every message but a request is written into this one object: the sink reads it during `deliver` and
   * keeps nothing of it (the engine stores it in columns). A request keeps the object (the pairing holds it until its
   * answer), and the next message makes a new one.
   */
  private scratch: DecodedMessage | undefined;

  /**
   * With `reuse`, the last request answered off its exchange's own waiting list (nothing refers to it then: the pairing
   * let go of it, and the sink kept nothing of it): the next scratch, refilled, instead of a new object per request.
   */
  private spare: DecodedMessage | undefined;

  private base(ctx: PayloadContext, raw: string, kind: MessageKind): DecodedMessage {
    let m = this.scratch;
    if (m === undefined) {
      if (!this.reuse) return this.fresh(ctx, raw, kind);
      m = this.spare;
      if (m === undefined) return (this.scratch = this.fresh(ctx, raw, kind));
      this.spare = undefined;
      this.scratch = m;
    }
    // Every field, in the order fresh() makes them.
    m.index = this.count++;
    m.seq = ctx.seq;
    m.t = ctx.t;
    m.doc = ctx.doc;
    m.conn = ctx.conn;
    m.dir = ctx.dir;
    m.transport = ctx.transport;
    m.generation = ctx.generation;
    m.version = ctx.version;
    m.endpoint = ctx.endpoint;
    m.session = ctx.session;
    m.stream = ctx.stream;
    m.streamKind = ctx.streamKind;
    m.kind = kind;
    m.method = undefined;
    m.id = undefined;
    m.pair = undefined;
    m.pairSeq = undefined;
    m.batch = undefined;
    m.known = true;
    m.problem = undefined;
    m.truncated = undefined;
    m.hash = undefined;
    m.bytes = undefined;
    m.uri = undefined;
    m.sseId = ctx.sseId;
    m.raw = raw;
    return m;
  }

  private fresh(ctx: PayloadContext, raw: string, kind: MessageKind): DecodedMessage {
    // Every field is set, always in this order: one object shape for all messages keeps the hot path monomorphic.
    return {
      index: this.count++,
      seq: ctx.seq,
      t: ctx.t,
      doc: ctx.doc,
      conn: ctx.conn,
      dir: ctx.dir,
      transport: ctx.transport,
      generation: ctx.generation,
      version: ctx.version,
      endpoint: ctx.endpoint,
      session: ctx.session,
      stream: ctx.stream,
      streamKind: ctx.streamKind,
      kind,
      method: undefined,
      id: undefined,
      pair: undefined,
      pairSeq: undefined,
      batch: undefined,
      known: true,
      problem: undefined,
      truncated: undefined,
      hash: undefined,
      bytes: undefined,
      uri: undefined,
      sseId: ctx.sseId,
      raw,
    };
  }

  /** A request read into the scratch object becomes its own (the pairing keeps it until its answer): the next message gets a new scratch. */
  private kept(m: DecodedMessage): DecodedMessage {
    if (m === this.scratch) this.scratch = undefined;
    return m;
  }

  /** Emit the messages of a payload; returns them (requests among them are what the exchange waits for). */
  read(p: PreparedPayload, ctx: PayloadContext): void {
    const text = p.payload.text;
    if (p.truncated) return this.readTruncated(p.payload, ctx);
    if (p.problem !== undefined) {
      const m = this.base(ctx, text, 'invalid');
      m.known = false;
      m.problem = p.problem;
      this.out.deliver(m, undefined, ctx.info);
      return;
    }
    for (let i = 0; i < p.values.length; i++) this.readValue(p.values[i], p.batch ? i : undefined, text, ctx);
  }

  /** One message: `raw` is the payload it came in (a batch's whole text, `batch` its position) or its own text. */
  private readValue(v: unknown, batch: number | undefined, raw: string, ctx: PayloadContext): void {
    let m = this.base(ctx, raw, 'invalid');
    if (batch !== undefined) m.batch = batch;
    classifyInto(m, v);
    if (m.method !== undefined) m.method = canonicalMethod(m.method);
    const o = v as Record<string, unknown>;
    if (m.kind === 'request' || m.kind === 'notification') {
      const verdict = checkCall(m.kind, m.method!, o);
      m.known = verdict.known;
      if (verdict.problem !== undefined) m.problem ??= verdict.problem;
      if (URI_METHODS.has(m.method!)) {
        const uri = uriParam(o);
        if (uri !== undefined) m.uri = uri;
      }
      if (m.kind === 'request') this.pairing.register((m = this.kept(m)), ctx.waiting, answerScope(ctx));
    } else if (m.kind === 'result' || m.kind === 'error') {
      // An error with id null answers an HTTP exchange that asked one thing. Not on a WebSocket, one long exchange,
      // where it answers a message the server could not read; nor in a batch, where it is about one of its elements
      // (an invalid one: JSON-RPC's own example), not whichever request happens to be left waiting.
      const req = this.pairing.take(ctx.dir, m.id, m.id === null && (ctx.websocket || ctx.batch) ? undefined : ctx.waiting.pending, ctx.session);
      if (req) {
        // "5" answering request 5 (pairing.take): the id the client matched it by, so lookups by id agree.
        if (typeof m.id === 'string' && typeof req.id === 'number') m.id = req.id;
        answers(m, req);
      }
      if (m.kind === 'result') {
        const verdict = checkResult(m.method, o, m.generation);
        m.known = verdict.known;
        if (verdict.problem !== undefined) m.problem ??= verdict.problem;
      }
      this.out.deliver(m, v, ctx.info);
      // Answered off its exchange's list: the request is nobody's now (see `spare`). Not one taken through its session:
      // it may still wait in its exchange's list (a legacy POST, an answer on another stream).
      if (req !== undefined && this.reuse && this.pairing.tookFromOwn) this.spare = req;
      return;
    } else {
      m.known = false;
    }
    this.out.deliver(m, v, ctx.info);
  }

  /**
   * A payload cut at capture. A batch's elements held whole are read as such (each with its own text); the one the
   * cut falls in, or a single message, is read from what its prefix shows. A batch answered in one JSON body that was
   * cut answers the rest of its requests past the cut: they were answered, only not kept (they failed as unanswered).
   */
  private readTruncated(payload: Payload, ctx: PayloadContext): void {
    const parts = splitArrayPrefix(payload.text);
    if (!parts) return this.readCut(payload.text, payload, ctx, undefined);
    for (let i = 0; i < parts.elements.length; i++) {
      const el = parts.elements[i]!;
      let v: unknown;
      try {
        v = JSON.parse(el);
      } catch (e) {
        const m = this.base(ctx, el, 'invalid');
        m.batch = i;
        m.known = false;
        m.problem = `not JSON: ${(e as Error).message}`;
        this.out.deliver(m, undefined, ctx.info);
        continue;
      }
      this.readValue(v, i, el, ctx);
    }
    if (parts.rest !== '') this.readCut(parts.rest, payload, ctx, parts.elements.length);
    if (ctx.dir === 'in' && ctx.streamKind === 'post' && ctx.batch) {
      for (const req of ctx.waiting.pending.filter((r) => r.dir === 'out' && r.id !== undefined && r.id !== null)) {
        const m = this.base(ctx, '', 'result');
        m.truncated = true;
        // Its own identity (the payload's hash and the id): two answers past one cut are not the same content. Its size is unknown.
        m.hash = `${payload.truncated!.hash}#${String(req.id)}`;
        m.problem = `answered past the capture cut: the batch answer was ${payload.truncated!.bytes} bytes, only a prefix was kept`;
        this.pairing.take(ctx.dir, req.id, ctx.waiting.pending, ctx.session);
        m.id = req.id;
        answers(m, req);
        this.out.deliver(m, undefined, ctx.info);
      }
    }
  }

  /** One message cut at capture: `text` is its prefix (of the payload, or of the batch element the cut fell in). */
  private readCut(text: string, payload: Payload, ctx: PayloadContext, batch: number | undefined): void {
    const s = sniffTruncated(text);
    const kind: MessageKind =
      s.method !== undefined
        ? s.id !== undefined
          ? 'request'
          : 'notification'
        : s.isError
          ? 'error'
          : s.isResponse || ctx.dir === 'in'
            ? 'result'
            : 'invalid';
    const m = kind === 'request' ? this.fresh(ctx, text, kind) : this.base(ctx, text, kind);
    if (batch !== undefined) m.batch = batch;
    m.truncated = true;
    m.hash = payload.truncated!.hash;
    m.bytes = payload.truncated!.bytes;
    m.problem = `truncated at capture: ${payload.truncated!.bytes} bytes, only a prefix was kept`;
    if (s.method !== undefined) m.method = s.method;
    if (s.id !== undefined) m.id = s.id;
    if (kind === 'request') {
      this.pairing.register(m, ctx.waiting, answerScope(ctx));
    } else if (kind === 'result' || kind === 'error') {
      // The id of a cut response is usually past the cut; inside one exchange, a single waiting request is its match
      // (not in a batch, where an element without a readable id may be an error about another element).
      const req = this.pairing.take(ctx.dir, s.id ?? null, s.id === undefined && ctx.batch ? undefined : ctx.waiting.pending, ctx.session);
      if (req) {
        answers(m, req);
        if (req.id !== undefined) m.id = req.id;
      } else if (!s.isResponse) {
        m.kind = 'invalid';
        m.known = false;
      }
    }
    this.out.deliver(m, undefined, ctx.info);
  }
}
