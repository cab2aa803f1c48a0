// Traces are UTF-8. Bytes that are not (a file re-saved in Latin-1) would decode to U+FFFD, changing URIs and hashes
// without a word: the CLI and the panel refuse them with the same words.

/** Where the first byte that is not UTF-8 is (only asked once the bytes are known not to be). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const x = b[i]!;
    const n = x < 0x80 ? 0 : x >= 0xc2 && x <= 0xdf ? 1 : x >= 0xe0 && x <= 0xef ? 2 : x >= 0xf0 && x <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const lo = x === 0xe0 ? 0xa0 : x === 0xf0 ? 0x90 : 0x80;
    const hi = x === 0xed ? 0x9f : x === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k <= n; k++) {
      const y = b[i + k];
      if (y === undefined || y < (k === 1 ? lo : 0x80) || y > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** Why bytes known not to be UTF-8 cannot be a trace, with the first bad byte and where it is. */
export function notUtf8Problem(b: Uint8Array): string {
  const at = firstInvalidUtf8(b);
  return `it is not UTF-8 text (byte 0x${(b[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at}); was it re-saved in another encoding?`;
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/**
 * The bytes as text; when they are not UTF-8, the text as decoded with U+FFFD and why it is not. (The caller still reads
 * it, so that a file that is not a trace at all, UTF-16 say, is named as such first, as the CLI does.)
 */
export function decodeUtf8(b: Uint8Array): { text: string; notUtf8?: string } {
  try {
    return { text: strict.decode(b) };
  } catch {
    return { text: lenient.decode(b), notUtf8: notUtf8Problem(b) };
  }
}
