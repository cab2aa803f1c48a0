// Where the page-overhead workload's renderer main-thread time goes: `npx tsx tests/bench/page-overhead-profile.ts
// [<dist dir>]` runs the workload (tests/bench/page-overhead.ts) with the extension under the V8 sampling profiler
// (100 µs) over CDP and prints self time by script URL and the top functions of ours (chrome-extension:// scripts:
// the MAIN-world hook and the isolated-world relay share the page's renderer thread). `none` profiles the page without
// the extension. Build unminified (`npx vite build --minify false --outDir /tmp/prof`) for readable function names. The
// profiler inflates JS-heavy code (per-call sampling cost): a map of where to look, not a measure of the page overhead
// (judge a change with page-overhead-ab.ts).
import { launchChromium } from '../../demo/launch-chromium.ts';
import { selfTimes, type CpuProfile, type ProfileNode } from './cpu-profile.ts';
import { NOTIFICATIONS, POSTS, runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const dir = process.argv[2] ?? 'dist';
const RUNS = Number(process.env.RUNS ?? 3);
const { base, close } = await startWorkloadServer();
const browser = await launchChromium({ extensionDir: dir === 'none' ? null : dir });
try {
  const page = await browser.context.newPage();
  await runWorkloadIn(page, base);
  await runWorkloadIn(page, base);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  // One document for all runs (a navigation would restart the profile), the workload called RUNS times in it.
  await page.goto(base + '/');
  let wall = 0;
  for (let r = 0; r < RUNS; r++) {
    const res = (await page.evaluate(([b]) => (window as any).runWorkload(b, 5000, 500), [base] as const)) as { ms: number; seen: number; ok: number };
    if (res.seen !== NOTIFICATIONS || res.ok !== POSTS) throw new Error(`workload incomplete: ${JSON.stringify(res)}`);
    wall += res.ms;
  }
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const nodes = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const selfUs = selfTimes(profile);
  const total = profile.endTime - profile.startTime;
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = nodes.get(id)!;
    const url = n.callFrame.url || `(${n.callFrame.functionName || 'native'})`;
    const short = url.replace(/^chrome-extension:\/\/[a-z]+\//, 'ext:/').replace(/^http:\/\/127\.0\.0\.1:\d+/, 'page:');
    byUrl.set(short, (byUrl.get(short) ?? 0) + us);
    if (url.startsWith('chrome-extension://')) {
      const key = `${n.callFrame.functionName || '(anon)'}\t${short}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
      byFn.set(key, (byFn.get(key) ?? 0) + us);
    }
  }
  const fmt = (us: number) => `${(us / 1000 / RUNS).toFixed(1).padStart(7)} ms/run ${((us / total) * 100).toFixed(1).padStart(5)} %`;
  console.log(`workload ${(wall / RUNS).toFixed(0)} ms/run; profile ${(total / 1000 / RUNS).toFixed(0)} ms/run`);
  console.log('-- self time by script');
  for (const [u, us] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${fmt(us)}  ${u}`);
  const ours = [...byUrl].filter(([u]) => u.startsWith('ext:')).reduce((a, [, us]) => a + us, 0);
  console.log(`ours total: ${fmt(ours)}`);
  console.log('-- our functions by self time');
  for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${fmt(us)}  ${k}`);
} finally {
  await browser.close();
  close();
}
