// Turns captured text into a Payload, applying the body-size cap: above the cap only a prefix is kept, with the full size
// and a hash so the engine can still tell "same content" from "changed". Pure.
import { hashText, TextHasher } from './hash.ts';
import type { Payload } from './frames.ts';

/** Default cap on a single body or message: 256 KiB. */
export const DEFAULT_BODY_CAP_BYTES = 256 * 1024;

/** A high surrogate at i followed by a low one: one character, 4 UTF-8 bytes. A lone surrogate encodes as U+FFFD (3). */
function isPairAt(text: string, i: number, c: number): boolean {
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return false;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * The longest prefix of `text` of at most `capBytes` UTF-8 bytes, never ending inside a surrogate pair (counted as
 * utf8Length counts). Only ever called on a text over the cap; it looks at no more than capBytes units.
 */
export function prefixWithin(text: string, capBytes: number): string {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = isPairAt(text, i, c);
    const b = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    if (bytes + b > capBytes) return text.slice(0, i);
    bytes += b;
    if (pair) i++;
  }
  return text;
}

/** UTF-8 byte length without allocating. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isPairAt(text, i, c)) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * A 2026 listen request and its acknowledgement carry the whole subscription set in one message: cut, the engine
 * would know none of it (every cached URI would look never subscribed). They are kept whole up to this size.
 */
export const SUBSCRIPTION_SET_CAP_BYTES = 8 * 1024 * 1024;

/** The method (not one quoted inside a string, where its quotes are escaped); `\/` as some servers escape `/`. */
const SUBSCRIPTION_SET = /"method"\s*:\s*"(?:subscriptions\\?\/listen|notifications\\?\/subscriptions\\?\/acknowledged)"/;

/** A listen request or its acknowledgement: the message's own `"method"`, with no object or array opened before it. */
function isSubscriptionSet(text: string): boolean {
  const at = text.search(SUBSCRIPTION_SET);
  if (at < 0) return false;
  const open = text.indexOf('{');
  return open >= 0 && open < at && !/[{[]/.test(text.slice(open + 1, at));
}

export function makePayload(text: string, capBytes = DEFAULT_BODY_CAP_BYTES): Payload {
  // Fast path: a string of n UTF-16 units has at most 3n UTF-8 bytes.
  if (text.length * 3 <= capBytes) return { text };
  const bytes = utf8Length(text);
  if (bytes <= capBytes) return { text };
  // Only a body over the cap pays for this look.
  if (bytes <= SUBSCRIPTION_SET_CAP_BYTES && isSubscriptionSet(text)) return { text };
  return { text: prefixWithin(text, capBytes), truncated: { bytes, hash: hashText(text) } };
}

/**
 * A payload cut to a smaller cap after the fact: exactly what makePayload would have given for the full text (a kept
 * prefix is cut further; the size and hash of the full text stay). A larger cap cannot bring back what was not kept.
 */
export function recapPayload(p: Payload, capBytes: number): Payload {
  if (p.opaque || p.text.length * 3 <= capBytes) return p;
  if (!p.truncated) return makePayload(p.text, capBytes);
  // The kept prefix is the longest within the old cap: the longest within a smaller cap is a prefix of it.
  const prefix = prefixWithin(p.text, capBytes);
  return prefix.length === p.text.length ? p : { text: prefix, truncated: p.truncated };
}

/**
 * Builds the payload of a body that arrives in pieces without keeping more than the cap: a prefix, the byte count and
 * a running hash. Gives exactly what makePayload would give for the whole text. Small bodies (the common case) are
 * neither measured byte by byte nor hashed: only a body that may exceed the cap pays for that.
 */
export class PayloadBuilder {
  private chunks: string[] = [];
  private units = 0;
  /** Exact UTF-8 bytes so far, once measuring started (-1 before). */
  private bytes = -1;
  private hasher: TextHasher | undefined;
  private prefix = '';
  constructor(private readonly capBytes = DEFAULT_BODY_CAP_BYTES) {}
  add(text: string): void {
    if (text === '') return;
    if (this.hasher) {
      // Over the cap already: the size and the hash change, and the prefix fills up to capBytes units.
      this.hasher.update(text);
      this.bytes += utf8Length(text);
      if (this.prefix.length < this.capBytes) this.prefix = (this.prefix + text).slice(0, this.capBytes);
      return;
    }
    this.chunks.push(text);
    this.units += text.length;
    if (this.bytes >= 0) this.bytes += utf8Length(text);
    else if (this.units * 3 > this.capBytes) this.bytes = utf8Length(this.chunks.join(''));
    if (this.bytes > this.capBytes) {
      const all = this.chunks.join('');
      this.hasher = new TextHasher();
      this.hasher.update(all);
      this.prefix = all.slice(0, this.capBytes);
      this.chunks = [];
    }
  }
  build(): Payload {
    if (!this.hasher) return { text: this.chunks.join('') };
    // `prefix` holds the first capBytes units, at least as many as fit in capBytes bytes.
    return { text: prefixWithin(this.prefix, this.capBytes), truncated: { bytes: this.bytes, hash: this.hasher.digest() } };
  }
}

export function opaquePayload(description: string): Payload {
  return { text: description, opaque: true };
}

/** The content identity of a payload: the hash of the full text, also when only a prefix was kept. */
export function payloadHash(p: Payload): string {
  return p.truncated ? p.truncated.hash : hashText(p.text);
}
