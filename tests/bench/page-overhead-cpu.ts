// Where the page-overhead workload's CPU goes, per Chromium process: `npx tsx tests/bench/page-overhead-cpu.ts
// [<dist dir>…]` runs the workload (tests/bench/page-overhead.ts) without the extension and with each build (default
// dist/), three runs each (RUNS=n for more) after a warm-up, and prints the CPU time (user + system, from /proc/<pid>/stat) each process
// used per run, by process type, plus this node process (the workload's server). Linux only. CPU time is far steadier
// than wall time on a shared machine: a tool for judging a change, not part of `npm run bench`.
import { launchChromium } from '../../demo/launch-chromium.ts';
import { chromiumCpu } from './chromium-cpu.ts';
import { runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const RUNS = Number(process.env.RUNS || 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`page-overhead-cpu: RUNS must be a whole number of runs ≥ 1, not ${process.env.RUNS}`);

const builds = process.argv.slice(2);
const arms: Array<{ name: string; dir: string | null }> = [{ name: 'without extension', dir: null }, ...(builds.length ? builds : ['dist']).map((d) => ({ name: d, dir: d }))];
const { base, close } = await startWorkloadServer();
try {
  for (const arm of arms) {
    const browser = await launchChromium({ extensionDir: arm.dir });
    try {
      const page = await browser.context.newPage();
      await runWorkloadIn(page, base);
      const perType: Record<string, number> = {};
      let wall = 0;
      let node = 0;
      for (let r = 0; r < RUNS; r++) {
        const before = chromiumCpu();
        const nodeBefore = process.cpuUsage();
        wall += await runWorkloadIn(page, base);
        const used = process.cpuUsage(nodeBefore);
        node += (used.user + used.system) / 1000;
        for (const [pid, p] of chromiumCpu()) {
          const d = p.ms - (before.get(pid)?.ms ?? 0);
          perType[p.type] = (perType[p.type] ?? 0) + d;
        }
      }
      const total = Object.values(perType).reduce((a, b) => a + b, 0);
      console.log(`${arm.name}: workload ${(wall / RUNS).toFixed(0)} ms per run; Chromium CPU ${(total / RUNS).toFixed(0)} ms, this node process ${(node / RUNS).toFixed(0)} ms`);
      for (const [type, ms] of Object.entries(perType).sort((a, b) => b[1] - a[1])) {
        if (ms / RUNS >= 5) console.log(`  ${(ms / RUNS).toFixed(0).padStart(6)} ms  ${type}`);
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  close();
}
