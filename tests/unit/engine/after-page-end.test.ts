// What a page sends from its own pagehide or unload handlers reaches the log after its page-end (the hook's listener
// runs first). The engine takes it in: no new finding, the session's end stays `unload`, the message is listed.
import { describe, expect, it } from 'vitest';
import { Engine, messagesSlice } from '../../../shared/engine/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import type { EngineCore } from '../../../shared/engine/core.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';
const PAGE = 'http://localhost:8080/app';

describe('frames after the page-end', () => {
  it('2025: a session DELETE (answered or not) after the page-end changes nothing', () => {
    for (const answered of [false, true]) {
      const log = new FrameLog('doc-1');
      log.pageStart(PAGE);
      const c = new StreamableClient(log, URL, '2025-11-25');
      c.initialize({ sessionId: 'S1' });
      c.openGet();
      c.subscribe(A);
      c.read(A, 'v1');
      log.wait(1000);
      log.pageEnd(PAGE);
      const before = new Engine();
      before.applyAll(log.frames);
      if (answered) c.delete();
      else log.httpRequest(log.newConn('del'), 'DELETE', URL, { 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-11-25' });
      const engine = new Engine();
      engine.applyAll(log.frames);
      const snap = engine.snapshot(log.t + 60_000);
      expect(snap.findings).toEqual(before.snapshot(log.t + 60_000).findings);
      expect(snap.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(snap.sessions.map((s) => [s.kind, s.endCause])).toEqual([['session', 'unload']]);
    }
  });

  it('2026: the cancellation of a listen sent after the page-end is listed and raises nothing', () => {
    const log = new FrameLog('doc-1');
    log.pageStart(PAGE);
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(A, 'v1');
    log.wait(1000);
    log.pageEnd(PAGE);
    const before = new Engine();
    before.applyAll(log.frames);
    c.notify('notifications/cancelled', { requestId: 'listen:1' });
    const engine = new Engine();
    engine.applyAll(log.frames);
    const snap = engine.snapshot(log.t + 60_000);
    expect(messagesSlice(snap.messages).at(-1)?.method).toBe('notifications/cancelled');
    expect(snap.findings).toEqual(before.snapshot(log.t + 60_000).findings);
    expect(snap.findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

// The decoder closes the page's connections (outcome aborted) before it emits the page-end: those closes are the page
// leaving, not the client closing a listen or a legacy stream dropping. Every transport's session ends `unload`, and the
// URIs it held are not taken as unsubscribed (an audit, 2026-12: only 2025 Streamable HTTP said `unload`).
describe('the page-end ends every transport with unload', () => {
  type Build = (log: FrameLog) => void;
  const cases: Array<[string, Build]> = [
    [
      '2025 Streamable HTTP',
      (log) => {
        const c = new StreamableClient(log, URL, '2025-11-25');
        c.initialize({ sessionId: 'S1' });
        c.openGet();
        c.subscribe(A);
        c.read(A, 'v1');
      },
    ],
    [
      '2026 listen',
      (log) => {
        const c = new ModernClient(log, URL);
        c.discover();
        c.listen([A]);
        c.read(A, 'v1');
      },
    ],
    [
      'legacy HTTP+SSE',
      (log) => {
        const c = new LegacySseClient(log, 'http://localhost:3001/sse');
        c.connect('L1');
        c.initialize();
        c.call('resources/subscribe', { uri: A });
        c.call('resources/read', { uri: A }, { contents: [{ uri: A, text: 'v1' }] });
      },
    ],
    [
      'WebSocket',
      (log) => {
        const c = new WsClient(log, 'ws://localhost:3002/mcp');
        c.connect();
        c.initialize();
        c.call('resources/subscribe', { uri: A });
        c.call('resources/read', { uri: A }, { contents: [{ uri: A, text: 'v1' }] });
      },
    ],
  ];
  for (const [name, build] of cases) {
    it(name, () => {
      const log = new FrameLog('doc-1');
      log.pageStart(PAGE);
      build(log);
      log.wait(1000);
      const live = new Engine();
      live.applyAll(log.frames);
      log.pageEnd(PAGE);
      const engine = new Engine();
      engine.applyAll(log.frames);
      const snap = engine.snapshot(log.t + 60_000);
      expect(snap.sessions.map((s) => s.endCause)).toEqual(['unload']);
      expect(snap.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(snap.findings.filter((f) => f.reason === 'unsubscribed')).toEqual([]);
      // What the client believed it believed until the page went (the engine's own record of the URI).
      const u = (engine as unknown as { core: EngineCore }).core.clients.values().next().value!.uris.get(A)!;
      expect(u.loss?.reason).not.toBe('unsubscribed');
      expect(u.believed).toBe(true);
      expect(live.snapshot(log.t).sessions.map((s) => s.open)).toEqual([true]);
    });
  }

  it('a page going into the back/forward cache (persisted) does not end its sessions with unload', () => {
    const log = new FrameLog('doc-1');
    log.pageStart(PAGE);
    const c = new ModernClient(log, URL);
    c.discover();
    c.listen([A]);
    log.wait(1000);
    log.pageEnd(PAGE, true);
    const engine = new Engine();
    engine.applyAll(log.frames);
    expect(engine.snapshot(log.t).sessions.map((s) => s.endCause)).not.toEqual(['unload']);
  });

  it("a subframe's page-end ends only the subframe's sessions", () => {
    const log = new FrameLog('doc-top');
    log.pageStart(PAGE);
    const top = new ModernClient(log, URL);
    top.discover();
    top.listen([A]);
    const sub = new FrameLog('doc-sub', log.t + 10, log.lastSeq);
    sub.pageStart('http://localhost:8080/frame', false);
    const inner = new WsClient(sub, 'ws://localhost:3002/mcp');
    inner.connect();
    inner.initialize();
    sub.pageEnd('http://localhost:8080/frame');
    const engine = new Engine();
    engine.applyAll([...log.frames, ...sub.frames]);
    const snap = engine.snapshot(sub.t);
    expect(snap.sessions.map((s) => [s.kind, s.open, s.endCause])).toEqual([
      ['listen', true, undefined],
      ['session', false, 'unload'],
    ]);
  });
});
