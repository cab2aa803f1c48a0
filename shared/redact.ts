// Redaction at the source of storage: secrets in headers and in URL query strings are replaced by a marker and a short
// keyed hash before a frame leaves the page, so a trace can be shared. The hash lets two requests be compared ("same
// token?") without revealing the value: it is keyed by a random salt that never leaves the browser (see markerKey), so
// whoever holds a trace or HAR cannot confirm a guess nor brute-force a short secret (a PIN, a password) from it.
// No browser API but crypto.getRandomValues (for the salt).
import { hashText, TextHasher } from './hash.ts';
import type { HeaderMap } from './frames.ts';

export const REDACTED_PREFIX = '[redacted:';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);
// Auth-like custom headers: X-Foo-Auth, X-Auth-Token, X-Access-Token, X-Amz-Security-Token, X-Client-Secret, …
// Keys by another name: Azure API Management's Ocp-Apim-Subscription-Key, Azure Functions' X-Functions-Key, X-Access-Key.
// And the ones a drawer audit found shown in clear (2026-12-05): Authentication, DPoP, X-Goog-IAP-JWT-Assertion, X-JWT,
// X-Bearer, X-Vercel-Protection-Bypass.
const SECRET_HEADER_PATTERN = /(^x-.*auth|^authentication$|^dpop$|token|secret|api[-_]?key|(access|subscription|session|functions|private|client|app|master)[-_]?key|password|passwd|credential|signature|jwt|bearer|bypass)/i;
// A value that is a credential whatever its header's name (`X-Upstream: Bearer …`)…
const CREDENTIAL_VALUE = /^(bearer|basic|digest|dpop|negotiate)\s+\S/i;
// …except where it only names a scheme and its parameters (a 401's WWW-Authenticate: `Bearer resource_metadata=…`,
// what an MCP client needs to see to debug its authorization).
const SCHEME_CHALLENGE = new Set(['www-authenticate', 'proxy-authenticate']);
// Token-like query parameters. `sessionId` is deliberately not here: it identifies the MCP session (legacy SSE) and is
// what the engine keys on; it is a routing id, not a credential.
// Exact names, and names that contain a credential word anywhere (auth_token, apiToken, private_token, X-API-KEY,
// access-key, client_secret…). A false positive only hides a value; a miss leaks one.
const SECRET_QUERY_PATTERN = /^(auth|authorization|key|apikey|pwd|pass|sig|code|passcode)$/i;
const SECRET_QUERY_WORDS = /token|secret|passw(or)?d|api[-_]?key|(access|subscription|session|functions|private|client|app|master)[-_]?key|auth[-_]?code|signature|credential|jwt|bearer/i;
// …but not the words' harmless uses: OAuth's token_type(_hint), an LLM API's max_tokens, input_tokens, tokenizer.
const NOT_SECRET_QUERY = /^(token[-_]?type([-_]?hint)?|tokenizer|(max|min|input|output|prompt|completion|total|cached|num)[-_]?(completion[-_]?)?tokens|tokens?[-_]?(count|limit|usage))$/i;
const REDACTED_VALUE = /^\[redacted:[0-9a-f]{8}\]$/;

/** A value this module already redacted: the whole value, not one that merely starts like it. */
export function isRedacted(value: string): boolean {
  return REDACTED_VALUE.test(value);
}
// Headers whose value is a URL: its query and fragment get the same treatment as a request's.
const URL_HEADERS = new Set(['referer', 'location', 'content-location']);

// Taken when this module is evaluated — in the page hook at document_start, before any page script — so a page that
// later replaces crypto.getRandomValues or Uint32Array cannot choose the salt.
const cryptoObject: Crypto | undefined = typeof crypto === 'object' && crypto !== null && typeof crypto.getRandomValues === 'function' ? crypto : undefined;
const getRandomValues = cryptoObject?.getRandomValues;
const Words = Uint32Array;
const fromCharCode = String.fromCharCode;

/**
 * The cyrb53 state after the salt: markers are this state fed the value. 128 random bits make a 64-bit state, so a
 * guess can be checked only by knowing the salt. Made at the first redaction (a page that redacts nothing pays nothing),
 * one per realm: per document in the page hook, per worker in the background (which installs a stored salt:
 * setMarkerSalt), per panel for what an export redacts. Never written anywhere.
 */
let markerKey: TextHasher | undefined;

function keyFrom(salt: ArrayLike<number>): TextHasher {
  const h = new TextHasher(salt[0]! | 0);
  let units = '';
  for (let i = 1; i < salt.length; i++) units += fromCharCode(salt[i]! & 0xffff, salt[i]! >>> 16);
  h.update(units);
  return h;
}

/** 4 random 32-bit words (crypto.getRandomValues; Math.random only where a realm lacks it). */
export function randomSalt(): number[] {
  const words = new Words(4);
  if (getRandomValues) getRandomValues.call(cryptoObject, words);
  else for (let i = 0; i < 4; i++) words[i] = (Math.random() * 0x100000000) >>> 0;
  return [...words];
}

/**
 * Installs the salt markers are keyed with in this realm from now on (the background's, kept in its database, so a
 * worker restart does not change them). A salt of 4 words, from randomSalt.
 */
export function setMarkerSalt(salt: readonly number[]): void {
  markerKey = keyFrom(salt);
}

/**
 * `[redacted:<8 hex>]`: the value keyed-hashed. Equal markers from one realm (one page load, for the hook) mean equal
 * values (but for a 1 in 2^32 collision); a marker says nothing about the value without the salt, which no export holds.
 */
export function redactValue(value: string): string {
  const h = (markerKey ??= keyFrom(randomSalt())).copy();
  h.update(value);
  return `${REDACTED_PREFIX}${h.digest().slice(0, 8)}]`;
}

/**
 * The unkeyed marker of traces taken before markers were keyed (2026-12-06): only to match such a trace's values
 * against each other (the decoder's legacy endpoint), never written to a new trace.
 */
export function unkeyedMarker(value: string): string {
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
  if (isSecretHeader(name) || extra.includes(name) || (CREDENTIAL_VALUE.test(value) && !SCHEME_CHALLENGE.has(name))) {
    return isRedacted(value) ? value : redactValue(value);
  }
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
export function redactUrl(url: string, mark: (value: string) => string = redactValue): string {
  const hash = url.indexOf('#');
  if (hash >= 0) return redactBeforeFragment(url.slice(0, hash), mark) + redactFragment(url.slice(hash), mark);
  return redactBeforeFragment(url, mark);
}

/**
 * What comes before an authority: a web scheme and its slashes, however many (`https://`, `https:/`, `https:\\`), any
 * other scheme with `//`, or `//` alone (`mailto:a@b` has no authority).
 */
const AUTHORITY_START = /^\s*(?:(?:https?|wss?):[/\\]*|[a-z][a-z0-9+.-]*:\/\/|[/\\]{2})/i;
/** `name=value` pairs of a query string (from its `?`). */
const QUERY_PARAM = /(^\?|&)([^&=]+)=([^&]*)/g;

/** The part before the fragment: only secret values change, the rest stays byte for byte as it was sent. */
function redactBeforeFragment(url: string, mark: (value: string) => string): string {
  const q = url.indexOf('?');
  let base = q < 0 ? url : url.slice(0, q);
  let query = q < 0 ? '' : url.slice(q);
  if (base.includes('@')) base = redactUserinfo(base, mark);
  if (query.includes('=')) query = query.replace(QUERY_PARAM, pairRedactor(mark));
  return base + query;
}

/**
 * The userinfo of `user:password@host`, whole: a password, a bare token (`https://<token>@host`), a key as the user
 * with an empty or placeholder password (`sk_live_…:@`, `<token>:x-oauth-basic@`). It runs to the last `@` of the
 * authority, so an `@` inside it does not leave the rest in clear.
 */
function redactUserinfo(base: string, mark: (value: string) => string): string {
  const start = AUTHORITY_START.exec(base);
  if (!start) return base;
  const from = start[0].length;
  const end = base.slice(from).search(/[/\\?#]/);
  const authority = end < 0 ? base.slice(from) : base.slice(from, from + end);
  const at = authority.lastIndexOf('@');
  if (at <= 0) return base;
  const plain = decodeComponent(authority.slice(0, at));
  if (isRedacted(plain)) return base;
  return base.slice(0, from) + encodeURIComponent(mark(plain)) + base.slice(from + at);
}

type PairReplacer = (all: string, before: string, name: string, value: string) => string;

function redactPair(all: string, before: string, name: string, value: string, mark: (value: string) => string): string {
  const v = decodeComponent(value);
  if (!isSecretQueryParam(decodeComponent(name)) || isRedacted(v)) return all;
  return `${before}${name}=${encodeURIComponent(mark(v))}`;
}

/** The keyed replacer made once (the hook redacts every request's URL); another marker's per call. */
const keyedPair: PairReplacer = (all, before, name, value) => redactPair(all, before, name, value, redactValue);
function pairRedactor(mark: (value: string) => string): PairReplacer {
  return mark === redactValue ? keyedPair : (all, before, name, value) => redactPair(all, before, name, value, mark);
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

/**
 * Absolute URLs inside free text (an error message quoting the URL it refused). The scheme is short (bounded, so a
 * long run of word characters costs linear time: the text may come from the page, as an abort reason).
 */
const URL_IN_TEXT = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>`]+/gi;
/** Punctuation that ends a sentence around a URL, not the URL: `(see https://h/x?token=t).` */
const TRAILING_PUNCTUATION = /[).,;:!?\]]+$/;

/**
 * Free text with the secrets of every absolute URL in it redacted: browsers quote the URL in some errors
 * (`Request cannot be constructed from a URL that includes credentials: http://user:pw@…`).
 */
export function redactUrlsIn(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (u) => {
    const tail = TRAILING_PUNCTUATION.exec(u)?.[0] ?? '';
    return redactUrl(u.slice(0, u.length - tail.length)) + tail;
  });
}

/**
 * A WebSocket subprotocol as kept: browsers cannot set Authorization on a WebSocket, so some clients send a token as a
 * subprotocol (`base64url.bearer.authorization.k8s.io.<token>`). One that names a credential is redacted; `mcp` stays.
 */
export function redactSubprotocol(p: string): string {
  return /bearer|token|authorization|secret|api[-_.]?key|passw/i.test(p) && !isRedacted(p) ? redactValue(p) : p;
}

function redactFragment(fragment: string, mark: (value: string) => string): string {
  if (!fragment.includes('=')) return fragment;
  return fragment.replace(FRAGMENT_PARAM, pairRedactor(mark));
}
