// The ways a page may call fetch that the hook must still capture, in real Chromium with the built extension: a null
// receiver (fetch.call(null, …), as wrapper libraries do), an init that is a Proxy with only a get trap (its target is
// empty: read through the target, a first initialize was logged as a bodiless GET), an init that is a class with
// getters, and a Request whose init says `body: null` (the Request's own body is sent). And a body the page read to its
// end and then cancelled (`finally { reader.cancel() }`) is logged whole, not as "the page cancelled the body".
// (A review of the hook's non-interference rework, 2026-12-05.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame } from '../../shared/frames.ts';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: Browser;
let site: StaticServer;

beforeAll(async () => {
  [browser, site] = await Promise.all([startBrowser(), startStaticServer()]);
  installProbeRoutes(site);
  site.routes.set('/', html('<h1>call shapes</h1>'));
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('captures every call shape with its method and body, and a body read to its end then cancelled as complete', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const pageSaw = await page.evaluate(async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const rpc = (id: number, method: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'shapes', version: '1' } } });
    const texts: string[] = [];
    // 1. A null receiver.
    texts.push(await (await fetch.call(null, '/rpc', { method: 'POST', headers, body: rpc(1, 'initialize') })).text());
    // 2. A Proxy init whose target is empty: everything comes from its get trap.
    const real: Record<string, unknown> = { method: 'POST', headers, body: rpc(2, 'resources/list') };
    texts.push(await (await fetch('/rpc', new Proxy({}, { get: (_t, k) => real[k as string] }))).text());
    // 3. A class instance with getters.
    class Init {
      get method() { return 'POST'; }
      get headers() { return headers; }
      get body() { return rpc(3, 'resources/read'); }
    }
    texts.push(await (await fetch('/rpc', new Init() as RequestInit)).text());
    // 4. A Request with a body, fetched with `body: null` in init: the Request's body is what is sent.
    texts.push(await (await fetch(new Request('/rpc', { method: 'POST', headers, body: rpc(4, 'resources/templates/list') }), { body: null })).text());
    // 5. A 1 MB JSON answer read to its end, then the reader cancelled in finally.
    const res = await fetch('/big?mb=1', { method: 'POST', headers, body: rpc(5, 'resources/read') });
    const reader = res.body!.getReader();
    let bytes = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
      }
    } finally {
      await reader.cancel();
    }
    return { ids: texts.map((t) => (JSON.parse(t) as { id: number }).id), bytes };
  });
  // The page got its answers (the probe server echoes each request's id).
  expect(pageSaw.ids).toEqual([1, 2, 3, 4]);
  const tabId = await tabIdOf(browser, page);
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.filter((f) => f.kind === 'http-end').length >= 5 ? fs : undefined;
  }, 10_000, 'five exchanges logged');
  const requests = frames.filter((f): f is Extract<Frame, { kind: 'http-request' }> => f.kind === 'http-request');
  const methods = requests.map((r) => [r.method, new URL(r.url).pathname, /"method":"([^"]+)"/.exec(r.body?.text ?? '')?.[1] ?? 'no body']);
  expect(methods).toEqual([
    ['POST', '/rpc', 'initialize'],
    ['POST', '/rpc', 'resources/list'],
    ['POST', '/rpc', 'resources/read'],
    ['POST', '/rpc', 'resources/templates/list'],
    ['POST', '/big', 'resources/read'],
  ]);
  // Each request once: the Proxy's and the getters' values were read once, by one Request.
  expect(requests).toHaveLength(5);
  const big = requests[4]!.conn;
  const end = frames.find((f): f is Extract<Frame, { kind: 'http-end' }> => f.kind === 'http-end' && f.conn === big)!;
  expect(end).toMatchObject({ outcome: 'complete', bytes: pageSaw.bytes });
  expect(pageSaw.bytes).toBeGreaterThan(1024 * 1024);
  await page.close();
});
