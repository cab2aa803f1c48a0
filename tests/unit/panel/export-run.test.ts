// Export ▾ on a large view runs in slices behind a notice (progress, Cancel), one export at a time; a small one is
// downloaded at once with no notice. What is downloaded is the one-shot text, byte for byte.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPORT_SLICING, cancelExport, exportError, exportFile, exportNotice, exportProgress, harText, importFile, runExport, traceText, type ExportStep } from '../../../panel/actions.ts';
import { PanelStore } from '../../../panel/store.ts';
import { exportTitle } from '../../../panel/model/export-control.ts';
import { exportTrace, serializeTrace } from '../../../shared/trace/index.ts';
import { timerAnimationFrames } from '../../support/animation-frames.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';

timerAnimationFrames();

/** What the panel downloaded: a Blob per click of an anchor (a stand-in for the DOM and object URLs). */
const downloads: { name: string; blob: Blob }[] = [];
const g = globalThis as unknown as { document?: unknown };
const hadDocument = g.document;
const urls = URL as unknown as { createObjectURL: (b: Blob) => string; revokeObjectURL: (u: string) => void };
const had = { create: urls.createObjectURL, revoke: urls.revokeObjectURL };
beforeAll(() => {
  const blobs = new Map<string, Blob>();
  urls.createObjectURL = (b) => {
    const u = `blob:test/${blobs.size}`;
    blobs.set(u, b);
    return u;
  };
  urls.revokeObjectURL = () => {};
  g.document = {
    body: { append: () => {} },
    createElement: () => {
      const a = { href: '', download: '', style: {}, remove: () => {}, click: () => downloads.push({ name: a.download, blob: blobs.get(a.href)! }) };
      return a;
    },
  };
});
afterAll(() => {
  g.document = hadDocument;
  urls.createObjectURL = had.create;
  urls.revokeObjectURL = had.revoke;
});

async function imported(n: number): Promise<PanelStore> {
  const s = new PanelStore();
  const { frames } = syntheticTrace(n, 50, 4);
  const text = serializeTrace(exportTrace({ frames, createdAt: frames.at(-1)!.t + 1000, pageUrl: 'http://localhost:8080/kb' }));
  expect(await importFile(s, new File([text], 't.json'))).toBe(true);
  return s;
}

/** Every slice as short as can be: a large export is then always sliced. */
function slicedAlways(): () => void {
  const was = { ...EXPORT_SLICING };
  EXPORT_SLICING.unslicedMs = 0;
  EXPORT_SLICING.sliceMs = 0;
  return () => Object.assign(EXPORT_SLICING, was);
}

describe('exportFile', () => {
  it('downloads a small export at once, with no notice', async () => {
    const s = await imported(300);
    downloads.length = 0;
    const r = exportFile(s, 'trace');
    expect(r.ok).toBe(true);
    expect(exportNotice(s).value).toBeNull();
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.name).toMatch(/^mcp-trace-localhost_8080-\d{8}-\d{6}\.json$/);
    expect(await downloads[0]!.blob.text()).toBe(traceText(s));
  });

  for (const kind of ['trace', 'har'] as const) {
    it(`runs a large ${kind} export in slices behind a notice, refuses a second one, and downloads the one-shot text`, async () => {
      const s = await imported(4000);
      const restore = slicedAlways();
      try {
        downloads.length = 0;
        const r = exportFile(s, kind);
        if (!r.ok) throw new Error(r.reason);
        const what = kind === 'har' ? 'HAR' : 'trace';
        expect(exportNotice(s).value).toEqual({ state: 'running', what, frames: s.shownFrames().length });
        expect(downloads).toHaveLength(0);
        // One at a time: a second request is refused, and says why; Export's tooltip says so too.
        expect(exportFile(s, 'trace')).toEqual({ ok: false, reason: `An export of the ${what} is under way: wait for it, or cancel it` });
        expect(exportTitle({ canExport: true, pageLeft: false, hiddenFrames: 0, exporting: what })).toBe(`Exporting the ${what}: wait for it to finish, or cancel it in its notice`);
        const seen: number[] = [];
        const off = exportProgress(s).subscribe((p) => seen.push(p));
        expect(await r.done).toBe(true);
        off();
        expect(seen.length).toBeGreaterThan(3);
        expect(seen.every((p, i) => p >= 0 && p <= 1 && (i === 0 || p >= seen[i - 1]!))).toBe(true);
        expect(exportNotice(s).value).toBeNull();
        expect(downloads).toHaveLength(1);
        expect(await downloads[0]!.blob.text()).toBe(kind === 'har' ? harText(s) : traceText(s));
        // Done: another may start.
        const next = exportFile(s, 'trace');
        expect(next.ok).toBe(true);
        if (next.ok) await next.done;
      } finally {
        restore();
      }
    });
  }

  it('Cancel stops it with nothing downloaded, and a short note says so', async () => {
    const s = await imported(4000);
    const restore = slicedAlways();
    try {
      downloads.length = 0;
      const r = exportFile(s, 'har');
      if (!r.ok) throw new Error(r.reason);
      await new Promise((resolve) => setTimeout(resolve, 5));
      cancelExport(s);
      expect(exportNotice(s).value).toEqual({ state: 'cancelled', what: 'HAR' });
      expect(await r.done).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(downloads).toHaveLength(0);
      // The note goes with the next export (or after a few seconds).
      const again = exportFile(s, 'trace');
      expect(again.ok).toBe(true);
      expect(exportNotice(s).value?.state).toBe('running');
      if (again.ok) expect(await again.done).toBe(true);
      expect(downloads).toHaveLength(1);
    } finally {
      restore();
    }
  });

  describe('an error while it is made', () => {
    // The panel logs the error for whoever debugs it; kept out of the test output.
    beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}));
    afterEach(() => vi.restoreAllMocks());

    /** Steps that yield `before` times, then throw. */
    function* breaks(before: number): Generator<ExportStep, void, void> {
      for (let i = 0; i < before; i++) yield { parts: [`part ${i}`], progress: (i + 1) / (before + 1) };
      throw new Error('boom in step');
    }

    /** The job ended and said why: no notice, no download, the banner's text, and Export works again. */
    async function endedWithError(s: PanelStore, what: string): Promise<void> {
      expect(exportNotice(s).value).toBeNull();
      expect(downloads).toHaveLength(0);
      expect(exportError(s).value).toMatch(new RegExp(`^The ${what} export failed \\(boom[^)]*\\): nothing was downloaded`));
      const again = exportFile(s, 'trace');
      if (!again.ok) throw new Error(again.reason);
      // The next export clears the banner, and downloads.
      expect(exportError(s).value).toBeNull();
      expect(await again.done).toBe(true);
      expect(downloads).toHaveLength(1);
    }

    it('in the first slice: ends the job with an error, Export usable again', async () => {
      const s = await imported(300);
      downloads.length = 0;
      const r = runExport(s, 'HAR', 10, 'x.har', breaks(0));
      expect(r.ok).toBe(true);
      if (r.ok) expect(await r.done).toBe(false);
      await endedWithError(s, 'HAR');
    });

    it('in a later slice: the notice goes, done resolves false (no unhandled rejection), Export usable again', async () => {
      const s = await imported(300);
      const restore = slicedAlways();
      try {
        downloads.length = 0;
        const r = runExport(s, 'trace', 10, 'x.json', breaks(3));
        if (!r.ok) throw new Error(r.reason);
        expect(exportNotice(s).value?.state).toBe('running');
        expect(await r.done).toBe(false);
        await endedWithError(s, 'trace');
      } finally {
        restore();
      }
    });

    it('exportFile itself: a step that throws (reading its analysis settings) does not leave Export stuck', async () => {
      const s = await imported(300);
      downloads.length = 0;
      const was = s.analysisInEffect.bind(s);
      s.analysisInEffect = () => {
        throw new Error('boom in analysisInEffect');
      };
      let r: ReturnType<typeof exportFile>;
      try {
        r = exportFile(s, 'trace');
      } finally {
        s.analysisInEffect = was;
      }
      expect(r.ok).toBe(true);
      if (r.ok) expect(await r.done).toBe(false);
      await endedWithError(s, 'trace');
    });
  });
});
