// When the page cancels its side of a streamed response, cancel our clone too: a tee keeps the connection open while
// either branch is still reading, and the server must see the page's disconnect exactly as without us.
import { disguise } from './disguise.ts';

export function linkCancel(response: Response, ours: ReadableStreamDefaultReader<Uint8Array>): void {
  const body = response.body;
  if (!body) return;
  const cancelOurs = () => void ours.cancel().catch(() => undefined);
  const nativeCancel = body.cancel;
  const nativeGetReader = body.getReader;
  Object.defineProperty(body, 'cancel', {
    configurable: true,
    writable: true,
    value: disguise(function cancel(this: ReadableStream, reason?: unknown) {
      cancelOurs();
      return nativeCancel.call(this, reason);
    }, nativeCancel),
  });
  Object.defineProperty(body, 'getReader', {
    configurable: true,
    writable: true,
    value: disguise(function getReader(this: ReadableStream, ...args: unknown[]) {
      const reader = (nativeGetReader as (...a: unknown[]) => ReadableStreamDefaultReader).apply(this, args);
      const nativeReaderCancel = reader.cancel;
      Object.defineProperty(reader, 'cancel', {
        configurable: true,
        writable: true,
        value: disguise(function cancel(this: ReadableStreamDefaultReader, reason?: unknown) {
          cancelOurs();
          return nativeReaderCancel.call(this, reason);
        }, nativeReaderCancel),
      });
      return reader;
    }, nativeGetReader),
  });
}
