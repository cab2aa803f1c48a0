// A page that goes into the back/forward cache and comes back, with the cache on as in a user's Chrome: Chrome closes
// the relay's port on the background's side when the page goes in, without telling the page's side. Found by a relay
// audit (2026-12-04): everything the page sent after its return was lost, silently.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: Browser;
let site: StaticServer;

beforeAll(async () => {
  [browser, site] = await Promise.all([startBrowser({ backForwardCache: true }), startStaticServer()]);
  installProbeRoutes(site);
  // A page that pings over JSON-RPC every 30 ms until told to stop.
  site.routes.set(
    '/mcp',
    html(`<h1>pinging</h1><script>
window.done = []; window.restored = false; let id = 0;
addEventListener('pageshow', (e) => { if (e.persisted) window.restored = true; });
(async () => { for (;;) { const i = ++id; try { await (await fetch('/echo-headers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }) })).text(); done.push(i); } catch {} await new Promise((r) => setTimeout(r, 30)); if (window.halt) break; } })();
</script>`),
  );
  site.routes.set('/plain', html('<h1>plain</h1>'));
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('logs what a page sends after it comes back from the back/forward cache, once and in order', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/mcp');
  await page.waitForFunction(() => (window as any).done.length >= 10);
  const tabId = await tabIdOf(browser, page);
  await page.goto(site.url + '/plain');
  await new Promise((r) => setTimeout(r, 500));
  await page.goBack({ waitUntil: 'commit' });
  // Restored from the cache (not reloaded): the same document goes on pinging.
  expect(await page.waitForFunction(() => (window as any).restored === true).then(() => true)).toBe(true);
  const before = await page.evaluate(() => (window as any).done.length as number);
  await page.waitForFunction((n) => (window as any).done.length >= n + 10, before);
  const done: number[] = await page.evaluate(() => {
    (window as any).halt = true;
    return (window as any).done;
  });
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    const ids = new Set(fs.flatMap((f) => (f.kind === 'http-request' && f.body ? [JSON.parse(f.body.text).id as number] : [])));
    return done.every((i) => ids.has(i)) ? fs : undefined;
  }, 10_000, 'every ping logged, those after the return too');
  const ids = frames.flatMap((f) => (f.kind === 'http-request' && f.body ? [JSON.parse(f.body.text).id as number] : []));
  expect(new Set(ids).size).toBe(ids.length);
  expect(frames.filter((f) => f.kind === 'page-end' || f.kind === 'page-start').map((f) => (f.kind === 'page-end' ? `end persisted=${f.persisted}` : 'start'))).toEqual([
    'start',
    'end persisted=true',
    'start',
  ]);
  // The page in between never spoke MCP: the returned page goes on in its segment (its badge and view keep its history).
  expect(new Set(frames.map((f) => f.segment))).toEqual(new Set([1]));
  await page.close();
});
