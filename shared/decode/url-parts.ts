// String-level URL helpers for the hot path: `new URL()` costs ~1 µs per call, and we only need origin+path, one query
// parameter and relative resolution of the legacy `endpoint` event. Inputs are absolute URLs from the hook.

/** origin + path, without query or fragment: the identity of an MCP endpoint. */
export function endpointOf(url: string): string {
  let end = url.length;
  const q = url.indexOf('?');
  if (q >= 0) end = q;
  const h = url.indexOf('#');
  if (h >= 0 && h < end) end = h;
  return end === url.length ? url : url.slice(0, end);
}

/** Value of a query parameter (percent-decoded when possible), or undefined. */
export function queryParam(url: string, name: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const h = url.indexOf('#', q);
  const query = url.slice(q + 1, h < 0 ? url.length : h);
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (key !== name) continue;
    const value = eq < 0 ? '' : part.slice(eq + 1);
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  }
  return undefined;
}

/** `scheme://host[:port]` of an absolute URL. */
export function originOf(url: string): string {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  return m ? m[0] : '';
}

/**
 * Resolve the legacy `endpoint` event's data (usually `/message?sessionId=…`) against the SSE URL, as the SDK's
 * client does (`new URL(data, sseUrl)`): the page then posts to exactly that URL. Without a usable URL parser, or for a
 * base it refuses, a plain resolution of absolute, `//`, `/`, `?` and relative forms.
 */
export function resolveAgainst(base: string, ref: string): string {
  const r = ref.trim();
  try {
    return new URL(r, base).href;
  } catch {
    // Below.
  }
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(r)) return r;
  if (r.startsWith('//')) return (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.exec(base)?.[0] ?? 'http:') + r;
  if (r.startsWith('/')) return originOf(base) + r;
  const path = endpointOf(base);
  if (r.startsWith('?')) return path + r;
  return path.slice(0, path.lastIndexOf('/') + 1) + r;
}

/**
 * The legacy HTTP+SSE session id of a POST URL: `sessionId` (the TypeScript SDK), `session_id` (the Python SDK and
 * FastMCP announce `/messages/?session_id=<hex>`) or `sessionid` (the Go SDK). Other spellings, and sessions in the
 * path, are found by the whole URL the endpoint event announced (Decoder.onRequest).
 */
export function legacySessionParam(url: string): string | undefined {
  return queryParam(url, 'sessionId') ?? queryParam(url, 'session_id') ?? queryParam(url, 'sessionid');
}
