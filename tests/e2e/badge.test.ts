// The toolbar badge counts the open error-level findings of the tab's current page, computed in the background by the
// same engine that runs in Node over the same logged frames.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Engine } from '../../shared/engine/index.ts';
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

const badgeText = async (tabId: number) => (await browser.serviceWorker()).evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);

it('shows the open error findings of the tab, and clears with the log', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const endpoint = `${mcp.url}/mcp`;
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint);
  await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'));
  await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/policy.md'));
  const tabId = await tabIdOf(browser, page);
  expect(await badgeText(tabId)).toBe('');
  // The seed's bug: the connection drops, the client reconnects (a new session) and keeps using its cache without
  // re-subscribing.
  await page.evaluate(() => (window as any).mcp.close());
  const session = await page.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint);
  await page.evaluate(() => (window as any).mcp.read('file:///docs/faq.md'));

  const text = await waitFor(async () => {
    const t = await badgeText(tabId);
    return t !== '' ? t : undefined;
  }, 15_000, 'badge');
  const frames = await loggedFrames(browser, tabId);
  const engine = new Engine();
  engine.applyAll(frames);
  const errors = engine.findings(Date.now()).filter((f) => f.open && f.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  expect(text).toBe(String(errors.length));
  expect(errors.map((f) => f.id)).toContain('cached-not-subscribed');
  const title = await (await browser.serviceWorker()).evaluate((id) => chrome.action.getTitle({ tabId: id }), tabId);
  expect(title).toMatch(/^MCP: \d+ open errors?$/);

  // Clearing the log from the panel clears the badge. It keeps the frames that opened the GET stream, still open: a
  // notification it brings after the clear still shows its session.
  await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/faq.md'));
  const panel = await openPanel(browser.context, browser.extensionId!, tabId, { view: 'messages' });
  await panel.waitForSelector('.status-bar[data-status="live"]');
  await panel.waitForSelector('.frame-row[data-method="initialize"]');
  await panel.click('button[aria-label="Clear log"]');
  await waitFor(async () => (await badgeText(tabId)) === '', 5000, 'badge cleared');
  await panel.waitForSelector('.frame-row[data-method="initialize"]', { state: 'detached' });
  const kept = await loggedFrames(browser, tabId);
  expect(kept.map((f) => `${f.kind} ${f.kind === 'http-request' ? f.method : ''}`.trim())).toEqual(['http-request GET', 'http-response']);
  expect(await (await panel.waitForSelector('[data-count="kept"]')).textContent()).toBe('1 exchange kept at Clear');
  await mcp.edit('file:///docs/faq.md');
  const row = await panel.waitForSelector('.frame-row[data-method="notifications/resources/updated"]');
  expect(await row.getAttribute('data-session')).toBe(session);
  await panel.close();
  await page.close();
});
