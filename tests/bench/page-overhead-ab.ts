// Compare builds of the extension on the page-overhead workload, in one run: `npx tsx tests/bench/page-overhead-ab.ts
// <dist dir> [<dist dir>…]` launches one Chromium without the extension and one per build, interleaves the workload
// round by round (ROUNDS, default 12; the order flips every round) and prints, per build, the median time, the median
// of its per-round ratios to the baseline, and the ratio of medians. Not part of `npm run bench`: a tool for trying a
// change (build it with `npx vite build --outDir /tmp/variant`). On this shared 2-core VM the same build moves by
// ±0.07 between runs: repeat before believing a difference.
import { launchChromium, type LaunchedChromium } from '../../demo/launch-chromium.ts';
import { median, runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: npx tsx tests/bench/page-overhead-ab.ts <dist dir> [<dist dir>…]');
  process.exit(2);
}
const ROUNDS = Number(process.env.ROUNDS ?? 12);

const { base, close } = await startWorkloadServer();
const arms: { name: string; browser: LaunchedChromium }[] = [{ name: 'without extension', browser: await launchChromium({ extensionDir: null }) }];
for (const d of dirs) arms.push({ name: d, browser: await launchChromium({ extensionDir: d }) });
try {
  const pages = await Promise.all(arms.map((a) => a.browser.context.newPage()));
  for (const p of pages) await runWorkloadIn(p, base); // warm-up
  const times: number[][] = arms.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = arms.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) times[i]!.push(await runWorkloadIn(pages[i]!, base));
  }
  for (let i = 0; i < arms.length; i++) {
    const ratios = times[i]!.map((t, k) => t / times[0]![k]!);
    console.log(`${arms[i]!.name.padEnd(28)} median ${median(times[i]!).toFixed(0)} ms  paired ratio ${median(ratios).toFixed(3)}  ratio of medians ${(median(times[i]!) / median(times[0]!)).toFixed(3)}`);
  }
} finally {
  for (const a of arms) await a.browser.close();
  close();
}
