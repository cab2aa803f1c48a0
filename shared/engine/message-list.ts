// Every decoded message, kept in columns (typed arrays and arrays of references) rather than as one object each: a
// 200,000-frame trace holds ~120,000 messages, and as objects they cost twice the memory and most of the garbage
// collector's time. A view reads them back as plain DecodedMessage objects with messageAt / messagesSlice.
// Append-only: a message below `count` never changes, except a request's `pair`, filled in once when its answer comes.
import type { DecodedMessage, MessageKind, StreamKind, Transport } from '../decode/types.ts';

const KINDS: readonly MessageKind[] = ['request', 'notification', 'result', 'error', 'invalid'];
const STREAMS: readonly StreamKind[] = ['post', 'post-sse', 'get', 'listen', 'sse', 'ws'];
const KIND_CODE: Record<MessageKind, number> = { request: 0, notification: 1, result: 2, error: 3, invalid: 4 };
const STREAM_CODE: Record<StreamKind, number> = { post: 0, 'post-sse': 1, get: 2, listen: 3, sse: 4, ws: 5 };
const TRANSPORTS: readonly Transport[] = ['streamable-http', 'http-sse', 'websocket'];
const TRANSPORT_CODE: Record<Transport, number> = { 'streamable-http': 0, 'http-sse': 1, websocket: 2 };

/** What a snapshot hands out: the store as it was, up to `count`. */
export interface MessageList {
  readonly count: number;
  readonly store: MessageStore;
}

export class MessageStore {
  private n = 0;
  private cap = 1024;
  private seq = new Float64Array(this.cap);
  private t = new Float64Array(this.cap);
  private pair = new Int32Array(this.cap);
  private batch = new Int16Array(this.cap);
  /** dir | kind | streamKind | known | truncated | transport | generation, bit-packed. */
  private flags = new Uint16Array(this.cap);
  /** Index into `ctxs`: (doc, endpoint) pairs are few. */
  private ctx = new Uint16Array(this.cap);
  private ctxs: { doc: string; endpoint: string }[] = [];
  private ctxIndex = new Map<string, Map<string, number>>();
  // References kept are to strings that live anyway (frame payloads, header values, conn ids) or are interned: a
  // retained array pointing at fresh young strings makes every scavenge walk it (measured: that doubled replay time).
  private conn: string[] = [];
  private session: (string | undefined)[] = [];
  private version: (string | undefined)[] = [];
  private method: (string | undefined)[] = [];
  private id: (string | number | null | undefined)[] = [];
  private uri: (string | undefined)[] = [];
  private sseId: (string | undefined)[] = [];
  private raw: string[] = [];
  /** Rare fields, by message index. */
  private rare = new Map<number, { problem?: string; hash?: string; bytes?: number; stream?: string }>();
  private interned = new Map<string, string>();

  private intern(s: string | undefined): string | undefined {
    if (s === undefined) return undefined;
    const x = this.interned.get(s);
    if (x !== undefined) return x;
    this.interned.set(s, s);
    return s;
  }

  private ctxOf(doc: string, endpoint: string): number {
    let m = this.ctxIndex.get(doc);
    if (!m) this.ctxIndex.set(doc, (m = new Map()));
    let i = m.get(endpoint);
    if (i === undefined) {
      i = this.ctxs.length;
      this.ctxs.push({ doc, endpoint });
      m.set(endpoint, i);
    }
    return i;
  }

  private grow(): void {
    this.cap *= 2;
    const seq = new Float64Array(this.cap);
    seq.set(this.seq);
    this.seq = seq;
    const t = new Float64Array(this.cap);
    t.set(this.t);
    this.t = t;
    const p = new Int32Array(this.cap);
    p.set(this.pair);
    this.pair = p;
    const b = new Int16Array(this.cap);
    b.set(this.batch);
    this.batch = b;
    const fl = new Uint16Array(this.cap);
    fl.set(this.flags);
    this.flags = fl;
    const cx = new Uint16Array(this.cap);
    cx.set(this.ctx);
    this.ctx = cx;
  }

  push(m: DecodedMessage): void {
    const i = this.n;
    if (i === this.cap) this.grow();
    this.seq[i] = m.seq;
    this.t[i] = m.t;
    this.pair[i] = m.pair ?? -1;
    this.batch[i] = m.batch ?? -1;
    this.flags[i] =
      (m.dir === 'out' ? 1 : 0) |
      (KIND_CODE[m.kind] << 1) |
      (STREAM_CODE[m.streamKind] << 4) |
      (m.known ? 128 : 0) |
      (m.truncated ? 256 : 0) |
      (TRANSPORT_CODE[m.transport] << 9) |
      (m.generation === '2026' ? 2048 : 0);
    this.ctx[i] = this.ctxOf(m.doc, m.endpoint);
    this.conn.push(m.conn);
    this.session.push(m.session);
    this.version.push(this.intern(m.version));
    this.method.push(this.intern(m.method));
    this.id.push(m.id);
    this.uri.push(this.intern(m.uri));
    this.sseId.push(m.sseId);
    this.raw.push(m.raw);
    const stream = m.stream === `${m.streamKind}:${m.conn}` ? undefined : m.stream;
    if (m.problem !== undefined || m.truncated || stream !== undefined) {
      const r: { problem?: string; hash?: string; bytes?: number; stream?: string } = {};
      if (m.problem !== undefined) r.problem = m.problem;
      if (m.hash !== undefined) r.hash = m.hash;
      if (m.bytes !== undefined) r.bytes = m.bytes;
      if (stream !== undefined) r.stream = stream;
      this.rare.set(i, r);
    }
    this.n++;
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

  at(i: number): DecodedMessage | undefined {
    if (i < 0 || i >= this.n) return undefined;
    const fl = this.flags[i]!;
    const cx = this.ctxs[this.ctx[i]!]!;
    const pair = this.pair[i]!;
    const batch = this.batch[i]!;
    const rare = this.rare.get(i);
    const streamKind = STREAMS[(fl >> 4) & 7]!;
    const conn = this.conn[i]!;
    return {
      index: i,
      seq: this.seq[i]!,
      t: this.t[i]!,
      doc: cx.doc,
      conn,
      dir: fl & 1 ? 'out' : 'in',
      transport: TRANSPORTS[(fl >> 9) & 3]!,
      generation: fl & 2048 ? '2026' : '2025',
      version: this.version[i],
      endpoint: cx.endpoint,
      session: this.session[i],
      stream: rare?.stream ?? `${streamKind}:${conn}`,
      streamKind,
      kind: KINDS[(fl >> 1) & 7]!,
      method: this.method[i],
      id: this.id[i],
      pair: pair >= 0 ? pair : undefined,
      batch: batch >= 0 ? batch : undefined,
      known: (fl & 128) !== 0,
      problem: rare?.problem,
      truncated: fl & 256 ? true : undefined,
      hash: rare?.hash,
      bytes: rare?.bytes,
      uri: this.uri[i],
      sseId: this.sseId[i],
      raw: this.raw[i]!,
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
  if (m && m.pair !== undefined && m.pair >= list.count) m.pair = undefined;
  return m;
}

export function messagesSlice(list: MessageList, from = 0, to = list.count): DecodedMessage[] {
  const out: DecodedMessage[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, list.count); i++) out.push(messageAt(list, i)!);
  return out;
}
