// What a page sends from its own pagehide or unload handlers reaches the log after its page-end (the hook's listener
// runs first). The engine takes it in: no new finding, the session's end stays `unload`, the message is listed.
import { describe, expect, it } from 'vitest';
import { Engine, messagesSlice } from '../../../shared/engine/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';

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
