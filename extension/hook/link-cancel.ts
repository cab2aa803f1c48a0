// When the page cancels its side of a streamed response, cancel our clone too: a tee keeps the connection open while
// either branch is still reading, and the server must see the page's disconnect exactly as without us.
// Two ways to see it: the body's cancel / getReader().cancel() are wrapped (the page's call is seen at once); and a
// pipe (pipeThrough, pipeTo) or an async iteration cancels the body inside the stream machinery, where nothing can be
// wrapped — but it also releases the body's lock, so a body that was locked, is unlocked again and turns out closed was
// cancelled by the page (watched as our clone's chunks arrive, and once a second while it is quiet).
import { disguise } from './disguise.ts';
import { asPage, ignore, natives, thenNative } from './natives.ts';

const WATCH_MS = 1000;

export interface CancelWatch {
  /** Looks whether the page's branch was cancelled by a pipe or an iteration (cheap: call it for every chunk). */
  check(): void;
  /** Our reading ended: stop watching. */
  stop(): void;
  /** The page cancelled its side (our clone was cancelled for it): the body did not end, the page dropped it. */
  readonly cancelledByPage: boolean;
}

export function linkCancel(response: Response, ours: ReadableStreamDefaultReader<Uint8Array>): CancelWatch | undefined {
  const body = response.body;
  if (!body) return undefined;
  let done = false;
  const cancelOurs = () => {
    if (done) return;
    watch.cancelledByPage = true;
    watch.stop();
    ignore(natives.readerCancel.call(ours));
  };
  const nativeCancel = body.cancel;
  const nativeGetReader = body.getReader;
  // (Method syntax: like the natives, no constructors and no prototype property.)
  const wrappers = {
    cancel(this: ReadableStream, ...args: unknown[]) {
      cancelOurs();
      return Reflect.apply(nativeCancel, this, args) as Promise<void>;
    },
    getReader(this: ReadableStream, ...args: unknown[]) {
      const reader = asPage(() => Reflect.apply(nativeGetReader, this, args) as ReadableStreamDefaultReader);
      const nativeReaderCancel = reader.cancel;
      const readerWrapper = {
        cancel(this: ReadableStreamDefaultReader, ...cancelArgs: unknown[]) {
          cancelOurs();
          return Reflect.apply(nativeReaderCancel, this, cancelArgs) as Promise<void>;
        },
      };
      Object.defineProperty(reader, 'cancel', { configurable: true, writable: true, value: disguise(readerWrapper.cancel, nativeReaderCancel) });
      return reader;
    },
  };
  Object.defineProperty(body, 'cancel', { configurable: true, writable: true, value: disguise(wrappers.cancel, nativeCancel) });
  Object.defineProperty(body, 'getReader', { configurable: true, writable: true, value: disguise(wrappers.getReader, nativeGetReader) });

  let wasLocked = false;
  let probing = false;
  const watch: CancelWatch & { cancelledByPage: boolean } = {
    cancelledByPage: false,
    check() {
      if (done || probing) return;
      if (body.locked) {
        wasLocked = true;
        return;
      }
      if (!wasLocked) return;
      // Unlocked after a lock: closed (cancelled), or just released between two readers. A reader taken and released
      // in the same turn tells which without the page seeing anything: its `closed` settles as the stream was.
      let closed: Promise<unknown>;
      try {
        const probe = nativeGetReader.call(body) as ReadableStreamDefaultReader;
        closed = probe.closed;
        probe.releaseLock();
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
      natives.clearInterval(timer);
    },
  };
  const timer = natives.setInterval(() => watch.check(), WATCH_MS);
  return watch;
}
