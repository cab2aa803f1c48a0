// The decoded messages as an append-only list in fixed chunks, so a snapshot can hand the views "all messages so far"
// without copying 200,000 pointers per frame: full chunks are shared (they never change), only the partial last one
// is copied. Plain data: `{count, chunks}`; read it with messageAt / messagesSlice.
import type { DecodedMessage } from '../decode/types.ts';

export const CHUNK = 4096;

export interface MessageList {
  readonly count: number;
  readonly chunks: readonly (readonly DecodedMessage[])[];
}

export class MessageStore {
  private full: DecodedMessage[][] = [];
  private tail: DecodedMessage[] = [];
  private count = 0;

  push(m: DecodedMessage): void {
    this.tail.push(m);
    this.count++;
    if (this.tail.length === CHUNK) {
      this.full.push(this.tail);
      this.tail = [];
    }
  }

  get size(): number {
    return this.count;
  }

  at(i: number): DecodedMessage | undefined {
    const c = Math.floor(i / CHUNK);
    return c < this.full.length ? this.full[c]![i % CHUNK] : this.tail[i - this.full.length * CHUNK];
  }

  view(): MessageList {
    const chunks: DecodedMessage[][] = this.full.slice();
    if (this.tail.length) chunks.push(this.tail.slice());
    return { count: this.count, chunks };
  }
}

export function messageAt(list: MessageList, i: number): DecodedMessage | undefined {
  if (i < 0 || i >= list.count) return undefined;
  return list.chunks[Math.floor(i / CHUNK)]?.[i % CHUNK];
}

export function messagesSlice(list: MessageList, from = 0, to = list.count): DecodedMessage[] {
  const out: DecodedMessage[] = [];
  for (let i = Math.max(0, from); i < Math.min(to, list.count); i++) out.push(messageAt(list, i)!);
  return out;
}
