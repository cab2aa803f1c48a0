// The live panel with a large server, measured in Chromium with the built extension (BENCH_DIST or dist/): a client
// holding 5,000 subscribed, cached URIs (scale-trace.ts: 40,000 frames of initialize, reads and subscribes, published
// to the panel first), then 200 notifications/s spread over the URIs, each re-read (1,000 frames/s), published by the
// background over the panel's real port as the panel benchmark's live part does (20 batches/s). Figures:
//  - p95 and longest frame of the panel while they stream (panel/perf.ts, as the panel benchmark's live p95);
//  - the engine snapshots the panel takes while they stream (every SNAPSHOT_MS), timed in the panel's page, and a tick's
//    snapshot after they stopped (a new `now`, no new frame: what the panel takes every TICK_MS on a quiet page);
//  - one keystroke in the URI table's filter (typing `doc-42` a letter at a time), from the input event to its paint.
// Several runs, medians reported; information rows (the budget, live p95 ≤ 16 ms, is the panel benchmark's, at 50 URIs).
// Alone: `npx tsx tests/bench/panel-scale.ts`; PANEL_BENCH_KINDS=1 prints p50/p95/max per kind of frame;
// PANEL_SCALE_PROFILE=<file> saves a CPU profile of the panel over the first live run (a build with `--minify false`
// names its functions).
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page, Worker } from 'playwright-core';
import { launchChromium } from '../../demo/launch-chromium.ts';
import type { Frame, PageFrame } from '../../shared/frames.ts';
import { bundleClient } from '../support/bundle.ts';
import { tabIdOf } from '../support/extension.ts';
import { liveServer } from './panel.ts';
import { scaleTrace } from './scale-trace.ts';

const URIS = 5000;
const NOTIFICATIONS_PER_S = 200;
const LIVE_SECONDS = 8;
const LIVE_RUNS = 3;
const BATCHES_PER_S = 20;
const SNAPSHOT_RUNS = 9;
const FILTER_TEXT = 'doc-42';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const unstamped = (frames: readonly Frame[]): PageFrame[] => frames.map(({ seq: _s, frameId: _f, segment: _g, ...f }) => f as PageFrame);

/**
 * Publishes `frames` to the tab's panels as the log would after its writes, stamped with the seqs after the log's last
 * (and those published before), at `perS` frames a second in BATCHES_PER_S batches (Infinity: in batches of 5,000, at
 * once). Resolves with how long it took, in ms.
 */
function publish(sw: Worker, tabId: number, frames: PageFrame[], perS: number): Promise<number> {
  return sw.evaluate(
    ([tab, fs, rate, batches]) =>
      new Promise<number>((done) => {
        const g = globalThis as any;
        const stats = g.mcpDevtools.tabs.get(tab).stats();
        // Seqs continue from what this benchmark published before (the log never saw them: its stats are not moved).
        const pub = (g.__scaleBench ??= { published: 0, seq0: stats.lastSeq + 1, frames0: stats.frames });
        const segment = Math.max(1, stats.segment);
        const started = Date.now();
        let i = 0;
        const send = (due: number): void => {
          const now = Date.now();
          const n = due - i;
          const part = fs.slice(i, due).map((f: any, k: number) => ({ ...f, t: now - (n - k) * (rate === Infinity ? 0.01 : 1000 / rate), seq: pub.seq0 + pub.published + k, frameId: 0, segment }));
          i = due;
          pub.published += n;
          g.mcpDevtools.panels.publish(tab, part, { ...stats, frames: pub.frames0 + pub.published, lastSeq: pub.seq0 + pub.published - 1 });
        };
        if (rate === Infinity) {
          while (i < fs.length) send(Math.min(fs.length, i + 5000));
          return done(Date.now() - started);
        }
        const everyMs = 1000 / batches;
        const timer = setInterval(() => {
          // As many frames as are due by now (timers drift under load; the rate must not).
          const due = Math.min(fs.length, Math.floor(((Date.now() - started) / 1000) * rate));
          if (due > i) send(due);
          if (i >= fs.length) {
            clearInterval(timer);
            done(Date.now() - started);
          }
        }, everyMs);
      }),
    [tabId, frames, perS, BATCHES_PER_S] as const,
  );
}

/** Waits until the panel applied every frame it received and shows at least `uris` URIs. */
async function settled(panel: Page, uris: number): Promise<void> {
  await panel.waitForFunction(
    (n) => {
      const s = (globalThis as any).mcpPanel;
      return s.waiting.value === 0 && (s.snapshot.value?.uris.length ?? 0) >= n;
    },
    uris,
    { timeout: 120_000 },
  );
  await panel.waitForTimeout(500);
}

/** One keystroke per letter of FILTER_TEXT, each from its input event to the first paint after it (ms). */
async function filterKeystrokes(panel: Page): Promise<number[]> {
  const out: number[] = [];
  for (let k = 1; k <= FILTER_TEXT.length; k++) {
    out.push(
      await panel.evaluate(
        (text) =>
          new Promise<number>((done) => {
            const input = document.querySelector<HTMLInputElement>('input[aria-label="Filter"]')!;
            const t0 = performance.now();
            input.value = text;
            input.dispatchEvent(new Event('input', { bubbles: true }));
            requestAnimationFrame(() => {
              const ch = new MessageChannel();
              ch.port1.onmessage = () => {
                ch.port1.close();
                done(performance.now() - t0);
              };
              ch.port2.postMessage(0);
            });
          }),
        FILTER_TEXT.slice(0, k),
      ),
    );
    await panel.waitForTimeout(100);
  }
  const shown = Number(await panel.getAttribute('.uri-table', 'data-rows'));
  if (!(shown > 0 && shown < URIS)) throw new Error(`the filter ${FILTER_TEXT} shows ${shown} rows`);
  // Cleared again, as it was.
  await panel.evaluate(() => ((globalThis as any).mcpPanel.filterText.value = ''));
  return out;
}

export async function benchPanelScale(): Promise<{
  panelScaleLiveP95FrameMs: number;
  panelScaleLiveMaxFrameMs: number;
  panelScaleSnapshotMs: number;
  panelScaleSnapshotP95Ms: number;
  panelScaleTickSnapshotMs: number;
  panelScaleFilterKeyMs: number;
  rows: string[][];
}> {
  const extensionDir = resolve(process.env.BENCH_DIST ?? 'dist');
  const { setup, live } = scaleTrace(URIS, NOTIFICATIONS_PER_S, LIVE_RUNS * LIVE_SECONDS);
  const browser = await launchChromium({ extensionDir });
  const server = liveServer(await bundleClient('tests/bench/panel-live-client.ts'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await browser.context.newPage();
    await page.goto(base + '/');
    // A little traffic first: a page is logged (and its tab found) once it speaks MCP.
    await page.evaluate((b) => (window as any).startLive(b, 2, 1, 1), base);
    const tabId = await tabIdOf(browser, page);
    const panel = await browser.context.newPage();
    await panel.setViewportSize({ width: 1400, height: 820 });
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=${tabId}&perf=1`);
    await panel.waitForSelector('.status-bar[data-status="live"]');
    const sw = await browser.serviceWorker();
    // tsx names the functions below with a helper the worker and the page do not have.
    await sw.evaluate('globalThis.__name = (f) => f');
    await panel.evaluate('globalThis.__name = (f) => f');

    await publish(sw, tabId, unstamped(setup), Infinity);
    await settled(panel, URIS);

    const p95s: number[] = [];
    const maxes: number[] = [];
    const rates: number[] = [];
    const counts: number[] = [];
    const liveSnapshots: number[] = [];
    const perRun = LIVE_SECONDS * NOTIFICATIONS_PER_S * 5;
    // PANEL_SCALE_PROFILE: a CPU profile of the panel over the first live run.
    const cdp = process.env.PANEL_SCALE_PROFILE ? await browser.context.newCDPSession(panel) : undefined;
    for (let run = 0; run < LIVE_RUNS; run++) {
      if (cdp && run === 0) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const before = await panel.evaluate(() => {
        // Every engine snapshot the panel takes while live, timed (the engine's prototype, wrapped for the run).
        const proto = Object.getPrototypeOf((globalThis as any).mcpPanel.engine);
        const g = globalThis as any;
        g.__snapshotMs = [];
        g.__snapshot ??= proto.snapshot;
        proto.snapshot = function (now: number) {
          const t = performance.now();
          const s = g.__snapshot.call(this, now);
          g.__snapshotMs.push(performance.now() - t);
          return s;
        };
        (globalThis as any).mcpPanel.probe.enable();
        return (globalThis as any).mcpPanel.frames.length as number;
      });
      const ms = await publish(sw, tabId, unstamped(live.slice(run * perRun, (run + 1) * perRun)), NOTIFICATIONS_PER_S * 5);
      await panel.waitForTimeout(500);
      if (cdp && run === 0) writeFileSync(process.env.PANEL_SCALE_PROFILE!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
      const { samples, kinds, after, snaps } = await panel.evaluate(() => ({
        snaps: (globalThis as any).__snapshotMs.slice() as number[],
        samples: (globalThis as any).mcpPanel.probe.frames.slice() as number[],
        kinds: (globalThis as any).mcpPanel.probe.kinds.slice() as string[],
        after: (globalThis as any).mcpPanel.frames.length as number,
      }));
      if (samples.length < 20) throw new Error(`too few panel frames recorded (${samples.length})`);
      if (process.env.PANEL_BENCH_KINDS) {
        const by = new Map<string, number[]>();
        samples.forEach((v, i) => (by.get(kinds[i]!) ?? by.set(kinds[i]!, []).get(kinds[i]!)!).push(v));
        process.stderr.write([...by].map(([k, v]) => `${k}: n=${v.length} p50=${percentile(v, 50).toFixed(1)} p95=${percentile(v, 95).toFixed(1)} max=${Math.max(...v).toFixed(1)}`).join('\n') + '\n');
      }
      liveSnapshots.push(...snaps);
      p95s.push(percentile(samples, 95));
      maxes.push(Math.max(...samples));
      rates.push((after - before) / (ms / 1000));
      counts.push(samples.length);
    }
    await panel.evaluate(() => {
      const g = globalThis as any;
      Object.getPrototypeOf(g.mcpPanel.engine).snapshot = g.__snapshot;
    });
    await settled(panel, URIS);

    // A tick's snapshot (no new frame since the last one; ages move on), at a new `now` each time (the cache is per now).
    const snapshots = await panel.evaluate((n) => {
      const engine = (globalThis as any).mcpPanel.engine;
      const out: number[] = [];
      const at = Date.now();
      for (let k = 0; k < n; k++) {
        const t = performance.now();
        engine.snapshot(at + k);
        out.push(performance.now() - t);
      }
      return out;
    }, SNAPSHOT_RUNS);
    const keys = await filterKeystrokes(panel);

    const p95 = median(p95s);
    const longest = median(maxes);
    const snapshot = median(snapshots);
    const liveSnapshot = median(liveSnapshots);
    const liveSnapshotP95 = percentile(liveSnapshots, 95);
    const key = median(keys);
    const n = URIS.toLocaleString('en-US');
    return {
      panelScaleLiveP95FrameMs: Number(p95.toFixed(1)),
      panelScaleLiveMaxFrameMs: Number(longest.toFixed(1)),
      panelScaleSnapshotMs: Number(liveSnapshot.toFixed(1)),
      panelScaleSnapshotP95Ms: Number(liveSnapshotP95.toFixed(1)),
      panelScaleTickSnapshotMs: Number(snapshot.toFixed(1)),
      panelScaleFilterKeyMs: Number(key.toFixed(1)),
      rows: [
        [`panel at ${n} subscribed URIs: live frames/s reaching the panel (median of ${LIVE_RUNS})`, median(rates).toFixed(0), '≈ 1000'],
        [`panel at ${n} URIs: p95 frame time while frames stream in live (median of ${LIVE_RUNS}, ms)`, p95.toFixed(1), '≤ 16 (info)'],
        [`panel at ${n} URIs: longest frame while live (median of ${LIVE_RUNS}, ms)`, longest.toFixed(1), '(info)'],
        [`panel at ${n} URIs: live p95 / longest per run (ms) / frames measured`, `${p95s.map((x) => x.toFixed(1)).join(' ')} / ${maxes.map((x) => x.toFixed(0)).join(' ')} / ${counts.join(' ')}`, ''],
        [`panel at ${n} URIs: an engine snapshot while live, median / p95 (of ${liveSnapshots.length}, ms)`, `${liveSnapshot.toFixed(1)} / ${liveSnapshotP95.toFixed(1)}`, '(info)'],
        [`panel at ${n} URIs: a tick's engine snapshot, no new frames (median of ${SNAPSHOT_RUNS}, ms)`, snapshot.toFixed(1), '(info)'],
        [`panel at ${n} URIs: a filter keystroke to its paint (median of ${keys.length}, ms)`, key.toFixed(1), '(info)'],
        [`panel at ${n} URIs: filter keystrokes (ms)`, keys.map((x) => x.toFixed(0)).join(' '), ''],
      ],
    };
  } finally {
    server.close();
    await browser.close();
  }
}

// `tsx tests/bench/panel-scale.ts`: this benchmark alone.
if (process.argv[1] && resolve(process.argv[1]) === resolve('tests/bench/panel-scale.ts')) {
  const r = await benchPanelScale();
  for (const row of r.rows) console.log(row.join('  '));
  const { rows: _rows, ...figures } = r;
  console.log(JSON.stringify(figures));
}
