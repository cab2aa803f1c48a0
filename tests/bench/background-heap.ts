// Background memory over a long session (DESIGN §11: "the background's heap stays flat over a long session"). One
// page that never navigates (a long-lived app: one page segment, so one badge engine for all of it) runs the
// page-overhead workload again and again; the service worker's heap is read after a forced GC, once after the warm-up
// and once at the end. The figure is the growth per 1,000 captured frames. Frames themselves live in IndexedDB, not in
// the worker's heap, so anything above noise here is memory that would grow without bound.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { launchChromium } from '../../demo/launch-chromium.ts';
import { NOTIFICATIONS, POSTS, runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const WARM_UP_RUNS = 2;
const MEASURED_RUNS = Number(process.env.HEAP_RUNS ?? 8);

/** A CDP client on one target (the service worker), over the browser's debugging port. */
async function cdpTo(wsUrl: string): Promise<{ send(method: string, params?: object): Promise<any>; close(): void }> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let id = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
    const w = m.id !== undefined ? waiting.get(m.id) : undefined;
    if (!w) return;
    waiting.delete(m.id!);
    if (m.error) w.reject(new Error(m.error.message));
    else w.resolve(m.result);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const i = ++id;
        waiting.set(i, { resolve, reject });
        ws.send(JSON.stringify({ id: i, method, params }));
      }),
    close: () => ws.close(),
  };
}

export async function benchBackgroundHeap(): Promise<{ backgroundHeapKbPer1kFrames: number; rows: string[][] }> {
  const { base, close } = await startWorkloadServer();
  const browser = await launchChromium({ ...(process.env.BENCH_DIST ? { extensionDir: process.env.BENCH_DIST } : {}), args: ['--remote-debugging-port=0'] });
  let cdp: Awaited<ReturnType<typeof cdpTo>> | undefined;
  try {
    const page = await browser.context.newPage();
    await runWorkloadIn(page, base); // loads the page and runs once
    const runAgain = () => page.evaluate(([b, n, p]) => (window as any).runWorkload(b, n, p), [base, NOTIFICATIONS, POSTS] as const);
    for (let i = 1; i < WARM_UP_RUNS; i++) await runAgain();
    const port = readFileSync(join(browser.userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0];
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; url: string; webSocketDebuggerUrl: string }[];
    const sw = targets.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`));
    if (!sw) throw new Error('the extension service worker is not among the debugging targets');
    cdp = await cdpTo(sw.webSocketDebuggerUrl);
    const c = cdp;
    const heapAfterGc = async (): Promise<number> => {
      // Let the worker finish the last batches (hook 40 ms, relay 10 ms, store 100 ms, badge 1 s), then collect.
      await new Promise((r) => setTimeout(r, 2000));
      await c.send('HeapProfiler.collectGarbage');
      return ((await c.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    };
    const before = await heapAfterGc();
    for (let i = 0; i < MEASURED_RUNS; i++) await runAgain();
    const after = await heapAfterGc();
    // Each run captures one request per POST and its three answer frames, one event per notification, and the stream.
    const frames = MEASURED_RUNS * (POSTS * 4 + NOTIFICATIONS + 4);
    const kbPer1k = (after - before) / 1024 / (frames / 1000);
    return {
      backgroundHeapKbPer1kFrames: Number(kbPer1k.toFixed(2)),
      rows: [
        [`background: worker heap after warm-up / after ${frames.toLocaleString('en-US')} more frames (MB)`, `${(before / 1e6).toFixed(1)} / ${(after / 1e6).toFixed(1)}`, ''],
        ['background: heap growth per 1,000 frames, one long-lived page (KB)', kbPer1k.toFixed(2), 'flat (≈ 0)'],
      ],
    };
  } finally {
    cdp?.close();
    await browser.close();
    close();
  }
}

// Run alone: `npx tsx tests/bench/background-heap.ts` (BENCH_DIST=<dir> for another build).
if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, ...figures } = await benchBackgroundHeap();
  for (const row of rows) console.log(row.join('\t'));
  console.log(JSON.stringify(figures));
}
