// server-everything over Streamable HTTP with its simulated updates switched on: every update notification reaches
// the panel within 1 s of arriving at the page (live, not at stream end).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleClient } from '../support/bundle.ts';
import { recordFixture } from '../support/record.ts';
import { startEverythingServer, type EverythingServer } from '../support/everything-server.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: Browser;
let everything: EverythingServer;
let site: StaticServer;

beforeAll(async () => {
  [browser, everything, site] = await Promise.all([startBrowser(), startEverythingServer(), startStaticServer()]);
  site.routes.set('/client.js', js(await bundleClient('tests/e2e/clients/v1-client.ts')));
  site.routes.set('/', html('<h1>everything client</h1><script src="/client.js"></script>'));
});
afterAll(async () => {
  await browser?.close();
  await everything?.close();
  await site?.close();
});

it('shows each server-everything update in the panel within 1 s of the page receiving it', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), `${everything.url}/mcp`);
  const uri = 'demo://resource/static/document/architecture.md';
  const resources: string[] = await page.evaluate(() => (window as any).mcp.list());
  expect(resources).toContain(uri);
  await page.evaluate((u) => (window as any).mcp.subscribe(u), uri);
  const tabId = await tabIdOf(browser, page);

  const panel = await openPanel(browser.context, browser.extensionId!, tabId, { view: 'messages' });
  await panel.waitForSelector('.status-bar[data-status="live"]');
  // Record when each update row first appears in the panel's DOM.
  await panel.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as any).updateRowsSeen = seen;
    const scan = () => {
      for (const row of document.querySelectorAll('.frame-row[data-method="notifications/resources/updated"]')) {
        const seq = row.getAttribute('data-seq')!;
        seen[seq] ??= Date.now();
      }
    };
    new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
    scan();
  });

  await page.evaluate(() => (window as any).mcp.callTool('toggle-subscriber-updates'));
  // The tool sends one update at once and then one every 5 s: wait for two.
  await waitFor(() => page.evaluate(() => (window as any).mcp.updates.length >= 2), 12_000, 'two updates in the page');
  const pageTimes: number[] = await page.evaluate(() => (window as any).mcp.updates.map((u: { at: number }) => u.at));
  const panelTimes = await waitFor(async () => {
    const seen: Record<string, number> = await panel.evaluate(() => (window as any).updateRowsSeen);
    const times = Object.entries(seen).sort((a, b) => Number(a[0]) - Number(b[0])).map(([, t]) => t);
    return times.length >= 2 ? times : undefined;
  }, 5000, 'two update rows in the panel');
  for (let i = 0; i < 2; i++) {
    const lag = panelTimes[i]! - pageTimes[i]!;
    expect(lag, `update ${i} lag`).toBeLessThan(1000);
  }
  // And they came on the GET stream, which is still open (live, not at stream end).
  const frames = await loggedFrames(browser, tabId);
  const updates = frames.filter((f) => f.kind === 'sse-event' && f.data.text.includes('notifications/resources/updated'));
  expect(updates.length).toBeGreaterThanOrEqual(2);
  const conn = (updates[0] as { conn: string }).conn;
  expect(frames.some((f) => f.kind === 'http-end' && f.conn === conn)).toBe(false);
  recordFixture('server-everything-streamable', frames, page.url());
  await page.evaluate(() => (window as any).mcp.callTool('toggle-subscriber-updates'));
  await panel.close();
  await page.close();
});
