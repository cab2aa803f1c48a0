// Import Cancel on a big trace (a stress review, item 3): the file is read and its frames checked in slices, Cancel
// landing between them; the one JSON.parse call cannot be interrupted, and the notice says so while it runs.
import { describe, expect, it } from 'vitest';
import { cancelImport, importFile } from '../../../panel/actions.ts';
import { importLabel } from '../../../panel/components/App.tsx';
import { PanelStore } from '../../../panel/store.ts';
import { exportTrace, serializeTrace, validateTrace, validateTraceSteps } from '../../../shared/trace/index.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';
import { timerAnimationFrames } from '../../support/animation-frames.ts';

timerAnimationFrames();

// 25,000 frames: more than two slices of checks, and several read chunks (well over 4 MB).
const text = serializeTrace(exportTrace({ frames: syntheticTrace(25_000, 20, 3).frames, createdAt: Date.now(), pageUrl: 'http://x/' }));

/** Resolves when the import reaches `step` with some progress (the store's signals, as the notice reads them). */
function reaches(s: PanelStore, step: 'reading' | 'checking'): Promise<number> {
  return new Promise((r) => {
    const stop = s.importProgress.subscribe((v) => {
      if (v !== null && v < 1 && s.importStep.value === step) {
        queueMicrotask(() => stop());
        r(v);
      }
    });
  });
}

describe('import steps', () => {
  it('goes through reading (with progress), parsing, checking (with progress) and analysing, and shows the trace', async () => {
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    const s = new PanelStore();
    const steps: string[] = [];
    const readProgress: number[] = [];
    const stop = s.importStep.subscribe((v) => void (v !== null && steps.at(-1) !== v && steps.push(v)));
    const stop2 = s.importProgress.subscribe((v) => void (v !== null && s.importStep.value === 'reading' && readProgress.push(v)));
    expect(await importFile(s, new File([text], 'big.json'))).toBe(true);
    stop();
    stop2();
    expect(steps).toEqual(['reading', 'parsing', 'checking', 'analysing']);
    expect(readProgress.length).toBeGreaterThan(2);
    expect(readProgress).toEqual([...readProgress].sort((a, b) => a - b));
    expect(s.isImported).toBe(true);
    expect([s.importing.value, s.importStep.value, s.importProgress.value]).toEqual([null, null, null]);
  });

  it('waits for the parsing notice to be painted only for a file over one read piece (4 MB)', async () => {
    // painted() asks for an animation frame (and waits up to 100 ms for it): counted while the step is 'parsing'.
    const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };
    const had = g.requestAnimationFrame!;
    const small = serializeTrace(exportTrace({ frames: syntheticTrace(300, 20, 3).frames, createdAt: Date.now(), pageUrl: 'http://x/' }));
    expect(small.length).toBeLessThan(4 * 1024 * 1024);
    const asked: Record<string, number> = {};
    try {
      for (const [name, t] of [['small', small], ['big', text]] as const) {
        const s = new PanelStore();
        asked[name] = 0;
        g.requestAnimationFrame = (cb) => {
          if (s.importStep.value === 'parsing') asked[name]!++;
          return had(cb);
        };
        expect(await importFile(s, new File([t], `${name}.json`))).toBe(true);
      }
    } finally {
      g.requestAnimationFrame = had;
    }
    expect(asked).toEqual({ small: 0, big: 1 });
  });

  for (const step of ['reading', 'checking'] as const) {
    it(`Cancel while ${step} stops it there: nothing shown, no error`, async () => {
      const s = new PanelStore();
      const going = importFile(s, new File([text], 'big.json'));
      await reaches(s, step);
      cancelImport(s);
      expect(await going).toBe(false);
      expect([s.isImported, s.importing.value, s.importStep.value, s.importProgress.value, s.importError.value]).toEqual([false, null, null, null, null]);
    });
  }

  it('a file that is not UTF-8 is still named as such (read whole again), after the checks', async () => {
    const s = new PanelStore();
    const latin1 = new Uint8Array([...new TextEncoder().encode(text.slice(0, 100)), 0xe9]);
    expect(await importFile(s, new File([latin1], 'latin1.json'))).toBe(false);
    expect(s.importError.value).toMatch(/latin1\.json is not a trace this panel can read/);
  });

  it('the notice says the parse cannot be cancelled while it runs', () => {
    expect(importLabel('t250k.json (187.6 MB)', 'parsing')).toBe('Importing t250k.json (187.6 MB): parsing… (cannot be cancelled while parsing: Cancel takes effect when it ends)');
    expect(importLabel('t.json (1.0 MB)', 'reading')).toBe('Importing t.json (1.0 MB): reading…');
  });

  it('validateTraceSteps says what validateTrace says, in steps', () => {
    const v = JSON.parse(text) as { frames: Array<{ seq: number }> };
    v.frames[12_345]!.seq = 1;
    const whole = validateTrace(v);
    const steps = validateTraceSteps(v);
    if ('error' in steps) throw new Error(steps.error);
    expect(steps.check(10_000)).toBeUndefined();
    expect(whole.ok ? undefined : whole.error).toBe(steps.check(20_000));
  });
});
