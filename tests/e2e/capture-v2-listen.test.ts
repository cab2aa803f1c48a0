// 2026-07-28: an SDK v2 browser client and server using `subscriptions/listen`. The long-lived listen stream, its
// acknowledgement and its notifications are captured live, and its end when the client closes it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Frame, HttpRequestFrame } from '../../shared/frames.ts';
import { bundleClient } from '../support/bundle.ts';
import { recordFixture } from '../support/record.ts';
import { loggedFrames, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { startV2Server, type V2Server } from '../support/v2-server.ts';

let browser: Browser;
let mcp: V2Server;
let site: StaticServer;

beforeAll(async () => {
  [browser, mcp, site] = await Promise.all([startBrowser(), startV2Server(), startStaticServer()]);
  site.routes.set('/client.js', js(await bundleClient('tests/e2e/clients/v2-client.ts')));
  site.routes.set('/', html('<h1>v2 client</h1><script src="/client.js"></script>'));
});
afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await site?.close();
});

const method = (f: Frame): string | undefined => {
  const text = f.kind === 'http-request' ? f.body?.text : f.kind === 'sse-event' ? f.data.text : f.kind === 'http-body' ? f.body.text : undefined;
  try {
    return (JSON.parse(text ?? '') as { method?: string }).method;
  } catch {
    return undefined;
  }
};

it('captures the listen stream, its acknowledgement and notifications, live', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate((u) => (window as any).mcp2.connect(u), `${mcp.url}/mcp`);
  const read = await page.evaluate(() => (window as any).mcp2.read('file:///docs/policy.md'));
  expect(read).toEqual({ text: '# Policy\nversion 1\n', ttlMs: 30000 });
  await page.evaluate(() => (window as any).mcp2.listen(['file:///docs/policy.md']));
  const tabId = await tabIdOf(browser, page);

  // The listen stream is open and acknowledged before any update.
  const listenConn = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    const req = fs.find((f): f is HttpRequestFrame & Frame => f.kind === 'http-request' && method(f) === 'subscriptions/listen');
    return req && fs.some((f) => f.kind === 'sse-event' && f.conn === req.conn && method(f) === 'notifications/subscriptions/acknowledged') ? req.conn : undefined;
  }, 10_000, 'listen ack');

  mcp.edit('file:///docs/policy.md');
  await waitFor(() => page.evaluate(() => (window as any).mcp2.updates.length === 1), 5000, 'update in page');
  // Live: the update is in the log while the listen stream is still open.
  const live = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'sse-event' && f.conn === listenConn && method(f) === 'notifications/resources/updated') ? fs : undefined;
  }, 5000, 'update in log');
  expect(live.some((f) => f.kind === 'http-end' && f.conn === listenConn)).toBe(false);
  const update = live.find((f) => f.kind === 'sse-event' && f.conn === listenConn && method(f) === 'notifications/resources/updated');
  expect(update && update.kind === 'sse-event' && JSON.parse(update.data.text).params._meta['io.modelcontextprotocol/subscriptionId']).toBe('listen:0');
  // No sessions on this generation; the protocol version travels in _meta.
  const requests = live.filter((f): f is HttpRequestFrame & Frame => f.kind === 'http-request');
  expect(requests.every((r) => r.headers['mcp-session-id'] === undefined)).toBe(true);
  expect(requests.map(method)).toEqual(['server/discover', 'resources/read', 'subscriptions/listen']);
  const readResult = live.find((f) => f.kind === 'http-body' && f.conn === requests[1]!.conn);
  expect(readResult && readResult.kind === 'http-body' && JSON.parse(readResult.body.text).result.ttlMs).toBe(30000);

  // Closing the subscription aborts the stream: the log records the end (aborted) and the cancel notification.
  expect(await page.evaluate(() => (window as any).mcp2.unlisten())).toBe('local');
  const after = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.some((f) => f.kind === 'http-end' && f.conn === listenConn) && fs.some((f) => method(f) === 'notifications/cancelled') ? fs : undefined;
  }, 5000, 'listen end');
  recordFixture('sdk-v2-listen', after, page.url());
  const end = after.find((f) => f.kind === 'http-end' && f.conn === listenConn);
  expect(end && end.kind === 'http-end' && end.outcome).toBe('aborted');
  await page.close();
});
