// CPU time of the page-overhead workload, interleaved across builds: `npx tsx tests/bench/page-overhead-main-cpu.ts
// none <dist dir> [<dist dir>…]` (`none`: Chromium without the extension) launches one Chromium per arm and runs the
// workload (tests/bench/page-overhead.ts) ROUNDS times in each (default 6, the order flipped every round, after a
// warm-up), and prints per arm the CPU time of the page renderer's main thread per run (/proc/<pid>/task/<pid>/stat:
// the thread the hook shares with the page) and the median CPU per Chromium process type (the worker is
// `renderer (extension)`). Linux only. Unlike page-overhead-cpu.ts the arms are interleaved, so a busy moment on the shared
// VM hits them alike; CPU time is not stretched by waiting, so it separates builds that wall time cannot
// (2026-12-05: without the extension 420–480 ms, full hook 540–770 ms, in each run the same order). A tool for judging a
// change, not part of `npm run bench`; judge the page overhead itself with page-overhead-ab.ts.
import { launchChromium, type LaunchedChromium } from '../../demo/launch-chromium.ts';
import { chromiumCpu, CLOCK_MS } from './chromium-cpu.ts';
import { median, runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

interface Sample {
  /** Main thread of each page renderer (not the extension's). */
  mains: Map<number, number>;
  /** Every Chromium process by pid, with its type. */
  procs: Map<number, { type: string; ms: number }>;
}

function sample(): Sample {
  const procs = chromiumCpu();
  const mains = new Map<number, number>();
  for (const [pid, p] of procs) if (p.type === 'renderer') mains.set(pid, p.mainMs);
  return { mains, procs };
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: npx tsx tests/bench/page-overhead-main-cpu.ts none <dist dir> [<dist dir>…]');
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 6);

const { base, close } = await startWorkloadServer();
const arms: Array<{ name: string; browser: LaunchedChromium }> = [];
try {
  for (const d of dirs) arms.push({ name: d, browser: await launchChromium({ extensionDir: d === 'none' ? null : d }) });
  const pages = await Promise.all(arms.map((a) => a.browser.context.newPage()));
  for (const p of pages) await runWorkloadIn(p, base); // warm-up
  const main: number[][] = arms.map(() => []);
  const wall: number[][] = arms.map(() => []);
  const byType: Array<Record<string, number[]>> = arms.map(() => ({}));
  for (let r = 0; r < ROUNDS; r++) {
    const order = arms.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) {
      const before = sample();
      wall[i]!.push(await runWorkloadIn(pages[i]!, base));
      const after = sample();
      // The page's renderer is the one whose main thread ran (the other arms' Chromiums were idle meanwhile).
      let ms = 0;
      for (const [pid, t] of after.mains) ms = Math.max(ms, t - (before.mains.get(pid) ?? 0));
      main[i]!.push(ms);
      const types: Record<string, number> = {};
      for (const [pid, p] of after.procs) types[p.type] = (types[p.type] ?? 0) + p.ms - (before.procs.get(pid)?.ms ?? 0);
      for (const [type, t] of Object.entries(types)) (byType[i]![type] ??= []).push(t);
    }
  }
  for (let i = 0; i < arms.length; i++) {
    const types = Object.entries(byType[i]!)
      .map(([type, xs]) => [type, median(xs)] as const)
      .filter(([, m]) => m >= CLOCK_MS)
      .sort((a, b) => b[1] - a[1]);
    console.log(`${arms[i]!.name.padEnd(28)} page main thread ${median(main[i]!)} ms/run [${main[i]!.join(' ')}]  wall ${median(wall[i]!).toFixed(0)} ms`);
    console.log(`${''.padEnd(28)} by process: ${types.map(([type, m]) => `${type} ${m}`).join(', ')}`);
  }
} finally {
  for (const a of arms) await a.browser.close();
  close();
}
