// MV3 termination: the service worker is stopped (CDP ServiceWorker.stopAllWorkers) several times while the page keeps
// talking MCP. Afterwards the log has every frame, in order, none duplicated, and the open panel has reconnected and
// shows them all. And the extension's storage cleared under a running worker: capture goes on.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame } from '../../shared/frames.ts';
import { bundleClient } from '../support/bundle.ts';
import { loggedFrames, openPanel, startBrowser, stopServiceWorkers, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { startV1Server, type V1Server } from '../support/v1-server.ts';

let browser: Browser;
let mcp: V1Server;
let site: StaticServer;

beforeAll(async () => {
  [browser, mcp, site] = await Promise.all([startBrowser(), startV1Server(), startStaticServer()]);
  site.routes.set('/client.js', js(await bundleClient('tests/e2e/clients/v1-client.ts')));
  site.routes.set('/', html('<h1>v1 client</h1><script src="/client.js"></script>'));
});
afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await site?.close();
});

/** A page whose v1 client connected, and the panel open on its tab, live. */
async function connectedPageWithPanel() {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
  const tabId = await tabIdOf(browser, page);
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  return { page, tabId, panel };
}

it('loses nothing and duplicates nothing across service-worker restarts', async () => {
  const { page, tabId, panel } = await connectedPageWithPanel();

  // Traffic runs continuously in the page while the worker is stopped three times.
  await page.evaluate(() => {
    const w = window as any;
    w.reads = 0;
    w.running = true;
    w.loop = (async () => {
      while (w.running) {
        await w.mcp.read('file:///docs/policy.md');
        w.reads++;
      }
    })();
  });
  let sawReconnecting = false;
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 400));
    await stopServiceWorkers(browser.context, page);
    sawReconnecting ||= await panel
      .waitForSelector('.status-bar[data-status="reconnecting"]', { timeout: 2000 })
      .then(() => true)
      .catch(() => false);
  }
  await new Promise((r) => setTimeout(r, 400));
  const reads: number = await page.evaluate(async () => {
    const w = window as any;
    w.running = false;
    await w.loop;
    return w.reads;
  });
  expect(reads).toBeGreaterThan(20);
  expect(sawReconnecting).toBe(true);

  const readRequests = (fs: Frame[]) => fs.filter((f) => f.kind === 'http-request' && f.body?.text.includes('"resources/read"'));
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    // Every read the page completed has its request and its end in the log.
    const ends = fs.filter((f) => f.kind === 'http-end').length;
    return readRequests(fs).length === reads && ends >= reads ? fs : undefined;
  }, 15_000, 'all reads logged');

  // In order and without duplicates: seq is 1..n; per document, n is 1..m without gaps.
  expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i + 1));
  const docs = new Map<string, number[]>();
  for (const f of frames) docs.set(f.doc, [...(docs.get(f.doc) ?? []), f.n]);
  for (const ns of docs.values()) expect(ns).toEqual(ns.map((_, i) => i + 1));

  // The panel reconnected and shows exactly the log.
  await panel.waitForSelector('.status-bar[data-status="live"]');
  let shown: number[] = [];
  const panelSeqs = await waitFor(async () => {
    shown = await panel.evaluate(() => (globalThis as any).mcpPanel.frames.map((f: Frame) => f.seq));
    return shown.length === frames.length ? shown : undefined;
  }, 20_000, 'panel caught up').catch((e: Error) => {
    const have = new Set(shown);
    const missing = frames.map((f) => f.seq).filter((q) => !have.has(q));
    throw new Error(`${e.message}: the panel shows ${shown.length} of ${frames.length} frames; missing seqs ${missing.slice(0, 20).join(',')}${missing.length > 20 ? '…' : ''}`);
  });
  expect(panelSeqs).toEqual(frames.map((f) => f.seq));
  await panel.close();
  await page.close();
});

// A live review, 2026-12: Clear clicked while the status said Reconnecting… was dropped without a word (the button was
// enabled, the port down). Now it is disabled then, its tooltip saying why, and enabled again once Live.
it('disables Clear while the panel reconnects, saying why; enabled again once live', async () => {
  const { page, panel } = await connectedPageWithPanel();
  const clear = 'button[aria-label="Clear log"]';
  expect(await panel.isDisabled(clear)).toBe(false);
  await stopServiceWorkers(browser.context, page);
  // Read in the same instant as the status line (it may be Live again soon after).
  const during = await panel.waitForFunction(
    (sel) => {
      if (document.querySelector('.status-bar')?.getAttribute('data-status') !== 'reconnecting') return false;
      const b = document.querySelector<HTMLButtonElement>(sel)!;
      return { disabled: b.disabled, title: b.title };
    },
    clear,
    { polling: 'raf', timeout: 5000 },
  );
  const seen = (await during.jsonValue()) as { disabled: boolean; title: string };
  expect(seen.disabled).toBe(true);
  expect(seen.title).toMatch(/not sent while reconnecting/);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  await panel.waitForFunction((sel) => !document.querySelector<HTMLButtonElement>(sel)!.disabled, clear);
  await panel.close();
  await page.close();
});

// The user clears the extension's storage (devtools' "Clear site data", here CDP Storage.clearDataForOrigin) while a
// page keeps talking MCP: Chromium closes the worker's IndexedDB connection. Capture goes on in a new database, its
// sequence numbers going on (the open panel holds the earlier ones), and the panel shows the new traffic.
it('goes on capturing after the extension storage is cleared under it', async () => {
  const { page, tabId, panel } = await connectedPageWithPanel();
  const before = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'http-end') ? fs : undefined;
  }, 10_000, 'first frames stored');
  const lastBefore = before.at(-1)!.seq;

  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: `chrome-extension://${browser.extensionId}`, storageTypes: 'indexeddb' });
  await cdp.detach();

  await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'));
  // Stored again, numbered after what was there (the relay re-sends what the closed connection refused).
  const after = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'http-request' && f.body?.text.includes('resources/read')) ? fs : undefined;
  }, 20_000, 'frames stored after the clear');
  expect(after.length).toBeGreaterThan(0);
  expect(after[0]!.seq).toBeGreaterThan(lastBefore);
  const seqs = after.map((f) => f.seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  // The open panel shows the read made after the clear.
  const read = after.find((f) => f.kind === 'http-request' && f.body?.text.includes('resources/read'))!.seq;
  await panel.waitForFunction((seq) => (globalThis as any).mcpPanel.snapshot.value.lastSeq >= seq, read);
});
