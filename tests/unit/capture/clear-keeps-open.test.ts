// Clear keeps the frames that opened the exchanges still open (background/open-exchanges.ts): what those exchanges
// bring after the clear still has its transport, session and request. Real TabLog and LogStore over fake-indexeddb,
// frames scripted by the same clients the engine tests use, and the real engine on what the log holds afterwards.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { LogStore } from '../../../background/log-store.ts';
import { MAX_OPEN_EXCHANGES, trackOpen, type OpenExchanges } from '../../../background/open-exchanges.ts';
import { TabLog } from '../../../background/tab-log.ts';
import { connOf, type Frame } from '../../../shared/frames.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';
import { Engine, messagesSlice } from '../../../shared/engine/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

let dbCount = 0;
const caps = () => ({ maxFrames: 100_000, maxBytes: 1e9 });

/** Sends what the script emitted since the last call, as the relay would (page frames, no stamps). */
function sender(log: TabLog, script: FrameLog) {
  let sent = 0;
  let batch = 0;
  return async () => {
    const frames = script.frames.slice(sent).map(({ seq: _s, frameId: _f, segment: _g, ...pf }) => pf);
    sent = script.frames.length;
    await log.accept('relay-1', ++batch, [JSON.stringify({ tag: PAGE_TAG, frames })], 0, 0);
  };
}

describe('Clear keeps the exchanges still open', () => {
  it('keeps the opening frames of open streams and requests, renumbered, and drops everything else', async () => {
    const store = new LogStore(`clear-keeps-${++dbCount}`);
    const log = new TabLog(1, store, caps, () => false, { watchedMs: 5, unwatchedMs: 5 });
    const script = new FrameLog();
    const send = sender(log, script);
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
    legacy.connect('L1');
    legacy.initialize();
    const ws = new WsClient(script, 'ws://localhost:3003/');
    ws.connect();
    ws.initialize();
    script.emit({ kind: 'ws-close', conn: ws.conn, code: 1000, reason: '', wasClean: true });
    await send();
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
    ]);
    // New numbers after the last one (never reused), contiguous: the log holds exactly these.
    expect(kept.map((f) => f.seq)).toEqual(kept.map((_, i) => before.lastSeq + 1 + i));
    expect(stats).toMatchObject({ frames: kept.length, lastSeq: before.lastSeq + kept.length });
    expect((await store.readAfter(1, 0, 1000)).map((f) => f.seq)).toEqual(kept.map((f) => f.seq));

    // After the clear: the GET stream and the listen deliver, the pending read is answered, the legacy stream answers.
    get.updated('file:///a');
    listen.updated('file:///b');
    pending.respond({ contents: [{ uri: 'file:///a', text: 'two' }] });
    legacy.call('resources/read', { uri: 'file:///c' }, { contents: [] });
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
    expect(Object.keys(open).length).toBe(MAX_OPEN_EXCHANGES);
    expect(open['b.1']).toBeUndefined();
    expect(open[`c.${MAX_OPEN_EXCHANGES + 4}`]).toBeDefined();
  });
});
