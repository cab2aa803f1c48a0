// SDK v1 browser client over Streamable HTTP to an SDK v1 server, with the built extension in a real Chromium:
// every step of initialize → GET stream → read → subscribe → notification → re-read reaches the background log, in
// order, with the session id and stream attribution, and the panel shows it live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, HttpRequestFrame, SseEventFrame } from '../../shared/frames.ts';
import { bundleClient } from '../support/bundle.ts';
import { recordFixture } from '../support/record.ts';
import { framesWithMethod, loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
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

describe('SDK v1 Streamable HTTP capture', () => {
  it('logs initialize, GET stream, read, subscribe, notification and re-read in order', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    const sessionId = await page.evaluate((u) => (window as any).mcp.connect('streamable', u), `${mcp.url}/mcp`);
    expect(sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'))).toContain('version 1');
    await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/policy.md'));
    // The GET stream must be open before the server can deliver.
    const tabId = await tabIdOf(browser, page);
    await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      const gets = new Set(fs.filter((f) => f.kind === 'http-request' && f.method === 'GET').map((f) => (f as HttpRequestFrame).conn));
      return fs.some((f) => f.kind === 'http-response' && f.status === 200 && gets.has(f.conn));
    }, 10_000, 'GET stream');
    expect(await mcp.edit('file:///docs/policy.md')).toBe(1);
    await waitFor(() => page.evaluate(() => (window as any).mcp.updates.length > 0), 5000, 'notification in page');
    expect(await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'))).toContain('version 2');

    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      if (process.env.DEBUG_FRAMES) console.log(fs.map((f) => `${f.seq} ${f.kind} ${'conn' in f ? f.conn : ''} ${JSON.stringify(f).slice(0, 160)}`).join('\n'));
      return framesWithMethod(fs, 'resources/read').length >= 2 && fs.some((f) => f.kind === 'http-end' && f.conn === lastPostConn(fs)) ? fs : undefined;
    });
    requests = new Map(frames.filter((f): f is HttpRequestFrame & Frame => f.kind === 'http-request').map((f) => [f.conn, f]));

    // Sequence numbers are 1..n without gaps; everything in one tab, top frame.
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i + 1));
    expect(frames[0]!.kind).toBe('page-start');
    const posts = frames.filter((f): f is HttpRequestFrame & Frame => f.kind === 'http-request' && f.method === 'POST');
    const methods = posts.map((p) => (JSON.parse(p.body!.text) as { method?: string }).method);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'resources/read', 'resources/subscribe', 'resources/read']);
    // Session id: set by the initialize response, echoed on every later request.
    const initResponse = frames.find((f) => f.kind === 'http-response' && f.conn === posts[0]!.conn);
    expect(initResponse && initResponse.kind === 'http-response' && initResponse.headers['mcp-session-id']).toBe(sessionId);
    for (const p of posts.slice(1)) expect(p.headers['mcp-session-id']).toBe(sessionId);
    // The notification arrived on the GET stream, not on a POST's stream.
    const updated = frames.find((f): f is SseEventFrame & Frame => f.kind === 'sse-event' && f.data.text.includes('notifications/resources/updated'));
    expect(updated).toBeDefined();
    expect(reqOf(updated!.conn)?.method).toBe('GET');
    expect(reqOf(updated!.conn)?.headers['mcp-session-id']).toBe(sessionId);
    // Order: subscribe result before the notification before the re-read.
    const subscribeSeq = posts[3]!.seq;
    const rereadSeq = posts[4]!.seq;
    expect(subscribeSeq).toBeLessThan(updated!.seq);
    expect(updated!.seq).toBeLessThan(rereadSeq);
    // The re-read's response carries the new content.
    const rereadBody = frames.find((f) => (f.kind === 'http-body' || f.kind === 'sse-event') && f.conn === posts[4]!.conn && f.seq > rereadSeq);
    expect(JSON.stringify(rereadBody)).toContain('version 2');

    recordFixture('sdk-v1-streamable', frames, page.url());

    // The panel, opened as a tab, shows the same traffic.
    const panel = await openPanel(browser.context, browser.extensionId!, tabId, { view: 'messages' });
    await panel.waitForSelector('.status-bar[data-status="live"]');
    await panel.waitForSelector('.frame-row[data-method="notifications/resources/updated"]');
    const shown = await panel.$$eval('.frame-row[data-method]', (rows) => rows.map((r) => r.getAttribute('data-method')));
    expect(shown).toContain('initialize');
    expect(shown).toContain('resources/subscribe');
    const sessionCells = await panel.$$eval('.frame-row[data-method="resources/subscribe"]', (rows) => rows.map((r) => r.getAttribute('data-session')));
    expect(sessionCells[0]).toBe(sessionId);
    await panel.close();
    await page.close();
  });
});

let requests = new Map<string, HttpRequestFrame & Frame>();
function reqOf(conn: string | undefined): HttpRequestFrame | undefined {
  return conn ? requests.get(conn) : undefined;
}
function lastPostConn(frames: Frame[]): string | undefined {
  return frames.filter((f): f is HttpRequestFrame & Frame => f.kind === 'http-request' && f.method === 'POST').at(-1)?.conn;
}
