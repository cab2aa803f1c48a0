// Where the extension's service worker spends its CPU during the page-overhead workload: `npx tsx
// tests/bench/worker-profile.ts [<dist dir>]` runs the workload (tests/bench/page-overhead.ts) RUNS times (default 3)
// with the worker under the V8 sampling profiler (100 µs), attached over its own DevTools connection
// (tests/support/cdp-session.ts: playwright cannot open a session on a worker), and prints the worker's self time by
// function and by script, and its inclusive time for our own functions. The profile runs until the worker has gone quiet after the last run (its writes are paced: up to
// ≈ 1.5 s behind the page). Build unminified (`npx vite build --minify false --outDir /tmp/prof`) for readable names.
// A map of where to look; judge a change with page-overhead-cpu.ts (CPU per process) and page-overhead-ab.ts.
import { launchChromium } from '../../demo/launch-chromium.ts';
import { debuggingPort, listTargets } from '../support/cdp.ts';
import { CdpSession } from '../support/cdp-session.ts';
import { selfTimes, type CpuProfile, type ProfileNode } from './cpu-profile.ts';
import { runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const dir = process.argv[2] ?? 'dist';
const RUNS = Number(process.env.RUNS || 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`worker-profile: RUNS must be a whole number of runs ≥ 1, not ${process.env.RUNS}`);
const { base, close } = await startWorkloadServer();
const launched = await launchChromium({ extensionDir: dir, args: ['--remote-debugging-port=0'] });
let cdp: CdpSession | undefined;
try {
  const page = await launched.context.newPage();
  await runWorkloadIn(page, base);
  const sw = (await listTargets(debuggingPort(launched.userDataDir))).find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${launched.extensionId}/`));
  if (!sw) throw new Error('worker-profile: the extension service worker is not among the debugging targets');
  cdp = await CdpSession.open(sw);
  const send = cdp.send.bind(cdp);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 100 });
  await new Promise((r) => setTimeout(r, 2000));
  await send('Profiler.start');
  let wall = 0;
  for (let r = 0; r < RUNS; r++) wall += await runWorkloadIn(page, base);
  await new Promise((r) => setTimeout(r, 3000));
  const { profile } = await send<{ profile: CpuProfile }>('Profiler.stop');
  const nodes = new Map<number, ProfileNode>(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of nodes.values()) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = selfTimes(profile);
  const short = (url: string) => url.replace(/^chrome-extension:\/\/[a-z]+\//, '');
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'}  ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const byUrl = new Map<string, number>();
  const bySelf = new Map<string, number>();
  const byTotal = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const n = nodes.get(id)!;
    if (n.callFrame.functionName === '(idle)') continue;
    busy += us;
    const u = short(n.callFrame.url) || `(${n.callFrame.functionName || 'native'})`;
    byUrl.set(u, (byUrl.get(u) ?? 0) + us);
    bySelf.set(key(n), (bySelf.get(key(n)) ?? 0) + us);
    // Inclusive: every distinct function on the stack once.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = key(nodes.get(cur)!);
      if (seen.has(k)) continue;
      seen.add(k);
      byTotal.set(k, (byTotal.get(k) ?? 0) + us);
    }
  }
  const fmt = (us: number) => `${(us / 1000 / RUNS).toFixed(1).padStart(7)} ms/run`;
  console.log(`workload ${(wall / RUNS).toFixed(0)} ms/run; worker busy (not idle) ${fmt(busy)}`);
  console.log('-- self time by script');
  for (const [u, us] of [...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${fmt(us)}  ${u}`);
  console.log('-- self time by function');
  for (const [k, us] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${fmt(us)}  ${k}`);
  console.log('-- inclusive time, functions of ours');
  for (const [k, us] of [...byTotal].filter(([k]) => /\.js:\d+$/.test(k)).sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${fmt(us)}  ${k}`);
} finally {
  cdp?.close();
  await launched.close();
  close();
}
