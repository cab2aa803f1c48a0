// Where the extension's service worker spends its CPU during the page-overhead workload: `npx tsx
// tests/bench/worker-profile.ts [<dist dir>]` runs the workload (tests/bench/page-overhead.ts) RUNS times (default 3)
// with the worker under the V8 sampling profiler (100 µs), attached over the browser's CDP session (a worker has no
// page to open a session on), and prints the worker's self time by function and by script, and its inclusive time for
// our own functions. The profile runs until the worker has gone quiet after the last run (its writes are paced: up to
// ≈ 1.5 s behind the page). Build unminified (`npx vite build --minify false --outDir /tmp/prof`) for readable names.
// A map of where to look; judge a change with page-overhead-cpu.ts (CPU per process) and page-overhead-ab.ts.
import { launchChromium } from '../../demo/launch-chromium.ts';
import { runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const dir = process.argv[2] ?? 'dist';
const RUNS = Number(process.env.RUNS || 3);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`worker-profile: RUNS must be a whole number of runs ≥ 1, not ${process.env.RUNS}`);
const { base, close } = await startWorkloadServer();
const launched = await launchChromium({ extensionDir: dir });
try {
  const page = await launched.context.newPage();
  await runWorkloadIn(page, base);
  const cdp = await launched.context.browser()!.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
  const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
  if (!sw) throw new Error('no service worker target');
  // Not flattened: playwright's CDP session cannot address a child session, so the worker is spoken to through
  // Target.sendMessageToTarget.
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false })) as { sessionId: string };
  let nextId = 1;
  const waiting = new Map<number, (r: any) => void>();
  cdp.on('Target.receivedMessageFromTarget', (e: { sessionId: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown };
    if (m.id !== undefined && waiting.has(m.id)) {
      waiting.get(m.id)!(m.error ? Promise.reject(new Error(JSON.stringify(m.error))) : m.result);
      waiting.delete(m.id);
    }
  });
  // A worker that stopped or detached answers nothing: each call gives up after 30 s, and a refused send fails it.
  const send = (method: string, params: object = {}) =>
    new Promise<any>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`worker-profile: no answer to ${method} from the service worker in 30 s (stopped or detached?)`));
      }, 30_000);
      waiting.set(id, (v: unknown) => {
        clearTimeout(timer);
        resolve(v);
      });
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch((e: unknown) => {
        clearTimeout(timer);
        waiting.delete(id);
        reject(e);
      });
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 100 });
  await new Promise((r) => setTimeout(r, 2000));
  await send('Profiler.start');
  let wall = 0;
  for (let r = 0; r < RUNS; r++) wall += await runWorkloadIn(page, base);
  await new Promise((r) => setTimeout(r, 3000));
  const { profile } = await send('Profiler.stop');
  type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] };
  const nodes = new Map<number, Node>((profile.nodes as Node[]).map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of nodes.values()) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  const samples: number[] = profile.samples;
  const deltas: number[] = profile.timeDeltas;
  for (let i = 0; i < samples.length; i++) {
    const d = deltas[i + 1] ?? 0;
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + d);
  }
  const short = (url: string) => url.replace(/^chrome-extension:\/\/[a-z]+\//, '');
  const key = (n: Node) => `${n.callFrame.functionName || '(anon)'}  ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
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
  await launched.close();
  close();
}
