// Redaction at the source of storage: secrets in headers and in URL query strings are replaced by a marker and a short
// hash before a frame leaves the page, so a trace can be shared. The hash lets two requests be compared ("same token?")
// without revealing the value. Pure; no browser API.
import { hashText } from './hash.ts';
import type { HeaderMap } from './frames.ts';

export const REDACTED_PREFIX = '[redacted:';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);
// Auth-like custom headers: X-Foo-Auth, X-Auth-Token, X-Access-Token, X-Amz-Security-Token, X-Client-Secret, …
const SECRET_HEADER_PATTERN = /(^x-.*auth|token|secret|api[-_]?key|password|passwd|credential|signature)/i;
// Token-like query parameters. `sessionId` is deliberately not here: it identifies the MCP session (legacy SSE) and is
// what the engine keys on; it is a routing id, not a credential.
const SECRET_QUERY_PATTERN =
  /^(access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|api[-_]?key|apikey|key|secret|client[-_]?secret|password|passwd|pwd|sig|signature|code|jwt|bearer|x-amz-signature|x-amz-security-token|x-goog-signature)$/i;

export function redactValue(value: string): string {
  return `${REDACTED_PREFIX}${hashText(value).slice(0, 8)}]`;
}

export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || SECRET_HEADER_PATTERN.test(n);
}

export function isSecretQueryParam(name: string): boolean {
  return SECRET_QUERY_PATTERN.test(name);
}

/** The value to keep for header `name` (lower-case): redacted when it is secret (the built-in list plus `extra`). */
export function redactHeaderValue(name: string, value: string, extra: readonly string[] = []): string {
  return isSecretHeader(name) || extra.includes(name) ? redactValue(value) : value;
}

/** Lower-cases names and redacts secret values (the built-in list plus `extra` lower-case names). Returns a new map. */
export function redactHeaders(headers: HeaderMap, extra: readonly string[] = []): HeaderMap {
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) {
    const n = name.toLowerCase();
    out[n] = redactHeaderValue(n, value, extra);
  }
  return out;
}

/**
 * Redacts token-like query parameters, URL userinfo, and the same parameters anywhere in the fragment (OAuth's
 * implicit flow returns `#access_token=…`; hash routers make it `#/access_token=…` or `#/cb?code=…`), of an absolute or
 * relative URL; leaves anything unparsable as is. The fragment is rewritten in place: only secret values change.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  if (hash >= 0) return redactBeforeFragment(url.slice(0, hash)) + redactFragment(url.slice(hash));
  return redactBeforeFragment(url);
}

function redactBeforeFragment(url: string): string {
  const q = url.indexOf('?');
  const at = url.indexOf('@');
  if (q < 0 && at < 0) return url;
  let u: URL;
  try {
    u = new URL(url, 'http://relative.invalid');
  } catch {
    return url;
  }
  let changed = false;
  if (u.password && !decodeComponent(u.password).startsWith(REDACTED_PREFIX)) {
    u.password = redactValue(decodeComponent(u.password));
    changed = true;
  }
  for (const [name, value] of [...u.searchParams]) {
    if (isSecretQueryParam(name) && !value.startsWith(REDACTED_PREFIX)) {
      u.searchParams.set(name, redactValue(value));
      changed = true;
    }
  }
  if (!changed) return url;
  const s = u.toString();
  return u.origin === 'http://relative.invalid' && !url.startsWith('http://relative.invalid') ? s.slice(u.origin.length) : s;
}

/** A query or fragment component decoded (`+` as space); as it is when it is not valid percent-encoding. */
export function decodeComponent(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `name=value` pairs anywhere in a fragment: after `#`, `&`, `?`, `/` or `;`. */
const FRAGMENT_PARAM = /(^#|[&?/;])([^&?/;#=]+)=([^&#]*)/g;

function redactFragment(fragment: string): string {
  if (!fragment.includes('=')) return fragment;
  return fragment.replace(FRAGMENT_PARAM, (all, before: string, name: string, value: string) => {
    const v = decodeComponent(value);
    if (!isSecretQueryParam(decodeComponent(name)) || v.startsWith(REDACTED_PREFIX)) return all;
    return `${before}${name}=${encodeURIComponent(redactValue(v))}`;
  });
}
