// Reads what a fetch() call is about to send (method, absolute URL, headers, body text) without consuming anything the
// page still needs: a Request's body is read from a clone, taken before the native fetch uses the original.
import type { HeaderMap, Payload } from '../../shared/frames.ts';
import { TextHasher } from '../../shared/hash.ts';
import { makePayload, opaquePayload } from '../../shared/payload.ts';
import { redactHeaderValue } from '../../shared/redact.ts';
import { ignore, natives, web } from './natives.ts';

export interface RequestFacts {
  method: string;
  url: string;
  headers: HeaderMap;
  /** Body text known synchronously (string, URLSearchParams, buffers). */
  bodyText?: string;
  /** Body that must be read asynchronously (Blob, a Request's body). */
  bodyLater?: Promise<string>;
  /** Body we do not read (FormData, a ReadableStream). */
  bodyOpaque?: string;
  /**
   * Set when the body read is not UTF-8 text (an image, a file in a multipart form): its true size and the hash of its
   * bytes. Its text is then '' (a lossy decoding would log bytes the page did not send).
   */
  bodyBinary?: { bytes: number; hash: string };
}

/** Bytes that are not UTF-8 text: hashed as they are (cyrb53, each byte one unit), and counted. */
function binaryOf(chunks: readonly Uint8Array[]): { bytes: number; hash: string } {
  const h = new TextHasher();
  let bytes = 0;
  for (const c of chunks) {
    h.updateBytes(c);
    bytes += c.byteLength;
  }
  return { bytes, hash: h.digest() };
}

/** The text of `bytes` when they are valid UTF-8; undefined when not (a fatal decoder: no U+FFFD stands in). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new natives.TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function headersToMap(h: Headers): HeaderMap {
  const out: HeaderMap = {};
  web.headersForEach.call(h, (value, name) => {
    out[name] = value;
  });
  return out;
}

/** A response's headers as a map, redacted in the same pass (redactHeaders over headersToMap, for every MCP response). */
export function redactedHeaderMap(h: Headers, extraSecret: readonly string[]): HeaderMap {
  const out: HeaderMap = {};
  // Headers iterates lower-case names.
  web.headersForEach.call(h, (value, name) => {
    out[name] = redactHeaderValue(name, value, extraSecret);
  });
  return out;
}

/** The last URL made absolute: a client calls the same endpoint again and again (one URL parse saved per call). */
let lastInput = '';
let lastBase = '';
let lastHref = '';
function absoluteUrl(input: string | URL): string {
  const s = typeof input === 'string' ? input : web.urlHref.call(input);
  const base = document.baseURI;
  if (s === lastInput && base === lastBase) return lastHref;
  const href = new URL(s, base).href;
  lastInput = s;
  lastBase = base;
  lastHref = href;
  return href;
}

/** Bodies read asynchronously are looked at through their first 64 KiB; only an MCP body is read whole. */
export const PROBE_BYTES = 64 * 1024;

/** Whether, seen through the start of its body, the request is (or may be) MCP and its whole body should be read. */
export type KeepReading = (facts: RequestFacts, head: string) => boolean;

/**
 * The text of a Blob body, without reading a large upload that is not MCP: the first PROBE_BYTES decide, and only when
 * they say MCP is the rest read (a 1 GB file upload costs the page a 64 KiB read, not a 1 GB string). A body read
 * whole that is not UTF-8 sets facts.bodyBinary.
 */
async function probedText(blob: Promise<Blob>, facts: RequestFacts, keep: (head: string) => boolean): Promise<string> {
  const b = await blob;
  const whole = async (x: Blob) => {
    const bytes = new natives.Uint8Array(await natives.blobArrayBuffer.call(x));
    const text = utf8Text(bytes);
    if (text !== undefined) return text;
    facts.bodyBinary = binaryOf([bytes]);
    return '';
  };
  if (b.size <= PROBE_BYTES) return whole(b);
  const head = await natives.blobText.call(natives.blobSlice.call(b, 0, PROBE_BYTES));
  return keep(head) ? whole(b) : head;
}

/**
 * The text of a Request's body (read from a clone), the same way: its first PROBE_BYTES decide, and only an MCP body is
 * read to its end. A clone of a body that is a stream pulls the page's stream: a large or endless upload that is not
 * MCP is pulled no further than the probe (the clone is cancelled; the page's own copy goes on as without us). Bytes
 * that are not UTF-8 (a Blob, a typed array or a form with a file, all read here from the Request fetch-tap made) set
 * facts.bodyBinary: the chunks are kept (views, no copies) until the body proves to be text or not, and hashed then.
 */
async function probedStream(body: ReadableStream<Uint8Array>, facts: RequestFacts, keep: (head: string) => boolean): Promise<string> {
  const reader = natives.getReader.call(body);
  const decoder = new natives.TextDecoder('utf-8', { fatal: true });
  let chunks: Uint8Array[] | undefined = [];
  let hasher: TextHasher | undefined;
  let text = '';
  let bytes = 0;
  let decided = false;
  const notText = () => {
    hasher = new TextHasher();
    for (const c of chunks!) hasher.updateBytes(c);
    chunks = undefined;
    text = '';
  };
  for (;;) {
    const { done, value } = await natives.readerRead.call(reader);
    if (done) {
      if (!hasher) {
        try {
          return text + decoder.decode();
        } catch {
          notText(); // (It ends inside a character.)
        }
      }
      facts.bodyBinary = { bytes, hash: hasher!.digest() };
      return '';
    }
    bytes += value.byteLength;
    if (hasher) hasher.updateBytes(value);
    else {
      chunks!.push(value);
      try {
        text += decoder.decode(value, { stream: true });
      } catch {
        notText();
      }
    }
    if (!decided && bytes >= PROBE_BYTES) {
      decided = true;
      if (!keep(text)) {
        ignore(natives.readerCancel.call(reader));
        return text.slice(0, PROBE_BYTES);
      }
    }
  }
}

/**
 * A buffer body's text; one larger than the probe is decoded whole only when its start says MCP. One that is not
 * UTF-8 sets facts.bodyBinary.
 */
function bufferText(body: ArrayBuffer | ArrayBufferView, facts: RequestFacts, keep: (head: string) => boolean): string {
  // The natives (a page may have replaced Uint8Array or its methods): views, no copies.
  const buffer = body instanceof ArrayBuffer ? body : body.buffer;
  const offset = body instanceof ArrayBuffer ? 0 : body.byteOffset;
  const length = body.byteLength;
  const whole = () => {
    const bytes = new natives.Uint8Array(buffer, offset, length);
    const text = utf8Text(bytes);
    if (text !== undefined) return text;
    facts.bodyBinary = binaryOf([bytes]);
    return '';
  };
  if (length <= PROBE_BYTES) return whole();
  const head = new natives.TextDecoder().decode(new natives.Uint8Array(buffer, offset, PROBE_BYTES));
  return keep(head) ? whole() : head;
}

function bodyFacts(body: unknown, facts: RequestFacts, keep: KeepReading): void {
  if (body === undefined || body === null) return;
  if (typeof body === 'string') facts.bodyText = body;
  else if (body instanceof URLSearchParams) facts.bodyText = web.searchParamsToString.call(body);
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) facts.bodyText = bufferText(body, facts, (head) => keep(facts, head));
  else if (body instanceof Blob) facts.bodyLater = probedText(Promise.resolve(body), facts, (head) => keep(facts, head));
  else if (body instanceof FormData) facts.bodyOpaque = '[FormData body]';
  else if (body instanceof ReadableStream) facts.bodyOpaque = '[ReadableStream body]';
  // (Any other object is sent as its toString() says: not called here; fetch-tap reads such a body from its Request.)
  else if (typeof body !== 'object' && typeof body !== 'function') facts.bodyText = String(body);
}

/** A dictionary member that would run page code to read (a getter, or one on its prototype chain). */
const ACCESSOR: unique symbol = Symbol('accessor');

/** Reads a dictionary member as the native fetch would, without running any code of the page's (see ACCESSOR). */
export function member(dict: object, key: string): unknown {
  let o: object | null = dict;
  for (let depth = 0; o !== null; depth++) {
    if (depth > 16) return ACCESSOR;
    const d = natives.getOwnPropertyDescriptor(o, key);
    if (d) return 'value' in d ? d.value : ACCESSOR;
    o = natives.getPrototypeOf(o) as object | null;
  }
  return undefined;
}

/**
 * An init the tap reads itself, as it stands (the common call, every SDK's: `{ method, headers, body: string }`):
 * a string body and a method and headers that are plain data, read through their descriptors, so no page code runs
 * and the native fetch reads the init once, as without us. Any other init goes to a Request the tap makes
 * (plainArgs): making one for every call, and reading its body from a clone, cost the page 40 % on the page-overhead
 * bench's 500 POSTs (1.15 → 1.54, interleaved A/B, 2026-12-05). A Proxy whose decoy target holds such data while its
 * `get` trap answers otherwise is logged as its target says: it cannot be told from a plain object without running
 * its traps twice (docs/architecture.md).
 */
export function dataInit(input: unknown, init: unknown): init is RequestInit {
  if (typeof input !== 'string' && !(input instanceof URL)) return false;
  if (typeof init !== 'object' || init === null) return false;
  if (typeof member(init, 'body') !== 'string') return false;
  // A method that is not a string is converted by the native (its toString, or "null"): the made Request says what.
  const method = member(init, 'method');
  return (method === undefined || typeof method === 'string') && dataHeaders(member(init, 'headers'));
}

/**
 * Headers the tap can read again after the native fetch did, running no page code and finding what it sent: none, a
 * Headers (told by its brand: a native method that throws on anything else), or a plain object of string data
 * properties. Not a one-shot iterator (the native fetch used it up: the log had `{}` and lost the session id), an
 * array (its iterator may be patched), nor a getter (it would run twice) — those go to a made Request (a review,
 * 2026-12-05).
 */
function dataHeaders(h: unknown): boolean {
  if (h === undefined) return true;
  if (typeof h !== 'object' || h === null) return false;
  // A plain object (the bench's and many clients' call) is told by its prototype first, without the brand check: a
  // native brand check that fails throws, and making that TypeError (its stack) on every POST was the hook's costliest
  // line on the page-overhead bench. A Headers whose prototype a page set to Object.prototype is, to the native fetch,
  // a record of its own properties like any plain object (WebIDL converts HeadersInit by @@iterator, not by brand),
  // so it is judged the same way here.
  if (natives.getPrototypeOf(h) === natives.ObjectPrototype) {
    for (const k of natives.ownKeys(h)) {
      const d = natives.getOwnPropertyDescriptor(h, k);
      if (!d || !('value' in d) || typeof d.value !== 'string') return false;
    }
    return true;
  }
  try {
    web.headersGet.call(h as Headers, 'content-type');
    return true;
  } catch {
    return false; // Neither a Headers nor a plain object.
  }
}

/** The methods fetch upper-cases (Fetch standard, "normalize a method"); any other is sent as written. */
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
function normalizeMethod(m: string): string {
  const upper = m.toUpperCase();
  return NORMALIZED.has(upper) ? upper : m;
}

/**
 * Whether the tap can read a fetch() call's arguments itself: an input that is a string, URL or Request, and no init.
 * Besides these and a plain-data init (dataInit), any init object goes to a Request the tap makes (fetch-tap.ts): a
 * Proxy with an empty target is told from a plain object by nothing but its missing data (its
 * getOwnPropertyDescriptor and getPrototypeOf traps may forward to a decoy target while its `get` trap, which the
 * native fetch reads through, answers otherwise), a getter must not run twice, and `body: null` beside a Request input
 * means "the Request's body". The Request is made once — the page's members read once, in the native order — and the
 * facts are read from it (fetch(i, init) is fetch(new Request(i, init)), Fetch standard).
 */
export function plainArgs(input: unknown, init: unknown): boolean {
  if (typeof input !== 'string' && !(input instanceof URL) && !(input instanceof Request)) return false;
  return init === undefined || init === null;
}

/**
 * Throws when the arguments are not a valid fetch() call; the caller then lets the native fetch report it. `bodyClone`
 * is a clone of a Request input taken before the native fetch used its body (read instead of the input's body).
 */
export function requestFacts(input: unknown, init: RequestInit | undefined, keep: KeepReading = () => true, bodyClone?: Request): RequestFacts {
  const isRequest = input instanceof Request;
  const url = isRequest ? web.requestUrl.call(input) : absoluteUrl(input as string | URL);
  // (Members read as plain data, never a getter. The fetch tap passes no init here: see plainArgs.)
  const initMethod = init ? (member(init, 'method') as string | undefined) : undefined;
  const initHeaders = init ? (member(init, 'headers') as HeadersInit | undefined) : undefined;
  const initBody = init ? member(init, 'body') : undefined;
  const method = normalizeMethod(initMethod ?? (isRequest ? web.requestMethod.call(input) : 'GET'));
  const given = initHeaders ?? (isRequest ? web.requestHeaders.call(input) : undefined);
  // A Headers object (what the SDKs pass, and a Request's own) is already normalized: read it, do not copy it first.
  const headers = headersToMap(given instanceof Headers ? given : new web.Headers(given));
  const facts: RequestFacts = { method, url, headers };
  if (initBody !== undefined) bodyFacts(initBody, facts, keep);
  else {
    // (Without a clone taken before the native fetch: a Request's body not used yet is cloned now.)
    const source = bodyClone ?? (isRequest && web.requestBody.call(input) !== null && !web.requestBodyUsed.call(input) ? web.requestClone.call(input) : undefined);
    const body = source ? web.requestBody.call(source) : null;
    if (body) facts.bodyLater = probedStream(body, facts, (head) => keep(facts, head));
  }
  return facts;
}

/**
 * The request frame's body. One that is not UTF-8 text is opaque: a description, with its true size and the hash of
 * its bytes in `truncated` (docs/trace-format.md).
 */
export function bodyPayload(facts: RequestFacts, text: string | undefined, capBytes: number): Payload | undefined {
  const bin = facts.bodyBinary;
  if (bin) return { ...opaquePayload(`[binary body, ${bin.bytes} bytes]`), truncated: bin };
  if (text !== undefined) return makePayload(text, capBytes);
  if (facts.bodyOpaque) return opaquePayload(facts.bodyOpaque);
  return undefined;
}
