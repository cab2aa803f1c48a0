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
  Uint8Array: window.Uint8Array,
  getReader: ReadableStream.prototype.getReader as (this: ReadableStream<Uint8Array>) => ReadableStreamDefaultReader<Uint8Array>,
  readerRead: ReadableStreamDefaultReader.prototype.read as (this: ReadableStreamDefaultReader<Uint8Array>) => Promise<ReadableStreamReadResult<Uint8Array>>,
  readerCancel: ReadableStreamDefaultReader.prototype.cancel,
  promiseThen: Promise.prototype.then,
  promiseResolve: Promise.resolve.bind(Promise) as <T>(v: T) => Promise<Awaited<T>>,
  performanceNow: performance.now.bind(performance),
  timeOrigin: performance.timeOrigin,
  random: Math.random,
  captureStackTrace: (Error as ErrorConstructor & { captureStackTrace?: (o: object, fn?: Function) => void }).captureStackTrace,
};

export function now(): number {
  return natives.timeOrigin + natives.performanceNow();
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

/**
 * Runs the native call a wrapper makes for the page. What it throws is thrown with the stack the page's own call would
 * give it: our wrapper (`self`) and the frames above it left out. (The console and a page's error reporter would
 * otherwise point at the extension: some drop errors whose top frame is an extension's.)
 */
export function asPage<T>(self: Function, call: () => T): T {
  try {
    return call();
  } catch (e) {
    if (e !== null && typeof e === 'object' && natives.captureStackTrace) {
      try {
        natives.captureStackTrace(e, self);
      } catch {
        // A frozen error keeps its stack.
      }
    }
    throw e;
  }
}
