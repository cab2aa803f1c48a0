// Clear keeps the frames that opened the exchanges still open (background/open-exchanges.ts): what those exchanges
// bring after the clear still has its transport, session and request. Real TabLog and LogStore over fake-indexeddb,
// frames scripted by the same clients the engine tests use, and the real engine on what the log holds afterwards.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { LogStore } from '../../../background/log-store.ts';
import { MAX_OPEN_EXCHANGES, trackOpen, type OpenExchanges } from '../../../background/open-exchanges.ts';
import { TabLog } from '../../../background/tab-log.ts';
import { Tabs } from '../../../background/tabs.ts';
import { PanelHub } from '../../../background/panel-ports.ts';
import type { SettingsStore } from '../../../background/settings.ts';
import type { BackgroundToPanel } from '../../../shared/messages.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import type browser from 'webextension-polyfill';
import { connOf, type Frame } from '../../../shared/frames.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';
import { Engine, messagesSlice } from '../../../shared/engine/index.ts';
import { asPageFrames, FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

let dbCount = 0;
const caps = () => ({ maxFrames: 100_000, maxBytes: 1e9 });

/** Sends what the script emitted since the last call, as the relay would (page frames, no stamps). */
function sender(log: TabLog, script: FrameLog) {
  let sent = 0;
  let batch = 0;
  return async () => {
    const frames = asPageFrames(script.frames.slice(sent));
    sent = script.frames.length;
    await log.accept('relay-1', ++batch, [JSON.stringify({ tag: PAGE_TAG, frames })], 0, 0);
  };
}

async function waitUntil(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('Clear keeps the exchanges still open', () => {
  it('keeps the opening frames of open streams and requests, renumbered, and drops everything else', async () => {
    const store = new LogStore(`clear-keeps-${++dbCount}`);
    const log = new TabLog(1, store, caps, () => false, { watchedMs: 5, unwatchedMs: 5 });
    const script = new FrameLog();
    const send = sender(log, script);
    script.pageStart('http://localhost:8080/');
    const c = new StreamableClient(script, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    c.subscribe('file:///a');
    const get = c.openGet();
    get.updated('file:///a');
    c.read('file:///a', 'one');
    const pending = c.beginRead('file:///a');
    const m = new ModernClient(script, 'http://localhost:3001/mcp');
    m.discover();
    const listen = m.listen(['file:///b']);
    const legacy = new LegacySseClient(script, 'http://localhost:3002/sse', 'eventsource');
    legacy.connect('L0');
    legacy.initialize();
    // The EventSource reconnects twice: only the first open and the latest endpoint (session L1) are kept.
    legacy.drop();
    legacy.connect('Lx');
    legacy.drop();
    legacy.connect('L1');
    const ws = new WsClient(script, 'ws://localhost:3003/');
    ws.connect();
    ws.initialize();
    const closed = new WsClient(script, 'ws://localhost:3004/');
    closed.connect();
    script.emit({ kind: 'ws-close', conn: closed.conn, code: 1000, reason: '', wasClean: true });
    await send();
    // Another document in the tab (an iframe) opens a GET stream and goes away; its pagehide handler's DELETE, sent
    // after its page-end, never gets an end of its own. Neither is kept.
    const gone = new FrameLog('doc-2', script.t);
    gone.pageStart('http://localhost:8080/frame');
    const g = new StreamableClient(gone, 'http://localhost:3000/mcp');
    g.initialize({ sessionId: 'G1' });
    g.openGet();
    gone.pageEnd('http://localhost:8080/frame');
    const del = gone.newConn('del');
    gone.httpRequest(del, 'DELETE', 'http://localhost:3000/mcp', { 'mcp-session-id': 'G1' });
    await sender(log, gone)();
    const before = log.stats();

    const { stats, kept } = await log.clear();

    const key = (f: Frame) => `${f.kind} ${connOf(f) ?? ''}${f.kind === 'sse-event' ? ` ${f.event ?? ''}` : ''}`.trim();
    expect(kept.map(key)).toEqual([
      `http-request ${get.conn}`,
      `http-response ${get.conn}`,
      `http-request ${pending.conn}`,
      `http-request ${listen.conn}`,
      `http-response ${listen.conn}`,
      `sse-event ${listen.conn} message`, // the acknowledgement
      `es-connect ${legacy.conn}`,
      `es-open ${legacy.conn}`,
      `sse-event ${legacy.conn} endpoint`,
      `ws-connect ${ws.conn}`,
      `ws-open ${ws.conn}`,
    ]);
    expect(kept.find((f) => f.kind === 'sse-event' && f.event === 'endpoint')).toMatchObject({ data: { text: '/message?sessionId=L1' } });
    // New numbers after the last one (never reused), contiguous: the log holds exactly these.
    expect(kept.map((f) => f.seq)).toEqual(kept.map((_, i) => before.lastSeq + 1 + i));
    expect(stats).toMatchObject({ frames: kept.length, lastSeq: before.lastSeq + kept.length });
    expect((await store.readAfter(1, 0, 1000)).map((f) => f.seq)).toEqual(kept.map((f) => f.seq));

    // After the clear: the GET stream and the listen deliver, the pending read is answered, the legacy stream answers.
    get.updated('file:///a');
    listen.updated('file:///b');
    pending.respond({ contents: [{ uri: 'file:///a', text: 'two' }] });
    legacy.call('resources/read', { uri: 'file:///c' }, { contents: [] });
    ws.call('resources/read', { uri: 'file:///d' }, { contents: [] });
    await send();

    const frames = await store.readAfter(1, 0, 1000);
    const e = Engine.replay(frames);
    const messages = messagesSlice(e.snapshot(script.t).messages);
    const notified = messages.filter((x) => x.method === 'notifications/resources/updated');
    expect(notified.map((x) => [x.transport, x.session, x.streamKind])).toEqual([
      ['streamable-http', 'S1', 'get'],
      ['streamable-http', undefined, 'listen'],
    ]);
    // The read's answer is paired with its request, which the clear kept.
    const answer = messages.find((x) => x.kind === 'result' && x.conn === pending.conn)!;
    expect(answer.method).toBe('resources/read');
    expect(answer.pair).toBeDefined();
    // The legacy stream's answer belongs to session L1.
    const legacyAnswer = messages.find((x) => x.kind === 'result' && x.conn === legacy.conn)!;
    expect(legacyAnswer.session).toBe('L1');
    // The WebSocket's messages keep their transport and connection session.
    const wsAnswer = messages.find((x) => x.kind === 'result' && x.conn === ws.conn)!;
    expect([wsAnswer.transport, wsAnswer.session]).toEqual(['websocket', `ws:${ws.conn}`]);

    // What ended since is not kept by the next clear; what is still open is, again.
    get.close();
    await send();
    const again = await log.clear();
    expect(again.kept.map(key)).not.toContain(`http-request ${get.conn}`);
    expect(again.kept.map(key)).toContain(`http-request ${listen.conn}`);
    expect(again.kept.map(key)).not.toContain(`http-request ${pending.conn}`);
  });

  it('forgets what a page took with it, and caps how many it remembers', () => {
    const open: OpenExchanges = {};
    let seq = 0;
    const f = (doc: string, kind: string, conn: string, extra: object = {}) => trackOpen(open, { kind, doc, conn, seq: ++seq, n: seq, t: seq, frameId: 0, segment: 1, ...extra } as unknown as Frame);
    f('a', 'http-request', 'a.1', { method: 'GET', url: 'http://x/', headers: {} });
    f('b', 'ws-connect', 'b.1', { url: 'ws://x/', protocols: [] });
    f('a', 'page-end', undefined as unknown as string, { url: 'http://x/', persisted: false });
    expect(Object.keys(open)).toEqual(['b.1']);
    f('b', 'es-connect', 'b.2', { url: 'http://x/sse', withCredentials: false });
    f('b', 'es-error', 'b.2', { readyState: 0 });
    expect(Object.keys(open)).toEqual(['b.1', 'b.2']);
    f('b', 'es-error', 'b.2', { readyState: 2 });
    expect(Object.keys(open)).toEqual(['b.1']);
    for (let i = 0; i < MAX_OPEN_EXCHANGES + 5; i++) f('c', 'http-request', `c.${i}`, { method: 'POST', url: 'http://x/', headers: {} });
    // Past the cap the oldest requests go; the stream stays.
    expect(Object.keys(open).length).toBe(MAX_OPEN_EXCHANGES);
    expect(open['b.1']).toBeDefined();
    expect(open['c.0']).toBeUndefined();
    expect(open[`c.${MAX_OPEN_EXCHANGES + 4}`]).toBeDefined();
  });

  it('takes a page\'s connection named constructor or __proto__ like any other (a lookup found Object and the batch failed)', async () => {
    const store = new LogStore(`clear-keeps-${++dbCount}`);
    const log = new TabLog(1, store, caps, () => false, { watchedMs: 5, unwatchedMs: 5 });
    const frames = ['constructor', '__proto__', 'hasOwnProperty'].flatMap((conn, i) => [
      { kind: 'http-request', doc: 'd', n: 2 * i + 1, t: 1, conn, method: 'POST', url: 'http://x/mcp', headers: {}, body: { text: '{"jsonrpc":"2.0","id":1,"method":"resources/read"}' } },
      { kind: 'http-response', doc: 'd', n: 2 * i + 2, t: 2, conn, status: 200, statusText: 'OK', url: 'http://x/mcp', redirected: false, headers: { 'content-type': 'text/event-stream' } },
    ]);
    const start = { kind: 'page-start', doc: 'd', n: 0, t: 0, url: 'http://x/', top: true };
    await log.accept('relay-1', 1, [JSON.stringify({ tag: PAGE_TAG, frames: [start, ...frames] })], 0, 0);
    expect((await store.readAfter(1, 0, 100)).map((f) => connOf(f))).toEqual([undefined, 'constructor', 'constructor', '__proto__', '__proto__', 'hasOwnProperty', 'hasOwnProperty']);
    // Clear keeps the three open exchanges, and nothing leaked onto Object.prototype.
    const { kept } = await log.clear();
    expect(kept.map((f) => `${f.kind} ${connOf(f)}`)).toEqual(frames.map((f) => `${f.kind} ${f.conn}`));
    expect(({} as Record<string, unknown>).seqs).toBeUndefined();
    // A response head whose request is not open, on a connection named after an Object.prototype method: stored.
    const orphan = { ...frames[1]!, conn: 'valueOf', n: 9 };
    await log.accept('relay-1', 2, [JSON.stringify({ tag: PAGE_TAG, frames: [orphan] })], 0, 0);
    expect((await store.readAfter(1, 0, 100)).map((f) => connOf(f)).at(-1)).toBe('valueOf');
  });

  it("the caps' trim keeps an open exchange's opening request (trim-keep.ts), so Clear keeps it too, also after a worker restart", async () => {
    const store = new LogStore(`clear-keeps-${++dbCount}`);
    let cap = 100_000;
    const fast = { watchedMs: 5, unwatchedMs: 5 };
    const log = new TabLog(1, store, () => ({ maxFrames: cap, maxBytes: 1e9 }), () => false, fast);
    const script = new FrameLog();
    const send = sender(log, script);
    script.pageStart('http://localhost:8080/');
    const c = new StreamableClient(script, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const early = script.newConn('get');
    script.httpRequest(early, 'GET', 'http://localhost:3000/mcp', { 'mcp-session-id': 'S1', accept: 'text/event-stream' });
    await send(); // chunk 1: page-start, initialize, initialized, the early GET's request (10 frames)
    script.httpResponse(early, 200, 'http://localhost:3000/mcp', { 'content-type': 'text/event-stream' });
    await send(); // chunk 2: its response head
    const get = c.openGet();
    await send(); // chunk 3: another GET stream
    // The caps shrink: the next write drops the oldest chunk but the page-start and the early GET's request (it is open;
    // what is kept may take half the cap).
    cap = 10;
    script.emit({ kind: 'sse-comment', conn: get.conn, text: 'keep-alive' });
    await send();
    const before = log.stats();
    expect(before.dropped).toBe(8);
    // A new worker: the log and what is open come back from IndexedDB.
    const restarted = new TabLog(1, store, () => ({ maxFrames: cap, maxBytes: 1e9 }), () => false, fast);
    const { kept } = await restarted.clear();
    expect(kept.map((f) => `${f.kind} ${connOf(f)}`)).toEqual([`http-request ${early}`, `http-response ${early}`, `http-request ${get.conn}`, `http-response ${get.conn}`]);
    expect(kept[0]!.seq).toBe(before.lastSeq + 1);
  });

  it('a panel still reading the backlog when the log is cleared hears it, then gets what it kept, once', async () => {
    const tabs = new Tabs(new LogStore(`clear-keeps-${++dbCount}`));
    tabs.watch(1, 1);
    const script = new FrameLog();
    script.pageStart('http://localhost:8080/');
    const c = new StreamableClient(script, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    for (let i = 0; i < 1500; i++) c.read('file:///a', `v${i}`);
    await sender(tabs.get(1), script)();
    const settings = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS } as unknown as SettingsStore;
    const hub = new PanelHub(tabs, settings);
    const sent: BackgroundToPanel[] = [];
    let onMessage: (m: unknown) => void = () => undefined;
    const port = {
      postMessage: (m: BackgroundToPanel) => {
        sent.push(m);
        // The first chunk of the backlog is out: the user clears now.
        if (m.type === 'backlog' && !m.done && sent.filter((x) => x.type === 'backlog').length === 1) onMessage({ type: 'clear' });
      },
      onMessage: { addListener: (f: (m: unknown) => void) => void (onMessage = f) },
      onDisconnect: { addListener: () => undefined },
    } as unknown as browser.Runtime.Port;
    hub.onPort(port);
    onMessage({ type: 'hello', tabId: 1, since: 0 });
    await waitUntil(() => sent.some((m) => m.type === 'backlog' && m.done));
    await new Promise((r) => setTimeout(r, 50));
    // What a panel builds from these messages (panel/store.ts: 'cleared' empties it).
    let shown: Frame[] = [];
    for (const m of sent) {
      if (m.type === 'cleared') shown = [];
      if (m.type === 'backlog' || m.type === 'frames') shown.push(...m.frames);
    }
    expect(sent.map((m) => m.type)).toContain('cleared');
    expect(shown.map((f) => `${f.kind} ${connOf(f)}`)).toEqual([`http-request ${get.conn}`, `http-response ${get.conn}`]);
  });
});
