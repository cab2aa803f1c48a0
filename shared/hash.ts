// A fast, synchronous, non-cryptographic string hash (cyrb53, 53 bits as 14 hex digits). Used to compare bodies and
// resource contents and, keyed by a random salt (redact.ts), to fingerprint redacted secrets. Synchronous on purpose:
// the hook must not await in the page, and crypto.subtle is missing on insecure origins.
export function hashText(text: string, seed = 0): string {
  const h = new TextHasher(seed);
  h.update(text);
  return h.digest();
}

/** The same hash as hashText, fed in pieces: hashing a body as it streams needs no copy of the whole body. */
export class TextHasher {
  private h1: number;
  private h2: number;
  constructor(seed = 0) {
    this.h1 = 0xdeadbeef ^ seed;
    this.h2 = 0x41c6ce57 ^ seed;
  }
  update(text: string): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  /** The same hash fed bytes (each byte one code unit): a binary body's identity, hashed as it streams. */
  updateBytes(bytes: Uint8Array): void {
    let h1 = this.h1;
    let h2 = this.h2;
    for (let i = 0; i < bytes.length; i++) {
      const ch = bytes[i]!;
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    this.h1 = h1;
    this.h2 = h2;
  }
  /** A hasher that goes on from this one's state (a keyed hash starts from a state that took its key once). */
  copy(): TextHasher {
    const c = new TextHasher();
    c.h1 = this.h1;
    c.h2 = this.h2;
    return c;
  }
  digest(): string {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
    h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
  }
}
