// A session's GET stream that carried no event ids (the server keeps no event store) cannot be resumed: when it comes
// back, whatever the server sent in between is gone. Nothing the client did wrong by the protocol, so a note (info,
// reason no-event-ids) on the session, never a warning — and only when the session held subscriptions.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { brief } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const NOTE = 'resume-gap - no-event-ids info';

function run(log: FrameLog): Engine {
  const e = new Engine();
  e.applyAll(log.frames);
  return e;
}

function session(log: FrameLog, ids?: string) {
  const c = new StreamableClient(log, URL, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet(ids === undefined ? {} : { ids });
  return { c, get };
}

/** A client of `endpoint` whose session `id` read and subscribed the policy (no GET stream yet). */
function subscribedOn(log: FrameLog, endpoint: string, id: string): StreamableClient {
  const c = new StreamableClient(log, endpoint, '2025-11-25');
  c.initialize({ sessionId: id });
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  return c;
}

/** The session's notes (each URI left in doubt has its own finding: uri-gap-doubt.test.ts). */
const gapNotes = (e: Engine, now: number) => e.findings(now).filter((f) => f.id === 'resume-gap' && f.uri === undefined);

describe('a GET stream without event ids that drops and comes back', () => {
  it('is noted once it is back, with the gap and what was held', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('failed');
    const ended = log.frames.at(-1)!;
    log.wait(800);
    c.openGet();
    const e = run(log);
    expect(brief(e.findings(log.t + 3000), 'info')).toEqual([NOTE, `resume-gap ${POLICY} no-event-ids info`]);
    const [f] = gapNotes(e, log.t + 3000);
    expect(f!.session).toBe('S1');
    expect([f!.firstT, f!.lastT]).toEqual([ended.t, log.t]);
    expect(f!.evidence[0]).toBe(ended.seq);
    expect(f!.detail).toMatch(/for 80\d ms, 1 subscribed URI\(s\) had no delivery/);
  });

  it('is said when the stream is back, not at the retries the server refused', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('failed');
    log.wait(500);
    c.openGet({ status: 503 });
    const refusedAt = log.t;
    log.wait(500);
    c.openGet({ status: 503 });
    expect(gapNotes(run(log), log.t)).toEqual([]);
    log.wait(500);
    c.openGet();
    const [f] = gapNotes(run(log), log.t + 3000);
    expect(f!.lastT).toBe(log.t);
    expect(f!.lastT).toBeGreaterThan(refusedAt);
    expect(f!.count).toBe(1);
  });

  it('counts each gap of a stream that keeps dropping', () => {
    const log = new FrameLog();
    let { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    for (let i = 0; i < 3; i++) {
      get.close('failed');
      log.wait(200);
      get = c.openGet();
    }
    expect(gapNotes(run(log), log.t + 3000).map((f) => f.count)).toEqual([1 + 2]);
  });

  it('is not said when the stream carried event ids (resumable; its own warning when not resumed)', () => {
    const log = new FrameLog();
    const { c, get } = session(log, 'ev');
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.priming();
    get.close('failed');
    c.openGet({ lastEventId: get.lastId, ids: 'ev2' });
    expect(brief(run(log).findings(log.t + 3000), 'info')).toEqual([]);
  });

  it('is not said when the session held no subscription (nothing could be missed)', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    get.close('failed');
    log.wait(300);
    c.openGet();
    expect(gapNotes(run(log), log.t + 3000)).toEqual([]);
  });

  it('gives way to a warning about the same session that comes later', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('failed');
    // Back, and now the stream carries ids: it drops, and comes back without the Last-Event-ID it had.
    const again = c.openGet({ ids: 'ev' });
    again.priming();
    again.close('failed');
    c.openGet();
    const f = gapNotes(run(log), log.t + 3000);
    expect(f.map((x) => [x.severity, x.reason, x.count])).toEqual([['warning', 'no-last-event-id', 2]]);
  });

  it('a retry that gets no response at all (the server is down) hands the gap on to the GET that reopens the stream', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('failed');
    log.wait(1000);
    // The SDK's retry: its fetch rejects (connection refused), no response head.
    const conn = log.newConn('get');
    log.httpRequest(conn, 'GET', URL, { accept: 'text/event-stream', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-11-25' });
    log.httpEnd(conn, 'failed', 'request');
    log.wait(1500);
    c.openGet();
    expect(gapNotes(run(log), log.t + 3000).map((f) => [f.reason, f.lastT])).toEqual([['no-event-ids', log.t]]);
  });

  it('is told to the server whose stream it was: another one that also says session "1" has its own', () => {
    const B = 'http://127.0.0.1:4000/mcp';
    const log = new FrameLog();
    const a = subscribedOn(log, URL, '1');
    const getA = a.openGet();
    const b = subscribedOn(log, B, '1');
    getA.close('failed');
    log.wait(300);
    // B opens its first GET stream (no gap of its own), then A's comes back: A's gap, on A.
    const getB = b.openGet();
    log.wait(300);
    const getA2 = a.openGet();
    const notes = () => gapNotes(run(log), log.t + 3000).map((f) => [f.endpoint, f.session, f.reason, f.count]);
    expect(notes()).toEqual([[URL, '1', 'no-event-ids', 1]]);
    // Both drop, B's first: each comes back to its own gap.
    getB.close('failed');
    getA2.close('failed');
    log.wait(300);
    b.openGet();
    log.wait(300);
    a.openGet();
    expect(notes().sort()).toEqual([
      [URL, '1', 'no-event-ids', 2],
      [B, '1', 'no-event-ids', 1],
    ]);
  });

  it('is not taken for a resume gap of another server that numbers its session alike (its stream carried ids)', () => {
    const B = 'http://127.0.0.1:4000/mcp';
    const log = new FrameLog();
    const a = subscribedOn(log, URL, '1');
    const getA = a.openGet();
    const b = new StreamableClient(log, B, '2025-11-25');
    b.initialize({ sessionId: '1' });
    const getB = b.openGet({ ids: 'b' });
    getB.priming();
    getA.close('failed');
    getB.close('complete');
    log.wait(300);
    a.openGet();
    expect(gapNotes(run(log), log.t + 3000).map((f) => [f.endpoint, f.reason, f.severity])).toEqual([[URL, 'no-event-ids', 'info']]);
  });

  it('a reloaded page that resumes the stored id is not told of the old page\'s gaps: its stream failed, carried ids, or went with the page', () => {
    for (const [ids, fails] of [[undefined, true], ['ev', true], [undefined, false]] as const) {
      const log1 = new FrameLog('doc-1');
      log1.pageStart('http://localhost:8080/');
      const c1 = new StreamableClient(log1, URL, '2025-06-18');
      c1.initialize({ sessionId: 'S1' });
      const get = c1.openGet(ids === undefined ? {} : { ids });
      if (ids) get.priming();
      c1.subscribe(POLICY);
      c1.read(POLICY, 'v1');
      // The stream fails while the old page is still there (a gap of the old page's), or is open when it leaves.
      if (fails) get.close('failed');
      log1.pageEnd('http://localhost:8080/');
      const log2 = new FrameLog('doc-2', log1.t + 2000, log1.lastSeq);
      log2.pageStart('http://localhost:8080/');
      const c2 = new StreamableClient(log2, URL, '2025-06-18');
      c2.sessionId = 'S1';
      c2.negotiated = '2025-06-18';
      c2.read(POLICY, 'v2');
      c2.subscribe(POLICY);
      log2.wait(100);
      c2.openGet();
      const e = new Engine();
      e.applyAll([...log1.frames, ...log2.frames]);
      expect(gapNotes(e, log2.t + 3000), `ids: ${ids}, fails: ${fails}`).toEqual([]);
    }
  });

  it('counts what the session subscribed itself (a sub-resource its parent covers goes with the parent)', () => {
    const log = new FrameLog();
    const { c, get } = session(log);
    c.read(POLICY, 'v1');
    c.subscribe('file:///docs/');
    get.updated(POLICY);
    c.read(POLICY, 'v2');
    get.close('failed');
    log.wait(500);
    c.openGet();
    const [f] = gapNotes(run(log), log.t + 3000);
    expect(f!.detail).toMatch(/, 1 subscribed URI\(s\) had no delivery/);
  });
});
