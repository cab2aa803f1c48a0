// The toolbar badge across history navigations. Chrome clears a tab's badge text when the tab navigates; a page that
// comes back from the back/forward cache is the same document, in the same page segment of the log, with the same open
// errors: its badge must show them again (it stayed blank: the background thought it already showed that count).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { bundleClient } from '../support/bundle.ts';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { startV1Server, type V1Server } from '../support/v1-server.ts';

let browser: Browser;
let mcp: V1Server;
let site: StaticServer;

beforeAll(async () => {
  [browser, mcp, site] = await Promise.all([startBrowser({ backForwardCache: true }), startV1Server(), startStaticServer()]);
  site.routes.set('/client.js', js(await bundleClient('tests/e2e/clients/v1-client.ts')));
  site.routes.set(
    '/',
    html(`<h1>v1 client</h1><script>window.restored = false; addEventListener('pageshow', (e) => { if (e.persisted) window.restored = true; });</script><script src="/client.js"></script>`),
  );
  site.routes.set('/plain', html('<h1>plain</h1>'));
  // A page that never goes into the cache (an unload handler keeps a page out of it).
  site.routes.set('/no-cache', html(`<h1>v1 client</h1><script>addEventListener('unload', () => {});</script><script src="/client.js"></script>`));
});
afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await site?.close();
});

const badgeText = async (tabId: number) => (await browser.serviceWorker()).evaluate((id) => chrome.action.getBadgeText({ tabId: id }), tabId);

/** The seed's bug on `page`: a reconnect that keeps using its cache without re-subscribing. The badge's text once shown. */
async function produceErrors(page: Page): Promise<{ tabId: number; text: string }> {
  const endpoint = `${mcp.url}/mcp`;
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint);
  await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'));
  await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/policy.md'));
  await page.evaluate(() => (window as any).mcp.close());
  await page.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint);
  await page.evaluate(() => (window as any).mcp.read('file:///docs/faq.md'));
  // No stream left open: the page may go into the back/forward cache.
  await page.evaluate(() => (window as any).mcp.close());
  const tabId = await tabIdOf(browser, page);
  const text = await waitFor(async () => {
    const t = await badgeText(tabId);
    return t !== '' ? t : undefined;
  }, 15_000, 'badge');
  return { tabId, text };
}

it('shows the open errors again when the page comes back from the back/forward cache', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const { tabId, text } = await produceErrors(page);
  await page.goto(site.url + '/plain');
  // A page that never spoke MCP: nothing to count (Chrome cleared the text at the navigation), whatever the page in the
  // cache holds; also after the badge's periodic refresh (5 s).
  await new Promise((r) => setTimeout(r, 6000));
  expect(await badgeText(tabId)).toBe('');
  await page.goBack({ waitUntil: 'commit' });
  expect(await page.waitForFunction(() => (window as any).restored === true).then(() => true)).toBe(true);
  expect(await waitFor(async () => ((await badgeText(tabId)) === text ? true : undefined), 4000, `badge back to ${text}`)).toBe(true);
  // The same document in the same page segment: the same errors, as its panel shows them.
  expect(new Set((await loggedFrames(browser, tabId)).map((f) => f.segment))).toEqual(new Set([1]));
  await page.close();
});

it('shows the open errors again after a history navigation back to a page not in the cache', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/no-cache');
  const { tabId, text } = await produceErrors(page);
  await page.goto(site.url + '/plain');
  await new Promise((r) => setTimeout(r, 1500));
  expect(await badgeText(tabId)).toBe('');
  // A new document that has spoken no MCP yet: a blank badge (a new page segment only starts with its first MCP frame).
  await page.goBack();
  await new Promise((r) => setTimeout(r, 1500));
  expect(await badgeText(tabId)).toBe('');
  // It speaks MCP: its own errors.
  const again = await produceErrors(page);
  expect(again.tabId).toBe(tabId);
  expect(again.text).toBe(text);
  // Not restored from the cache: a new page segment.
  expect(new Set((await loggedFrames(browser, tabId)).map((f) => f.segment))).toEqual(new Set([1, 2]));
  await page.close();
});

it('shows the errors of a reloaded page that reaches the same count at once', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/no-cache');
  const { tabId, text } = await produceErrors(page);
  await page.reload();
  // The same errors, all within the badge's first update after the page spoke.
  await page.evaluate(async (u) => {
    const mcp = (window as any).mcp;
    await mcp.connect('streamable', u);
    await mcp.read('file:///docs/policy.md');
    await mcp.subscribe('file:///docs/policy.md');
    await mcp.close();
    await mcp.connect('streamable', u);
    await mcp.read('file:///docs/faq.md');
    await mcp.close();
  }, `${mcp.url}/mcp`);
  expect(await waitFor(async () => ((await badgeText(tabId)) === text ? true : undefined), 4000, `badge back to ${text}`)).toBe(true);
  await page.close();
});
