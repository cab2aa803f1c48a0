// A panel left open on a busy page follows the log's caps in memory too, in real Chromium with the built extension.
// The panel drops the frames the log dropped and rebuilds its engine from the rest (store.ts trimToLog); the engine it
// replaces must then be garbage. What a long-session measurement found (2026-12-05, tests/bench/panel-heap.ts): it was
// not. The timeline's lane labels (memoized, handler props ignored) kept the selection handler of the render in which
// they last changed, and that handler held the render's scope and snapshot: the whole message list of an engine
// replaced long ago, payload texts and all. The heap grew 530 KB per 1,000 frames with the log at its default caps
// (157 → 266 MB from 200,000 to 400,000 frames). Here: a panel without a tab is fed frames through its store, with the
// counters of a log capped at 2,000 frames, until it has trimmed and rebuilt many times in each view; after a forced
// GC, once the views have drawn again, the only message store alive is the live engine's. The Sessions view's list
// and its keyboard cursor held one the same way (a hook's effect kept from the render in which its key last changed).
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient, type SseStream } from '../support/mcp-clients.ts';
import { startBrowser, waitFor, type Browser } from '../support/extension.ts';

const CAP = 2000;
const URIS = 20;

let browser: Browser;
let p: Page;
let cdp: CDPSession;
const log = new FrameLog('memory-doc', Date.now() - 60_000);
const client = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
let get: SseStream;
let session = 0;
const uriOf = (i: number) => `file:///docs/${i}.md`;

function connect(): void {
  client.initialize({ sessionId: `S${++session}` });
  get = client.openGet();
  for (let i = 0; i < URIS; i++) client.subscribe(uriOf(i));
}

/** About `n` frames of traffic: notifications and re-reads of ever new content, a reconnect every ~600 frames. */
function traffic(n: number): Frame[] {
  const from = log.frames.length;
  log.t = Math.max(log.t, Date.now() - 1000);
  for (let k = 0; log.frames.length - from < n; k++) {
    const uri = uriOf((log.frames.length * 7) % URIS);
    get.updated(uri);
    client.read(uri, `# ${uri}\n\nRevision ${log.frames.length}. ` + 'Knowledge base text. '.repeat(20));
    if (k % 100 === 99) {
      get.close('failed');
      connect();
    }
  }
  return log.frames.slice(from);
}

/** The frames reach the panel as from the background, with the counters of a log that keeps the newest CAP. */
async function stream(frames: Frame[]): Promise<void> {
  const lastSeq = frames.at(-1)!.seq;
  const kept = Math.min(CAP, lastSeq);
  const stats = { tabId: 1, frames: kept, bytes: kept * 700, dropped: lastSeq - kept, rejected: 0, lastSeq, segment: 1, errors: 0 };
  await p.evaluate(([fs, s]) => {
    const store = (globalThis as any).mcpPanel;
    store.receive({ type: 'frames', frames: fs });
    store.receive({ type: 'stats', stats: s });
  }, [frames, stats] as const);
  // Applied, the rebuild after the trim swapped in, and every view drawn from the new engine's snapshot.
  await waitFor(() => p.evaluate(() => {
    const s = (globalThis as any).mcpPanel;
    return s.waiting.value === 0 && s.aside === null && s.catchUp.value === null;
  }), 20_000, 'the panel caught up with its rebuild');
  await p.waitForTimeout(300);
}

/** Objects alive after a forced GC that have the prototype of the live engine's message store. */
async function messageStoresAlive(): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  // In a group of their own, released after: the handles the protocol hands out keep what they name alive.
  const objectGroup = 'panel-memory-test';
  try {
    const proto = await cdp.send('Runtime.evaluate', { expression: 'Object.getPrototypeOf(globalThis.mcpPanel.engineNow().core.messages)', objectGroup });
    const found = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.result.objectId!, objectGroup });
    const n = await cdp.send('Runtime.callFunctionOn', { objectId: found.objects.objectId!, functionDeclaration: 'function () { return this.length; }', returnByValue: true, objectGroup });
    return n.result.value as number;
  } finally {
    await cdp.send('Runtime.releaseObjectGroup', { objectGroup });
  }
}

beforeAll(async () => {
  log.pageStart('http://localhost:8080/kb');
  connect();
  for (let i = 0; i < URIS; i++) client.read(uriOf(i), `# ${i}\n`);
  browser = await startBrowser();
  p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 800 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  cdp = await browser.context.newCDPSession(p);
  await cdp.send('Runtime.enable');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

// Each view on screen in turn for a while, as a user leaves one open: each keeps its own handlers and effects.
it.each(['resources', 'sessions', 'findings', 'messages'])('an engine the panel replaced after a trim at the log cap is garbage (%s view): the panel holds what the log holds', async (view) => {
  if (view === 'resources') await stream(log.frames.slice());
  await p.evaluate((v) => ((globalThis as any).mcpPanel.view.value = v), view);
  // (Locators, not element handles: a handle keeps its element, and what the element's handlers hold, alive.)
  await p.locator(`.main[data-view="${view}"]`).waitFor();
  // The Resources view with its timeline lanes (the sessions grid, the findings list, the messages list).
  if (view === 'resources') await p.locator('.lane-label.uri').first().waitFor();
  for (let round = 0; round < 8; round++) await stream(traffic(1500));
  const held = await p.evaluate(() => (globalThis as any).mcpPanel.frames.length as number);
  // The frames: what the log holds, and less than the trim's slack more.
  expect(held).toBeLessThanOrEqual(CAP + 1000);
  expect(held).toBeGreaterThan(0);
  // The engines: the live one's store alone, once every view has drawn again since the last swap (the clock's tick
  // redraws them; until then a view's last render may still show the snapshot of the engine replaced last). Before
  // the fix: 4 in the Resources view, 2 in the Sessions view, and they grew with the session.
  await p.waitForTimeout(1500);
  expect(await messageStoresAlive()).toBe(1);
}, 180_000);
