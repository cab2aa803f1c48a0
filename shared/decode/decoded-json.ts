// The parsed JSON-RPC object of a decoded message, on demand. Messages keep only their raw text (shared with the
// frame) so the engine does not hold a second, parsed copy of every payload; the detail drawer parses the one it shows.
import type { DecodedMessage } from './types.ts';

/** Parsed message, or undefined when the raw text is not (complete) JSON. Never throws. */
export function decodedJson(m: DecodedMessage): unknown {
  if (m.truncated) return undefined;
  try {
    const v: unknown = JSON.parse(m.raw);
    return m.batch !== undefined && Array.isArray(v) ? v[m.batch] : v;
  } catch {
    return undefined;
  }
}
