// resume-gap per URI (findings/gap.ts): cases from a code review (2026-12-05) — a re-read sent during the gap and in
// flight holds the doubt off; a second gap keeps a re-read sent after it; a session that ends closes its stream doubts
// (a lapse in the next session is a doubt of its own); a list is timed by its request.
import { describe, expect, it } from 'vitest';
import { run } from '../../../support/analyze.ts';
import { subscribedWithIds } from '../../../support/gap-sessions.ts';
import { FrameLog } from '../../../support/frame-log.ts';
import { StreamableClient, result, type SseStream } from '../../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';
const GRACE = 2000;

const gaps = (log: FrameLog, now: number) => run(log).findings(now).filter((f) => f.id === 'resume-gap');
const uriGaps = (log: FrameLog, now: number) => gaps(log, now).filter((f) => f.uri !== undefined);

const setup = subscribedWithIds;

describe('R1 read sent during the gap, still in flight when the stream comes back', () => {
  it('cached URI: no doubt expected (the read is the catch-up, in flight)', () => {
    const log = new FrameLog();
    const { c, first } = setup(log);
    first.close('failed');
    log.wait(200);
    const p = c.beginRead(POLICY); // sent during the gap
    log.wait(800);
    c.openGet({ ids: 'ev2' }); // back
    const openWhileInFlight = uriGaps(log, log.t + GRACE + 500);
    log.wait(GRACE + 1000);
    p.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    const after = uriGaps(log, log.t + 60_000);
    expect(openWhileInFlight).toEqual([]);
    expect(after).toEqual([]);
  });

  it('uncached URI, its first read sent during the gap, answered slowly: not "cached before"', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const first = c.openGet({ ids: 'ev' });
    first.priming();
    c.subscribe(FAQ); // held, never read
    first.close('failed');
    log.wait(200);
    const p = c.beginRead(FAQ); // first read, during the gap
    log.wait(800);
    c.openGet({ ids: 'ev2' });
    log.wait(GRACE + 1000);
    p.respond({ contents: [{ uri: FAQ, text: 'v1' }] });
    const after = uriGaps(log, log.t + 60_000);
    expect(after).toEqual([]);
  });
});

describe('R2 a gap doubt merged with a lapse in the next session', () => {
  it('detail names S2 delivery stream coming back without Last-Event-ID', () => {
    const log = new FrameLog();
    const { c, first } = setup(log);
    first.close('failed');
    const dropSeq = log.lastSeq;
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    const atS1 = uriGaps(log, log.t + GRACE + 100);
    log.wait(3000);
    // Server restart: 404 on a POST; re-initialize; resubscribe, no re-read.
    c.begin('ping').httpStatus(404);
    c.initialize({ sessionId: 'S2' });
    c.subscribe(POLICY);
    const subSeq = log.lastSeq;
    const all = run(log).findings(log.t + GRACE + 100).filter((f) => f.uri === POLICY);
    const [f] = uriGaps(log, log.t + GRACE + 100);
    expect(f!.detail).not.toMatch(/^S2's delivery stream came back without Last-Event-ID/);
  });

  it('while S1 is gone and not resubscribed, both cached-not-subscribed and resume-gap are open on the URI', () => {
    const log = new FrameLog();
    const { c, first } = setup(log);
    first.close('failed');
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    log.wait(3000);
    c.begin('ping').httpStatus(404);
    c.initialize({ sessionId: 'S2' });
    const all = run(log).findings(log.t + 10_000).filter((f) => f.uri === POLICY && f.open);
    // S1's end closed its stream's doubt: the loss says the rest (no second finding about the same staleness).
    expect(all.map((f) => f.id).sort()).toEqual(['cached-not-subscribed', 'phantom-subscription']);
  });
});

describe('R4 a second gap while a re-read sent after it is in flight', () => {
  it('the re-read sent during the second gap should still hold the doubt off', () => {
    const log = new FrameLog();
    const { c, first } = setup(log);
    first.close('failed');
    log.wait(300);
    const second = c.openGet({ ids: 'ev2' }); // gap 1, back
    second.priming();
    log.wait(300);
    second.close('failed'); // gap 2 begins
    log.wait(100);
    const p = c.beginRead(POLICY); // re-read sent after gap 2 began
    log.wait(300);
    c.openGet({ ids: 'ev3' }); // back from gap 2
    const open = uriGaps(log, log.t + GRACE + 500);
    log.wait(GRACE + 1000);
    p.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    const after = uriGaps(log, log.t + 60_000);
    expect(open).toEqual([]);
    expect(after).toEqual([]);
  });
});

describe('R5 resources/list version check timed by its answer, not its request', () => {
  it('a list sent within the grace, answered after it, is said late', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const first = c.openGet({ ids: 'ev' });
    first.priming();
    c.beginRead(POLICY).respond({ contents: [{ uri: POLICY, text: 'v1', annotations: { lastModified: '2026-01-01T00:00:00Z' } }] });
    c.subscribe(POLICY);
    first.close('failed');
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    log.wait(1000);
    const p = c.begin('resources/list', {}); // sent 1 s after back
    log.wait(1500); // answered 2.5 s after back
    p.respond({ resources: [{ uri: POLICY, name: 'p', annotations: { lastModified: '2026-01-01T00:00:00Z' } }] });
    const after = uriGaps(log, log.t + 60_000);
    expect(after).toEqual([]);
  });
});
