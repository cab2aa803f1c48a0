// The MCP endpoints this document has talked to (origin + path). A request to a known endpoint is MCP even when it
// carries no JSON-RPC body (the GET stream, DELETE, a legacy POST target announced by an `endpoint` event).
import { endpointKey } from '../../shared/mcp-detect.ts';

const known = new Set<string>();

export function rememberEndpoint(url: string, base?: string): void {
  // (Without a base, the request URL of every MCP call: its key comes from the cache, not from a URL parse per call.)
  const key = base === undefined ? keyOf(url) : endpointKey(url, base);
  if (key) known.add(key);
}

/** Endpoint keys of recently seen request URLs: a client posts to the same URL every time (a URL parse per call saved). */
const keys = new Map<string, string | undefined>();
const KEY_CACHE = 64;

function keyOf(url: string): string | undefined {
  let key = keys.get(url);
  if (key === undefined && !keys.has(url)) {
    if (keys.size >= KEY_CACHE) keys.clear();
    key = endpointKey(url);
    keys.set(url, key);
  }
  return key;
}

export function isKnownEndpoint(url: string): boolean {
  const key = keyOf(url);
  return key !== undefined && known.has(key);
}
