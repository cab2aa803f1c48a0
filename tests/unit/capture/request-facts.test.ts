// What the fetch tap reads of a request body it has to read asynchronously (a Blob, a Request's body): the first 64 KiB
// decide, and only an MCP body is read whole — a large upload that is not MCP is never turned into a string.
import { beforeAll, describe, expect, it } from 'vitest';
import { TextHasher } from '../../../shared/hash.ts';

const reads: number[] = [];
let requestFacts: typeof import('../../../extension/hook/request-facts.ts').requestFacts;
let PROBE_BYTES: number;
let redactedHeaderMap: typeof import('../../../extension/hook/request-facts.ts').redactedHeaderMap;
let plainArgs: typeof import('../../../extension/hook/request-facts.ts').plainArgs;
let dataInit: typeof import('../../../extension/hook/request-facts.ts').dataInit;
let bodyPayload: typeof import('../../../extension/hook/request-facts.ts').bodyPayload;
let requestedProtocols: typeof import('../../../extension/hook/websocket-tap.ts').requestedProtocols;

beforeAll(async () => {
  // The hook captures its natives at import (document_start in a page): spy on Blob's reads first, give it a window.
  // (Blob.arrayBuffer: the tap reads a Blob whole as bytes, its probe as text, which Node's Blob.text reads through it.)
  const arrayBuffer = Blob.prototype.arrayBuffer;
  Blob.prototype.arrayBuffer = function (this: Blob) {
    reads.push(this.size);
    return arrayBuffer.call(this);
  };
  Object.assign(globalThis, { window: globalThis, document: { baseURI: 'http://127.0.0.1/app/' } });
  ({ requestFacts, PROBE_BYTES, redactedHeaderMap, plainArgs, dataInit, bodyPayload } = await import('../../../extension/hook/request-facts.ts'));
  ({ requestedProtocols } = await import('../../../extension/hook/websocket-tap.ts'));
});

const rpc = (pad: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { pad: 'x'.repeat(pad) } });
const upload = (bytes: number) => new Blob([new Uint8Array(bytes).fill(65)], { type: 'application/octet-stream' });

/** cyrb53 over bytes, each byte one unit: the hash an opaque body carries. */
function bytesHash(...parts: Uint8Array[]): string {
  const h = new TextHasher();
  for (const p of parts) h.updateBytes(p);
  return h.digest();
}

describe('requestFacts: binary bodies (review-b #10: Blob([1,2,3,255]) was logged as "\\u0001\\u0002\\u0003\\ufffd", unmarked)', () => {
  const BIN = new Uint8Array([1, 2, 3, 255]);
  const binaryPayload = (bytes: number, hash: string) => ({ text: `[binary body, ${bytes} bytes]`, opaque: true, truncated: { bytes, hash } });

  it('a Blob, a buffer or a typed array that is not UTF-8 is opaque, with its true size and the hash of its bytes', async () => {
    for (const body of [new Blob([BIN]), BIN.buffer.slice(0), BIN, new DataView(new Uint8Array([9, 1, 2, 3, 255]).buffer, 1)]) {
      const f = requestFacts('/mcp', { method: 'POST', body }, () => true);
      const text = f.bodyLater ? await f.bodyLater : f.bodyText;
      expect(bodyPayload(f, text, 1024)).toEqual(binaryPayload(4, bytesHash(BIN)));
    }
  });

  it('the same through a Request (what the fetch tap reads): a Blob, and a form with a binary file', async () => {
    const viaBlob = requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: new Blob([BIN]) }), undefined, () => true);
    expect(bodyPayload(viaBlob, await viaBlob.bodyLater, 1024)).toEqual(binaryPayload(4, bytesHash(BIN)));
    const form = new FormData();
    form.append('file', new Blob([BIN]), 'f.bin');
    const sent = new Uint8Array(await new Request('http://127.0.0.1/mcp', { method: 'POST', body: form }).arrayBuffer());
    const viaForm = requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: form }), undefined, () => true);
    const p = bodyPayload(viaForm, await viaForm.bodyLater, 1024)!;
    expect(p.opaque).toBe(true);
    // (The boundary differs between two Requests made of one form; its length does not.)
    expect(p.truncated!.bytes).toBe(sent.byteLength);
  });

  it('a stream that turns out not to be UTF-8 in a later chunk is hashed whole; a character split across chunks stays text', async () => {
    const stream = (...chunks: Uint8Array[]) => new ReadableStream<Uint8Array>({ start: (c) => { for (const x of chunks) c.enqueue(x); c.close(); } });
    const a = new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"');
    const f = requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: stream(a, BIN), duplex: 'half' } as RequestInit), undefined, () => true);
    expect(bodyPayload(f, await f.bodyLater, 1024)).toEqual(binaryPayload(a.length + 4, bytesHash(a, BIN)));
    const euro = new TextEncoder().encode('{"x":"€"}');
    const g = requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: stream(euro.slice(0, 7), euro.slice(7)), duplex: 'half' } as RequestInit), undefined, () => true);
    expect(bodyPayload(g, await g.bodyLater, 1024)).toEqual({ text: '{"x":"€"}' });
    // Ending inside a character is not text either.
    const h = requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: stream(euro.slice(0, 7)), duplex: 'half' } as RequestInit), undefined, () => true);
    expect(bodyPayload(h, await h.bodyLater, 1024)).toEqual(binaryPayload(7, bytesHash(euro.slice(0, 7))));
  });
});

describe('requestFacts: asynchronous bodies', () => {
  it('reads only the first 64 KiB of a large body the probe says is not MCP', async () => {
    reads.length = 0;
    const f = requestFacts('/upload', { method: 'POST', body: upload(5_000_000) }, () => false);
    expect(await f.bodyLater).toHaveLength(PROBE_BYTES);
    expect(reads).toEqual([PROBE_BYTES]);
    expect(f.url).toBe('http://127.0.0.1/upload');
  });

  it('reads an MCP body whole, and a small body at once', async () => {
    reads.length = 0;
    const big = rpc(200_000);
    const f = requestFacts('/mcp', { method: 'POST', body: new Blob([big]) }, (_facts, head) => head.startsWith('{"jsonrpc"'));
    expect(await f.bodyLater).toBe(big);
    expect(reads).toEqual([PROBE_BYTES, big.length]);
    reads.length = 0;
    const small = rpc(10);
    expect(await requestFacts('/mcp', { method: 'POST', body: new Blob([small]) }, () => false).bodyLater).toBe(small);
    expect(reads).toEqual([small.length]);
  });

  it('probes a Request body through a clone, leaving the page its body', async () => {
    const req = new Request('http://127.0.0.1/upload', { method: 'PUT', body: upload(1_000_000) });
    const f = requestFacts(req, undefined, () => false);
    expect(f.method).toBe('PUT');
    expect(await f.bodyLater).toHaveLength(PROBE_BYTES);
    expect(req.bodyUsed).toBe(false);
    expect((await req.arrayBuffer()).byteLength).toBe(1_000_000);
    const mcp = rpc(200_000);
    expect(await requestFacts(new Request('http://127.0.0.1/mcp', { method: 'POST', body: mcp }), undefined, () => true).bodyLater).toBe(mcp);
  });

  it('pulls a Request body that is an endless stream no further than the probe (found by an audit: it was drained)', async () => {
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => void (pulls++, c.enqueue(new Uint8Array(16 * 1024).fill(66))) }, { highWaterMark: 0 });
    const req = new Request('http://127.0.0.1/upload', { method: 'POST', body: endless, duplex: 'half' } as RequestInit);
    const text = await requestFacts(req, undefined, () => false).bodyLater;
    expect(text).toHaveLength(PROBE_BYTES);
    await new Promise((r) => setTimeout(r, 50));
    expect(pulls).toBeLessThanOrEqual(PROBE_BYTES / (16 * 1024) + 2);
  });

  it('decodes a large buffer body whole only when its start says MCP', () => {
    const bytes = new Uint8Array(3_000_000).fill(65);
    expect(requestFacts('/upload', { method: 'POST', body: bytes }, () => false).bodyText).toHaveLength(PROBE_BYTES);
    expect(requestFacts('/upload', { method: 'POST', body: bytes.buffer }, () => true).bodyText).toHaveLength(3_000_000);
    const mcp = new TextEncoder().encode(rpc(100_000));
    const view = new DataView(mcp.buffer, 0, mcp.byteLength);
    expect(requestFacts('/mcp', { method: 'POST', body: view }, (_f, head) => head.startsWith('{"jsonrpc"')).bodyText).toBe(rpc(100_000));
  });
});

describe('requestFacts: URL and headers', () => {
  it('resolves a relative URL against the base it has now, also when the same string comes again', () => {
    const doc = globalThis.document as unknown as { baseURI: string };
    expect(requestFacts('mcp', { method: 'POST' }).url).toBe('http://127.0.0.1/app/mcp');
    expect(requestFacts('mcp', { method: 'POST' }).url).toBe('http://127.0.0.1/app/mcp');
    doc.baseURI = 'http://127.0.0.1/other/';
    expect(requestFacts('mcp', { method: 'POST' }).url).toBe('http://127.0.0.1/other/mcp');
    expect(requestFacts(new URL('http://h/x?y=1'), {}).url).toBe('http://h/x?y=1');
    doc.baseURI = 'http://127.0.0.1/app/';
  });

  it('reads a Headers object as given, and normalizes any other headers init the way fetch does', () => {
    const given = new Headers({ 'Mcp-Session-Id': 's1', Accept: 'text/event-stream' });
    expect(requestFacts('/mcp', { headers: given }).headers).toEqual({ accept: 'text/event-stream', 'mcp-session-id': 's1' });
    expect(requestFacts('/mcp', { headers: { 'X-A': ' 1 ', 'x-a': '2' } }).headers).toEqual({ 'x-a': '1, 2' });
    expect(requestFacts('/mcp', { headers: [['X-B', 'b']] }).headers).toEqual({ 'x-b': 'b' });
    expect(() => requestFacts('/mcp', { headers: { 'bad name': 'x' } })).toThrow();
  });

  it("redacts a response's secret headers, built-in and the user's, in the same pass", () => {
    const h = new Headers({ 'content-type': 'application/json', authorization: 'Bearer t', 'X-Api-Tenant': 'acme' });
    const map = redactedHeaderMap(h, ['x-api-tenant']);
    expect(map['content-type']).toBe('application/json');
    for (const name of ['authorization', 'x-api-tenant']) expect(map[name]).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(Object.keys(map).sort()).toEqual(['authorization', 'content-type', 'x-api-tenant']);
    expect(redactedHeaderMap(h, [])['x-api-tenant']).toBe('acme');
  });
});

describe('reading the arguments without running page code a second time', () => {
  it('reads only a string, URL or Request input without init itself: every init object, getters and Proxies included, goes to a Request', () => {
    const calls: string[] = [];
    const getters = Object.defineProperty({ method: 'POST' }, 'body', { enumerable: true, get: () => (calls.push('body'), '{}') });
    // A Proxy with only a get trap: its descriptors and prototype are its (empty, plain) target's, what fetch reads is not.
    const real: Record<string, unknown> = { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"initialize"}' };
    const proxy = new Proxy({}, { get: (_t, k) => (calls.push(`get ${String(k)}`), real[k as string]) });
    expect(plainArgs('/mcp', undefined)).toBe(true);
    expect(plainArgs('/mcp', null)).toBe(true);
    expect(plainArgs(new URL('http://h/mcp'), undefined)).toBe(true);
    expect(plainArgs(new Request('http://h/mcp'), undefined)).toBe(true);
    expect(plainArgs('/mcp', { method: 'POST', headers: { a: 'b' }, body: '{}' })).toBe(false);
    expect(plainArgs(new Request('http://h/mcp'), { body: null })).toBe(false);
    expect(plainArgs('/mcp', proxy)).toBe(false);
    expect(plainArgs('/mcp', getters)).toBe(false);
    expect(plainArgs('/mcp', Object.create(getters))).toBe(false);
    expect(plainArgs({ toString: () => (calls.push('input'), '/mcp') }, undefined)).toBe(false);
    expect(calls).toEqual([]);
    // What the tap then reads: the Request made from them (the page's members read once, through the Proxy's trap).
    const made = new Request('http://h/mcp', proxy as RequestInit);
    expect(made.method).toBe('POST');
    expect(calls.filter((c) => c === 'get body')).toHaveLength(1);
  });

  it('reads a plain-data init itself (every SDK\'s call: a made Request per POST cost the page 40 %), nothing else', () => {
    const calls: string[] = [];
    const body = '{"jsonrpc":"2.0","id":1,"method":"initialize"}';
    expect(dataInit('/mcp', { method: 'POST', headers: { a: 'b' }, body })).toBe(true);
    expect(dataInit(new URL('http://h/mcp'), { method: 'POST', headers: new Headers(), body, keepalive: true })).toBe(true);
    // A data body inherited from a plain prototype is data too (read through descriptors, no page code runs).
    expect(dataInit('/mcp', Object.create({ method: 'POST', body }))).toBe(true);
    // Not plain data: a getter anywhere, a body that is not a string, no body, a Request input, a Proxy with an empty target.
    expect(dataInit('/mcp', Object.defineProperty({ method: 'POST' }, 'body', { get: () => (calls.push('body'), body) }))).toBe(false);
    expect(dataInit('/mcp', Object.defineProperty({ body }, 'method', { get: () => (calls.push('method'), 'POST') }))).toBe(false);
    expect(dataInit('/mcp', Object.defineProperty({ body }, 'headers', { get: () => (calls.push('headers'), {}) }))).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', body: new Blob([body]) })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', body: null })).toBe(false);
    expect(dataInit('/mcp', { method: 'GET' })).toBe(false);
    expect(dataInit(new Request('http://h/mcp', { method: 'POST', body }), { body })).toBe(false);
    expect(dataInit('/mcp', new Proxy({}, { get: (_t, k) => (calls.push(`get ${String(k)}`), k === 'body' ? body : 'POST') }))).toBe(false);
    expect(dataInit('/mcp', undefined)).toBe(false);
    // A method the native converts (an object's toString, null → "null"), and headers it would use up or read through
    // page code (a one-shot iterator, an array, a getter, a class): a made Request (a review, 2026-12-05).
    expect(dataInit('/mcp', { method: { toString: () => (calls.push('method toString'), 'POST') }, body })).toBe(false);
    expect(dataInit('/mcp', { method: null, body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: (function* () { calls.push('iterated'); yield ['a', 'b']; })(), body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: [['a', 'b']], body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: { get authorization() { calls.push('header getter'); return 'x'; } }, body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: { a: 1 as unknown as string }, body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: new (class H { a = 'b'; })() as unknown as HeadersInit, body })).toBe(false);
    expect(dataInit('/mcp', { method: 'POST', headers: { a: 'b' }, body })).toBe(true);
    expect(dataInit('/mcp', { method: 'POST', headers: new Headers({ a: 'b' }), body })).toBe(true);
    // A plain object is told by its prototype before any brand check (a failed one throws: its TypeError per POST was the
    // hook's costliest line in the page-overhead profile). A Headers subclass is still a Headers by brand; a Headers
    // given Object.prototype is, to the native fetch, a record of its own properties, and is judged as one.
    expect(dataInit('/mcp', { method: 'POST', headers: new (class extends Headers {})({ a: 'b' }), body })).toBe(true);
    const reprotoed = Object.setPrototypeOf(new Headers({ a: 'b' }), Object.prototype) as Headers;
    expect(dataInit('/mcp', { method: 'POST', headers: reprotoed, body })).toBe(true);
    Object.defineProperty(reprotoed, 'x', { get: () => (calls.push('reprotoed getter'), 'y'), enumerable: true });
    expect(dataInit('/mcp', { method: 'POST', headers: reprotoed, body })).toBe(false);
    expect(calls).toEqual([]);
  });

  it('reads a plain init and a URL input without calling their getters or toString', () => {
    const url = new URL('http://h/mcp');
    url.toString = () => {
      throw new Error('toString called');
    };
    const f = requestFacts(url, Object.create({ method: 'post', body: '{"jsonrpc":"2.0"}' }) as RequestInit);
    expect([f.url, f.method, f.bodyText]).toEqual(['http://h/mcp', 'POST', '{"jsonrpc":"2.0"}']);
    expect(requestFacts('/mcp', { method: 'POST', body: { toString: () => 'x' } as unknown as string }).bodyText).toBeUndefined();
    // As fetch normalizes a method: the six it knows upper-cased, any other sent (and logged) as written.
    expect(['post', 'delete', 'patch', 'mkcol'].map((m) => requestFacts('/mcp', { method: m, body: '{}' }).method)).toEqual(['POST', 'DELETE', 'patch', 'mkcol']);
  });

  it("lists a socket's requested subprotocols without converting an object a second time", () => {
    let conversions = 0;
    const obj = { toString: () => (conversions++, 'mcp') };
    expect(requestedProtocols(undefined)).toEqual([]);
    expect(requestedProtocols('mcp')).toEqual(['mcp']);
    expect(requestedProtocols(['a', 'mcp', obj])).toEqual(['a', 'mcp']);
    expect(requestedProtocols(obj)).toEqual([]);
    expect(conversions).toBe(0);
  });
});
