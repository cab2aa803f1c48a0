// Taps the native WebSocket (SDK v1 WebSocketClientTransport and hand-written clients). MCP when the subprotocol is
// `mcp` or the first messages are JSON-RPC; other sockets are left alone after a few messages. Our listeners come first
// on each instance; outgoing messages are seen in a wrapper around the prototype's send().
import type { FrameDraft, Payload } from '../../shared/frames.ts';
import { isJsonRpcText } from '../../shared/mcp-detect.ts';
import { makePayload, opaquePayload } from '../../shared/payload.ts';
import { redactUrl } from '../../shared/redact.ts';
import type { Emitter } from './emitter.ts';
import { natives } from './natives.ts';
import type { TapConfig } from './fetch-tap.ts';
import { disguise } from './disguise.ts';

/** Messages looked at before a socket without the `mcp` subprotocol is declared not MCP. */
const SNIFF_MESSAGES = 3;
/** A Blob message larger than this is logged by its size only (its text would be read whole to be hashed). */
const BLOB_READ_LIMIT = 16 * 1024 * 1024;

interface Tapped {
  conn: string;
  mcp: boolean | undefined;
  sniffed: number;
  held: FrameDraft[];
  /**
   * Set while a Blob message is being read (asynchronously): the socket's later events wait behind it, so its frames
   * keep the order the page saw them in.
   */
  queue: Promise<void> | undefined;
}

type Message = { payload: Payload; text?: string };

/** A message's payload, read now (a Blob's text comes later: blobMessage). */
function toPayload(data: unknown, capBytes: number): Message {
  if (typeof data === 'string') return { payload: makePayload(data, capBytes), text: data };
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const text = new natives.TextDecoder().decode(data);
    return { payload: makePayload(text, capBytes), text };
  }
  return { payload: opaquePayload('[unknown message type]') };
}

/** A Blob message's text (Blobs are immutable: reading one takes nothing from the page). */
function blobMessage(blob: Blob, capBytes: number): Promise<Message> {
  const size = blob.size;
  if (size > BLOB_READ_LIMIT) return Promise.resolve({ payload: opaquePayload(`[Blob message, ${size} bytes, not read]`) });
  return (natives.blobText.call(blob) as Promise<string>).then(
    (text) => ({ payload: makePayload(text, capBytes), text }),
    () => ({ payload: opaquePayload(`[Blob message, ${size} bytes, unreadable]`) }),
  );
}

export function installWebSocketTap(emitter: Emitter, config: TapConfig): void {
  const NativeWebSocket = window.WebSocket;
  if (typeof NativeWebSocket !== 'function') return;
  const taps = new WeakMap<WebSocket, Tapped>();

  const decide = (tap: Tapped, mcp: boolean) => {
    tap.mcp = mcp;
    if (mcp) for (const d of tap.held) emitter.emit(d);
    tap.held = [];
  };
  const emit = (tap: Tapped, draft: FrameDraft) => {
    if (tap.mcp === true) emitter.emit(draft);
    else if (tap.mcp === undefined) tap.held.push(draft);
  };
  const guarded = (tap: Tapped, fn: () => void) => {
    try {
      fn();
    } catch (e) {
      emitter.captureError('websocket', e, tap.conn);
    }
  };
  /** `q` is now the last thing the socket waits for. */
  const chain = (tap: Tapped, q: Promise<void>) => {
    tap.queue = q;
    void q.then(() => {
      if (tap.queue === q) tap.queue = undefined;
    });
  };
  /** Runs `fn` now, or once the Blob messages the socket is reading were logged. */
  const inOrder = (tap: Tapped, fn: () => void) => {
    if (!tap.queue) return guarded(tap, fn);
    chain(tap, tap.queue.then(() => guarded(tap, fn)));
  };
  const onData = (tap: Tapped, dir: 'in' | 'out', data: unknown) => {
    if (tap.mcp === false) return;
    if (data instanceof Blob) {
      const read = blobMessage(data, config.capBytes);
      chain(tap, (tap.queue ?? Promise.resolve()).then(() => read).then((m) => guarded(tap, () => onMessage(tap, dir, m))));
      return;
    }
    // Read now: the page may reuse an ArrayBuffer it sent.
    const m = toPayload(data, config.capBytes);
    inOrder(tap, () => onMessage(tap, dir, m));
  };
  const onMessage = (tap: Tapped, dir: 'in' | 'out', { payload, text }: Message) => {
    if (tap.mcp === false) return;
    if (tap.mcp === undefined) {
      tap.sniffed++;
      if (text !== undefined && isJsonRpcText(text)) decide(tap, true);
      else if (tap.sniffed >= SNIFF_MESSAGES) return decide(tap, false);
    }
    emit(tap, { kind: 'ws-message', conn: tap.conn, dir, data: payload });
  };

  const tapped = disguise(new Proxy(NativeWebSocket, {
    construct(target, args: unknown[], newTarget) {
      const ws = Reflect.construct(target, args, newTarget) as WebSocket;
      try {
        const requested = args[1] === undefined ? [] : Array.isArray(args[1]) ? args[1].map(String) : [String(args[1])];
        const tap: Tapped = { conn: emitter.newConn(), mcp: requested.includes('mcp') ? true : undefined, sniffed: 0, held: [], queue: undefined };
        taps.set(ws, tap);
        emit(tap, { kind: 'ws-connect', conn: tap.conn, url: redactUrl(ws.url), protocols: requested });
        natives.addEventListener.call(ws, 'open', () => {
          const protocol = ws.protocol;
          inOrder(tap, () => {
            if (protocol === 'mcp' && tap.mcp === undefined) decide(tap, true);
            emit(tap, { kind: 'ws-open', conn: tap.conn, protocol });
          });
        });
        natives.addEventListener.call(ws, 'message', (ev: Event) => {
          try {
            onData(tap, 'in', (ev as MessageEvent).data);
          } catch (e) {
            emitter.captureError('websocket:message', e, tap.conn);
          }
        });
        natives.addEventListener.call(ws, 'error', () => inOrder(tap, () => emit(tap, { kind: 'ws-error', conn: tap.conn })));
        natives.addEventListener.call(ws, 'close', (ev: Event) => {
          const c = ev as CloseEvent;
          const frame: FrameDraft = { kind: 'ws-close', conn: tap.conn, code: c.code, reason: c.reason, wasClean: c.wasClean };
          inOrder(tap, () => emit(tap, frame));
        });
      } catch (e) {
        emitter.captureError('websocket', e);
      }
      return ws;
    },
  }), NativeWebSocket);
  window.WebSocket = tapped;

  const proto = NativeWebSocket.prototype;
  // `ws.constructor === WebSocket` as without us, and `new ws.constructor(url)` (a reconnect idiom) is tapped too.
  Object.defineProperty(proto, 'constructor', { value: tapped, writable: true, configurable: true, enumerable: false });
  const nativeSend = proto.send;
  Object.defineProperty(proto, 'send', {
    configurable: true,
    writable: true,
    value: disguise(function send(this: WebSocket, ...args: unknown[]) {
      // The native send first, with the page's very arguments (none is a TypeError, not the text "undefined"): it
      // throws InvalidStateError on a CONNECTING socket, and then nothing was sent.
      const result = Reflect.apply(nativeSend, this, args) as void;
      const tap = taps.get(this);
      if (tap) {
        try {
          onData(tap, 'out', args[0]);
        } catch (e) {
          emitter.captureError('websocket:send', e, tap.conn);
        }
      }
      return result;
    }, nativeSend),
  });
}
