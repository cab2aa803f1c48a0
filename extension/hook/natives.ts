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
  performanceNow: performance.now.bind(performance),
  timeOrigin: performance.timeOrigin,
  random: Math.random,
};

export function now(): number {
  return natives.timeOrigin + natives.performanceNow();
}

export function randomId(): string {
  return (natives.random().toString(36).slice(2, 10) + natives.random().toString(36).slice(2, 6)).padEnd(12, '0');
}
