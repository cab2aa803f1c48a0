// The prototype cancel wrappers (link-cancel.ts) are on every stream of the page: a cancel the native rejects at once
// (a locked body, a receiver that is no stream) must reach the page with our frames taken out of its error, as fetch's do; every
// other cancel keeps the very native promise. (Taking the frames out needs Chromium: here hideOwnFrames is watched.)
import { beforeAll, describe, expect, it, vi } from 'vitest';

const hidden: unknown[] = [];
vi.mock('../../../extension/hook/natives.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../extension/hook/natives.ts')>();
  return {
    ...real,
    hideOwnFrames: (e: unknown) => {
      hidden.push(e);
      real.hideOwnFrames(e);
    },
  };
});

const nativeStreamCancel = ReadableStream.prototype.cancel;
const nativeReaderCancel = ReadableStreamDefaultReader.prototype.cancel;

beforeAll(async () => {
  Object.assign(globalThis, { window: globalThis, document: { baseURI: 'http://127.0.0.1/', addEventListener() {} } });
  const { installCancelLinks } = await import('../../../extension/hook/link-cancel.ts');
  installCancelLinks();
  expect(ReadableStream.prototype.cancel).not.toBe(nativeStreamCancel);
});

describe('cancel wrappers: errors without our frames', () => {
  it("hands a locked body's and a wrong receiver's rejection through hideOwnFrames (found by a review: our frames in every page's stack)", async () => {
    hidden.length = 0;
    const locked = new ReadableStream();
    locked.getReader();
    const e1 = await locked.cancel().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(e1).toBeInstanceOf(TypeError);
    const e2 = await ReadableStream.prototype.cancel.call({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(e2).toBeInstanceOf(TypeError);
    expect(hidden).toEqual([e1, e2]);
  });

  it('leaves a cancel that succeeds alone (the very native promise, nothing hidden)', async () => {
    hidden.length = 0;
    let reason: unknown;
    const s = new ReadableStream({ cancel: (r) => void (reason = r) });
    await s.cancel('why');
    const r = new ReadableStream().getReader();
    await r.cancel();
    expect(reason).toBe('why');
    expect(hidden).toEqual([]);
    void nativeReaderCancel;
  });
});
