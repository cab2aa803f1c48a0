// Every decoded message, kept in columns (typed arrays and arrays of references) rather than as one object each: a
// 200,000-frame trace holds ~120,000 messages, and as objects they cost twice the memory and most of the garbage
// collector's time. A view reads them back as plain DecodedMessage objects with messageAt / messagesSlice.
// Append-only: a message below `count` never changes, except a request's `pair`, filled in once when its answer comes.
import type { ConnInfo, DecodedMessage, MessageKind, StreamKind } from '../decode/types.ts';

const KINDS: readonly MessageKind[] = ['request', 'notification', 'result', 'error', 'invalid'];
const STREAMS: readonly StreamKind[] = ['post', 'post-sse', 'get', 'listen', 'sse', 'ws'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));
const STREAM_CODE = new Map(STREAMS.map((k, i) => [k, i]));

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
  /** dir | kind | streamKind | known | truncated, bit-packed. */
  private flags = new Uint16Array(this.cap);
  private info: ConnInfo[] = [];
  private session: (string | undefined)[] = [];
  private stream: string[] = [];
  private version: (string | undefined)[] = [];
  private method: (string | undefined)[] = [];
  private id: (string | number | null | undefined)[] = [];
  private problem: (string | undefined)[] = [];
  private uri: (string | undefined)[] = [];
  private sseId: (string | undefined)[] = [];
  private raw: string[] = [];
  private truncation = new Map<number, { hash: string | undefined; bytes: number | undefined }>();

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
  }

  /** `info` is the exchange the message came on (shared by its messages; only `session` may differ per message). */
  push(m: DecodedMessage, info: ConnInfo): void {
    const i = this.n;
    if (i === this.cap) this.grow();
    this.seq[i] = m.seq;
    this.t[i] = m.t;
    this.pair[i] = m.pair ?? -1;
    this.batch[i] = m.batch ?? -1;
    this.flags[i] =
      (m.dir === 'out' ? 1 : 0) | (KIND_CODE.get(m.kind)! << 1) | (STREAM_CODE.get(m.streamKind)! << 4) | (m.known ? 128 : 0) | (m.truncated ? 256 : 0);
    this.info.push(info);
    this.session.push(m.session);
    this.stream.push(m.stream);
    this.version.push(m.version);
    this.method.push(m.method);
    this.id.push(m.id);
    this.problem.push(m.problem);
    this.uri.push(m.uri);
    this.sseId.push(m.sseId);
    this.raw.push(m.raw);
    if (m.truncated) this.truncation.set(i, { hash: m.hash, bytes: m.bytes });
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
    const info = this.info[i]!;
    const pair = this.pair[i]!;
    const batch = this.batch[i]!;
    const tr = fl & 256 ? this.truncation.get(i) : undefined;
    return {
      index: i,
      seq: this.seq[i]!,
      t: this.t[i]!,
      doc: info.doc,
      conn: info.conn,
      dir: fl & 1 ? 'out' : 'in',
      transport: info.transport,
      generation: info.generation,
      version: this.version[i],
      endpoint: info.endpoint,
      session: this.session[i],
      stream: this.stream[i]!,
      streamKind: STREAMS[(fl >> 4) & 7]!,
      kind: KINDS[(fl >> 1) & 7]!,
      method: this.method[i],
      id: this.id[i],
      pair: pair >= 0 ? pair : undefined,
      batch: batch >= 0 ? batch : undefined,
      known: (fl & 128) !== 0,
      problem: this.problem[i],
      truncated: tr ? true : undefined,
      hash: tr?.hash,
      bytes: tr?.bytes,
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
