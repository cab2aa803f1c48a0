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
// Exact names, and names that contain a credential word anywhere (auth_token, apiToken, private_token, X-API-KEY,
// access-key, client_secret…). A false positive only hides a value; a miss leaks one.
const SECRET_QUERY_PATTERN = /^(auth|authorization|key|apikey|pwd|sig|code)$/i;
const SECRET_QUERY_WORDS = /token|secret|passw(or)?d|api[-_]?key|access[-_]?key|signature|credential|jwt|bearer/i;
// …but not the words' harmless uses: OAuth's token_type, an LLM API's max_tokens.
const NOT_SECRET_QUERY = /^(token[-_]?type|max[-_]?tokens|tokens?[-_]?(count|limit|usage))$/i;
// Headers whose value is a URL: its query and fragment get the same treatment as a request's.
const URL_HEADERS = new Set(['referer', 'location', 'content-location']);

export function redactValue(value: string): string {
  return `${REDACTED_PREFIX}${hashText(value).slice(0, 8)}]`;
}

export function isSecretHeader(name: string): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADERS.has(n) || SECRET_HEADER_PATTERN.test(n);
}

export function isSecretQueryParam(name: string): boolean {
  return SECRET_QUERY_PATTERN.test(name) || (SECRET_QUERY_WORDS.test(name) && !NOT_SECRET_QUERY.test(name));
}

/**
 * The value to keep for header `name` (lower-case): redacted when it is secret (the built-in list plus `extra`); a
 * URL-valued header (Referer, Location) keeps its URL with the URL's secrets redacted.
 */
export function redactHeaderValue(name: string, value: string, extra: readonly string[] = []): string {
  if (isSecretHeader(name) || extra.includes(name)) return value.startsWith(REDACTED_PREFIX) ? value : redactValue(value);
  return URL_HEADERS.has(name) ? redactUrl(value) : value;
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

/** Userinfo in an absolute URL: `scheme://user:password@`. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@:]*):([^/?#@]*)@/i;
/** `name=value` pairs of a query string (from its `?`). */
const QUERY_PARAM = /(^\?|&)([^&=]+)=([^&]*)/g;

/** The part before the fragment: only secret values change, the rest stays byte for byte as it was sent. */
function redactBeforeFragment(url: string): string {
  const q = url.indexOf('?');
  let base = q < 0 ? url : url.slice(0, q);
  let query = q < 0 ? '' : url.slice(q);
  if (base.includes('@')) {
    base = base.replace(USERINFO, (all, scheme: string, user: string, password: string) => {
      const p = decodeComponent(password);
      return p === '' || p.startsWith(REDACTED_PREFIX) ? all : `${scheme}${user}:${encodeURIComponent(redactValue(p))}@`;
    });
  }
  if (query.includes('=')) query = query.replace(QUERY_PARAM, redactPair);
  return base + query;
}

function redactPair(all: string, before: string, name: string, value: string): string {
  const v = decodeComponent(value);
  if (!isSecretQueryParam(decodeComponent(name)) || v.startsWith(REDACTED_PREFIX)) return all;
  return `${before}${name}=${encodeURIComponent(redactValue(v))}`;
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
  return fragment.replace(FRAGMENT_PARAM, redactPair);
}
