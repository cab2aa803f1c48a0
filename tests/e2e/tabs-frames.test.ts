// Two tabs, and a cross-origin iframe, each running a client: every frame lands in the right tab's log, tagged with
// its browser frame; a navigation starts a new page segment.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame } from '../../shared/frames.ts';
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
  site.routes.set('/inner', html('<p>inner</p><script src="/client.js"></script>'));
  site.routes.set('/', html(`<h1>outer</h1><script src="/client.js"></script><iframe src="${site.altUrl}/inner"></iframe>`));
  site.routes.set('/other', html('<h1>other tab</h1><script src="/client.js"></script>'));
});
afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await site?.close();
});

const sessionsOf = (frames: Frame[]) =>
  new Set(frames.flatMap((f) => (f.kind === 'http-response' && f.headers['mcp-session-id'] ? [f.headers['mcp-session-id']] : [])));

it('keeps tabs apart, tags iframe frames, and segments navigations', async () => {
  const a = await browser.context.newPage();
  await a.goto(site.url + '/');
  const inner = await waitFor(async () => a.frames().find((f) => f.url() === `${site.altUrl}/inner`), 5000, 'iframe');
  await inner.waitForFunction(() => (window as any).mcp);
  const b = await browser.context.newPage();
  await b.goto(site.url + '/other');

  const endpoint = `${mcp.url}/mcp`;
  const [sa, si, sb] = await Promise.all([
    a.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint),
    inner.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint),
    b.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint),
  ]);
  await Promise.all([a, inner, b].map((ctx) => ctx.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'))));

  const tabA = await tabIdOf(browser, a);
  const tabB = await tabIdOf(browser, b);
  expect(tabA).not.toBe(tabB);
  const logA = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabA);
    return sessionsOf(fs).size === 2 && fs.filter((f) => f.kind === 'http-end').length >= 6 ? fs : undefined;
  }, 10_000, 'tab A traffic');
  const logB = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabB);
    return sessionsOf(fs).size === 1 && fs.filter((f) => f.kind === 'http-end').length >= 3 ? fs : undefined;
  }, 10_000, 'tab B traffic');

  expect(sessionsOf(logA)).toEqual(new Set([sa, si]));
  expect(sessionsOf(logB)).toEqual(new Set([sb]));
  // The iframe's frames carry its own browser frame id and document, announced by its own page-start.
  const innerStart = logA.find((f) => f.kind === 'page-start' && f.url === `${site.altUrl}/inner`);
  expect(innerStart && innerStart.kind === 'page-start' && innerStart.top).toBe(false);
  expect(innerStart!.frameId).toBeGreaterThan(0);
  const innerFrames = logA.filter((f) => f.doc === innerStart!.doc);
  expect(innerFrames.every((f) => f.frameId === innerStart!.frameId)).toBe(true);
  const innerSession = innerFrames.find((f) => f.kind === 'http-response' && f.headers['mcp-session-id']);
  expect(innerSession && innerSession.kind === 'http-response' && innerSession.headers['mcp-session-id']).toBe(si);
  const topFrames = logA.filter((f) => f.frameId === 0);
  expect(topFrames.some((f) => f.kind === 'http-response' && f.headers['mcp-session-id'] === sa)).toBe(true);
  // Each tab's sequence is its own.
  expect(logA.map((f) => f.seq)).toEqual(logA.map((_, i) => i + 1));
  expect(logB.map((f) => f.seq)).toEqual(logB.map((_, i) => i + 1));
  expect(logA.every((f) => f.segment === 1)).toBe(true);

  // The panel shows the URI twice, once per client, and says which client each row is: the two documents share the
  // endpoint, so the page tells them apart (the drawer names it in full).
  const panel = await openPanel(browser.context, browser.extensionId!, tabA);
  const rows = panel.locator('.uri-row[data-uri="file:///docs/policy.md"]');
  await waitFor(async () => (await rows.count()) === 2, 10_000, 'two policy rows');
  const tags = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-client')))).sort();
  expect(tags).toEqual([`iframe ${new URL(site.altUrl!).host}/inner`, 'top page']);
  await expect.poll(() => rows.first().locator('.client-tag').textContent()).toMatch(/^(top page|iframe .+\/inner)$/);
  // The timeline's two lanes for the URI show the tag too (they read `file:///docs/policy.md` twice: review 2026-12-06).
  const lanes = panel.locator('.lane-label.uri[data-uri="file:///docs/policy.md"]');
  await waitFor(async () => (await lanes.count()) === 2, 10_000, 'two policy lanes');
  expect((await lanes.locator('.client-tag').allTextContents()).sort()).toEqual(tags);
  await rows.filter({ has: panel.locator('.client-tag', { hasText: 'top page' }) }).dblclick();
  await expect.poll(() => panel.locator('.drawer').textContent()).toContain(`${site.url}/ (top page); shown as “top page”`);
  // The filter finds a row by its client's tag, as text and by client: (it found none: a review).
  const innerTag = `iframe ${new URL(site.altUrl!).host}/inner`;
  await panel.keyboard.press('Escape');
  await panel.fill('input[aria-label="Filter"]', 'client:iframe');
  await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-client')))).toEqual([innerTag]);
  await panel.fill('input[aria-label="Filter"]', '"top page"');
  await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-client')))).toEqual(['top page']);
  await panel.fill('input[aria-label="Filter"]', '');
  // The Sessions grid says whose each session is; its drawer names the page; client: narrows it.
  await panel.click('[role="tab"][data-view="sessions"]');
  const sessionRows = panel.locator('.session-row');
  await expect.poll(async () => (await sessionRows.locator('.client-tag').allTextContents()).sort()).toEqual([innerTag, 'top page']);
  await sessionRows.filter({ has: panel.locator('.client-tag', { hasText: 'iframe' }) }).click();
  await expect.poll(() => panel.locator('.drawer').textContent()).toContain(`${site.altUrl}/inner (iframe); shown as “${innerTag}”`);
  await panel.fill('input[aria-label="Filter"]', 'client:top');
  await expect.poll(() => sessionRows.locator('.client-tag').allTextContents()).toEqual(['top page']);
  await panel.close();

  // A reload of tab A starts page segment 2; the iframe's new document belongs to it as well. A new document's
  // page-start is sent with its first MCP frame (a page that never speaks MCP sends nothing), so both connect again.
  const before = logA.length;
  await a.reload();
  const inner2 = await waitFor(async () => a.frames().find((f) => f.url() === `${site.altUrl}/inner`), 5000, 'iframe after reload');
  await Promise.all([a, inner2].map((ctx) => ctx.waitForFunction(() => (window as any).mcp)));
  await Promise.all([a, inner2].map((ctx) => ctx.evaluate((u) => (window as any).mcp.connect('streamable', u), endpoint)));
  const after = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabA);
    return fs.filter((f) => f.kind === 'page-start').length >= 4 ? fs : undefined;
  }, 10_000, 'reload logged');
  const newFrames = after.slice(before);
  expect(newFrames.filter((f) => f.kind === 'page-end').map((f) => f.segment)).toContain(1);
  const newStarts = newFrames.filter((f) => f.kind === 'page-start');
  expect(newStarts.map((f) => f.segment)).toEqual([2, 2]);
  expect(after.slice(0, before).every((f) => f.segment === 1)).toBe(true);
});

it('logs nothing for a page that never speaks MCP, and announces a page with its first MCP frame', async () => {
  site.routes.set('/plain', html(`<h1>plain</h1><script src="/client.js"></script><iframe src="${site.altUrl}/inner"></iframe><script>fetch('/plain-data').catch(() => {})</script>`));
  site.routes.set('/plain-data', { status: 200, type: 'application/json', body: '{"hello":"world"}' });
  // Every frame of every tab's log (the tabs of the test above stay open and idle).
  const sw = await browser.serviceWorker();
  const everyLog = () =>
    sw.evaluate(async () => {
      const store = (globalThis as unknown as { mcpDevtools: { tabs: { store: { allTabIds(): Promise<number[]>; readAfter(t: number, a: number, l: number): Promise<unknown[]> } } } }).mcpDevtools.tabs.store;
      let frames = 0;
      const tabs = await store.allTabIds();
      for (const tab of tabs) frames += (await store.readAfter(tab, 0, 1e7)).length;
      return { tabs: tabs.length, frames };
    });
  const before = await everyLog();
  const p = await browser.context.newPage();
  await p.goto(site.url + '/plain');
  await waitFor(async () => p.frames().find((f) => f.url() === `${site.altUrl}/inner`), 5000, 'iframe');
  // Let the hook's and the relay's batching windows pass several times over, reload, wait again: nothing anywhere.
  await p.waitForTimeout(1500);
  const loadedAt = Date.now();
  await p.reload();
  await p.waitForFunction(() => (window as any).mcp);
  await p.waitForTimeout(1000);
  expect(await everyLog()).toEqual(before);
  // Once it speaks MCP, its page-start comes first, stamped with the page's own start, not the first request's.
  const connectedAt = Date.now();
  await p.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
  const tab = await tabIdOf(browser, p);
  const log = await waitFor(async () => {
    const fs = await loggedFrames(browser, tab);
    return fs.some((f) => f.kind === 'http-end') ? fs : undefined;
  }, 10_000, 'the plain page speaking MCP');
  expect(log[0]!.kind).toBe('page-start');
  expect(log[0]!.t).toBeGreaterThanOrEqual(loadedAt);
  expect(log[0]!.t).toBeLessThan(connectedAt);
  expect(log.filter((f) => f.kind === 'page-start')).toHaveLength(1);
  expect(log.every((f) => f.frameId === 0)).toBe(true);
  await p.close();
});

it("captures what the page's own pagehide handler sends after the page-end (no timer runs then)", async () => {
  // A route of its own: tabIdOf finds the tab by its URL, and the first test's tab B still shows /other.
  site.routes.set('/leaving', html('<h1>leaving</h1><script src="/client.js"></script>'));
  const p = await browser.context.newPage();
  await p.goto(site.url + '/leaving');
  await p.waitForFunction(() => (window as any).mcp);
  const session = (await p.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`)) as string;
  await p.evaluate(() => (window as any).mcp.endSessionOnPageHide());
  const tab = await tabIdOf(browser, p);
  await waitFor(async () => ((await loggedFrames(browser, tab)).some((f) => f.kind === 'http-end') ? true : undefined), 10_000, 'the session logged');
  // Leave the page: its pagehide handler (registered after the hook's) DELETEs the session.
  await p.goto(site.url + '/plain-data');
  const log = await waitFor(async () => {
    const fs = await loggedFrames(browser, tab);
    return fs.some((f) => f.kind === 'http-request' && f.method === 'DELETE') ? fs : undefined;
  }, 10_000, 'the DELETE sent from pagehide');
  const end = log.find((f) => f.kind === 'page-end')!;
  const del = log.find((f) => f.kind === 'http-request' && f.method === 'DELETE')!;
  expect(del.kind === 'http-request' && del.headers['mcp-session-id']).toBe(session);
  expect(del.doc).toBe(end.doc);
  expect(del.seq).toBeGreaterThan(end.seq);
  expect(del.segment).toBe(end.segment);
  await p.close();
});

it('captures MCP that a page speaks for the first time from its own pagehide handler', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'leaving', version: '1' } } });
  site.routes.set(
    '/silent-then-leaving',
    html(`<h1>silent</h1><script>addEventListener('pagehide', () => { fetch(${JSON.stringify(`${mcp.url}/mcp`)}, { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: ${JSON.stringify(body)} }).catch(() => {}); });</script>`),
  );
  const p = await browser.context.newPage();
  await p.goto(site.url + '/silent-then-leaving');
  // Back on the page (its URL is what finds the tab's log) after leaving it once: that departure spoke MCP.
  await p.goto(site.url + '/plain-data');
  await p.goBack();
  const tab = await tabIdOf(browser, p);
  const log = await waitFor(async () => {
    const fs = await loggedFrames(browser, tab);
    return fs.some((f) => f.kind === 'http-request' && f.method === 'POST') ? fs : undefined;
  }, 10_000, 'the initialize sent from pagehide');
  // Announced by its page-start, as any document's first MCP frame is.
  expect(log.map((f) => f.kind).slice(0, 2)).toEqual(['page-start', 'http-request']);
  await p.close();
});

it('a page whose iframe alone spoke MCP leaving empties the view as a top-level client\'s does; the panel as a tab is named by the page', async () => {
  const port = new URL(site.altUrl!).host;
  // An iframe route of its own: the first test's tab has /inner in its log too.
  site.routes.set('/inner-only', html('<p>inner</p><script src="/client.js"></script>'));
  site.routes.set('/host', html(`<h1>host, no MCP</h1><iframe src="${site.altUrl}/inner-only"></iframe>`));
  site.routes.set('/away', html('<h1>away, no MCP</h1>'));
  const p = await browser.context.newPage();
  await p.goto(site.url + '/host');
  const inner = await waitFor(async () => p.frames().find((f) => f.url() === `${site.altUrl}/inner-only`), 5000, 'iframe');
  await inner.waitForFunction(() => (window as any).mcp);
  await inner.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
  const sw = await browser.serviceWorker();
  // The tab's id: the one whose log has the iframe's page-start (tabIdOf looks for a top-level one).
  const tab: number = await waitFor(
    () =>
      sw.evaluate(async (u): Promise<number | undefined> => {
        const store = (globalThis as any).mcpDevtools.tabs.store;
        for (const id of await store.allTabIds()) if ((await store.readAfter(id, 0, 1e7)).some((f: Frame) => f.kind === 'page-start' && !f.top && f.url === u)) return id as number;
        return undefined;
      }, `${site.altUrl}/inner-only`),
    10_000,
    'the iframe logged',
  );
  const panel = await openPanel(browser.context, browser.extensionId!, tab, { view: 'sessions' });
  await expect.poll(() => panel.title()).toBe(`MCP — ${port}`);
  await waitFor(async () => (await panel.isDisabled('button[aria-label="Export trace"]')) === false, 10_000, 'something to export');
  // The host page navigates to a page that never speaks MCP: only the iframe's page-end comes.
  await p.goto(site.url + '/away');
  const note = await panel.waitForSelector('[data-page-left="true"]', { timeout: 10_000 });
  expect(await note.textContent()).toContain(`${site.altUrl}/inner-only`);
  expect(await panel.isDisabled('button[aria-label="Export trace"]')).toBe(true);
  expect(await panel.textContent('[data-count="frames"]')).toMatch(/^0 frames \(\d+ of earlier pages hidden\)$/);
  // The tab closes: the notice names its page.
  await p.close();
  await expect.poll(() => panel.textContent('body')).toContain(`The tab of ${port}/inner-only (tab ${tab}) was closed`);
  await panel.close();
});
