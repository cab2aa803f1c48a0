// Decoder and session-level effects (a review, 2026-12-05): a resumed GET carries its Last-Event-ID on; the GET stream's
// idless gap is taken also when a per-request stream ended with it, without hiding the warning about that stream.
import { describe, expect, it } from 'vitest';
import { run } from '../../../support/analyze.ts';
import { cutWithPerRequestStream } from '../../../support/gap-sessions.ts';
import { FrameLog } from '../../../support/frame-log.ts';
import { StreamableClient, result } from '../../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';


describe('decoder', () => {
  it('R3 idless GET + per-request stream with ids cut together; plain GET; the POST stream is never resumed', () => {
    const log = new FrameLog();
    const { c } = cutWithPerRequestStream(log);
    c.openGet();
    const e = run(log);
    const fs = e.findings(log.t + 10_000).filter((f) => f.id === 'resume-gap');
    // The per-request stream's answer is lost (never resumed): its warning should survive the GET stream's note.
    expect(fs.filter((f) => f.uri === undefined).map((f) => f.severity)).toContain('warning');
  });

  it('R6 resumed POST stream that drops again before its answer, then the SDK v1 plain GET', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'g' });
    get.priming();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    const p = c.beginRead(FAQ);
    log.httpResponse(p.conn, 200, URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
    log.sseEvent(p.conn, '', { id: 'p-1' });
    log.httpEnd(p.conn, 'failed');
    log.wait(100);
    const resumed = c.openGet({ lastEventId: 'p-1' }); // resumes the POST stream
    log.wait(100);
    resumed.close('failed'); // drops again, no new event
    log.wait(100);
    c.openGet({ ids: 'h' }); // SDK v1: plain GET (no token)
    const e = run(log);
    const snap = e.snapshot(log.t + 10_000) as any;
    const msgs = (snap.messages ?? []).filter?.((m: any) => m.method === 'resources/read');
  });

  it('R6b resumed GET stream dropped again, resumed again by the same id (correct client), then a later plain GET after a healthy close', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'g' });
    get.priming();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('failed');
    log.wait(100);
    const r1 = c.openGet({ lastEventId: get.lastId }); // resumed
    log.wait(100);
    r1.close('failed'); // no new event
    log.wait(100);
    const r2 = c.openGet({ lastEventId: get.lastId, ids: 'k' }); // resumed again, same id: correct
    r2.priming();
    const e = run(log);
  });
});
