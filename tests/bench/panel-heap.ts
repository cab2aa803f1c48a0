// Panel memory over a long live session (DESIGN §11 "the per-tab cap holds"; docs/panel.md "the panel holds what the
// log holds"). One panel (a tab, `panel.html?tab=`) watches a tab whose log is fed frames of a 50-URI client
// (notifications and re-reads, both protocol generations, a reconnect every ~3,000 frames: synthetic-trace.ts) through
// the tab's real log (TabLog.accept: stamped, persisted, capped at the caps set in Settings) and published to the panel
// as the relay's batches are (the badge's engine is left out: it is the background's, measured by background-heap.ts).
// At checkpoints the panel's JS heap is read after a forced GC (CDP HeapProfiler.collectGarbage, Runtime.getHeapUsage),
// once the panel has applied everything and no rebuild after a trim is under way. The figure is the heap's growth per
// 1,000 frames once the log is at its caps (it has dropped frames): the least-squares slope over those checkpoints.
// With the panel following the log, ≈ 0 (a constant: JIT code, the page's performance entries), give or take the
// trims' sawtooth: the log frees a tenth of its cap at a time and the panel follows a tenth behind.
// In `npm run bench`: 160,000 frames with the log capped at 10,000 frames (a minute); the default caps take longer
// (PANEL_HEAP_MAX_FRAMES=250000 PANEL_HEAP_FRAMES=400000 PANEL_HEAP_CHECK=50000: the 128 MiB cap holds ~170,000 of these
// frames; ~2.5 minutes).
// Alone: `npx tsx tests/bench/panel-heap.ts`; PANEL_HEAP_FRAMES, PANEL_HEAP_CHECK (a checkpoint every so many frames),
// PANEL_HEAP_MAX_FRAMES / PANEL_HEAP_MAX_BYTES (the log caps), PANEL_HEAP_RATE (frames/s offered at most, default 3,000;
// the log persists them as fast as it can), PANEL_HEAP_VIEW (findings, sessions, messages: the view shown instead of
// Resources), PANEL_HEAP_SNAPSHOTS=<dir> (a heap snapshot at each checkpoint, to compare).
import { createWriteStream, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { launchChromium } from '../../demo/launch-chromium.ts';
import type { PageFrame } from '../../shared/frames.ts';
import { PAGE_TAG } from '../../shared/messages.ts';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { bundleClient } from '../support/bundle.ts';
import { tabIdOf } from '../support/extension.ts';
import { liveServer } from './panel.ts';
import { syntheticTrace } from './synthetic-trace.ts';

const URIS = 50;
const RECONNECT_EVERY = 3000;
const BATCH = 250;
const CHUNK = 5000;

interface Checkpoint {
  fed: number;
  heapMb: number;
  panelFrames: number;
  logFrames: number;
  dropped: number;
  messages: number;
  stateSize: number;
  ms: number;
}

function pageFrames(n: number): PageFrame[] {
  // Without the trace's page-start: the frames join the bench page's segment (a long-lived page that never navigates).
  return syntheticTrace(n, URIS, Math.max(1, Math.floor(n / RECONNECT_EVERY)))
    .frames.filter((f) => f.kind !== 'page-start' && f.kind !== 'page-end')
    .map(({ seq: _s, frameId: _f, segment: _g, ...f }) => ({ ...f, doc: 'bench-heap-doc' }) as PageFrame);
}

/** Accepts `frames` into the tab's log in relay-sized batches (as the relay would send them) and publishes each to the panels once persisted. */
function feed(sw: Worker, tabId: number, frames: PageFrame[]): Promise<void> {
  return sw.evaluate(
    async ([tab, fs, size, tag]) => {
      const g = globalThis as any;
      const log = g.mcpDevtools.tabs.get(tab);
      g.__heapBatch ??= 0;
      const done: Promise<void>[] = [];
      for (let i = 0; i < fs.length; i += size) {
        const now = Date.now();
        const part = fs.slice(i, i + size).map((f: any, k: number) => ({ ...f, t: now - (size - k) * 0.1 }));
        done.push(log.accept('bench-heap-relay', ++g.__heapBatch, [JSON.stringify({ tag, frames: part })], 0, 0).then((a: any) => g.mcpDevtools.panels.publish(tab, a.frames, a.stats)));
      }
      await Promise.all(done);
    },
    [tabId, frames, BATCH, PAGE_TAG] as const,
  );
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

async function settledPanel(panel: Page): Promise<void> {
  await panel.waitForFunction(
    () => {
      const s = (globalThis as any).mcpPanel;
      return s.waiting.value === 0 && s.catchUp.value === null && s.aside === null;
    },
    null,
    { timeout: 300_000, polling: 200 },
  );
  await panel.waitForTimeout(300);
}

export async function benchPanelHeap(opts: { frames?: number; check?: number; maxFrames?: number; maxBytes?: number; rate?: number } = {}): Promise<{
  panelHeapKbPer1kFrames: number;
  rows: string[][];
}> {
  const total = opts.frames ?? Number(process.env.PANEL_HEAP_FRAMES ?? 160_000);
  const every = opts.check ?? Number(process.env.PANEL_HEAP_CHECK ?? 20_000);
  const maxFrames = opts.maxFrames ?? Number(process.env.PANEL_HEAP_MAX_FRAMES ?? 10_000);
  const maxBytes = opts.maxBytes ?? Number(process.env.PANEL_HEAP_MAX_BYTES ?? DEFAULT_SETTINGS.maxBytes);
  const rate = opts.rate ?? Number(process.env.PANEL_HEAP_RATE ?? 3000);
  const snapshots = process.env.PANEL_HEAP_SNAPSHOTS;
  const extensionDir = resolve(process.env.BENCH_DIST ?? 'dist');
  const frames = pageFrames(total);
  const browser = await launchChromium({ extensionDir });
  const server = liveServer(await bundleClient('tests/bench/panel-live-client.ts'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await browser.context.newPage();
    await page.goto(base + '/');
    await page.evaluate((b) => (window as any).startLive(b, 2, 1, 1), base);
    const tabId = await tabIdOf(browser, page);
    const sw = await browser.serviceWorker();
    await sw.evaluate('globalThis.__name = (f) => f');
    const set = await sw.evaluate(([mf, mb]) => (globalThis as any).mcpDevtools.settings.set({ freshnessRules: [], defaultMaxAgeMs: 600_000, maxFrames: mf, maxBytes: mb, capture: { bodyCapBytes: 256 * 1024, extraSecretHeaders: [] } }), [maxFrames, maxBytes] as const);
    if (!set.ok) throw new Error(`settings: ${set.error}`);
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 1400, height: 820 });
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=${tabId}`);
    await panel.waitForSelector('.status-bar[data-status="live"]');
    await panel.evaluate('globalThis.__name = (f) => f');
    // The view on screen all along (Resources by default: the URI table, the timeline, the flow chart).
    if (process.env.PANEL_HEAP_VIEW) await panel.evaluate((v) => ((globalThis as any).mcpPanel.view.value = v), process.env.PANEL_HEAP_VIEW);
    const cdp = await browser.context.newCDPSession(panel);
    const heap = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('HeapProfiler.collectGarbage');
      return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    };
    const snapshot = async (name: string): Promise<void> => {
      if (!snapshots) return;
      mkdirSync(snapshots, { recursive: true });
      const out = createWriteStream(join(snapshots, name));
      const onChunk = (e: { chunk: string }) => out.write(e.chunk);
      cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
      await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
      await new Promise((r) => out.end(r));
    };
    const checkpoints: Checkpoint[] = [];
    const t0 = Date.now();
    const look = async (fed: number): Promise<void> => {
      await settledPanel(panel);
      const heapBytes = await heap();
      const s = await panel.evaluate(() => {
        const p = (globalThis as any).mcpPanel;
        const e = p.engineNow();
        return { panelFrames: p.frames.length, logFrames: p.stats.value?.frames ?? 0, dropped: p.stats.value?.dropped ?? 0, messages: e.messageCount, stateSize: e.stateSize };
      });
      const c = { fed, heapMb: heapBytes / 1e6, ...s, ms: Date.now() - t0 };
      checkpoints.push(c);
      // Each checkpoint on stderr as it is taken (the table has them all at the end).
      process.stderr.write(`panel heap: ${JSON.stringify(c)}\n`);
      await snapshot(`panel-${fed}.heapsnapshot`);
    };
    await look(0);
    for (let i = 0; i < frames.length; ) {
      const next = Math.min(frames.length, i + CHUNK);
      await feed(sw, tabId, frames.slice(i, next));
      i = next;
      // Offered at `rate` at most (the log persists more slowly on a busy machine: then as fast as it does).
      const ahead = (i / rate) * 1000 - (Date.now() - t0);
      if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
      if (i % every === 0 || i === frames.length) await look(i);
    }
    // Growth once the log is at its caps: from the first checkpoint at which it had dropped frames. (Asking for a
    // whole cap's worth dropped left two checkpoints of a 400,000-frame run at the default caps, where the 128 MiB cap
    // holds ~170,000 frames: a slope of two points of the trims' sawtooth.)
    const turned = checkpoints.filter((c) => c.dropped > 0);
    const first = turned[0];
    const last = turned.at(-1);
    const kbPer1k = turned.length >= 2 ? slope(turned.map((c) => [c.fed / 1000, (c.heapMb * 1e6) / 1024])) : NaN;
    const cap = `${maxFrames.toLocaleString('en-US')} frames / ${(maxBytes / 1048576).toFixed(0)} MiB`;
    return {
      panelHeapKbPer1kFrames: Number(kbPer1k.toFixed(2)),
      rows: [
        [`panel heap: live, log capped at ${cap}: heap after GC at ${checkpoints.map((c) => (c.fed / 1000).toFixed(0) + 'k').join(' / ')} frames (MB)`, checkpoints.map((c) => c.heapMb.toFixed(1)).join(' / '), ''],
        ['panel heap: frames the panel holds / the log holds at the end', `${last?.panelFrames ?? '-'} / ${last?.logFrames ?? '-'}`, ''],
        [`panel heap: growth per 1,000 frames once the log is at its caps (slope, ${first ? (first.fed / 1000).toFixed(0) : '-'}k → ${last ? (last.fed / 1000).toFixed(0) : '-'}k, KB)`, kbPer1k.toFixed(2), 'flat (≈ 0)'],
      ],
    };
  } finally {
    server.close();
    await browser.close();
  }
}

// `tsx tests/bench/panel-heap.ts`: this benchmark alone.
if (process.argv[1] && resolve(process.argv[1]) === resolve('tests/bench/panel-heap.ts')) {
  const r = await benchPanelHeap();
  for (const row of r.rows) console.log(row.join('  '));
  const { rows: _rows, ...figures } = r;
  console.log(JSON.stringify(figures));
}
