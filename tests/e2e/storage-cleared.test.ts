// The user clears the extension's storage (devtools' "Clear site data", here CDP Storage.clearDataForOrigin) while a
// page keeps talking MCP: Chromium closes the worker's IndexedDB connection. Capture goes on in a new database, its
// sequence numbers going on (the open panel holds the earlier ones), and the panel shows the new traffic.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleClient } from '../support/bundle.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
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

it('goes on capturing after the extension storage is cleared under it', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
  const tabId = await tabIdOf(browser, page);
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
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
