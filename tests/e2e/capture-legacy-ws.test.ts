// The legacy HTTP+SSE transport (SDK SSEClientTransport: fetch-based GET /sse, `endpoint` event, POST /message) and
// a WebSocket transport (SDK v1 WebSocketClientTransport, subprotocol "mcp") are captured, with a native EventSource
// client for the legacy stream too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame } from '../../shared/frames.ts';
import { bundleClient } from '../support/bundle.ts';
import { recordFixture } from '../support/record.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { html, js, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { LEGACY_KEY, startV1Server, type V1Server } from '../support/v1-server.ts';
import { Engine } from '../../shared/engine/index.ts';

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

const rpcMethods = (frames: Frame[], kind: Frame['kind']) =>
  frames
    .filter((f) => f.kind === kind)
    .map((f) => {
      const text = f.kind === 'sse-event' ? f.data.text : f.kind === 'ws-message' ? f.data.text : f.kind === 'http-request' ? f.body?.text : '';
      try {
        const m = JSON.parse(text ?? '') as { method?: string; result?: unknown };
        return m.method ?? (m.result ? 'result' : '?');
      } catch {
        return f.kind === 'sse-event' ? `event:${f.event}` : '?';
      }
    });

/** The WebSocket messages in order, as direction:method. */
const wsFlow = (frames: Frame[]) => frames.flatMap((m) => (m.kind === 'ws-message' ? [`${m.dir}:${rpcMethods([m], 'ws-message')[0]}`] : []));
/** What both WebSocket clients do: initialize, read, subscribe, then an update arrives. */
const WS_FLOW = [
  'out:initialize',
  'in:result',
  'out:notifications/initialized',
  'out:resources/read',
  'in:result',
  'out:resources/subscribe',
  'in:result',
  'in:notifications/resources/updated',
];

describe('legacy and WebSocket transports', () => {
  it('captures the SDK legacy SSE transport: endpoint event, POSTs to /message, responses on the stream', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    await page.evaluate((u) => (window as any).mcp.connect('sse', u), `${mcp.url}/sse`);
    await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/faq.md'));
    expect(await mcp.edit('file:///docs/faq.md')).toBe(1);
    await waitFor(() => page.evaluate(() => (window as any).mcp.updates.length > 0), 5000, 'update in page');
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return rpcMethods(fs, 'sse-event').includes('notifications/resources/updated') ? fs : undefined;
    });
    const endpoint = frames.find((f) => f.kind === 'sse-event' && f.event === 'endpoint');
    expect(endpoint && endpoint.kind === 'sse-event' && endpoint.data.text).toMatch(/^\/message\?sessionId=/);
    const sseConn = endpoint && 'conn' in endpoint ? endpoint.conn : '';
    const get = frames.find((f) => f.kind === 'http-request' && f.conn === sseConn);
    expect(get && get.kind === 'http-request' && get.url).toBe(`${mcp.url}/sse`);
    const posts = frames.filter((f) => f.kind === 'http-request' && f.method === 'POST');
    expect(posts.every((p) => p.kind === 'http-request' && p.url.startsWith(`${mcp.url}/message?sessionId=`))).toBe(true);
    expect(rpcMethods(posts, 'http-request')).toEqual(['initialize', 'notifications/initialized', 'resources/subscribe']);
    // Responses arrive on the GET stream as `event: message`.
    const onStream = frames.filter((f) => f.kind === 'sse-event' && f.conn === sseConn);
    expect(rpcMethods(onStream, 'sse-event')).toEqual(['event:endpoint', 'result', 'result', 'notifications/resources/updated']);
    recordFixture('sdk-v1-legacy-sse', frames, page.url());
    await page.evaluate(() => (window as any).mcp.close());
    await page.close();
  });

  it('redacts a key in the legacy endpoint as in the POST URLs, and still knows the POSTs belong to its session', async () => {
    const FAQ = 'file:///docs/faq.md';
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    await page.evaluate((u) => (window as any).mcp.connect('sse', u), `${mcp.url}/sse-keyed`);
    expect(await page.evaluate((u) => (window as any).mcp.read(u), FAQ)).toContain('# FAQ');
    await page.evaluate((u) => (window as any).mcp.subscribe(u), FAQ);
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return rpcMethods(fs, 'sse-event').filter((m) => m === 'result').length >= 3 ? fs : undefined;
    });
    expect(JSON.stringify(frames)).not.toContain(LEGACY_KEY);
    const endpoint = frames.find((f) => f.kind === 'sse-event' && f.event === 'endpoint');
    expect(endpoint?.kind === 'sse-event' && endpoint.data.text).toMatch(/^\/message\?api_key=%5Bredacted%3A[0-9a-f]{8}%5D&sessionId=[0-9a-f-]{36}$/);
    // Markers are keyed per page load: the POSTs of this page carry the endpoint's very marker.
    const keyMarker = (u: string) => /api_key=(%5Bredacted%3A[0-9a-f]{8}%5D)/.exec(u)?.[1];
    const posts = frames.flatMap((f) => (f.kind === 'http-request' && f.method === 'POST' ? [f.url] : []));
    expect(posts.length).toBeGreaterThan(0);
    expect(new Set(posts.map(keyMarker))).toEqual(new Set([keyMarker((endpoint as Extract<Frame, { kind: 'sse-event' }>).data.text)]));
    const engine = new Engine();
    engine.applyAll(frames);
    const snap = engine.snapshot(frames.at(-1)!.t);
    const sid = new URL((endpoint as Extract<Frame, { kind: 'sse-event' }>).data.text, mcp.url).searchParams.get('sessionId');
    expect(snap.sessions.map((s) => [s.label, s.transport, s.version])).toEqual([[sid, 'http-sse', expect.stringMatching(/^20\d\d-/)]]);
    expect(snap.uris.find((u) => u.uri === FAQ)).toMatchObject({ cached: true, serverHasSubscription: true });
    await page.evaluate(() => (window as any).mcp.close());
    await page.close();
  });

  it('the SDK legacy SSE stream reconnects by itself to a new session: the panel says it was not initialized, and what it lost', async () => {
    const FAQ = 'file:///docs/faq.md';
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    await page.evaluate((u) => (window as any).mcp.connect('sse', u), `${mcp.url}/sse`);
    expect(await page.evaluate((u) => (window as any).mcp.read(u), FAQ)).toContain('# FAQ');
    await page.evaluate((u) => (window as any).mcp.subscribe(u), FAQ);
    const tabId = await tabIdOf(browser, page);
    const endpoints = (fs: Frame[]) => fs.filter((f) => f.kind === 'sse-event' && f.event === 'endpoint');
    expect(await mcp.dropLegacyStreams()).toBe(1);
    // The SDK's EventSource reconnects (3 s later) and gets a new endpoint; SSEClientTransport just follows it.
    await waitFor(async () => endpoints(await loggedFrames(browser, tabId)).length === 2, 15_000, 'second endpoint event');
    // The page's client goes on: the read works on the new session, which was never initialized…
    expect(await page.evaluate((u) => (window as any).mcp.read(u), FAQ)).toContain('# FAQ');
    // …and holds no subscription: the server has nobody to tell.
    expect(await mcp.edit(FAQ)).toBe(0);
    const frames = await loggedFrames(browser, tabId);
    const [first, second] = endpoints(frames).map((f) => (f.kind === 'sse-event' ? new URL(f.data.text, mcp.url).searchParams.get('sessionId') : null));
    expect(first).not.toBe(second);
    const panel = await openPanel(browser.context, browser.extensionId!, tabId, { view: 'sessions' });
    try {
      const sessionRows = () =>
        panel.$$eval('.session-row', (rs) => rs.map((r) => [r.getAttribute('data-session'), r.getAttribute('data-end-cause'), r.children[3]?.textContent?.trim()]));
      await expect.poll(sessionRows, { timeout: 10_000 }).toEqual([
        [second, '', 'not initialized'],
        [first, 'transport-closed', expect.stringMatching(/^\d{4}-\d\d-\d\d$/)],
      ]);
      await expect.poll(() => panel.$eval('tr[data-metric="reconnects"] td', (td) => td.textContent), { timeout: 10_000 }).toBe('1');
      // Past the engine's 2 s grace the findings stand.
      await panel.click('[role="tab"][data-view="resources"]', { timeout: 5000 });
      const findingsOf = (uri: string) => panel.$$eval(`.uri-row[data-uri="${uri}"]`, (rs) => rs.map((r) => r.getAttribute('data-findings')?.split(' ').sort()));
      await expect
        .poll(() => findingsOf(FAQ), { timeout: 10_000 })
        .toEqual([['cached-not-subscribed', 'phantom-subscription']]);
      await panel.click('[role="tab"][data-view="findings"]', { timeout: 5000 });
      await expect
        .poll(() => panel.$$eval('.finding-row[data-finding-id="session-expired-not-reinitialized"]', (rs) => rs.map((r) => r.getAttribute('data-severity'))), { timeout: 10_000 })
        .toEqual(['error']);
    } finally {
      await panel.close();
    }
    await page.evaluate(() => (window as any).mcp.close());
    await page.close();
  });

  it('captures a native EventSource on the legacy endpoint', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    await page.evaluate((u) => {
      const es = new EventSource(u);
      (window as any).endpoint = new Promise((ok) => es.addEventListener('endpoint', (e) => ok((e as MessageEvent).data)));
      (window as any).es = es;
    }, `${mcp.url}/sse`);
    const endpointPath: string = await page.evaluate(() => (window as any).endpoint);
    expect(endpointPath).toMatch(/^\/message\?sessionId=/);
    await page.evaluate(() => (window as any).es.close());
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return fs.some((f) => f.kind === 'es-close') ? fs : undefined;
    });
    expect(frames.map((f) => f.kind).filter((k) => k.startsWith('es-') || k === 'sse-event')).toEqual(['es-connect', 'es-open', 'sse-event', 'es-close']);
    const ev = frames.find((f) => f.kind === 'sse-event');
    expect(ev && ev.kind === 'sse-event' && [ev.event, ev.data.text]).toEqual(['endpoint', endpointPath]);
    await page.close();
  });

  it('captures the SDK WebSocket transport in both directions', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    await page.evaluate((u) => (window as any).mcp.connect('ws', u), `${mcp.url.replace('http', 'ws')}/ws`);
    expect(await page.evaluate(() => (window as any).mcp.read('file:///docs/policy.md'))).toContain('# Policy');
    await page.evaluate(() => (window as any).mcp.subscribe('file:///docs/policy.md'));
    expect(await mcp.edit('file:///docs/policy.md')).toBe(1);
    await waitFor(() => page.evaluate(() => (window as any).mcp.updates.length > 0), 5000, 'update in page');
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return fs.filter((f) => f.kind === 'ws-message').length >= 7 ? fs : undefined;
    });
    const connect = frames.find((f) => f.kind === 'ws-connect');
    expect(connect && connect.kind === 'ws-connect' && connect.protocols).toEqual(['mcp']);
    const open = frames.find((f) => f.kind === 'ws-open');
    expect(open && open.kind === 'ws-open' && open.protocol).toBe('mcp');
    expect(wsFlow(frames)).toEqual(WS_FLOW);
    await page.evaluate(() => (window as any).mcp.close());
    const closed = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return fs.some((f) => f.kind === 'ws-close') ? fs : undefined;
    }, 5000, 'ws-close');
    recordFixture('sdk-v1-websocket', closed, page.url());
    await page.close();
  });

  it('does not log what the page sends on a closed socket (the browser drops it without a word)', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    const threw = await page.evaluate(async (url) => {
      const ws = new WebSocket(url, 'mcp');
      await new Promise((r) => (ws.onopen = r));
      const answered = new Promise((r) => (ws.onmessage = r));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'late-sender', version: '1' } } }));
      await answered;
      ws.close();
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }));
      await new Promise((r) => (ws.onclose = r));
      try {
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }));
        return false;
      } catch {
        return true;
      }
    }, `${mcp.url.replace('http', 'ws')}/ws`);
    expect(threw).toBe(false);
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return fs.some((f) => f.kind === 'ws-close') ? fs : undefined;
    }, 5000, 'ws-close');
    expect(wsFlow(frames)).toEqual(['out:initialize', 'in:result']);
    await page.close();
  });

  it('captures Blob messages in both directions, in the order the page saw them', async () => {
    const page = await browser.context.newPage();
    await page.goto(site.url + '/');
    // A hand-written client: it sends Blobs, and the server answers in binary frames (Blobs, the default binaryType).
    const got = await page.evaluate(async (url) => {
      const ws = new WebSocket(url, 'mcp');
      const waiting = new Map<number, (m: any) => void>();
      const updates: string[] = [];
      ws.onmessage = async (ev) => {
        const m = JSON.parse(await (ev.data as Blob).text());
        if (m.id !== undefined) waiting.get(m.id)?.(m);
        else if (m.method === 'notifications/resources/updated') updates.push(m.params.uri);
      };
      await new Promise((r) => (ws.onopen = r));
      const blob = (m: object) => new Blob([JSON.stringify({ jsonrpc: '2.0', ...m })]);
      const call = (id: number, method: string, params: object) =>
        new Promise<any>((r) => {
          waiting.set(id, r);
          ws.send(blob({ id, method, params }));
        });
      const init = await call(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'blob-client', version: '1' } });
      // A Blob and then a string, back to back: the log must keep this order although the Blob is read later.
      ws.send(blob({ method: 'notifications/initialized' }));
      const read = new Promise<any>((r) => waiting.set(2, r));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///docs/policy.md' } }));
      const text = (await read).result.contents[0].text as string;
      await call(3, 'resources/subscribe', { uri: 'file:///docs/policy.md' });
      (window as any).blobUpdates = updates;
      return { version: init.result.protocolVersion as string, text };
    }, `${mcp.url.replace('http', 'ws')}/ws-binary`);
    expect(got.version).toBe('2025-06-18');
    expect(got.text).toContain('# Policy');
    expect(await mcp.edit('file:///docs/policy.md')).toBe(1);
    await waitFor(() => page.evaluate(() => (window as any).blobUpdates.length > 0), 5000, 'update in page');
    const tabId = await tabIdOf(browser, page);
    const frames = await waitFor(async () => {
      const fs = await loggedFrames(browser, tabId);
      return fs.filter((f) => f.kind === 'ws-message').length >= 8 ? fs : undefined;
    });
    expect(wsFlow(frames)).toEqual(WS_FLOW);
    // Frames of one socket stay in order: the open before every message.
    const kinds = frames.filter((f) => f.kind.startsWith('ws-')).map((f) => f.kind);
    expect(kinds.slice(0, 2)).toEqual(['ws-connect', 'ws-open']);
    await page.close();
  });
});
