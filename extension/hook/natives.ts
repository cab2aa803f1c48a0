// Natives captured at document_start, before any page script runs, so a page that later patches JSON, timers or
// dispatchEvent neither breaks nor observes the hook.
export const natives = {
  stringify: JSON.stringify,
  setTimeout: window.setTimeout.bind(window),
  clearTimeout: window.clearTimeout.bind(window),
  setInterval: window.setInterval.bind(window),
  clearInterval: window.clearInterval.bind(window),
  dispatchEvent: EventTarget.prototype.dispatchEvent,
  addEventListener: EventTarget.prototype.addEventListener,
  CustomEvent: window.CustomEvent,
  TextDecoder: window.TextDecoder,
  blobText: Blob.prototype.text,
  blobSlice: Blob.prototype.slice,
  blobArrayBuffer: Blob.prototype.arrayBuffer as (this: Blob) => Promise<ArrayBuffer>,
  Uint8Array: window.Uint8Array,
  getReader: ReadableStream.prototype.getReader as (this: ReadableStream<Uint8Array>) => ReadableStreamDefaultReader<Uint8Array>,
  readerRead: ReadableStreamDefaultReader.prototype.read as (this: ReadableStreamDefaultReader<Uint8Array>) => Promise<ReadableStreamReadResult<Uint8Array>>,
  readerCancel: ReadableStreamDefaultReader.prototype.cancel,
  promiseThen: Promise.prototype.then,
  promiseResolve: Promise.resolve.bind(Promise) as <T>(v: T) => Promise<Awaited<T>>,
  performanceNow: performance.now.bind(performance),
  timeOrigin: performance.timeOrigin,
  dateNow: Date.now,
  random: Math.random,
  apply: Reflect.apply,
  construct: Reflect.construct,
  getOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
  getPrototypeOf: Object.getPrototypeOf,
  ownKeys: Reflect.ownKeys,
  ObjectPrototype: Object.prototype,
  isArray: Array.isArray,
};

export function nativeGetter<T, R>(proto: object | undefined, key: string): (this: T) => R {
  const get = proto && Object.getOwnPropertyDescriptor(proto, key)?.get;
  // (A missing getter, in some odd browser: the property read through the prototype, as the page would.)
  return (get ?? function (this: T) {
    return (this as Record<string, unknown>)[key];
  }) as (this: T) => R;
}

/**
 * The fetch API's getters and methods as they were at document_start: the tap reads Requests, Responses and Headers
 * through these, so a page that patches (or counts calls to) Response.prototype.clone, a getter or Headers.prototype
 * .forEach sees none of ours, and cannot break the tap with them.
 */
export const web = {
  Request: window.Request,
  Headers: window.Headers,
  requestUrl: nativeGetter<Request, string>(Request.prototype, 'url'),
  requestMethod: nativeGetter<Request, string>(Request.prototype, 'method'),
  requestHeaders: nativeGetter<Request, Headers>(Request.prototype, 'headers'),
  requestBody: nativeGetter<Request, ReadableStream<Uint8Array> | null>(Request.prototype, 'body'),
  requestBodyUsed: nativeGetter<Request, boolean>(Request.prototype, 'bodyUsed'),
  requestClone: Request.prototype.clone as (this: Request) => Request,
  responseStatus: nativeGetter<Response, number>(Response.prototype, 'status'),
  responseStatusText: nativeGetter<Response, string>(Response.prototype, 'statusText'),
  responseUrl: nativeGetter<Response, string>(Response.prototype, 'url'),
  responseRedirected: nativeGetter<Response, boolean>(Response.prototype, 'redirected'),
  responseHeaders: nativeGetter<Response, Headers>(Response.prototype, 'headers'),
  responseBody: nativeGetter<Response, ReadableStream<Uint8Array> | null>(Response.prototype, 'body'),
  responseBodyUsed: nativeGetter<Response, boolean>(Response.prototype, 'bodyUsed'),
  responseClone: Response.prototype.clone as (this: Response) => Response,
  headersForEach: Headers.prototype.forEach as (this: Headers, f: (value: string, name: string) => void) => void,
  headersGet: Headers.prototype.get as (this: Headers, name: string) => string | null,
  searchParamsToString: URLSearchParams.prototype.toString as (this: URLSearchParams) => string,
  urlHref: nativeGetter<URL, string>(URL.prototype, 'href'),
  eventType: nativeGetter<Event, string>(Event.prototype, 'type'),
  messageData: nativeGetter<MessageEvent, unknown>(MessageEvent.prototype, 'data'),
  messageLastEventId: nativeGetter<MessageEvent, string>(MessageEvent.prototype, 'lastEventId'),
  /** (Undefined outside a browser: the unit tests' Node has no CloseEvent or PageTransitionEvent.) */
  CloseEvent: globalThis.CloseEvent as typeof CloseEvent | undefined,
  closeCode: nativeGetter<CloseEvent, number>(globalThis.CloseEvent?.prototype, 'code'),
  closeReason: nativeGetter<CloseEvent, string>(globalThis.CloseEvent?.prototype, 'reason'),
  closeWasClean: nativeGetter<CloseEvent, boolean>(globalThis.CloseEvent?.prototype, 'wasClean'),
  pagePersisted: nativeGetter<PageTransitionEvent, boolean>(globalThis.PageTransitionEvent?.prototype, 'persisted'),
};

const weakMapGet = WeakMap.prototype.get;
const weakMapSet = WeakMap.prototype.set;
/** `map.get(key)` with WeakMap's native get: the wrappers ask on every page call, which a page's patch must not see. */
export function weakGet<K extends object, V>(map: WeakMap<K, V>, key: unknown): V | undefined {
  return natives.apply(weakMapGet, map, [key]) as V | undefined;
}
/** `map.set(key, value)` with WeakMap's native set. */
export function weakSet<K extends object, V>(map: WeakMap<K, V>, key: K, value: V): void {
  natives.apply(weakMapSet, map, [key, value]);
}

/** How far the wall clock ran ahead of the page's monotonic clock (see now). */
let ahead = 0;

/**
 * A frame's time: the page's monotonic clock on the wall clock's scale (precise, and never going back when the wall
 * clock is set back). But that clock stops while the machine sleeps (Chrome's performance.now() on Linux and macOS
 * does not count a suspend), and the panel judges ages against the wall clock: after a laptop's lid was closed for
 * an hour, every frame would read an hour old — every cached URI past its rule, every notification overdue. So once
 * the wall clock is more than a second ahead, frames catch up with it (forward only).
 */
export function now(): number {
  const t = natives.timeOrigin + natives.performanceNow() + ahead;
  const wall = natives.dateNow();
  if (wall - t <= 1000) return t;
  ahead += wall - t;
  return wall;
}

export function randomId(): string {
  return (natives.random().toString(36).slice(2, 10) + natives.random().toString(36).slice(2, 6)).padEnd(12, '0');
}

/**
 * `p.then(ok, fail)` with the native then: a page that patches Promise.prototype.then (zone.js does) must not see the
 * hook's own continuations. (`await` on a native promise never looks `then` up. Not exported as `then`: a module
 * namespace with a `then` is a thenable.)
 */
export function thenNative<T, R1 = T, R2 = never>(p: Promise<T>, ok?: ((v: T) => R1 | PromiseLike<R1>) | null, fail?: ((e: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
  return natives.promiseThen.call(p, ok, fail) as Promise<R1 | R2>;
}

/** `p.catch(() => undefined)` with the native then: a rejection we do not care about, handled. */
export function ignore(p: Promise<unknown>): void {
  natives.promiseThen.call(p, undefined, () => undefined);
}

/** The accessor V8 gives every error's own `stack` (the same pair for all of them): used only on errors that have it. */
const nativeStack = Object.getOwnPropertyDescriptor(new Error(), 'stack');
/** Where the hook's own script is loaded from: its frames in a stack name it (undefined outside an extension). */
const ownScript = /chrome-extension:\/\/[a-z]+\//.exec(String(new Error().stack))?.[0];

/**
 * Runs the native call a wrapper makes for the page. What it throws is thrown with the stack the page's own call would
 * give it: the lines of our wrapper's frames taken out (the console and a page's error reporter would otherwise point
 * at the extension: some drop errors whose top frame is an extension's). Only an error whose `stack` is V8's own
 * accessor and names our script is touched: a value the page threw (from a toString we called) stays as it was, and
 * no getter of the page's is run (V8's own may call the page's Error.prepareStackTrace, earlier than the page would).
 */
export function asPage<T>(call: () => T): T {
  try {
    return call();
  } catch (e) {
    hideOwnFrames(e);
    throw e;
  }
}

/** Takes our frames out of an error's stack (see asPage); for a rejection the page will see. */
export function hideOwnFrames(e: unknown): void {
  if (!ownScript || !nativeStack?.get || !nativeStack.set || e === null || typeof e !== 'object') return;
  try {
    const d = Object.getOwnPropertyDescriptor(e, 'stack');
    if (d?.get !== nativeStack.get || d.set !== nativeStack.set) return;
    const stack: unknown = d.get.call(e);
    if (typeof stack !== 'string' || !stack.includes(ownScript)) return;
    d.set.call(e, stack.split('\n').filter((line) => !line.includes(ownScript)).join('\n'));
  } catch {
    // A frozen or odd error keeps its stack.
  }
}
