// The page must never notice us: the same probes run in a browser with the extension and in one without, and every
// observable (status, headers, url, body bytes, streaming, abort and network errors, identity of the patched globals)
// is identical. The traffic the probes make is captured, also while the page has broken Response.prototype.clone (the
// tap uses the natives captured at document_start) — without the page seeing any error.
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleClient } from '../support/bundle.ts';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';

let withExt: Browser;
let without: Browser;
let site: StaticServer;
let deadUrl: string;

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  [withExt, without, site] = await Promise.all([startBrowser(), startBrowser({ extensionDir: null }), startStaticServer()]);
  installProbeRoutes(site);
  site.routes.set('/probes.js', js(await bundleClient('tests/e2e/clients/probes.ts')));
  site.routes.set('/', html('<h1>probes</h1><script src="/probes.js"></script>'));
  deadUrl = `http://127.0.0.1:${await closedPort()}/mcp`;
});
afterAll(async () => {
  await withExt?.close();
  await without?.close();
  await site?.close();
});

/** The ways the probes cancel a streamed body (tests/e2e/clients/probes.ts CANCELS). */
const CANCELS = ['readerCancel', 'pipeThroughCancel', 'asyncIteratorBreak', 'pipeToAbort', 'prototypeCancel', 'prototypeReaderCancel'];

async function run(b: Browser) {
  const page = await b.context.newPage();
  // The page's own URL carries an OAuth-style code and token: page frames must not (they are redacted at capture).
  await page.goto(site.url + '/?code=page-secret-code#access_token=page-secret-frag');
  const results = await page.evaluate(
    ([base, dead, ws]) => (window as any).runProbes(base, dead, ws),
    [site.url, deadUrl, site.url.replace('http', 'ws') + '/echo'],
  );
  return { page, results: results as Record<string, any> };
}

it('gives the page exactly the same observations with and without the extension', async () => {
  const baseline = await run(without);
  const tapped = await run(withExt);
  // (Soft: a failure lists every probe that differs, not only the first.)
  for (const [name, value] of Object.entries(baseline.results)) {
    expect.soft(tapped.results[name], name).toEqual(value);
  }
  // The probes themselves must have worked (a probe that failed identically on both sides proves nothing).
  const r = baseline.results;
  expect(Object.entries(r).filter(([, v]) => v && typeof v === 'object' && 'probeFailed' in v)).toEqual([]);
  expect(r.streaming.firstBeforeSecond).toBe(true);
  expect(r.neverReadBodies).toEqual({ statuses: [200, 200, 200], nextOk: true, fast: true });
  expect(r.abortBeforeResponse).toMatchObject({ threw: true, name: 'AbortError' });
  expect(r.abortDuringBody).toMatchObject({ threw: true, name: 'AbortError' });
  expect(r.abortWithReason).toMatchObject({ threw: true, name: 'RangeError', message: 'custom reason' });
  expect(r.networkFailureMcp).toMatchObject({ threw: true, name: 'TypeError', isTypeError: true, stackNamesExtension: false });
  expect(r.mcpRedirect).toMatchObject({ redirected: true, url: `${site.url}/rpc` });
  for (const how of CANCELS) {
    expect(r[`sseCancelClosesConnection:${how}`], how).toEqual({ opened: 1, closed: 1 });
  }
  expect(r.jsonCancelClosesConnection).toEqual({ opened: 1, closed: 1 });
  expect(r.bodySurface).toEqual({ surface: { own: [], same: [true, true] }, readerSurface: { own: [], same: true } });
  for (const text of r.crossRealmToString.theirs) expect(text).toMatch(/^function \w+\(\) \{ \[native code\] \}$/);
  expect(r.toStringBadThis).toEqual({ name: 'TypeError', stackNamesExtension: false });
  for (const e of Object.values(r.streamCancelErrors)) expect(e).toEqual({ name: 'TypeError', stackNamesExtension: false });
  expect(r.pagePatchedPrototypes).toEqual({});
  expect(r.eventGetters).toEqual({ counts: {}, errors: [] });
  expect(r.hotPathBuiltins).toEqual({});
  expect(r.initReadOnce.reads.filter((k: string) => k === 'input' || k === 'body.toString' || k === 'method')).toEqual(['method', 'input', 'body.toString']);
  for (const [name, e] of Object.entries(r.syncRejections)) expect(e, name).toMatchObject({ threw: true, isTypeError: true, stackNamesExtension: false });
  expect(r.webSocketSendNoArgument).toEqual({ threw: true, got: ['after'] });
  expect(r.streamBodyRequest.fewPulls).toBe(true);
  expect(r.identity.constructors).toEqual([true, true, true]);
  // (Baselines that make the comparisons above mean something.)
  expect(r.pagePatchedThen).toEqual({ calls: 0 });
  expect(r.wrapperShapes.map((w: { hasPrototype: boolean; constructible: boolean }) => [w.hasPrototype, w.constructible])).toEqual([[false, false], [false, false], [false, false]]);
  const { pageValue, pageError, ...natives } = r.syncErrors;
  expect(Object.values(natives).map((e: any) => [e.name, e.stackNamesExtension])).toEqual([
    ['SyntaxError', false],
    ['InvalidStateError', false],
    ['SyntaxError', false],
    ['TypeError', false],
  ]);
  expect(pageValue).toEqual({ same: true, hasStack: false });
  expect(pageError).toEqual({ message: 'mine', keepsItsFrame: true, stackNamesExtension: false });
  expect(r.throwingCloneInPage.status).toBe(200);
  expect(r.oneShotHeaders.serverSaw).toEqual({ contentType: 'application/json', protocol: '2025-11-25' });
  expect(r.oneShotHeadersWithRequest.serverSaw).toEqual({ contentType: 'application/json', protocol: '2025-11-25' });

  // And the extension did capture the MCP traffic of the tapped run, reporting its own failure as a frame.
  const tabId = await tabIdOf(withExt, tapped.page);
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(withExt, tabId);
    return fs.filter((f) => f.kind === 'http-request').length >= 15 && fs.some((f) => f.kind === 'http-body' && f.body.text.includes('"id":12')) ? fs : undefined;
  }, 10_000, 'captured probes');
  // The page's broken Response.prototype.clone neither broke nor saw the tap: that exchange was captured whole.
  expect(frames.filter((f) => f.kind === 'capture-error')).toEqual([]);
  // Non-MCP requests are not captured.
  const urls = frames.filter((f) => f.kind === 'http-request').map((f) => (f.kind === 'http-request' ? f.url : ''));
  expect(urls.some((u) => u.endsWith('/plain'))).toBe(false);
  // Secrets are redacted before storage.
  const withAuth = frames.find((f) => f.kind === 'http-request' && f.headers.authorization !== undefined);
  expect(withAuth && withAuth.kind === 'http-request' && withAuth.headers.authorization).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
  expect(JSON.stringify(frames)).not.toContain('secret-token');
  // A Request input's body is captured from the clone taken before the native fetch used it.
  const viaRequest = frames.find((f) => f.kind === 'http-request' && f.url.endsWith('/echo-headers') && (f.body?.text ?? '').includes('"id":8'));
  expect(viaRequest && viaRequest.kind === 'http-request' && JSON.parse(viaRequest.body!.text).method).toBe('resources/read');
  // Binary bodies reached the server as sent, and are logged opaque with their true size, not as lossy text.
  const sent = { bytes: 4, sha256: '3e6f9aae16382bf563d8991b6da1b92213911f0dd5deea3ecaccf2f35a56794a' }; // SHA-256 of the bytes 1, 2, 3, 255
  expect(r.binaryBodies).toMatchObject({ blob: sent, typed: sent, buffer: sent, request: sent });
  const binaries = frames.flatMap((f) => (f.kind === 'http-request' && f.url.endsWith('/echo-bytes') ? [f.body] : []));
  expect(binaries).toHaveLength(5);
  for (const b of binaries.slice(0, 4)) expect(b).toEqual({ text: '[binary body, 4 bytes]', opaque: true, truncated: { bytes: 4, hash: expect.stringMatching(/^[0-9a-f]{14}$/) } });
  expect(binaries[4]).toMatchObject({ opaque: true, truncated: { bytes: r.binaryBodies.formBytes } });
  // Each cancelled SSE body ends as the page's abort, not as a body read to its end.
  const foreverConns = frames.flatMap((f) => (f.kind === 'http-request' && f.url.endsWith('/rpc-sse-forever') ? [f.conn] : []));
  expect(foreverConns.length).toBe(CANCELS.length);
  const ends = await waitFor(async () => {
    const fs = await loggedFrames(withExt, tabId);
    const es = fs.filter((f) => f.kind === 'http-end' && foreverConns.includes(f.conn));
    return es.length === CANCELS.length ? es : undefined;
  }, 10_000, 'the cancelled streams ended');
  expect(ends.map((f) => f.kind === 'http-end' && f.outcome)).toEqual(CANCELS.map(() => 'aborted'));
  const pageStart = frames.find((f) => f.kind === 'page-start');
  expect(pageStart && pageStart.kind === 'page-start' && pageStart.url).toMatch(/\?code=%5Bredacted%3A[0-9a-f]{8}%5D#access_token=%5Bredacted/);
  expect(JSON.stringify(frames)).not.toContain('page-secret');
});

it('installs once per document: the hook run a second time in the page taps nothing twice', async () => {
  const page = await withExt.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(site.url + '/');
  // Anyone may ask the question the hook answers: a detail-less or frozen one gets no answer and no error.
  await page.evaluate(() => {
    document.dispatchEvent(new CustomEvent('mcp-devtools:hook-present'));
    document.dispatchEvent(new CustomEvent('mcp-devtools:hook-present', { detail: Object.freeze({ present: false }) }));
  });
  await page.addScriptTag({ path: 'dist/extension/hook/index.iife.js' });
  const status = await page.evaluate(async (base) => {
    const r = await fetch(`${base}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":77,"method":"ping"}' });
    await r.text();
    return r.status;
  }, site.url);
  expect(status).toBe(200);
  const tabId = await tabIdOf(withExt, page);
  const pings = await waitFor(async () => {
    const fs = (await loggedFrames(withExt, tabId)).filter((f) => f.kind === 'http-request' && f.body?.text.includes('"id":77'));
    return fs.length > 0 ? fs : undefined;
  }, 10_000, 'the ping captured');
  await new Promise((r) => setTimeout(r, 1500));
  const again = (await loggedFrames(withExt, tabId)).filter((f) => f.kind === 'http-request' && f.body?.text.includes('"id":77'));
  expect([pings.length, again.length]).toEqual([1, 1]);
  expect(errors).toEqual([]);
  await page.close();
});
