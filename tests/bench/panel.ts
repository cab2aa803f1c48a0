// Panel benchmarks, measured in Chromium with the built extension (BENCH_DIST or dist/):
//  - first paint on an imported 100,000-frame trace (the engine benchmark's synthetic trace: both generations, 500
//    URIs, ~1 KB documents, 20 reconnects): from the file input's change to the first frame painted with the whole
//    trace analysed (table, flow chart, timeline). The panel measures it itself (panel/perf.ts). Budget < 1 s.
//  - p95 frame time while 1,000 frames/s stream in live. Frames of a synthetic trace (50 URIs: notifications, re-reads,
//    reconnects), re-timed to now and stamped, are published by the background to the panel over its real port at
//    exactly 1,000 frames/s (20 batches/s, as after the log's coalesced writes). The tab log's own write path is left
//    out on purpose: on this shared 2-core machine it persists ~800 frames/s, and the figure is about the panel. The
//    panel (a tab, Resources view) records, per animation frame in which it worked, the main-thread time from its
//    first callback in that frame to after the frame's paint, plus the port messages it handled since the previous
//    measured frame (panel/perf.ts). Budget ≤ 16 ms.
//    For reference, one run with a real page generating the traffic (tests/bench/panel-live-client.ts: 200
//    notifications/s, each re-read = 5 frames) through the hook, the relay and the log, sharing the 2 cores.
// Several runs each, medians reported: the machine is shared and noisy. Alone: `npx tsx tests/bench/panel.ts`;
// PANEL_BENCH_ONLY=live skips the import part (=import the live part); PANEL_BENCH_KINDS=1 prints p50/p95 per kind of frame.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from '../../demo/launch-chromium.ts';
import type { PageFrame } from '../../shared/frames.ts';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { bundleClient } from '../support/bundle.ts';
import { tabIdOf } from '../support/extension.ts';
import { syntheticTrace } from './synthetic-trace.ts';

const IMPORT_FRAMES = 100_000;
const IMPORT_RUNS = 5;
const LIVE_RUNS = 3;
const LIVE_SECONDS = 8;
const LIVE_FPS = 1000;
const BATCHES_PER_S = 20;
const LIVE_RATE = 200; // page run: notifications/s → 1,000 frames/s
const LIVE_URIS = 50;

/** PANEL_BENCH_ONLY=import: the live part is skipped. */
class SkipLive extends Error {}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export /** Page frames (unstamped) of a synthetic 50-URI trace, for feeding the background. */
function liveFrames(n: number): PageFrame[] {
  return syntheticTrace(n, LIVE_URIS, 4).frames.map(({ seq: _s, frameId: _f, segment: _g, ...f }) => ({ ...f, doc: 'bench-live-doc' }) as PageFrame);
}

export function liveServer(clientJs: string) {
  let version = 0;
  const doc = (uri: string) => `# ${uri}\n\nRevision ${++version}. ` + 'Knowledge base text. '.repeat(10);
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>panel bench</title><script src="/client.js"></script>');
    if (url.pathname === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(clientJs);
    if (url.pathname !== '/mcp') return void res.writeHead(404).end();
    if (req.method === 'GET') {
      const rate = Number(url.searchParams.get('rate'));
      const seconds = Number(url.searchParams.get('seconds'));
      const uris = Number(url.searchParams.get('uris'));
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'mcp-session-id': 'bench-session' });
      const total = rate * seconds;
      const startedAt = Date.now();
      let sent = 0;
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((Date.now() - startedAt) / 1000) * rate));
        let chunk = '';
        for (; sent < due; sent++) {
          chunk += `event: message\nid: ${sent}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: `file:///docs/doc-${sent % uris}.md` } })}\n\n`;
        }
        if (chunk) res.write(chunk);
        if (sent >= total) {
          clearInterval(timer);
          res.end();
        }
      }, 10);
      req.on('close', () => clearInterval(timer));
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const m = JSON.parse(body) as { id?: number; method: string; params?: { uri?: string } };
      const h = { 'content-type': 'application/json', 'mcp-session-id': 'bench-session' };
      if (m.id === undefined) return void res.writeHead(202, h).end();
      let result: unknown = {};
      if (m.method === 'initialize') result = { protocolVersion: '2025-11-25', capabilities: { resources: { subscribe: true } }, serverInfo: { name: 'bench', version: '1' } };
      else if (m.method === 'resources/read') result = { contents: [{ uri: m.params?.uri, mimeType: 'text/markdown', text: doc(m.params?.uri ?? '') }] };
      res.writeHead(200, h).end(JSON.stringify({ result, jsonrpc: '2.0', id: m.id }));
    });
  });
}

/**
 * The scrubber on the imported trace: the first stop at the last message, then SCRUB_STEPS steps back one message
 * each (the slider's input event, as the arrow keys and a drag give it), each timed from the event to the first
 * animation frame after the replayed state was set.
 */
const SCRUB_STEPS = 6;
async function measureScrub(p: import('playwright-core').Page): Promise<{ first: number; back: number[] }> {
  const slider = 'input[aria-label="Replay up to"]';
  await p.waitForSelector(slider);
  // tsx names the arrow functions below with a helper the page does not have.
  await p.evaluate('globalThis.__name = (f) => f');
  const step = (delta: number | null) =>
    p.evaluate(
      ([sel, d]) =>
        new Promise<number>((done) => {
          const store = (globalThis as any).mcpPanel;
          const input = document.querySelector<HTMLInputElement>(sel as string)!;
          const before = store.scrubT.value;
          const t0 = performance.now();
          // The last stop is max − 1 (max is "the end").
          input.value = String(d === null ? Number(input.max) - 1 : Number(input.value) + (d as number));
          input.dispatchEvent(new Event('input', { bubbles: true }));
          const wait = () => (store.scrubT.value !== before ? requestAnimationFrame(() => done(performance.now() - t0)) : requestAnimationFrame(wait));
          requestAnimationFrame(wait);
        }),
      [slider, delta] as const,
    );
  const first = await step(null);
  const back: number[] = [];
  for (let i = 0; i < SCRUB_STEPS; i++) {
    back.push(await step(-1));
    await p.waitForTimeout(50);
  }
  return { first, back };
}

export async function benchPanel(): Promise<{ panelFirstPaintMs: number; panelLiveP95FrameMs: number; panelScrubBackMs: number; rows: string[][] }> {
  const extensionDir = resolve(process.env.BENCH_DIST ?? 'dist');
  const work = mkdtempSync(join(tmpdir(), 'panel-bench-'));
  const browser = await launchChromium({ extensionDir });
  const panelUrl = `chrome-extension://${browser.extensionId}/panel.html`;
  try {
    // ---- first paint of an imported trace ----
    const { frames } = syntheticTrace(IMPORT_FRAMES, 500, 20);
    const tracePath = join(work, 'trace-100k.json');
    const text = serializeTrace(exportTrace({ frames, createdAt: frames.at(-1)!.t + 1000, pageUrl: 'http://localhost:8080/kb' }));
    writeFileSync(tracePath, text);
    const paints: number[] = [];
    const phases: Record<string, number[]> = {};
    let shownRows = 0;
    let scrub = { first: NaN, back: [] as number[] };
    // PANEL_BENCH_ONLY=live skips the import part (for quick iterations on the live figure).
    for (let run = 0; run < (process.env.PANEL_BENCH_ONLY === 'live' ? 0 : IMPORT_RUNS); run++) {
      const p = await browser.context.newPage();
      await p.setViewportSize({ width: 1400, height: 820 });
      await p.goto(`${panelUrl}?perf=1`);
      await p.waitForSelector('.status-bar[data-status="offline"]');
      await p.setInputFiles('input[type="file"]', tracePath);
      await p.waitForFunction(() => (globalThis as any).mcpPanel.probe.importPaintMs !== undefined, null, { timeout: 120_000 });
      const m = await p.evaluate(() => ({ ms: (globalThis as any).mcpPanel.probe.importPaintMs as number, phases: (globalThis as any).mcpPanel.probe.importPhases as Record<string, number> }));
      paints.push(m.ms);
      for (const [k, v] of Object.entries(m.phases)) (phases[k] ??= []).push(v);
      shownRows = (await p.$$('.uri-row[data-uri]')).length;
      const status = await p.getAttribute('.status-bar', 'data-status');
      if (status !== 'imported' || shownRows === 0) throw new Error(`import did not show the trace (status ${status}, ${shownRows} rows)`);
      if (run === 0) scrub = await measureScrub(p);
      await p.close();
    }

    // ---- live ingest at 1,000 frames/s ----
    const server = liveServer(await bundleClient('tests/bench/panel-live-client.ts'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const p95s: number[] = [];
    const rates: number[] = [];
    const counts: number[] = [];
    let pageP95 = NaN;
    let pageRate = NaN;
    try {
      if (process.env.PANEL_BENCH_ONLY === 'import') throw new SkipLive();
      const page = await browser.context.newPage();
      await page.goto(base + '/');
      // A little traffic first: a page is logged (and its tab found) once it speaks MCP.
      await page.evaluate((b) => (window as any).startLive(b, 2, 1, 1), base);
      const tabId = await tabIdOf(browser, page);
      const panel = await browser.context.newPage();
      await panel.setViewportSize({ width: 1400, height: 820 });
      await panel.goto(`${panelUrl}?tab=${tabId}&perf=1`);
      await panel.waitForSelector('.status-bar[data-status="live"]');
      /** `drive` resolves with how long the traffic flowed, in ms (or undefined: measured here). */
      const measure = async (drive: () => Promise<number | void>): Promise<{ p95: number; rate: number; n: number }> => {
        const before = await panel.evaluate(() => {
          (globalThis as any).mcpPanel.probe.enable();
          return (globalThis as any).mcpPanel.frames.length as number;
        });
        const t0 = Date.now();
        const flowed = await drive();
        const seconds = (typeof flowed === 'number' ? flowed : Date.now() - t0) / 1000;
        // Let the last batches reach the panel.
        await panel.waitForTimeout(500);
        const { samples, kinds, after } = await panel.evaluate(() => ({
          samples: (globalThis as any).mcpPanel.probe.frames.slice() as number[],
          kinds: (globalThis as any).mcpPanel.probe.kinds.slice() as string[],
          after: (globalThis as any).mcpPanel.frames.length as number,
        }));
        if (process.env.PANEL_BENCH_KINDS) {
          const by = new Map<string, number[]>();
          samples.forEach((v, i) => (by.get(kinds[i]!) ?? by.set(kinds[i]!, []).get(kinds[i]!)!).push(v));
          process.stderr.write([...by].map(([k, v]) => `${k}: n=${v.length} p50=${percentile(v, 50).toFixed(1)} p95=${percentile(v, 95).toFixed(1)}`).join('\n') + '\n');
        }
        if (samples.length < 20) throw new Error(`too few panel frames recorded (${samples.length})`);
        return { p95: percentile(samples, 95), rate: (after - before) / seconds, n: samples.length };
      };

      // For reference: a real page generating the traffic through the hook and the relay.
      const pr = await measure(async () => {
        const r = (await page.evaluate(([b, u, rate, sec]) => (window as any).startLive(b, u, rate, sec), [base, LIVE_URIS, LIVE_RATE, LIVE_SECONDS] as const)) as { notifications: number; reads: number };
        if (r.notifications !== LIVE_RATE * LIVE_SECONDS || r.reads !== r.notifications) throw new Error(`live workload incomplete: ${JSON.stringify(r)}`);
      });
      pageP95 = pr.p95;
      pageRate = pr.rate;

      // Published by the background at exactly 1,000 frames/s.
      const live = liveFrames(LIVE_RUNS * LIVE_SECONDS * LIVE_FPS + 1000);
      const sw = await browser.serviceWorker();
      for (let run = 0; run < LIVE_RUNS; run++) {
        const chunk = live.slice(run * LIVE_SECONDS * LIVE_FPS, (run + 1) * LIVE_SECONDS * LIVE_FPS);
        const r = await measure(() =>
          sw.evaluate(
            ([tab, frames, perBatch, everyMs, runIndex]) =>
              new Promise<number>((done) => {
                const g = globalThis as any;
                const stats = g.mcpDevtools.tabs.get(tab).stats();
                const seq0 = stats.lastSeq + 1 + runIndex * 1_000_000;
                const segment = Math.max(1, stats.segment);
                let i = 0;
                const started = Date.now();
                // As many frames as are due by now (timers drift under load; the rate must not).
                const timer = setInterval(() => {
                  const now = Date.now();
                  const due = Math.min(frames.length, Math.floor(((now - started) / everyMs) * perBatch));
                  if (due <= i) return;
                  // Stamped as the log would (seq, frame, segment), published to the tab's panels as after a write.
                  const part = frames.slice(i, due).map((f: any, k: number) => ({ ...f, t: now - (due - i - k) * (everyMs / perBatch), seq: seq0 + i + k, frameId: 0, segment }));
                  i = due;
                  g.mcpDevtools.panels.publish(tab, part, { ...stats, frames: stats.frames + i, lastSeq: seq0 + i - 1 });
                  if (i >= frames.length) {
                    clearInterval(timer);
                    done(Date.now() - started);
                  }
                }, everyMs);
              }),
            [tabId, chunk, LIVE_FPS / BATCHES_PER_S, 1000 / BATCHES_PER_S, run] as const,
          ),
        );
        p95s.push(r.p95);
        rates.push(r.rate);
        counts.push(r.n);
      }
    } catch (e) {
      if (!(e instanceof SkipLive)) throw e;
    } finally {
      server.close();
    }

    const firstPaint = paints.length ? median(paints) : NaN;
    const p95 = p95s.length ? median(p95s) : NaN;
    const rate = rates.length ? median(rates) : NaN;
    return {
      panelFirstPaintMs: Number(firstPaint.toFixed(0)),
      panelLiveP95FrameMs: Number(p95.toFixed(1)),
      panelScrubBackMs: Number((scrub.back.length ? median(scrub.back) : NaN).toFixed(0)),
      rows: [
        [`panel: first paint of an imported ${IMPORT_FRAMES.toLocaleString('en-US')}-frame trace (median of ${IMPORT_RUNS}, ms)`, firstPaint.toFixed(0), '< 1000'],
        ['panel: import runs (ms)', paints.map((x) => x.toFixed(0)).join(' '), ''],
        ['panel: import phases (median ms)', Object.entries(phases).map(([k, v]) => `${k} ${median(v).toFixed(0)}`).join(', '), ''],
        ['panel: scrubber on the imported trace: first stop at the end, then a step back (median ms)', `${scrub.first.toFixed(0)}, ${(scrub.back.length ? median(scrub.back) : NaN).toFixed(0)}`, '(info)'],
        ['panel: scrubber steps back (ms)', scrub.back.map((x) => x.toFixed(0)).join(' '), ''],
        [`panel: live frames/s reaching the panel (median of ${LIVE_RUNS})`, rate.toFixed(0), '≈ 1000'],
        [`panel: p95 frame time while frames stream in live (median of ${LIVE_RUNS}, ms)`, p95.toFixed(1), '≤ 16'],
        ['panel: live p95 per run (ms) / frames measured', `${p95s.map((x) => x.toFixed(1)).join(' ')} / ${counts.join(' ')}`, ''],
        ['panel: same, traffic from a real page on the same cores (p95 ms, frames/s)', `${pageP95.toFixed(1)} @ ${pageRate.toFixed(0)}/s`, ''],
      ],
    };
  } finally {
    await browser.close();
    rmSync(work, { recursive: true, force: true });
  }
}

// `tsx tests/bench/panel.ts`: this benchmark alone.
if (process.argv[1] && resolve(process.argv[1]) === resolve('tests/bench/panel.ts')) {
  const r = await benchPanel();
  for (const row of r.rows) console.log(row.join('  '));
  const { rows: _rows, ...figures } = r;
  console.log(JSON.stringify(figures));
}
