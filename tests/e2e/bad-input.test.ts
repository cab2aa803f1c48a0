// Bad input from the page: malformed JSON-RPC, non-JSON SSE data, a 5 MB response, forged hook messages of the wrong
// shape. Each ends as a visible entry (panel) or a counted drop (status line); nothing crashes, nothing else is lost.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { payloadHash } from '../../shared/payload.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, tabStats, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { hashText } from '../../shared/hash.ts';

let browser: Browser;
let site: StaticServer;

beforeAll(async () => {
  [browser, site] = await Promise.all([startBrowser(), startStaticServer()]);
  installProbeRoutes(site);
  site.routes.set('/bad-sse', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message\ndata: this is not json\n\n');
    res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}\n\n`);
  });
  site.routes.set('/', html('<h1>bad input</h1>'));
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('shows or counts every bad input and keeps capturing', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const pageSaw = await page.evaluate(async () => {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    // Malformed JSON-RPC request body (truncated JSON).
    await (await fetch('/rpc', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":1,"method":"resources/re' })).text();
    // Non-JSON data on an MCP SSE stream.
    const sse = await (await fetch('/bad-sse', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' })).text();
    // A 5 MB response: the page gets all of it.
    const big = await (await fetch('/big?mb=5', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":3,"method":"resources/read"}' })).text();
    // Forged hook messages: wrong detail types, no tag, wrong tag, bad frame shapes.
    const forge = (detail: unknown) => document.dispatchEvent(new CustomEvent('mcp-devtools:hook', { detail }));
    forge('not json');
    forge({ tag: 'mcp-devtools/1', frames: [] });
    forge(JSON.stringify({ frames: [] }));
    forge(JSON.stringify({ tag: 'evil', frames: [] }));
    forge(JSON.stringify({ tag: 'mcp-devtools/1', frames: 'nope' }));
    forge(JSON.stringify({ tag: 'mcp-devtools/1', frames: [{ kind: 'http-request', doc: 'x', n: 1, t: 1 }, { kind: 'rm -rf', doc: 'x', n: 2, t: 2 }, 42] }));
    window.postMessage({ tag: 'mcp-devtools/1', frames: [] }, '*');
    // Real traffic afterwards is still captured.
    await (await fetch('/rpc', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":4,"method":"resources/list"}' })).text();
    return { sse, bigLength: big.length };
  });
  expect(pageSaw.sse).toContain('this is not json');
  expect(pageSaw.bigLength).toBeGreaterThan(5 * 1024 * 1024);
  // (Found by its page-start, which a page sends with its first MCP frame.)
  const tabId = await tabIdOf(browser, page);

  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'http-request' && f.body?.text.includes('resources/list')) && fs.filter((f) => f.kind === 'http-end').length >= 4 ? fs : undefined;
  }, 10_000, 'all traffic logged');

  // The malformed request is captured as is.
  expect(frames.some((f) => f.kind === 'http-request' && f.body?.text === '{"jsonrpc":"2.0","id":1,"method":"resources/re')).toBe(true);
  // The non-JSON SSE event is captured as is.
  expect(frames.some((f) => f.kind === 'sse-event' && f.data.text === 'this is not json')).toBe(true);
  // The 5 MB body is capped at 256 KiB with its full size and the hash of the full text.
  const big = frames.find((f) => f.kind === 'http-body' && f.body.truncated);
  expect(big && big.kind === 'http-body').toBe(true);
  if (big?.kind !== 'http-body') return;
  expect(big.body.text.length).toBeLessThanOrEqual(256 * 1024);
  expect(big.body.truncated!.bytes).toBe(pageSaw.bigLength);
  const fullText = JSON.stringify({ jsonrpc: '2.0', id: 5, result: { contents: [{ uri: 'file:///big', text: 'x'.repeat(5 * 1024 * 1024) }] } });
  expect(payloadHash(big.body)).toBe(hashText(fullText));
  // Forged messages: counted, none stored. (6 CustomEvents: 5 bad messages + 3 bad frames in the last one = 8.)
  const stats = await waitFor(async () => {
    const s = await tabStats(browser, tabId);
    return s.rejected >= 8 ? s : undefined;
  }, 5000, 'rejected counted');
  expect(stats.rejected).toBe(8);
  expect(stats.rejectedWhy).toBeTruthy();
  expect(frames.some((f) => f.doc === 'x')).toBe(false);

  // The panel shows the bad entries and the rejected count.
  const panel = await openPanel(browser.context, browser.extensionId!, tabId, { view: 'messages' });
  await panel.waitForSelector('.status-bar[data-status="live"]');
  expect(await panel.textContent('[data-count="rejected"]')).toContain('8 rejected');
  await panel.waitForSelector('.frame-row.has-error');
  const errors = await panel.$$eval('.frame-row.has-error', (rows) => rows.map((r) => r.textContent ?? ''));
  expect(errors.some((t) => t.includes('not JSON') && t.includes('this is not json'))).toBe(true);
  expect(await panel.textContent('.frame-list')).toContain('truncated body');
  await panel.close();
  await page.close();
});

it('a forged message too large for a runtime message is counted as lost; capture goes on (a relay audit, 2026-12-04)', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const h = { 'content-type': 'application/json' };
  await page.evaluate(async (headers) => {
    await (await fetch('/rpc', { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).text();
    // Tagged like the hook's, and 72 MB of UTF-8 (24 M characters of '€'): no runtime message can carry it.
    document.dispatchEvent(new CustomEvent('mcp-devtools:hook', { detail: '{"tag":"mcp-devtools/1","frames":[{"kind":"x","pad":"' + '€'.repeat(24 * 1024 * 1024) + '"}]}' }));
    await new Promise((r) => setTimeout(r, 1500));
    await (await fetch('/rpc', { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":2,"method":"resources/list"}' })).text();
  }, h);
  const tabId = await tabIdOf(browser, page);
  await waitFor(async () => ((await loggedFrames(browser, tabId)).some((f) => f.kind === 'http-request' && f.body?.text.includes('resources/list')) ? true : undefined), 15_000, 'the later request logged');
  const stats = await waitFor(async () => {
    const st = await tabStats(browser, tabId);
    return st.dropped > 0 ? st : undefined;
  }, 10_000, 'the lost batch counted');
  expect(stats.dropped).toBeGreaterThanOrEqual(1);
  await page.close();
});

it('a page script that forges the relay-gone signal stops capture visibly, not silently', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const status = await page.evaluate(async () => {
    const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    await (await fetch('/rpc', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).text();
    document.dispatchEvent(new CustomEvent('mcp-devtools:relay-gone', { detail: 'mcp-devtools/1' }));
    // The page itself is unaffected.
    return (await fetch('/rpc', { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":2,"method":"ping"}' })).status;
  });
  expect(status).toBe(200);
  const tabId = await tabIdOf(browser, page);
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'capture-error') ? fs : undefined;
  }, 10_000, 'capture-error logged');
  const stopped = frames.find((f) => f.kind === 'capture-error');
  expect(stopped?.kind === 'capture-error' && stopped.message).toContain('capture stopped: the relay said it is gone');
  expect(frames.some((f) => f.kind === 'http-request' && f.body?.text.includes('"id":1'))).toBe(true);
  await page.close();
});
