// Session ids are the server's, not unique across servers or page loads (a fuzz audit, 2026-12-05): two servers of one
// page that both number their sessions from 1 are two sessions, and a page that reloads and resumes its stored id is
// a second session with the same label — every session has its own key, and its streams name that key.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { brief } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const A = 'http://localhost:3000/mcp';
const B = 'http://localhost:4000/mcp';

describe('session ids', () => {
  it('two servers that both hand out session "1": two sessions; one ending leaves the other alone', () => {
    const log = new FrameLog('doc-1');
    log.pageStart('http://localhost:8080/');
    const a = new StreamableClient(log, A, '2025-06-18');
    const b = new StreamableClient(log, B, '2025-06-18');
    a.initialize({ sessionId: '1' });
    b.initialize({ sessionId: '1' });
    const ga = a.openGet();
    a.read('file:///a', 'x');
    a.subscribe('file:///a');
    b.read('file:///b', 'y');
    b.subscribe('file:///b');
    b.openGet();
    ga.updated('file:///a');
    a.read('file:///a', 'x2');
    b.delete();
    const s = Engine.replay(log.frames, { graceMs: 500 }).snapshot(log.t + 5000);
    expect(s.sessions.map((x) => [x.endpoint, x.label, x.open, x.subscriptions])).toEqual([
      [A, '1', true, ['file:///a']],
      [B, '1', false, ['file:///b']], // what it held when it ended
    ]);
    const keys = s.sessions.map((x) => x.key);
    expect(new Set(keys).size).toBe(2);
    // Each GET stream is its own session's.
    for (const x of s.sessions) expect(s.streams.filter((st) => st.kind === 'get' && st.session === x.key && st.endpoint === x.endpoint)).toHaveLength(1);
    expect(s.uris.find((r) => r.uri === 'file:///a')).toMatchObject({ serverHasSubscription: true, deliveryChannelOpen: true, heldBy: ['1'], status: 'ok' });
    expect(brief(s.findings).filter((f) => f.includes(A))).toEqual([]);
    expect(brief(s.findings).filter((f) => f.includes('file:///a'))).toEqual([]);
  });

  it('a reloaded page that resumes its stored session id: a second session, same label, its own key', () => {
    const log1 = new FrameLog('doc-1');
    log1.pageStart('http://localhost:8080/');
    const c1 = new StreamableClient(log1, A, '2025-06-18');
    c1.initialize({ sessionId: 'S1' });
    c1.openGet();
    c1.read('file:///a', 'x');
    c1.subscribe('file:///a');
    log1.pageEnd('http://localhost:8080/');
    const log2 = new FrameLog('doc-2', log1.t + 10, log1.lastSeq);
    log2.pageStart('http://localhost:8080/');
    const c2 = new StreamableClient(log2, A, '2025-06-18');
    c2.sessionId = 'S1'; // resumed from storage: no initialize
    c2.negotiated = '2025-06-18';
    c2.openGet();
    c2.read('file:///a', 'y');
    const s = Engine.replay([...log1.frames, ...log2.frames]).snapshot(log2.t + 100);
    expect(s.sessions.map((x) => [x.doc, x.label, x.open])).toEqual([
      ['doc-1', 'S1', false],
      ['doc-2', 'S1', true],
    ]);
    const [first, second] = s.sessions;
    expect([first!.key, second!.key]).toEqual(['S1', 'S1 #2']);
    for (const x of s.sessions) expect(s.streams.filter((st) => st.session === x.key)).toHaveLength(1);
    expect(s.streams.find((st) => st.session === second!.key)!.open).toBe(true);
  });

  it('a resumed session the server then expires: the requests still sent with its id are counted (its key is not its id)', () => {
    const log1 = new FrameLog('doc-1');
    log1.pageStart('http://localhost:8080/');
    const c1 = new StreamableClient(log1, A, '2025-06-18');
    c1.initialize({ sessionId: 'S1' });
    log1.pageEnd('http://localhost:8080/');
    const log2 = new FrameLog('doc-2', log1.t + 10, log1.lastSeq);
    log2.pageStart('http://localhost:8080/');
    const c2 = new StreamableClient(log2, A, '2025-06-18');
    c2.sessionId = 'S1';
    c2.negotiated = '2025-06-18';
    c2.read('file:///a', 'y');
    c2.beginRead('file:///a').httpStatus(404, -32001, 'Session not found');
    for (let i = 0; i < 2; i++) {
      log2.wait(100);
      c2.beginRead('file:///a').httpStatus(404, -32001, 'Session not found');
    }
    const e = Engine.replay([...log1.frames, ...log2.frames]);
    const f = e.findings(log2.t + 5000).find((x) => x.id === 'session-expired-not-reinitialized')!;
    expect(f.detail).toMatch(/2 request\(s\) still used it/);
  });
});
