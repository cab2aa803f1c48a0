// When the page cancels its side of a streamed response, cancel our clone too: a tee keeps the connection open while
// either branch is still reading, and the server must see the page's disconnect exactly as without us.
// Two ways to see it: the page's cancel() calls (ReadableStream.prototype.cancel, and cancel on a reader its
// getReader() gave) are seen at once; and a pipe (pipeThrough, pipeTo) or an async iteration cancels the body inside
// the stream machinery, where nothing can be wrapped — but it also releases the body's lock, so a body that was
// locked, is unlocked again and turns out closed was cancelled by the page (watched as our clone's chunks arrive, and
// once a second while it is quiet; for streamed bodies only).
//
// The methods are wrapped once, on the prototypes (installCancelLinks), never on the page's body or reader: their own
// property lists stay empty and `body.getReader === ReadableStream.prototype.getReader` as without us. For a stream
// that is not a linked body it is one WeakMap miss and the native call.
import { wrapMethod } from './disguise.ts';
import { asPage, hideOwnFrames, ignore, natives, thenNative } from './natives.ts';

const WATCH_MS = 1000;

export interface CancelWatch {
  /** Looks whether the page's branch was cancelled by a pipe or an iteration (cheap: call it for every chunk). */
  check(): void;
  /** Our reading ended: stop watching. */
  stop(): void;
  /** The page cancelled its side (our clone was cancelled for it): the body did not end, the page dropped it. */
  readonly cancelledByPage: boolean;
}

const weakGet = WeakMap.prototype.get as (this: WeakMap<object, () => void>, k: object) => (() => void) | undefined;
const weakSet = WeakMap.prototype.set as (this: WeakMap<object, () => void>, k: object, v: () => void) => unknown;
/** Linked bodies, and the readers the page got from them: what to call when the page cancels. */
const onCancel = new WeakMap<object, () => void>();
const nativeGetReader = ReadableStream.prototype.getReader;
const readerClosed = Object.getOwnPropertyDescriptor(ReadableStreamDefaultReader.prototype, 'closed')?.get as (this: ReadableStreamDefaultReader) => Promise<undefined>;
const releaseLock = ReadableStreamDefaultReader.prototype.releaseLock;
const streamLocked = Object.getOwnPropertyDescriptor(ReadableStream.prototype, 'locked')?.get as (this: ReadableStream) => boolean;
let installed = false;

const byobClosed = typeof ReadableStreamBYOBReader === 'function' ? (Object.getOwnPropertyDescriptor(ReadableStreamBYOBReader.prototype, 'closed')?.get as (this: ReadableStreamBYOBReader) => Promise<undefined>) : undefined;
/**
 * A brand check with a native getter (a page's Symbol.hasInstance is not asked): whether `get` accepts `x`. Only for a
 * getter that throws on a wrong receiver (not a promise attribute's, which returns a rejected promise).
 */
function accepts(get: ((this: never) => unknown) | undefined, x: unknown): boolean {
  try {
    if (!get) return false;
    get.call(x as never);
    return true;
  } catch {
    return false;
  }
}

/**
 * The page calls cancel on `thisArg` (a body or a reader): our clone is cancelled only when that cancel really cancels
 * an unfinished body. Not for a locked body (the native rejects: `res.body.cancel()` after `res.json()`), a released
 * reader, nor a body the page already read to its end (`finally { reader.cancel() }` after done): our clone may still
 * hold queued chunks, and cancelling it would cut the logged body short and log the page's "cancel" as an abort.
 * Looked at before the native call (which closes the stream); decided a microtask later, never seen by the page.
 */
function cancelled(thisArg: unknown): void {
  if (thisArg === null || (typeof thisArg !== 'object' && typeof thisArg !== 'function')) return;
  const f = weakGet.call(onCancel, thisArg);
  if (!f) return;
  if (accepts(streamLocked, thisArg)) {
      if (streamLocked.call(thisArg as ReadableStream)) return;
    // A reader taken and released in the same turn (unseen by the page): its `closed` resolves if the body had already
    // closed, and is rejected by the release if it was still readable (or had errored: our clone errors too).
    const probe = nativeGetReader.call(thisArg as ReadableStream) as ReadableStreamDefaultReader;
    const closed = readerClosed.call(probe);
    releaseLock.call(probe);
    thenNative(closed, undefined, () => f());
    return;
  }
  // The page's reader: its `closed` still pending now means the body is unfinished and this cancel cancels it (settled:
  // read to its end, errored, or the reader released, when the native cancel rejects). Pending is told by which of two
  // continuations runs first: `closed`'s, registered first, runs first only if it had already settled.
  // (`closed` is a promise attribute: a wrong receiver gets a rejected promise, not a throw; the reader's kind is told
  // by its prototype. A mismatch gives a rejection, handled below: the cancel is then not linked.)
  const byob = byobClosed !== undefined && natives.getPrototypeOf(thisArg) === ReadableStreamBYOBReader.prototype;
  const closed = (byob ? byobClosed : readerClosed).call(thisArg as never);
  let settled = false;
  thenNative(
    closed,
    () => void (settled = true),
    () => void (settled = true),
  );
  thenNative(natives.promiseResolve(undefined), () => {
    if (!settled) f();
  });
}

/** Wraps the prototypes' getReader and cancel methods (once per document; see above). */
export function installCancelLinks(): void {
  if (installed) return;
  installed = true;
  // `rejectsNow`: whether the native cancel rejects at once with a TypeError made while our wrapper is on the stack (a
  // locked body, a receiver that is no stream): the page then gets a derived promise whose error has our frames taken
  // out, as the fetch path does; every other cancel keeps the very native promise. (A reader's cancel that rejects —
  // released, or a wrong receiver — cannot be told synchronously without running a promise getter: its error keeps
  // our frame.)
  const wrapCancel = (proto: { cancel(reason?: unknown): Promise<void> } | undefined, rejectsNow?: (thisArg: unknown) => boolean) => {
    if (!proto || typeof proto.cancel !== 'function') return;
    const native = proto.cancel;
    const wrapper = wrapMethod(native, (thisArg, args) => {
      let rejects = false;
      try {
        rejects = rejectsNow?.(thisArg) ?? false;
        cancelled(thisArg);
      } catch {
        // Never into the page.
      }
      const p = asPage(() => natives.apply(native, thisArg, args) as Promise<void>);
      return rejects
        ? thenNative(p, undefined, (e: unknown) => {
            hideOwnFrames(e);
            throw e;
          })
        : p;
    });
    Object.defineProperty(proto, 'cancel', { configurable: true, writable: true, value: wrapper });
  };
  // (`locked` is a boolean attribute: it throws for a receiver that is no stream.)
  wrapCancel(ReadableStream.prototype, (thisArg) => !accepts(streamLocked, thisArg) || streamLocked.call(thisArg as ReadableStream));
  wrapCancel(ReadableStreamDefaultReader.prototype);
  wrapCancel(typeof ReadableStreamBYOBReader === 'function' ? ReadableStreamBYOBReader.prototype : undefined);
  const getReader = wrapMethod(nativeGetReader, (thisArg, args) => {
    const reader = asPage(() => natives.apply(nativeGetReader, thisArg, args) as object);
    try {
      const f = thisArg !== null && typeof thisArg === 'object' ? weakGet.call(onCancel, thisArg) : undefined;
      if (f) weakSet.call(onCancel, reader, f);
    } catch {
      // Never into the page.
    }
    return reader;
  });
  Object.defineProperty(ReadableStream.prototype, 'getReader', { configurable: true, writable: true, value: getReader });
}

/**
 * Links the page's `body` to our reader of its clone. `watchPipes`: also watch for a cancel made inside the stream
 * machinery (see above; for streamed bodies, whose end would otherwise never come).
 */
export function linkCancel(body: ReadableStream<Uint8Array> | null, ours: ReadableStreamDefaultReader<Uint8Array>, watchPipes: boolean): CancelWatch | undefined {
  if (!body || !installed) return undefined;
  let done = false;
  const cancelOurs = () => {
    if (done) return;
    watch.cancelledByPage = true;
    watch.stop();
    ignore(natives.readerCancel.call(ours));
  };
  weakSet.call(onCancel, body, cancelOurs);

  let wasLocked = false;
  let probing = false;
  const watch: CancelWatch & { cancelledByPage: boolean } = {
    cancelledByPage: false,
    check() {
      if (done || probing || !watchPipes) return;
      if (streamLocked.call(body)) {
        wasLocked = true;
        return;
      }
      if (!wasLocked) return;
      // Unlocked after a lock: closed (cancelled), or just released between two readers. A reader taken and released
      // in the same turn tells which without the page seeing anything: its `closed` settles as the stream was.
      let closed: Promise<unknown>;
      try {
        const probe = nativeGetReader.call(body) as ReadableStreamDefaultReader;
        closed = readerClosed.call(probe);
        releaseLock.call(probe);
      } catch {
        return;
      }
      probing = true;
      thenNative(
        closed,
        () => cancelOurs(),
        () => {
          probing = false;
          wasLocked = false;
        },
      );
    },
    stop() {
      done = true;
      if (timer !== undefined) natives.clearInterval(timer);
    },
  };
  const timer = watchPipes ? natives.setInterval(() => watch.check(), WATCH_MS) : undefined;
  return watch;
}
