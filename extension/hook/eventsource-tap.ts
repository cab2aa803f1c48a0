// Taps the native EventSource (hand-written legacy HTTP+SSE clients; the SDK's own SSE client goes through fetch).
// A Proxy on the constructor keeps name, statics, prototype and instanceof intact. Our listeners are registered first on
// each instance, so they see every event even if a page listener stops propagation. Named event types (`endpoint`) are
// only dispatched to listeners of that type, so we add ours when the page adds one (through EventTarget's method).
import { isMcpSseEvent } from '../../shared/mcp-detect.ts';
import { makePayload } from '../../shared/payload.ts';
import { redactUrl } from '../../shared/redact.ts';
import type { Emitter } from './emitter.ts';
import { isKnownEndpoint, rememberEndpoint } from './endpoints.ts';
import { asPage, nativeGetter, natives, weakGet, weakSet, web } from './natives.ts';
import type { TapConfig } from './fetch-tap.ts';
import { disguise, wrapMethod } from './disguise.ts';

interface Tapped {
  conn: string;
  url: string;
  /** undefined until the first event decides; frames wait in `held` meanwhile. */
  mcp: boolean | undefined;
  held: Parameters<Emitter['emit']>[0][];
  watched: Set<string>;
}

export function installEventSourceTap(emitter: Emitter, config: TapConfig): void {
  const NativeEventSource = window.EventSource;
  if (typeof NativeEventSource !== 'function') return;
  const taps = new WeakMap<EventSource, Tapped>();

  const emit = (tap: Tapped, draft: Parameters<Emitter['emit']>[0]) => {
    if (tap.mcp === true) emitter.emit(draft);
    else if (tap.mcp === undefined) tap.held.push(draft);
  };

  const onEvent = (tap: Tapped, ev: MessageEvent) => {
    try {
      // (Through the native getters: a page that patches MessageEvent's sees none of our reads.)
      const type = web.eventType.call(ev);
      const message = ev instanceof MessageEvent;
      // (A page's own `new Event('endpoint')` has no data and no id.)
      const raw = message ? web.messageData.call(ev) : undefined;
      const data = typeof raw === 'string' ? raw : String(raw);
      const lastEventId = message ? web.messageLastEventId.call(ev) : '';
      if (tap.mcp === undefined) {
        tap.mcp = isMcpSseEvent(type === 'message' ? undefined : type, data);
        if (!tap.mcp) {
          tap.held = [];
          return;
        }
        rememberEndpoint(tap.url);
        for (const d of tap.held) emitter.emit(d);
        tap.held = [];
      }
      if (type === 'endpoint') rememberEndpoint(data, tap.url);
      emit(tap, {
        kind: 'sse-event',
        conn: tap.conn,
        ...(lastEventId ? { id: lastEventId } : {}),
        ...(type !== 'message' ? { event: type } : {}),
        data: makePayload(type === 'endpoint' ? redactUrl(data) : data, config.capBytes),
      });
    } catch (e) {
      emitter.captureError('eventsource:event', e, tap.conn);
    }
  };

  const watch = (es: EventSource, tap: Tapped, type: string) => {
    if (tap.watched.has(type)) return;
    tap.watched.add(type);
    natives.addEventListener.call(es, type, (ev: Event) => onEvent(tap, ev as MessageEvent));
  };

  const proto = NativeEventSource.prototype;
  // The native getters: a page that patches them sees none of our reads.
  const esUrl = nativeGetter<EventSource, string>(proto, 'url');
  const esWithCredentials = nativeGetter<EventSource, boolean>(proto, 'withCredentials');
  const readyState = nativeGetter<EventSource, number>(proto, 'readyState');
  const traps: ProxyHandler<typeof EventSource> = {
    construct(target, args: unknown[], newTarget) {
      const es = asPage(() => natives.construct(target, args, newTarget) as EventSource);
      try {
        const url = esUrl.call(es);
        const tap: Tapped = {
          conn: emitter.newConn(),
          url,
          mcp: isKnownEndpoint(url) ? true : undefined,
          held: [],
          watched: new Set(),
        };
        weakSet(taps, es, tap);
        emit(tap, { kind: 'es-connect', conn: tap.conn, url: redactUrl(url), withCredentials: esWithCredentials.call(es) });
        natives.addEventListener.call(es, 'open', () => emit(tap, { kind: 'es-open', conn: tap.conn }));
        natives.addEventListener.call(es, 'error', () =>
          emit(tap, { kind: 'es-error', conn: tap.conn, readyState: readyState.call(es) }),
        );
        watch(es, tap, 'message');
      } catch (e) {
        emitter.captureError('eventsource', e);
      }
      return es;
    },
  };
  const tapped = disguise(new Proxy(NativeEventSource, traps), NativeEventSource);
  window.EventSource = tapped;

  // `es.constructor === EventSource` as without us, and `new es.constructor(url)` is tapped too.
  Object.defineProperty(proto, 'constructor', { value: tapped, writable: true, configurable: true, enumerable: false });
  const nativeClose = proto.close;
  // (Proxies of the natives: like them, no constructors and no prototype property.)
  const close = wrapMethod(nativeClose, (thisArg) => {
    const es = thisArg as EventSource;
    const tap = weakGet(taps, es);
    if (tap && readyState.call(es) !== 2) emit(tap, { kind: 'es-close', conn: tap.conn });
    return asPage(() => nativeClose.call(es));
  });
  Object.defineProperty(proto, 'close', { configurable: true, writable: true, value: close });
  // Replacing the existing EventTarget method (not adding one to EventSource.prototype) keeps the prototypes' own
  // property lists unchanged. For anything but a tapped EventSource it is a WeakMap miss and the native call.
  const nativeAdd = EventTarget.prototype.addEventListener;
  const addEventListener = wrapMethod(nativeAdd, (thisArg, args) => {
    const type = args[0];
    const tap = weakGet(taps, thisArg as EventSource);
    if (tap && typeof type === 'string' && type !== 'open' && type !== 'error') {
      try {
        watch(thisArg as EventSource, tap, type);
      } catch (e) {
        emitter.captureError('eventsource:listen', e, tap.conn);
      }
    }
    // The page's very arguments (none is "2 arguments required, but only 0 present", as without us).
    return asPage(() => natives.apply(nativeAdd, thisArg, args) as void);
  });
  Object.defineProperty(EventTarget.prototype, 'addEventListener', { configurable: true, writable: true, value: addEventListener });
}
