// Cross-origin rules for the demo: the client page lives on its own origin, so every MCP and admin response carries CORS
// headers for loopback origins only, and exposes the headers an MCP client must read (mcp-session-id,
// mcp-protocol-version) — the trap PROTOCOL.md warns about. Host checks keep DNS-rebinding pages out.
import type { IncomingMessage } from 'node:http';

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

export const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version';
const ALLOWED_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';

export function isLoopbackHost(req: IncomingMessage): boolean {
  return LOOPBACK_HOST.test(req.headers.host ?? '');
}

/** Headers for a response to `req`; empty unless the request comes from a loopback origin. */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  if (!origin || !LOOPBACK_ORIGIN.test(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

export function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const base = corsHeaders(req);
  if (!base['access-control-allow-origin']) return {};
  const requested = req.headers['access-control-request-headers'];
  return {
    ...base,
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' && requested ? `${ALLOWED_HEADERS}, ${requested}` : ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
