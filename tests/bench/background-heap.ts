// Background memory over a long session (DESIGN §11: "the background's heap stays flat over a long session"). One
// page that never navigates (a long-lived app: one page segment, so one badge engine for all of it) runs the
// page-overhead workload again and again; the service worker's heap is read after a forced GC, once after the warm-up
// and once at the end. The figure is the growth per 1,000 captured frames. Frames themselves live in IndexedDB, not in
// the worker's heap, so anything above noise here is memory that would grow without bound.
import { launchChromium } from '../../demo/launch-chromium.ts';
import { debuggingPort, listTargets } from '../support/cdp.ts';
import { CdpSession } from '../support/cdp-session.ts';
import { NOTIFICATIONS, POSTS, runWorkloadIn, startWorkloadServer } from './page-overhead.ts';

const WARM_UP_RUNS = 2;
const MEASURED_RUNS = Number(process.env.HEAP_RUNS ?? 8);

export async function benchBackgroundHeap(): Promise<{ backgroundHeapKbPer1kFrames: number; rows: string[][] }> {
  const { base, close } = await startWorkloadServer();
  const browser = await launchChromium({ ...(process.env.BENCH_DIST ? { extensionDir: process.env.BENCH_DIST } : {}), args: ['--remote-debugging-port=0'] });
  let cdp: CdpSession | undefined;
  try {
    const page = await browser.context.newPage();
    await runWorkloadIn(page, base); // loads the page and runs once
    const runAgain = () => page.evaluate(([b, n, p]) => (window as any).runWorkload(b, n, p), [base, NOTIFICATIONS, POSTS] as const);
    for (let i = 1; i < WARM_UP_RUNS; i++) await runAgain();
    const sw = (await listTargets(debuggingPort(browser.userDataDir))).find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${browser.extensionId}/`));
    if (!sw) throw new Error('the extension service worker is not among the debugging targets');
    cdp = await CdpSession.open(sw);
    const c = cdp;
    const heapAfterGc = async (): Promise<number> => {
      // Let the worker finish the last batches (no panel watches: hook 40 ms, relay 500 ms, store 1 s, badge 1 s), then
      // collect.
      await new Promise((r) => setTimeout(r, 3500));
      await c.send('HeapProfiler.collectGarbage');
      return (await c.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
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
