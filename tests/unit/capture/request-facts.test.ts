// What the fetch tap reads of a request body it has to read asynchronously (a Blob, a Request's body): the first 64 KiB
// decide, and only an MCP body is read whole — a large upload that is not MCP is never turned into a string.
import { beforeAll, describe, expect, it } from 'vitest';

const reads: number[] = [];
let requestFacts: typeof import('../../../extension/hook/request-facts.ts').requestFacts;
let PROBE_BYTES: number;

beforeAll(async () => {
  // The hook captures its natives at import (document_start in a page): spy on Blob.text first, give it a window.
  const text = Blob.prototype.text;
  Blob.prototype.text = function (this: Blob) {
    reads.push(this.size);
    return text.call(this);
  };
  Object.assign(globalThis, { window: globalThis, document: { baseURI: 'http://127.0.0.1/app/' } });
  ({ requestFacts, PROBE_BYTES } = await import('../../../extension/hook/request-facts.ts'));
});

const rpc = (pad: number) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { pad: 'x'.repeat(pad) } });
const upload = (bytes: number) => new Blob([new Uint8Array(bytes).fill(65)], { type: 'application/octet-stream' });

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
    reads.length = 0;
    const req = new Request('http://127.0.0.1/upload', { method: 'PUT', body: upload(1_000_000) });
    const f = requestFacts(req, undefined, () => false);
    expect(f.method).toBe('PUT');
    expect(await f.bodyLater).toHaveLength(PROBE_BYTES);
    expect(reads).toEqual([PROBE_BYTES]);
    expect(req.bodyUsed).toBe(false);
    expect((await req.arrayBuffer()).byteLength).toBe(1_000_000);
  });
});
