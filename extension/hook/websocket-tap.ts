// Taps the native WebSocket (SDK v1 WebSocketClientTransport and hand-written clients). MCP when the subprotocol is
// `mcp` or the first messages are JSON-RPC; other sockets are left alone after a few messages. Our listeners come first
// on each instance; outgoing messages are seen in a wrapper around the prototype's send(). A Blob message is read
// asynchronously; meanwhile every later WebSocket event waits in one queue (all sockets: a client that reconnects from
// onclose must not have its new socket logged before the old one's last messages), so the log keeps the page's order.
import type { FrameDraft, Payload } from '../../shared/frames.ts';
import { isJsonRpcText } from '../../shared/mcp-detect.ts';
import { makePayload, opaquePayload } from '../../shared/payload.ts';
import { redactSubprotocol, redactUrl } from '../../shared/redact.ts';
import type { Emitter } from './emitter.ts';
import { asPage, nativeGetter, natives, weakGet, weakSet, web } from './natives.ts';
import type { TapConfig } from './fetch-tap.ts';
import { disguise, wrapMethod } from './disguise.ts';

/** Messages looked at before a socket without the `mcp` subprotocol is declared not MCP. */
const SNIFF_MESSAGES = 3;
/** A Blob message larger than this is logged by its size only (its text would be read whole to be hashed). */
const BLOB_READ_LIMIT = 16 * 1024 * 1024;
/** On a socket not known to be MCP yet, a Blob larger than this is not read to find out (it counts as not JSON-RPC). */
const SNIFF_BLOB_LIMIT = 1024 * 1024;

interface Tapped {
  conn: string;
  mcp: boolean | undefined;
  sniffed: number;
  held: FrameDraft[];
}

type Message = { payload: Payload; text?: string };

/** A WebSocket event waiting its turn behind a Blob being read. */
interface Step {
  tap: Tapped;
  /** Ready to log (`run`); a Blob step is ready once read, or given up at page-end. */
  ready: boolean;
  run: () => void;
  /** A Blob of a socket not known to be MCP is read only when its turn comes (and not at all once it is known not to be). */
  start?: () => void;
  /** Logs the step without its content (the page is going, the read will not finish in time). */
  giveUp?: () => void;
}

/** A message's payload, read now (a Blob's text comes later: blobMessage). */
function toPayload(data: unknown, capBytes: number): Message {
  if (typeof data === 'string') return { payload: makePayload(data, capBytes), text: data };
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    const text = new natives.TextDecoder().decode(data);
    return { payload: makePayload(text, capBytes), text };
  }
  return { payload: opaquePayload('[unknown message type]') };
}

/**
 * Reads a Blob message's text (Blobs are immutable: reading one takes nothing from the page) and hands it to `done`.
 * Through the natives: the page's own Promise.prototype.then must neither see nor break it.
 */
function readBlob(blob: Blob, capBytes: number, done: (m: Message) => void): void {
  const size = blob.size;
  if (size > BLOB_READ_LIMIT) return done({ payload: opaquePayload(`[Blob message, ${size} bytes, not read]`) });
  natives.promiseThen.call(
    natives.blobText.call(blob),
    (text: string) => done({ payload: makePayload(text, capBytes), text }),
    () => done({ payload: opaquePayload(`[Blob message, ${size} bytes, unreadable]`) }),
  );
}

/**
 * The subprotocols a page asked for, read without running its code again: the native constructor already converted
 * them (an object by its own toString, an iterable by its iterator), so only strings and primitives are listed.
 */
export function requestedProtocols(p: unknown): string[] {
  const one = (v: unknown): string[] => (v === null || (typeof v !== 'object' && typeof v !== 'function') ? [String(v)] : []);
  if (p === undefined) return [];
  if (!natives.isArray(p)) return one(p);
  const out: string[] = [];
  for (let i = 0; i < p.length; i++) {
    const v = one(p[i]);
    if (v.length === 1) out[out.length] = v[0]!;
  }
  return out;
}

/** `list.map(f)` without Array.prototype.map (a page may patch it). */
function mapped<T, R>(list: readonly T[], f: (v: T) => R): R[] {
  const out: R[] = [];
  for (let i = 0; i < list.length; i++) out[i] = f(list[i]!);
  return out;
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
  /** Events waiting behind a Blob read, in the order they happened (empty almost always). */
  const steps: Step[] = [];
  const drain = () => {
    while (steps.length > 0) {
      const head = steps[0]!;
      if (!head.ready) {
        const start = head.start;
        if (!start) return;
        head.start = undefined;
        if (head.tap.mcp === false) {
          steps.shift();
          continue;
        }
        start();
        if (!head.ready) return;
        continue;
      }
      steps.shift();
      guarded(head.tap, head.run);
    }
  };
  /** Runs `fn` now, or after the events before it (when a Blob is being read). */
  const inOrder = (tap: Tapped, fn: () => void) => {
    if (steps.length === 0) return guarded(tap, fn);
    steps.push({ tap, ready: true, run: fn });
  };
  // At pagehide nothing waits for a read any more: the rest is logged (Blobs by their size) before the page-end.
  emitter.beforePageEnd(() => {
    for (const s of steps) s.giveUp?.();
    drain();
  });
  const onBlob = (tap: Tapped, dir: 'in' | 'out', blob: Blob) => {
    const size = blob.size;
    if (tap.mcp === undefined && size > SNIFF_BLOB_LIMIT) {
      return inOrder(tap, () => onMessage(tap, dir, { payload: opaquePayload(`[Blob message, ${size} bytes, not read]`) }));
    }
    const step: Step = { tap, ready: false, run: () => undefined };
    const settle = (m: Message) => {
      if (step.ready) return;
      step.ready = true;
      step.start = undefined;
      step.run = () => onMessage(tap, dir, m);
      drain();
    };
    step.giveUp = () => settle({ payload: opaquePayload(`[Blob message, ${size} bytes, not read: the page was closing]`) });
    const start = () => readBlob(blob, config.capBytes, settle);
    steps.push(step);
    // Known MCP: read at once (reads overlap). Not known yet: read when its turn comes, so a busy binary socket that
    // turns out not to be MCP has at most its first few messages read.
    if (tap.mcp === true) start();
    else step.start = start;
    if (steps.length === 1) drain();
  };
  const onData = (tap: Tapped, dir: 'in' | 'out', data: unknown) => {
    if (tap.mcp === false) return;
    if (data instanceof Blob) return onBlob(tap, dir, data);
    // A large binary message of a socket not known to be MCP is not decoded to find out (as a large Blob is not read).
    if (tap.mcp === undefined && (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) && data.byteLength > SNIFF_BLOB_LIMIT) {
      const size = data.byteLength;
      return inOrder(tap, () => onMessage(tap, dir, { payload: opaquePayload(`[binary message, ${size} bytes, not read]`) }));
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

  const proto = NativeWebSocket.prototype;
  // The native getters: a page that patches them sees none of our reads.
  const wsUrl = nativeGetter<WebSocket, string>(proto, 'url');
  const wsProtocol = nativeGetter<WebSocket, string>(proto, 'protocol');
  const traps: ProxyHandler<typeof WebSocket> = {
    construct(target, args: unknown[], newTarget) {
      const ws = asPage(() => natives.construct(target, args, newTarget) as WebSocket);
      try {
        const requested = requestedProtocols(args[1]);
        const tap: Tapped = { conn: emitter.newConn(), mcp: requested.includes('mcp') ? true : undefined, sniffed: 0, held: [] };
        weakSet(taps, ws, tap);
        const connect: FrameDraft = { kind: 'ws-connect', conn: tap.conn, url: redactUrl(wsUrl.call(ws)), protocols: mapped(requested, redactSubprotocol) };
        inOrder(tap, () => emit(tap, connect));
        natives.addEventListener.call(ws, 'open', () => {
          const protocol = wsProtocol.call(ws);
          inOrder(tap, () => {
            if (protocol === 'mcp' && tap.mcp === undefined) decide(tap, true);
            emit(tap, { kind: 'ws-open', conn: tap.conn, protocol: redactSubprotocol(protocol) });
          });
        });
        natives.addEventListener.call(ws, 'message', (ev: Event) => {
          try {
            // (A page's own `new Event('message')` has no data.)
            onData(tap, 'in', ev instanceof MessageEvent ? web.messageData.call(ev) : undefined);
          } catch (e) {
            emitter.captureError('websocket:message', e, tap.conn);
          }
        });
        natives.addEventListener.call(ws, 'error', () => inOrder(tap, () => emit(tap, { kind: 'ws-error', conn: tap.conn })));
        natives.addEventListener.call(ws, 'close', (ev: Event) => {
          // (A page's own `new Event('close')` is no CloseEvent: its fields are undefined, as they read.)
          const c = web.CloseEvent && ev instanceof web.CloseEvent ? ev : undefined;
          const frame = { kind: 'ws-close', conn: tap.conn, code: c && web.closeCode.call(c), reason: c && web.closeReason.call(c), wasClean: c && web.closeWasClean.call(c) } as FrameDraft;
          inOrder(tap, () => emit(tap, frame));
        });
      } catch (e) {
        emitter.captureError('websocket', e);
      }
      return ws;
    },
  };
  const tapped = disguise(new Proxy(NativeWebSocket, traps), NativeWebSocket);
  window.WebSocket = tapped;

  // `ws.constructor === WebSocket` as without us, and `new ws.constructor(url)` (a reconnect idiom) is tapped too.
  Object.defineProperty(proto, 'constructor', { value: tapped, writable: true, configurable: true, enumerable: false });
  const nativeSend = proto.send;
  // The native getter, so a page that shadows readyState on its socket does not change what we log.
  const readyState = (Object.getOwnPropertyDescriptor(proto, 'readyState')?.get ??
    function (this: WebSocket) {
      return this.readyState;
    }) as (this: WebSocket) => number;
  // (A Proxy of the native: like it, no constructor and no prototype property.)
  const send = wrapMethod(nativeSend, (thisArg, args) => {
    // The native send first, with the page's very arguments (none is a TypeError, not the text "undefined"): it
    // throws InvalidStateError on a CONNECTING socket, and then nothing was sent. On a CLOSING or CLOSED socket it
    // drops the data without a word: nothing was sent either, so nothing is logged.
    const ws = thisArg as WebSocket;
    const tap = weakGet(taps, ws);
    const open = tap !== undefined && readyState.call(ws) === 1;
    const result = asPage(() => natives.apply(nativeSend, thisArg, args) as void);
    if (tap && open) {
      try {
        onData(tap, 'out', args[0]);
      } catch (e) {
        emitter.captureError('websocket:send', e, tap.conn);
      }
    }
    return result;
  });
  Object.defineProperty(proto, 'send', { configurable: true, writable: true, value: send });
}
