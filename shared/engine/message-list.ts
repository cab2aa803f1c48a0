// Every decoded message, kept in columns (typed arrays and arrays of references) rather than as one object each: a
// 200,000-frame trace holds ~120,000 messages, and as objects they cost twice the memory and most of the garbage
// collector's time. A view reads them back as plain DecodedMessage objects with messageAt / messagesSlice.
// Append-only: a message below `count` never changes, except a request's `pair`, filled in once when its answer comes.
// A request that will get no answer at all (its exchange failed) is listed in `noAnswers`, appended when it is known.
import { arrayElementText, objectMemberText } from '../raw-json.ts';
import type { ConnInfo, DecodedMessage, MessageKind, StreamKind, Transport } from '../decode/types.ts';
import { StringTable } from './string-table.ts';

const KINDS: readonly MessageKind[] = ['request', 'notification', 'result', 'error', 'invalid'];
const STREAMS: readonly StreamKind[] = ['post', 'post-sse', 'get', 'listen', 'sse', 'ws'];
const TRANSPORTS: readonly Transport[] = ['streamable-http', 'http-sse', 'websocket'];

// Codes by comparison, not by a lookup table: the decoder's strings are the literals, so each test is a pointer compare.
function kindCode(k: MessageKind): number {
  return k === 'request' ? 0 : k === 'notification' ? 1 : k === 'result' ? 2 : k === 'error' ? 3 : 4;
}
function streamCode(k: StreamKind): number {
  return k === 'post' ? 0 : k === 'post-sse' ? 1 : k === 'get' ? 2 : k === 'listen' ? 3 : k === 'sse' ? 4 : 5;
}
function transportCode(t: Transport): number {
  return t === 'streamable-http' ? 0 : t === 'http-sse' ? 1 : 2;
}

/** Messages per chunk of MessageStore.refs (a power of two). */
const REF_CHUNK_BITS = 10;
const REF_CHUNK = 1 << REF_CHUNK_BITS;

function grown<A extends Float64Array | Int32Array | Int16Array | Uint16Array>(a: A, make: (n: number) => A): A {
  const b = make(a.length * 2);
  b.set(a);
  return b;
}

/** What a snapshot hands out: the store as it was, up to `count`. */
export interface MessageList {
  readonly count: number;
  readonly store: MessageStore;
}

interface RareFields {
  problem?: string;
  hash?: string;
  bytes?: number;
  stream?: string;
  /** null = no session although the exchange has one. */
  session?: string | null;
  id?: string | number | null;
}

/** `{"jsonrpc":"2.0","id":…` (the SDKs' order): the id token read without parsing the rest (a 5 MB answer). */
const LEADING_ID = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)\s*[,}]/;

/**
 * The JSON-RPC id of a message, read back from its raw text (ids are not kept in a column). An integer id too large
 * for a number comes back as its digits: the drawer shows the id sent, not a neighbour of it.
 */
function idFromRaw(raw: string, batch: number): string | number | null | undefined {
  const lead = batch < 0 ? LEADING_ID.exec(raw) : null;
  if (lead) return idOfToken(lead[1]!);
  // Any other order (`{"result":…,"id":3}`), or a batch element: found by its tokens, the rest not parsed either.
  const text = batch < 0 ? raw : arrayElementText(raw, batch);
  const token = text === undefined ? undefined : objectMemberText(text, 'id');
  return token === undefined ? undefined : idOfToken(token);
}

function idOfToken(token: string): string | number | null | undefined {
  if (token === 'null') return null;
  try {
    const v: unknown = JSON.parse(token);
    if (typeof v === 'string') return v;
    if (typeof v !== 'number') return undefined;
    return !Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)) ? token : v;
  } catch {
    return undefined;
  }
}

/** A request that will get no answer: its exchange failed or was aborted, or the connection meant to carry it closed. */
export interface NoAnswer {
  /** The request's message index. */
  request: number;
  /** When that became known. */
  t: number;
  /** Why ("no answer (HTTP 500)", "no answer (the page aborted the request)", "no answer (the page left)"). */
  why: string;
  /** Messages stored by then: a list of `count` messages includes this end when count ≥ this. */
  count: number;
  /** The page went (its requests did not fail on the wire: the timeline ends them, not as failures). */
  pageLeft?: boolean;
}

export class MessageStore {
  /** `retain` false: a store that keeps nothing (size stays 0), for an engine that only needs findings. */
  constructor(private readonly retain = true) {}

  /** Requests that ended without an answer, in the order it became known (append-only, like the messages). */
  readonly noAnswers: NoAnswer[] = [];
  /**
   * Instants the subscription state changed with no message (a delivery stream opened or closed, a session or listen
   * ended: a DELETE, a 404, a page leaving; a request's exchange failed), each with the number of messages before it, in arrival order. The
   * scrubber stops there too: between two messages, a stop would otherwise show a change that came later.
   */
  readonly turns: Array<{ t: number; count: number }> = [];

  private n = 0;
  private cap = 1024;
  private seq = new Float64Array(this.cap);
  private t = new Float64Array(this.cap);
  private pair = new Int32Array(this.cap);
  private batch = new Int16Array(this.cap);
  /** dir | kind | streamKind | known | truncated | transport | generation, bit-packed. */
  private flags = new Uint16Array(this.cap);
  // Version, method and URI are codes into string tables: a typed-array write per message instead of a pointer store
  // into an array the collector must scan, and each distinct string kept once (a retained array pointing at fresh
  // young strings makes every scavenge walk it — measured: that doubled replay time).
  private versionCode = new Int32Array(this.cap);
  private methodCode = new Int32Array(this.cap);
  private uriCode = new Int32Array(this.cap);
  private versions = new StringTable();
  private methods = new StringTable();
  private uris = new StringTable();
  /**
   * Per message, three slots side by side: its exchange's ConnInfo, its SSE event id, its raw payload text (one array
   * and one cache line per message, not three: ~1–2 % of a replay, measured by an in-process A/B). Only things that
   * live anyway are referenced. The JSON-RPC id is not kept: it is read back from `raw` when a view asks.
   */
  // Kept in chunks of REF_CHUNK messages, each made at its full size: one growing array allocated about three times
  // its final size over a replay (push grows it by 1.5×, copying), ~45 bytes a frame of the engine bench's trace.
  private refs: (ConnInfo | string | undefined)[][] = [];
  /** Rare fields, by message index. */
  private rare = new Map<number, RareFields>();

  private grow(): void {
    this.cap *= 2;
    this.seq = grown(this.seq, (n) => new Float64Array(n));
    this.t = grown(this.t, (n) => new Float64Array(n));
    this.pair = grown(this.pair, (n) => new Int32Array(n));
    this.batch = grown(this.batch, (n) => new Int16Array(n));
    this.flags = grown(this.flags, (n) => new Uint16Array(n));
    this.versionCode = grown(this.versionCode, (n) => new Int32Array(n));
    this.methodCode = grown(this.methodCode, (n) => new Int32Array(n));
    this.uriCode = grown(this.uriCode, (n) => new Int32Array(n));
  }

  /** `info` is the exchange the message was decoded on (its session, doc, endpoint, transport, generation, conn). */
  push(m: DecodedMessage, info: ConnInfo): void {
    if (!this.retain) return;
    const i = this.n;
    if (i === this.cap) this.grow();
    this.seq[i] = m.seq;
    this.t[i] = m.t;
    this.pair[i] = m.pair ?? -1;
    this.batch[i] = m.batch ?? -1;
    this.flags[i] =
      (m.dir === 'out' ? 1 : 0) |
      (kindCode(m.kind) << 1) |
      (streamCode(m.streamKind) << 4) |
      (m.known ? 128 : 0) |
      (m.truncated ? 256 : 0) |
      (transportCode(m.transport) << 9) |
      (m.generation === '2026' ? 2048 : 0);
    this.versionCode[i] = this.versions.code(m.version);
    this.methodCode[i] = this.methods.code(m.method);
    this.uriCode[i] = this.uris.code(m.uri);
    const k = (i & (REF_CHUNK - 1)) * 3;
    // By index, not by k === 0: a push that threw before `n` moved on (the engine counts and survives that) must not
    // leave a chunk behind that every later message would be read from one chunk off.
    const chunk = (this.refs[i >> REF_CHUNK_BITS] ??= new Array<ConnInfo | string | undefined>(REF_CHUNK * 3).fill(undefined));
    chunk[k] = info;
    chunk[k + 1] = m.sseId;
    chunk[k + 2] = m.raw;
    // The stream id is `<kind>:<conn>` except for EventSource reconnects (`sse:<conn>#n`): keep only those.
    const stream = m.stream.length === m.streamKind.length + 1 + info.conn.length ? undefined : m.stream;
    // The rare fields, and what the exchange's info does not say (a session that differs from it).
    if (m.problem !== undefined || m.truncated || stream !== undefined || m.session !== info.session || (m.id !== undefined && m.truncated)) {
      const r: RareFields = {};
      if (m.session !== info.session) r.session = m.session ?? null;
      if (m.truncated && m.id !== undefined) r.id = m.id;
      if (m.problem !== undefined) r.problem = m.problem;
      if (m.hash !== undefined) r.hash = m.hash;
      if (m.bytes !== undefined) r.bytes = m.bytes;
      if (stream !== undefined) r.stream = stream;
      this.rare.set(i, r);
    }
    this.n++;
  }

  /** The state changed at `t` without a message (see `turns`); one per instant and message count. */
  turn(t: number): void {
    if (!this.retain) return;
    const last = this.turns[this.turns.length - 1];
    if (last !== undefined && last.t === t && last.count === this.n) return;
    this.turns.push({ t, count: this.n });
  }

  noAnswer(request: number, t: number, why: string, pageLeft = false): void {
    if (!this.retain || request < 0 || request >= this.n) return;
    this.noAnswers.push({ request, t, why, count: this.n, ...(pageLeft ? { pageLeft } : {}) });
    // (The request's bar ends here, failed: a change the scrubber stops at.)
    this.turn(t);
  }

  setPair(request: number, response: number): void {
    if (request >= 0 && request < this.n) this.pair[request] = response;
  }

  get size(): number {
    return this.n;
  }

  seqAt(i: number): number | undefined {
    return i >= 0 && i < this.n ? this.seq[i] : undefined;
  }

  // Column reads for indexes over every message (the panel's timeline): no message object, no id parse.
  /** Time of message `i` (caller checks 0 ≤ i < size). */
  tAt(i: number): number {
    return this.t[i]!;
  }
  kindAt(i: number): MessageKind {
    return KINDS[(this.flags[i]! >> 1) & 7]!;
  }
  dirAt(i: number): 'in' | 'out' {
    return this.flags[i]! & 1 ? 'out' : 'in';
  }
  methodAt(i: number): string | undefined {
    return this.methods.at(this.methodCode[i]!);
  }
  uriAt(i: number): string | undefined {
    return this.uris.at(this.uriCode[i]!);
  }
  /** The paired message's index, or -1. */
  pairAt(i: number): number {
    return this.pair[i]!;
  }
  /** The exchange the message came on (doc, endpoint, conn, session…); shared, do not modify. */
  infoAt(i: number): ConnInfo {
    return this.refs[i >> REF_CHUNK_BITS]![(i & (REF_CHUNK - 1)) * 3] as ConnInfo;
  }

  at(i: number): DecodedMessage | undefined {
    if (i < 0 || i >= this.n) return undefined;
    const fl = this.flags[i]!;
    const chunk = this.refs[i >> REF_CHUNK_BITS]!;
    const k = (i & (REF_CHUNK - 1)) * 3;
    const info = chunk[k] as ConnInfo;
    const pair = this.pair[i]!;
    const batch = this.batch[i]!;
    const rare = this.rare.get(i);
    const streamKind = STREAMS[(fl >> 4) & 7]!;
    const raw = chunk[k + 2] as string;
    const kind = KINDS[(fl >> 1) & 7]!;
    const session = rare?.session === null ? undefined : (rare?.session ?? info.session);
    return {
      index: i,
      seq: this.seq[i]!,
      t: this.t[i]!,
      doc: info.doc,
      conn: info.conn,
      dir: fl & 1 ? 'out' : 'in',
      transport: TRANSPORTS[(fl >> 9) & 3]!,
      generation: fl & 2048 ? '2026' : '2025',
      version: this.versions.at(this.versionCode[i]!),
      endpoint: info.endpoint,
      session,
      stream: rare?.stream ?? `${streamKind}:${info.conn}`,
      streamKind,
      kind,
      method: this.methods.at(this.methodCode[i]!),
      id: kind === 'notification' ? undefined : fl & 256 ? rare?.id : idFromRaw(raw, batch),
      pair: pair >= 0 ? pair : undefined,
      pairSeq: pair >= 0 ? this.seq[pair] : undefined,
      batch: batch >= 0 ? batch : undefined,
      known: (fl & 128) !== 0,
      problem: rare?.problem,
      truncated: fl & 256 ? true : undefined,
      hash: rare?.hash,
      bytes: rare?.bytes,
      uri: this.uris.at(this.uriCode[i]!),
      sseId: chunk[k + 1] as string | undefined,
      raw,
    };
  }

  view(): MessageList {
    return { count: this.n, store: this };
  }
}

/** Message `i` as the snapshot saw it (an answer that came later is not linked yet). */
export function messageAt(list: MessageList, i: number): DecodedMessage | undefined {
  if (i >= list.count) return undefined;
  const m = list.store.at(i);
  if (m && m.pair !== undefined && m.pair >= list.count) {
    m.pair = undefined;
    m.pairSeq = undefined;
  }
  return m;
}

export function messagesSlice(list: MessageList, from = 0, to = list.count): DecodedMessage[] {
  const out: DecodedMessage[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, list.count); i++) out.push(messageAt(list, i)!);
  return out;
}
