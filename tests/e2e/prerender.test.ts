// A prerendered page (speculation rules) is not the tab's page until it is shown: nothing of it reaches the log while
// it is only prerendered, and at activation its frames begin a new page segment, as a navigation's do. Playwright
// attaches a debugger to every page, which turns prerendering off, so this test drives Chromium over raw CDP.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BASE_FLAGS, findChromium } from '../../demo/launch-chromium.ts';
import type { Frame } from '../../shared/frames.ts';
import { evaluateIn, listTargets, type CdpTarget } from '../support/cdp.ts';
import { CdpSession } from '../support/cdp-session.ts';
import { waitFor } from '../support/extension.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

const DIST = resolve('dist');
let site: StaticServer;
let chromium: ChildProcess;
let profile: string;
let port: number;
const heard: string[] = [];

/** Speaks MCP (JSON-RPC over fetch): an initialize, answered. */
const SPEAK = `<script>fetch('/speak', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { page: location.pathname, prerendering: document.prerendering === true } }) }).then((r) => r.text());</script>`;

beforeAll(async () => {
  site = await startStaticServer();
  // Answers each initialize, and remembers what it was sent (so the test knows the prerender has spoken).
  site.routes.set('/speak', (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      heard.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'speak', version: '1' } } }));
    });
  });
  // While prerendered, /next also dispatches a prerenderingchange of its own: only the browser's may count.
  site.routes.set('/next', html(`<p>next</p>${SPEAK}<script>document.dispatchEvent(new Event('prerenderingchange'));</script>`));
  site.routes.set('/start', html(`<p>start</p>${SPEAK}<script type="speculationrules">{"prerender":[{"source":"list","urls":["/next"]}]}</script>`));
  profile = mkdtempSync(join(tmpdir(), 'mcp-prerender-'));
  chromium = spawn(findChromium()!, [...BASE_FLAGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, `--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`, 'about:blank'], { stdio: 'ignore' });
  port = await waitFor(async () => {
    const f = join(profile, 'DevToolsActivePort');
    return existsSync(f) ? Number(readFileSync(f, 'utf8').split('\n')[0]) || undefined : undefined;
  }, 15_000, 'Chromium debugging port');
});
afterAll(async () => {
  chromium?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  if (profile) rmSync(profile, { recursive: true, force: true });
  await site?.close();
});

/** An extension page: it shares the service worker's IndexedDB, where the logs are (a raw CDP evaluation in the worker
 * itself does not run its promises here). */
async function extensionPage(): Promise<CdpTarget> {
  const sw = await waitFor(async () => (await listTargets(port)).find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://')), 15_000, 'service worker');
  const origin = /^chrome-extension:\/\/[^/]+/.exec(sw.url)![0];
  const open = async () => (await listTargets(port)).find((t) => t.type === 'page' && t.url.startsWith(`${origin}/panel.html`));
  if (!(await open())) {
    // (A new tab cannot be opened on an extension page directly; navigated by the debugger, it can.)
    const blank = (await (await fetch(`http://127.0.0.1:${port}/json/new?about:blank`, { method: 'PUT' })).json()) as CdpTarget;
    const session = await CdpSession.open(blank);
    await session.send('Page.navigate', { url: `${origin}/panel.html` }).finally(() => session.close());
  }
  const page = await waitFor(open, 15_000, 'extension page');
  // Loaded (an evaluation sent while it still navigates is never answered).
  await waitFor(async () => (await within(evaluateIn(page, 'document.readyState'), 2000)) === 'complete', 15_000, 'extension page loaded');
  return page;
}

/** The promise's value, or a rejection after `ms` (a raw CDP evaluation can go unanswered). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms))]);
}

/** Every tab's stored log (the chunks store is keyed [tab, last seq]). */
async function logs(): Promise<Record<string, Frame[]>> {
  return (await within(evaluateIn(await extensionPage(), `new Promise((ok, fail) => {
    const r = indexedDB.open('mcp-devtools-log');
    r.onerror = () => fail(r.error);
    r.onsuccess = () => {
      const out = {};
      const c = r.result.transaction('chunks').objectStore('chunks').openCursor();
      c.onerror = () => fail(c.error);
      c.onsuccess = () => {
        const cur = c.result;
        if (!cur) return ok(out);
        (out[cur.key[0]] ??= []).push(...cur.value.frames);
        cur.continue();
      };
    };
  })`), 5000)) as Record<string, Frame[]>;
}

const initializeOf = (frames: Frame[], page: string) =>
  frames.find((f) => f.kind === 'http-request' && f.body?.text.includes(`"page":"${page}"`));

it('logs nothing of a prerendered page until it is shown; then it begins a new segment, as a navigation does', async () => {
  // The extension page first: a tab opened later would hide /start, and a hidden page does not prerender.
  await extensionPage();
  const tab = (await (await fetch(`http://127.0.0.1:${port}/json/new?${encodeURIComponent(site.url + '/start')}`, { method: 'PUT' })).json()) as CdpTarget;
  const start = await waitFor(async () => Object.values(await logs()).find((fs) => initializeOf(fs, '/start')), 15_000, '/start logged');
  // The prerendered /next has run its script by now (it speaks MCP at once), and is still not in any log.
  await waitFor(async () => heard.some((b) => b.includes('"page":"/next","prerendering":true')) || undefined, 15_000, '/next prerendered and speaking').catch((e) => { throw new Error(`${e} ${JSON.stringify(heard)}`); });
  // Time for its frames to reach the log, were they sent (the relay forwards within half a second while no panel watches).
  await new Promise((r) => setTimeout(r, 2000));
  expect(Object.values(await logs()).some((fs) => initializeOf(fs, '/next'))).toBe(false);
  expect(start.every((f) => f.segment === 1)).toBe(true);
  // The user goes to /next: the prerender is activated.
  await evaluateIn(tab, `location.href = '/next'`);
  const after = await waitFor(async () => Object.values(await logs()).find((fs) => initializeOf(fs, '/next')), 15_000, '/next logged after activation');
  const init = initializeOf(after, '/next')!;
  // It was sent while prerendering, and logged only now, as the top-level page of a new segment.
  expect(init.kind === 'http-request' && init.body?.text).toContain('"prerendering":true');
  const pageStart = after.find((f) => f.kind === 'page-start' && f.doc === init.doc)!;
  expect(pageStart).toMatchObject({ top: true, frameId: 0, segment: 2 });
  expect(after.filter((f) => f.doc === init.doc).every((f) => f.segment === 2)).toBe(true);
  expect(after.filter((f) => f.doc !== init.doc).every((f) => f.segment === 1)).toBe(true);
});
