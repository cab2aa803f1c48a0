// Export of a big imported trace, measured in Chromium with the built extension (BENCH_DIST or dist/): a synthetic
// trace (the engine benchmark's: both generations, 500 URIs, 20 reconnects) of EXPORT_BENCH_FRAMES frames (default
// 200,000) is imported into panel.html, then Export ▾ → Trace and → HAR are each run: from the menu click to the
// download, and the longest gap between animation frames meanwhile (the panel frozen). The reviewer's measurement
// (review-c item 2, 2026-12-06): 200k HAR 6.8 s with a 5.3 s frozen frame, trace 2.5 s with 1.4 s.
// `npx vite build && npx tsx tests/bench/export.ts` (EXPORT_BENCH_FRAMES=100000 for a smaller one).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from '../../demo/launch-chromium.ts';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { syntheticTrace } from './synthetic-trace.ts';

const N = Number(process.env.EXPORT_BENCH_FRAMES ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'export-bench-'));
const tracePath = join(dir, `t${N}.json`);
const { frames } = syntheticTrace(N, 500, 20);
writeFileSync(tracePath, serializeTrace(exportTrace({ frames, createdAt: frames.at(-1)!.t + 1000, pageUrl: 'http://localhost:8080/kb' })));
console.log(`trace: ${frames.length} frames, ${(statSync(tracePath).size / 1e6).toFixed(1)} MB`);
const browser = await launchChromium({ extensionDir: resolve(process.env.BENCH_DIST ?? 'dist') });
try {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 900 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.evaluate('globalThis.__name = (f) => f');
  await p.waitForSelector('.status-bar[data-status="offline"]');
  await p.setInputFiles('input[type="file"]', tracePath);
  await p.waitForSelector('.status-bar[data-status="imported"]', { timeout: 180_000 });
  await p.waitForFunction(() => document.querySelectorAll('[data-uri]').length > 5, null, { timeout: 60_000 });
  await p.waitForTimeout(1000);
  for (const kind of [/Trace/, /HAR/, /Trace/, /HAR/]) {
    await p.evaluate(() => {
      const w = window as any;
      w.__gaps = [];
      w.__notice = null;
      let last = performance.now();
      const f = () => {
        const n = performance.now();
        w.__gaps.push(n - last);
        last = n;
        w.__notice ??= document.querySelector('[data-exporting]') ? n : null;
        if (w.__gaps) w.__raf = requestAnimationFrame(f);
      };
      w.__t0 = performance.now();
      w.__raf = requestAnimationFrame(f);
    });
    const t0 = Date.now();
    await p.getByRole('button', { name: 'Export trace' }).click();
    const dl = p.waitForEvent('download', { timeout: 300_000 });
    await p.getByRole('menuitem', { name: kind }).click();
    const clickMs = Date.now() - t0;
    const d = await dl;
    const total = Date.now() - t0;
    const path = join(dir, `out-${d.suggestedFilename()}`);
    await d.saveAs(path);
    const g = await p.evaluate(() => {
      const w = window as any;
      cancelAnimationFrame(w.__raf);
     
      const gaps = w.__gaps as number[];
      const s = [...gaps].sort((a, b) => a - b);
      return { frames: gaps.length, p95: Math.round(s[Math.floor(s.length * 0.95)] ?? 0), max: Math.round(s.at(-1) ?? 0), noticeAfterMs: w.__notice === null ? null : Math.round(w.__notice - w.__t0) };
    });
    console.log(`export ${kind.source}: click returned ${clickMs} ms, download at ${total} ms, ${(statSync(path).size / 1e6).toFixed(1)} MB; longest frame gap ${g.max} ms, p95 ${g.p95} ms over ${g.frames} frames; notice ${g.noticeAfterMs === null ? 'not seen' : `at ${g.noticeAfterMs} ms`}`);
    rmSync(path);
    await p.waitForTimeout(1500);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
