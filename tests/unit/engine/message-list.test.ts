// The engine keeps messages in columns; what a view reads back must be exactly what the decoder produced
// (including the pairing filled in later), and a snapshot must not see answers that came after it.
import { describe, expect, it } from 'vitest';
import { Decoder, type DecodedMessage } from '../../../shared/decode/index.ts';
import { Engine, messageAt, messagesSlice } from '../../../shared/engine/index.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, request, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

function everyTransport(): FrameLog {
  const log = new FrameLog();
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet({ ids: 'e' });
  get.priming().updated('file:///a');
  c.read('file:///a', 'a "quoted"\nline');
  c.beginRead('file:///b').httpStatus(404, -32001, 'Session not found');
  const conn = log.newConn();
  log.httpRequest(conn, 'POST', 'http://localhost:3000/mcp', { 'mcp-session-id': 'S1' }, `[${request('resources/read', { uri: 'x' }, 'str-id')},{"jsonrpc":"2.0","method":"notifications/x"}]`);
  log.httpResponse(conn, 200, 'http://localhost:3000/mcp', { 'content-type': 'application/json' });
  log.httpBody(conn, { text: '{"result":{"contents":[{"uri":"x","text":"aaa', truncated: { bytes: 500_000, hash: 'hh' } });
  log.httpEnd(conn);
  const m = new ModernClient(log, 'http://localhost:3000/mcp26');
  m.discover();
  m.listen(['file:///a']).complete();
  const l = new LegacySseClient(log, 'http://localhost:3001/sse', 'eventsource');
  l.connect('L1');
  l.initialize();
  l.drop();
  l.connect('L2');
  const w = new WsClient(log, 'ws://localhost:3002/');
  w.connect();
  w.initialize();
  w.receive('not json');
  return log;
}

describe('message store', () => {
  it('reads back exactly what the decoder produced', () => {
    const log = everyTransport();
    const decoded: DecodedMessage[] = [];
    const d = new Decoder({ message: (m) => decoded.push(m), wire: () => undefined });
    for (const f of log.frames) d.push(f);
    const e = Engine.replay(log.frames);
    const stored = messagesSlice(e.snapshot(log.t).messages);
    expect(stored.length).toBe(decoded.length);
    for (let i = 0; i < decoded.length; i++) {
      const want = Object.fromEntries(Object.entries(decoded[i]!).filter(([, v]) => v !== undefined));
      const got = Object.fromEntries(Object.entries(stored[i]!).filter(([, v]) => v !== undefined));
      expect(got, `message ${i}`).toEqual(want);
    }
    expect(new Set(decoded.map((m) => m.transport))).toEqual(new Set(['streamable-http', 'http-sse', 'websocket']));
  });

  it('reads back exactly what the decoder produced past its chunks of 1,024 messages, and so do forks taken at their edges', () => {
    const log = everyTransport();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S2' });
    const get = c.openGet({ ids: 'g' });
    for (let i = 0; i < 1000; i++) {
      if (i % 5 === 0) get.updated(`file:///doc/${i % 7}`);
      c.read(`file:///doc/${i % 7}`, `text ${i}`);
    }
    const decoded: DecodedMessage[] = [];
    const d = new Decoder({ message: (m) => decoded.push(m), wire: () => undefined });
    for (const f of log.frames) d.push(f);
    expect(decoded.length).toBeGreaterThan(2100);
    const e = new Engine();
    const forks: Engine[] = [];
    const forkedAt = new Set<number>();
    for (const f of log.frames) {
      e.apply(f);
      for (const x of forks) x.apply(f);
      if ([1023, 1024, 1025, 2047, 2048, 2049].includes(e.messageCount) && !forkedAt.has(e.messageCount)) {
        forkedAt.add(e.messageCount);
        forks.push(e.fork());
      }
    }
    expect(forks.length).toBeGreaterThanOrEqual(4);
    const plain = (m: object | undefined) => (m ? Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined)) : m);
    for (const engine of [e, ...forks]) {
      const stored = messagesSlice(engine.snapshot(log.t).messages);
      expect(stored.length).toBe(decoded.length);
      for (let i = 0; i < decoded.length; i++) expect(plain(stored[i]), `message ${i}`).toEqual(plain(decoded[i]));
    }
    for (const k of [1023, 1024, 1025, 2047, 2048, 2049]) expect(plain(e.message(k)), `message ${k}`).toEqual(plain(decoded[k]));
    expect(e.message(decoded.length)).toBeUndefined();
    expect(e.message(-1)).toBeUndefined();
  });

  it('a message the store failed on midway (a frame outside the contract: no conn) leaves every later one in its row', () => {
    const frames: Frame[] = [];
    const note = (id: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: { id } });
    const add = (f: object) => frames.push({ ...f, doc: 'd', t: 1000 + frames.length, seq: frames.length + 1, frameId: 0, segment: 1 } as Frame);
    const post = (i: number, conn: string | undefined) => add({ kind: 'http-request', ...(conn ? { conn } : {}), method: 'POST', url: 'http://localhost:3000/mcp', headers: {}, body: { text: note(i) } });
    for (let i = 0; i < 1024; i++) post(i, 'c');
    post(-1, undefined); // the 1,025th message: its chunk is made, then reading its conn throws
    for (let i = 1024; i < 2100; i++) post(i, 'c');
    const e = Engine.replay(frames);
    expect(e.engineErrors).toBe(1);
    for (const k of [1023, 1024, 1025, 2047, 2048, 2049]) expect(e.message(k)?.raw, `message ${k}`).toBe(note(k));
  });

  it('a snapshot does not link answers that arrived after it', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const p = c.beginRead('file:///a');
    const e = new Engine();
    e.applyAll(log.frames);
    const before = e.snapshot(log.t);
    p.respond({ contents: [{ uri: 'file:///a', text: 'x' }] });
    for (const f of log.frames.slice(before.frames)) e.apply(f);
    const after = e.snapshot(log.t);
    const req = before.messages.count - 1;
    expect(messageAt(before.messages, req)!.pair).toBeUndefined();
    expect(messageAt(after.messages, req)!.pair).toBe(after.messages.count - 1);
    expect(messageAt(before.messages, before.messages.count)).toBeUndefined();
  });
});

describe('message ids read back from the raw text', () => {
  it('as sent: an integer past 2^53 as its digits; any key order; a string id unescaped', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const conn = log.newConn();
    log.httpRequest(conn, 'POST', 'http://localhost:3000/mcp', { 'mcp-session-id': 'S1' }, '{"jsonrpc":"2.0","id":9007199254740993,"method":"resources/read","params":{"uri":"x"}}');
    log.httpResponse(conn, 200, 'http://localhost:3000/mcp', { 'content-type': 'application/json' });
    log.httpBody(conn, '{"result":{"contents":[]},"jsonrpc":"2.0","id":9007199254740993}');
    log.httpEnd(conn);
    const post = log.newConn();
    log.httpRequest(post, 'POST', 'http://localhost:3000/mcp', { 'mcp-session-id': 'S1' }, '{"jsonrpc":"2.0","id":"a\\"b","method":"ping"}');
    const e = Engine.replay(log.frames);
    const ids = Array.from({ length: e.messageCount }, (_, i) => e.message(i)!).filter((m) => m.kind !== 'notification').map((m) => m.id);
    expect(ids.slice(-3)).toEqual(['9007199254740993', '9007199254740993', 'a"b']);
  });
});
