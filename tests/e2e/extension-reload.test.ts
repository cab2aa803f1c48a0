// The extension goes away (runtime.reload(), as on an update or removal) while a page is open: the orphaned relay
// tells the hook to stop, the page keeps working exactly as before, and nothing piles up in it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: Browser;
let site: StaticServer;

beforeAll(async () => {
  [browser, site] = await Promise.all([startBrowser(), startStaticServer()]);
  installProbeRoutes(site);
  site.routes.set('/', html('<h1>reload</h1>'));
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const rpc = () =>
  fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }).then((r) => r.json());

it('stops capturing cleanly when the extension goes away, and the page does not notice', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate(() => {
    (window as any).gone = false;
    document.addEventListener('mcp-devtools:relay-gone', () => ((window as any).gone = true));
  });
  expect(await page.evaluate(rpc)).toMatchObject({ jsonrpc: '2.0', id: 1 });
  const tabId = await tabIdOf(browser, page);
  await waitFor(async () => (await loggedFrames(browser, tabId)).some((f) => f.kind === 'http-body'), 5000, 'captured');

  const old = await browser.serviceWorker();
  await old.evaluate(() => chrome.runtime.reload()).catch(() => undefined);
  await waitFor(() => page.evaluate(() => (window as any).gone as boolean), 10_000, 'relay-gone in the page');
  // The hook no longer emits anything (no events pile up for a relay that is gone).
  const emitted = await page.evaluate(async (call) => {
    let n = 0;
    document.addEventListener('mcp-devtools:hook', () => n++);
    await (0, eval)(call)();
    await new Promise((r) => setTimeout(r, 300));
    return n;
  }, `(${rpc.toString()})`);
  expect(emitted).toBe(0);
  // The page still works, with the same results, and its errors are its own.
  for (let i = 0; i < 20; i++) expect(await page.evaluate(rpc)).toMatchObject({ jsonrpc: '2.0', id: 1 });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.evaluate(rpc);
  expect(pageErrors).toEqual([]);

  // After a reload of the page the hook is gone too (here the unpacked extension does not come back after
  // runtime.reload(); in a normal browser the new version's scripts would install on the new document).
  await page.reload();
  expect(await page.evaluate(rpc)).toMatchObject({ id: 1 });
});
