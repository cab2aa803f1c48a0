// The MCP endpoints this document has talked to (origin + path). A request to a known endpoint is MCP even when it
// carries no JSON-RPC body (the GET stream, DELETE, a legacy POST target announced by an `endpoint` event).
import { endpointKey } from '../../shared/mcp-detect.ts';

const known = new Set<string>();

export function rememberEndpoint(url: string, base?: string): void {
  const key = endpointKey(url, base);
  if (key) known.add(key);
}

export function isKnownEndpoint(url: string): boolean {
  const key = endpointKey(url);
  return key !== undefined && known.has(key);
}
