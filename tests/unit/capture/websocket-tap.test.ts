// The WebSocket tap with Blob messages, on a fake socket (the real one is driven end to end in
// tests/e2e/capture-legacy-ws.test.ts): Blobs are read asynchronously, yet every WebSocket event is logged in the
// order it happened — across sockets too; a socket not known to be MCP has at most its first few Blobs read; a page
// that patches Promise.prototype.then neither sees the reads nor breaks them; at pagehide what still waits is logged
// before the page-end.
import { beforeAll, describe, expect, it } from 'vitest';
import type { FrameDraft } from '../../../shared/frames.ts';

const reads: number[] = [];
/** Sizes of what the tap decoded as text (ArrayBuffer and typed-array messages). */
const decoded: number[] = [];
const enders: Array<() => void> = [];
const log: string[] = [];

class FakeWebSocket extends EventTarget {
  protocol = '';
  readonly sent: unknown[] = [];
  private state = 0;
  /** On the prototype, as the real one (the tap reads it with the native getter). */
  get readyState(): number {
    return this.state;
  }
  constructor(
    readonly url: string,
    protocols?: string | string[],
  ) {
    super();
    if (protocols) this.protocol = Array.isArray(protocols) ? protocols[0]! : protocols;
  }
  send(data: unknown): void {
    this.sent.push(data);
  }
  open(): void {
    this.state = 1;
    this.dispatchEvent(new Event('open'));
  }
  receive(data: unknown): void {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
  close(): void {
    this.state = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code: 1000, reason: '', wasClean: true }));
  }
}

let WS: typeof FakeWebSocket;

beforeAll(async () => {
  // The hook captures its natives at import (document_start in a page): spy on Blob.text first, give it a window.
  const text = Blob.prototype.text;
  Blob.prototype.text = function (this: Blob) {
    reads.push(this.size);
    return text.call(this);
  };
  const decode = TextDecoder.prototype.decode;
  TextDecoder.prototype.decode = function (this: TextDecoder, input?: AllowSharedBufferSource, options?: TextDecodeOptions) {
    if (input) decoded.push(input.byteLength);
    return decode.call(this, input, options);
  };
  Object.assign(globalThis, { window: globalThis, WebSocket: FakeWebSocket });
  const { installWebSocketTap } = await import('../../../extension/hook/websocket-tap.ts');
  let n = 0;
  const emitter = {
    newConn: () => `c${++n}`,
    emit: (d: FrameDraft) => {
      const x = d as unknown as { kind: string; conn?: string; dir?: string; data?: { text: string } };
      log.push([x.kind, x.conn, x.dir, x.data?.text].filter((v) => v !== undefined).join(' '));
    },
    captureError: (where: string, e: unknown) => log.push(`capture-error ${where} ${String(e)}`),
    beforePageEnd: (fn: () => void) => enders.push(fn),
  };
  installWebSocketTap(emitter as never, { capBytes: 1 << 20, extraSecretHeaders: [] } as never);
  WS = (globalThis as unknown as { WebSocket: typeof FakeWebSocket }).WebSocket;
});

const rpc = (method: string) => JSON.stringify({ jsonrpc: '2.0', method });
const blob = (text: string) => new Blob([text]);
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('the WebSocket tap with Blob messages', () => {
  it('logs every event in the order it happened, across sockets, although Blobs are read later', async () => {
    log.length = 0;
    const a = new WS('ws://x/mcp', 'mcp');
    a.open();
    a.receive(blob(rpc('one')));
    a.receive(rpc('two'));
    a.send(blob(rpc('three')));
    a.close();
    // A client that reconnects from onclose: its new socket must not come before the old one's last messages.
    const b = new WS('ws://x/mcp', 'mcp');
    b.open();
    b.send(rpc('four'));
    // The open came before the first Blob: logged at once; everything after it waits for the Blob's read.
    expect(log).toEqual(['ws-connect c1', 'ws-open c1']);
    await settle();
    expect(log).toEqual([
      'ws-connect c1',
      'ws-open c1',
      `ws-message c1 in ${rpc('one')}`,
      `ws-message c1 in ${rpc('two')}`,
      `ws-message c1 out ${rpc('three')}`,
      'ws-close c1',
      'ws-connect c2',
      'ws-open c2',
      `ws-message c2 out ${rpc('four')}`,
    ]);
    // Nothing waits any more: the next event is logged at once.
    b.receive(rpc('five'));
    expect(log.at(-1)).toBe(`ws-message c2 in ${rpc('five')}`);
  });

  it('reads at most the first few Blobs of a socket not known to be MCP', async () => {
    log.length = 0;
    reads.length = 0;
    const s = new WS('ws://x/game');
    s.open();
    for (let i = 0; i < 50; i++) s.receive(blob(`binary ${i}`));
    await settle();
    expect(reads.length).toBe(3);
    expect(log).toEqual([]);
    // A large Blob is not read to find out.
    reads.length = 0;
    const t = new WS('ws://x/other');
    t.receive(new Blob([new Uint8Array(2 * 1024 * 1024)]));
    await settle();
    expect(reads).toEqual([]);
  });

  it('is neither seen nor broken by a page that patches Promise.prototype.then', async () => {
    log.length = 0;
    const then = Promise.prototype.then;
    let calls = 0;
    // Broken (it returns the promise itself, as a careless polyfill might) while the socket's events come in; put back
    // before anything else runs (the test runner needs it).
    Promise.prototype.then = function (this: Promise<unknown>) {
      calls++;
      return this;
    } as typeof then;
    try {
      const s = new WS('ws://x/mcp', 'mcp');
      s.receive(blob(rpc('one')));
      s.receive(rpc('two'));
    } finally {
      Promise.prototype.then = then;
    }
    expect(calls).toBe(0);
    await settle();
    expect(log).toEqual(['ws-connect c5', `ws-message c5 in ${rpc('one')}`, `ws-message c5 in ${rpc('two')}`]);
  });

  it('at pagehide, logs what still waits (a Blob by its size) before the page-end', async () => {
    log.length = 0;
    const s = new WS('ws://x/mcp', 'mcp');
    s.receive(blob(rpc('one')));
    s.close();
    for (const fn of enders) fn();
    expect(log).toEqual(['ws-connect c6', `ws-message c6 in [Blob message, ${rpc('one').length} bytes, not read: the page was closing]`, 'ws-close c6']);
    // The read that finishes later changes nothing.
    await settle();
    expect(log).toHaveLength(3);
  });

  // (Last: it takes a connection number the tests above count on.)
  it('does not decode a large ArrayBuffer or typed array of a socket not known to be MCP (it was decoded whole, on the page\'s thread)', async () => {
    decoded.length = 0;
    const u = new WS('ws://x/binary');
    u.open();
    u.send(new Uint8Array(30 * 1024 * 1024).buffer);
    u.receive(new Uint8Array(2 * 1024 * 1024));
    await settle();
    expect(decoded).toEqual([]);
    // A small one still is (it may be JSON-RPC).
    u.receive(new TextEncoder().encode(rpc('small')));
    await settle();
    expect(decoded.length).toBe(1);
  });
});
