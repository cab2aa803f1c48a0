// The fetch tap installed over a stand-in native fetch (Node's Request/Response/streams): what it logs must be what the
// native fetch was really given and what the page really received, however the page calls and reads.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FrameDraft } from '../../../shared/frames.ts';

const frames: FrameDraft[] = [];
const sent: Request[] = [];
/** The arguments the "native" fetch was called with. */
const given: unknown[][] = [];
let respond: (req: Request) => Response = () => new Response('{}', { headers: { 'content-type': 'application/json' } });
const nodeFetch = globalThis.fetch;

beforeAll(async () => {
  Object.assign(globalThis, { window: globalThis, document: { baseURI: 'http://127.0.0.1/app/', addEventListener() {} } });
  // The "native" fetch: fetch(i, init) is fetch(new Request(i, init)); it remembers what it was given.
  globalThis.fetch = async function fetch(input: RequestInfo | URL, init?: RequestInit) {
    given.push([input, init]);
    const req = new Request(input, init);
    sent.push(req);
    return respond(req);
  } as typeof fetch;
  const { installFetchTap } = await import('../../../extension/hook/fetch-tap.ts');
  let n = 0;
  const emitter = {
    disabled: false,
    newConn: () => `c${++n}`,
    emit: (d: FrameDraft) => void frames.push(d),
    captureError: (_where: string, e: unknown) => {
      throw e;
    },
  };
  installFetchTap(emitter as never, { capBytes: 10_000_000, extraSecretHeaders: [] });
});

const URL_MCP = 'http://127.0.0.1/mcp';
const rpc = (id: number, pad = 0) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { pad: 'x'.repeat(pad) } });
const of = (conn: string) => frames.filter((f) => 'conn' in f && f.conn === conn);
async function ended(conn: () => string | undefined): Promise<FrameDraft[]> {
  for (let i = 0; i < 200; i++) {
    const c = conn();
    if (c && of(c).some((f) => f.kind === 'http-end')) return of(c);
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('no http-end');
}
const lastRequest = () => ([...frames].reverse().find((f) => f.kind === 'http-request') as { conn: string } | undefined)?.conn;
const json = (body: string | ReadableStream<Uint8Array>) => new Response(body, { headers: { 'content-type': 'application/json' } });

describe('fetch tap: the request logged is the request sent', () => {
  it('captures a first initialize whose init is a Proxy with only a get trap (found by a review: logged as a GET without body)', async () => {
    frames.length = 0;
    const real: Record<string, unknown> = { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc(1) };
    await fetch(URL_MCP, new Proxy({}, { get: (_t, k) => real[k as string] }) as RequestInit);
    expect(sent.at(-1)!.method).toBe('POST');
    const log = await ended(lastRequest);
    const req = log.find((f) => f.kind === 'http-request') as Extract<FrameDraft, { kind: 'http-request' }>;
    expect([req.method, req.body?.text]).toEqual(['POST', rpc(1)]);
  });

  it('hands a plain-data init (every SDK\'s call) to the native fetch as it is, and logs it (a Request made per POST cost the page 40 %)', async () => {
    frames.length = 0;
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: rpc(9) };
    await fetch(URL_MCP, init);
    expect(given.at(-1)![0]).toBe(URL_MCP);
    expect(given.at(-1)![1]).toBe(init);
    const log = await ended(lastRequest);
    const req = log.find((f) => f.kind === 'http-request') as Extract<FrameDraft, { kind: 'http-request' }>;
    expect([req.method, req.body?.text]).toEqual(['POST', rpc(9)]);
  });

  it('logs what is sent for a method the native converts and headers it uses up (a review: none logged, or {} without the session id)', async () => {
    frames.length = 0;
    await fetch(URL_MCP, { method: { toString: () => 'POST' } as unknown as string, headers: { 'content-type': 'application/json' }, body: rpc(10) });
    const headers = (function* () {
      yield ['content-type', 'application/json'] as [string, string];
      yield ['mcp-session-id', 'S-iter'] as [string, string];
    })();
    await fetch(URL_MCP, { method: 'POST', headers: headers as unknown as HeadersInit, body: rpc(11) });
    expect(sent.at(-1)!.headers.get('mcp-session-id')).toBe('S-iter');
    await ended(lastRequest);
    const reqs = frames.filter((f) => f.kind === 'http-request') as Array<Extract<FrameDraft, { kind: 'http-request' }>>;
    expect(reqs.map((r) => [r.method, r.body?.text])).toEqual([['POST', rpc(10)], ['POST', rpc(11)]]);
    expect(reqs[1]!.headers['mcp-session-id']).toBe('S-iter');
  });

  it("logs the body a Request input sends beside an init with body: null (the Request's own)", async () => {
    frames.length = 0;
    await fetch(new Request(URL_MCP, { method: 'POST', body: rpc(2) }), { body: null });
    const sentBody = await sent.at(-1)!.clone().text();
    const log = await ended(lastRequest);
    const req = log.find((f) => f.kind === 'http-request') as Extract<FrameDraft, { kind: 'http-request' }>;
    expect(req.body?.text).toBe(sentBody);
    expect(sentBody).toBe(rpc(2));
  });

  it('captures fetch.call(null, …) and fetch.apply(null, …), which the native fetch runs on the global object', async () => {
    frames.length = 0;
    await fetch.call(null, URL_MCP, { method: 'POST', body: rpc(3) });
    await fetch.apply(null, [URL_MCP, { method: 'POST', body: rpc(4) }]);
    await ended(lastRequest);
    const bodies = frames.filter((f) => f.kind === 'http-request').map((f) => (f as Extract<FrameDraft, { kind: 'http-request' }>).body?.text);
    expect(bodies).toEqual([rpc(3), rpc(4)]);
  });
});

/** A page reading its body to the end, then cancelling the reader in finally; the bytes it got. */
async function readToEndThenCancel(reader: { cancel(): Promise<void> }, read: () => Promise<ReadableStreamReadResult<Uint8Array>>): Promise<number> {
  let got = 0;
  try {
    for (;;) {
      const { done, value } = await read();
      if (done) break;
      got += value.byteLength;
    }
  } finally {
    await reader.cancel();
  }
  return got;
}

describe('fetch tap: a cancel that cancels nothing does not cut the logged body', () => {
  const chunked = (text: string, size: number) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += size) c.enqueue(bytes.slice(i, i + size));
        c.close();
      },
    });
  };
  const bodyOf = (log: FrameDraft[]) => (log.find((f) => f.kind === 'http-body') as Extract<FrameDraft, { kind: 'http-body' }> | undefined)?.body.text;
  const endOf = (log: FrameDraft[]) => log.find((f) => f.kind === 'http-end') as Extract<FrameDraft, { kind: 'http-end' }>;

  it('logs a large JSON body the page read to its end whole and complete, though its finally cancels the reader', async () => {
    frames.length = 0;
    const answer = rpc(5, 300_000);
    respond = () => json(chunked(answer, 1024));
    const res = await fetch(URL_MCP, { method: 'POST', body: rpc(5) });
    const reader = res.body!.getReader();
    const got = await readToEndThenCancel(reader, () => reader.read());
    expect(got).toBe(answer.length);
    const log = await ended(lastRequest);
    expect(bodyOf(log)).toBe(answer);
    expect(endOf(log).outcome).toBe('complete');
  });

  it('does the same for a BYOB reader, with no stray rejection (a brand check on it made an unhandled one)', async () => {
    frames.length = 0;
    const answer = rpc(8, 100_000);
    const bytes = new TextEncoder().encode(answer);
    respond = () =>
      json(
        new ReadableStream({
          type: 'bytes',
          start(c) {
            for (let i = 0; i < bytes.length; i += 1024) c.enqueue(bytes.slice(i, i + 1024));
            c.close();
          },
        }),
      );
    const res = await fetch(URL_MCP, { method: 'POST', body: rpc(8) });
    const reader = res.body!.getReader({ mode: 'byob' });
    const got = await readToEndThenCancel(reader, () => reader.read(new Uint8Array(4096)));
    expect(got).toBe(bytes.length);
    const log = await ended(lastRequest);
    expect(bodyOf(log)).toBe(answer);
    expect(endOf(log).outcome).toBe('complete');
  });

  it('logs a body whole when the page cancels it after res.json() (the native cancel rejects: the body is locked)', async () => {
    frames.length = 0;
    const answer = rpc(6, 300_000);
    respond = () => json(chunked(answer, 1024));
    const res = await fetch(URL_MCP, { method: 'POST', body: rpc(6) });
    await res.json();
    await expect(res.body!.cancel()).rejects.toThrow(TypeError);
    const log = await ended(lastRequest);
    expect(bodyOf(log)).toBe(answer);
    expect(endOf(log).outcome).toBe('complete');
  });

  it('still stops and logs the abort when the page cancels a body half-way (by its reader, and on the body)', async () => {
    for (const how of ['reader', 'body'] as const) {
      frames.length = 0;
      let pulls = 0;
      respond = () => json(new ReadableStream<Uint8Array>({ pull: (c) => void (pulls++, c.enqueue(new TextEncoder().encode(' '.repeat(1024)))) }, { highWaterMark: 0 }));
      const res = await fetch(URL_MCP, { method: 'POST', body: rpc(7) });
      if (how === 'reader') {
        const reader = res.body!.getReader();
        await reader.read();
        await reader.cancel();
      } else await res.body!.cancel();
      const log = await ended(lastRequest);
      expect(endOf(log)).toMatchObject({ outcome: 'aborted', error: { message: 'the page cancelled the body' } });
      const at = pulls;
      await new Promise((r) => setTimeout(r, 30));
      expect(pulls).toBe(at);
    }
  });
});

// (Keeps the real fetch reachable for nothing else in this file.)
void nodeFetch;
