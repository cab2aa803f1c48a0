// A stale interval is drawn in its finding's colour: an info one (a cache past its TTL) was drawn as an error — a red
// band, a red lane label — while its row in the table said INFO (a UX audit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../../shared/engine/index.ts';
import { drawTimeline, type Palette } from '../../../panel/components/timeline-draw.ts';
import { ageSeverities } from '../../../panel/model/uri-table.ts';
import { staleAt, staleIntervals, staleSeverityAt, type StaleInterval } from '../../../panel/model/timeline.ts';

const finding = (over: Partial<Finding>): Finding =>
  ({ key: over.id, id: 'cache-age-exceeded', severity: 'info', doc: 'D', endpoint: 'E', uri: 'file:///a', firstT: 100, lastT: 200, open: false, count: 1, evidence: [], title: '', explanation: '', fix: '', ...over }) as Finding;

describe('stale intervals by severity', () => {
  it('carry their finding severity; the lane label takes the worst one at its now', () => {
    const snap = { findings: [finding({ severity: 'info', firstT: 100, lastT: 400 }), finding({ id: 'phantom-subscription', severity: 'error', firstT: 300, lastT: 350 })] };
    const iv = staleIntervals(snap, 1000).get('D E file:///a')!;
    expect(iv).toEqual([
      { t0: 100, t1: 400, severity: 'info', id: 'cache-age-exceeded', title: '' },
      { t0: 300, t1: 350, severity: 'error', id: 'phantom-subscription', title: '' },
    ]);
    // Hover over a band names its finding: the worst under the pointer (a zero-length one within the tolerance).
    expect(staleAt(iv, 150)?.id).toBe('cache-age-exceeded');
    expect(staleAt(iv, 320)?.id).toBe('phantom-subscription');
    expect(staleAt(iv, 500)).toBeUndefined();
    expect(staleAt(iv, 405, 10)?.id).toBe('cache-age-exceeded');
    expect(staleSeverityAt(iv, 150)).toBe('info');
    expect(staleSeverityAt(iv, 320)).toBe('error');
    expect(staleSeverityAt(iv, 500)).toBeUndefined();
    expect(staleSeverityAt([{ t0: 0, t1: 10, severity: 'warning' }], 5)).toBe('warning');
  });

  it('come mildest first (the order the lane paints them in), in finding order within a severity', () => {
    const snap = {
      findings: [
        finding({ id: 'phantom-subscription', severity: 'error', firstT: 300, lastT: 350 }),
        finding({ severity: 'warning', firstT: 110, lastT: 120 }),
        finding({ severity: 'info', firstT: 100, lastT: 400 }),
        finding({ id: 'cached-not-subscribed', severity: 'error', firstT: 500, lastT: 600, spans: [[500, 520], [560, 600]] }),
        finding({ severity: 'warning', firstT: 130, lastT: 140 }),
      ],
    };
    expect(staleIntervals(snap, 1000).get('D E file:///a')!).toEqual([
      { t0: 100, t1: 400, severity: 'info', id: 'cache-age-exceeded', title: '' },
      { t0: 110, t1: 120, severity: 'warning', id: 'cache-age-exceeded', title: '' },
      { t0: 130, t1: 140, severity: 'warning', id: 'cache-age-exceeded', title: '' },
      { t0: 300, t1: 350, severity: 'error', id: 'phantom-subscription', title: '' },
      { t0: 500, t1: 520, severity: 'error', id: 'cached-not-subscribed', title: '' },
      { t0: 560, t1: 600, severity: 'error', id: 'cached-not-subscribed', title: '' },
    ]);
  });

  it('a cache past its age takes its open cache-age finding\'s colour in the table, not the row\'s worst; none yet: pending', () => {
    const ages = ageSeverities([
      finding({ severity: 'info', open: true }),
      finding({ id: 'phantom-subscription', severity: 'error', open: true }),
      finding({ uri: 'file:///b', severity: 'warning', open: false }),
    ]);
    expect([...ages]).toEqual([['D E file:///a', 'info']]);
  });
});

describe('the stale band', () => {
  const g = globalThis as { Path2D?: unknown };
  const had = g.Path2D;
  beforeAll(() => void (g.Path2D = class { rect() {} moveTo() {} lineTo() {} closePath() {} }));
  afterAll(() => void (g.Path2D = had));

  /** The styles the band's rectangles were filled with (the lane's, above the axis), in painting order; `at`: with their x. */
  function bandStyles(stale: StaleInterval[], at = false): string[] {
    const styles: string[] = [];
    const ctx: Record<string, unknown> = {
      fillStyle: '',
      measureText: () => ({ width: 10 }),
      fillRect(this: { fillStyle: string }, x: number, y: number) {
        if (y >= 18) styles.push(at ? `${this.fillStyle}@${x}` : this.fillStyle);
      },
    };
    const proxy = new Proxy(ctx, { get: (o, k) => (k in o ? o[k as string] : () => {}), set: (o, k, v) => ((o[k as string] = v), true) }) as unknown as CanvasRenderingContext2D;
    const p = { error: 'ERROR', warn: 'WARN', info: 'INFO', staleFill: 'FILL-ERROR', staleFillWarning: 'FILL-WARN', staleFillInfo: 'FILL-INFO' } as Palette;
    drawTimeline({ ctx: proxy, width: 600, height: 100, window: { start: 0, end: 1000 }, lanes: [{ kind: 'uri', id: 'k', label: 'u', uri: 'u', lane: undefined, stale, selected: false }], firstLane: 0, offsetY: 0, now: 1000, scrubT: null, boundaries: [], p });
    return styles;
  }

  it('is shaded and edged in its severity colour', () => {
    expect(bandStyles([{ t0: 100, t1: 400, severity: 'info' }])).toEqual(['FILL-INFO', 'INFO']);
    expect(bandStyles([{ t0: 100, t1: 400, severity: 'warning' }])).toEqual(['FILL-WARN', 'WARN']);
    expect(bandStyles([{ t0: 100, t1: 400, severity: 'error' }])).toEqual(['FILL-ERROR', 'ERROR']);
  });

  it("overlapping bands of a lane's stale intervals are painted mildest first: the worst last, on top, as its label says", () => {
    // Findings worst first: the lane still paints info, then warning, then error (the order the draw sorted them in
    // before staleIntervals did); ties in finding order.
    const snap = {
      findings: [
        finding({ id: 'phantom-subscription', severity: 'error', firstT: 300, lastT: 350 }),
        finding({ severity: 'warning', firstT: 200, lastT: 500 }),
        finding({ severity: 'info', firstT: 100, lastT: 400 }),
        finding({ id: 'cached-not-subscribed', severity: 'error', firstT: 600, lastT: 700 }),
      ],
    };
    const stale = staleIntervals(snap, 1000).get('D E file:///a')!;
    expect(bandStyles(stale, true)).toEqual(['FILL-INFO@60', 'INFO@60', 'FILL-WARN@120', 'WARN@120', 'FILL-ERROR@180', 'ERROR@180', 'FILL-ERROR@360', 'ERROR@360']);
    expect(staleSeverityAt(stale, 320)).toBe('error');
  });
});
