// The one place that decides what counts as MCP traffic (DESIGN §4): JSON-RPC 2.0 bodies (single or batch), MCP headers,
// SSE streams on MCP endpoints or whose first event is legacy `endpoint` or JSON-RPC, WebSocket with subprotocol `mcp` or
// JSON-RPC messages. Everything else is passed through untouched and unread. Pure and cheap: it runs on the page's thread.
import type { HeaderMap } from './frames.ts';

export const MCP_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name'] as const;

/** Above this size we only look at a prefix instead of parsing the whole text. */
const PARSE_LIMIT = 64 * 1024;
const JSONRPC_PREFIX = /^\s*\[?\s*\{[\s\S]{0,512}?"jsonrpc"\s*:\s*"2\.0"/;

function isJsonRpcObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && (v as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** True when `text` is a JSON-RPC 2.0 message or a non-empty batch of them. */
export function isJsonRpcText(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  if (text.indexOf('"jsonrpc"') < 0) return false;
  // A single object announcing "jsonrpc":"2.0" early needs no parse (this runs on the page's thread for every request);
  // batches are parsed, so one foreign member keeps the whole body out.
  if (first === '{' && JSONRPC_PREFIX.test(text)) return true;
  if (text.length > PARSE_LIMIT) return JSONRPC_PREFIX.test(text);
  try {
    const v: unknown = JSON.parse(text);
    if (Array.isArray(v)) return v.length > 0 && v.every(isJsonRpcObject);
    return isJsonRpcObject(v);
  } catch {
    // A body that starts like JSON-RPC but does not parse is still the MCP endpoint talking (malformed JSON-RPC is exactly
    // what a debugger must show), so the prefix decides.
    return JSONRPC_PREFIX.test(text);
  }
}

export function hasMcpHeader(headers: HeaderMap): boolean {
  return MCP_HEADERS.some((h) => h in headers);
}

export type RequestVerdict =
  /** Capture it. */
  | 'mcp'
  /** Might be MCP (an SSE GET): tap the response and decide on its first event. */
  | 'candidate'
  /** Not MCP: do not touch it. */
  | 'no';

export interface RequestFacts {
  method: string;
  headers: HeaderMap;
  /** The request body as text, when it is text. */
  bodyText?: string;
  /** The URL's origin+path was already seen carrying MCP in this document. */
  knownEndpoint: boolean;
}

export function classifyRequest(r: RequestFacts): RequestVerdict {
  if (hasMcpHeader(r.headers) || r.knownEndpoint) return 'mcp';
  if (r.bodyText !== undefined && isJsonRpcText(r.bodyText)) return 'mcp';
  const accept = r.headers.accept ?? '';
  if (r.method === 'GET' && accept.includes('text/event-stream')) return 'candidate';
  return 'no';
}

/** Decides an SSE candidate on its first event: legacy `endpoint` announcement or a JSON-RPC message. */
export function isMcpSseEvent(event: string | undefined, data: string): boolean {
  return event === 'endpoint' || isJsonRpcText(data);
}

/**
 * How to read the response of a captured request: SSE event by event, as text (JSON, text/*, or no type at all — a
 * 202 often has none), or as an opaque binary body.
 */
export function isReadableMcpContentType(contentType: string | undefined): 'json' | 'sse' | 'other' {
  const ct = (contentType ?? '').toLowerCase();
  if (ct === '') return 'json';
  if (ct.includes('text/event-stream')) return 'sse';
  if (ct.includes('json') || ct.startsWith('text/')) return 'json';
  return 'other';
}

/** origin + pathname, the key of an MCP endpoint. */
export function endpointKey(url: string, base?: string): string | undefined {
  try {
    const u = new URL(url, base);
    return u.origin + u.pathname;
  } catch {
    return undefined;
  }
}
