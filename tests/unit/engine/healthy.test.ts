// The false-positive guard: clients that do everything right — resubscribe after every initialize, re-read after
// every notification, resume streams, re-listen with the full set — must produce no warning and no error, on either
// protocol generation and every transport, at any `now` within the trace.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const DOCS = ['file:///docs/policy.md', 'file:///docs/faq.md', 'postgres://kb/articles/42'];

/** Every `now` from the first frame to well after the last one. */
function everyNow(log: FrameLog, run: (now: number) => string[]): string[] {
  const out = new Set<string>();
  const first = log.frames[0]!.t;
  const last = log.frames.at(-1)!.t;
  for (let now = first; now <= last + 1500; now += 97) for (const x of run(now)) out.add(x);
  return [...out];
}

describe('healthy 2025 session', () => {
  it('reads, subscribes, re-reads every notification, survives a server restart by re-initializing and resubscribing', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    let get = c.openGet({ ids: 's1' });
    c.list(DOCS.map((uri) => ({ uri, name: uri })).concat([{ uri: 'file:///docs/listed-only.md', name: 'listed' }]));
    for (const uri of DOCS) {
      c.read(uri, `${uri} v1`);
      c.subscribe(uri);
    }
    for (let round = 2; round < 5; round++) {
      log.wait(500);
      for (const uri of DOCS) {
        get.updated(uri);
        log.wait(20);
        c.read(uri, `${uri} v${round}`);
      }
    }
    // The GET stream drops; the client resumes it with Last-Event-ID.
    const lastId = get.lastId!;
    get.close('failed');
    log.wait(1000);
    get = c.openGet({ lastEventId: lastId, ids: 's1b' });
    get.updated(DOCS[0]!);
    c.read(DOCS[0]!, 'v5');
    // The server restarts: the next request gets 404; the client re-initializes and resubscribes everything.
    log.wait(3000);
    c.beginRead(DOCS[1]!).httpStatus(404, -32001, 'Session not found');
    get.close('complete');
    c.initialize({ sessionId: 'S2' });
    get = c.openGet({ ids: 's2' });
    for (const uri of DOCS) c.subscribe(uri);
    for (const uri of DOCS) c.read(uri, `${uri} v6`);
    log.wait(400);
    get.updated(DOCS[2]!);
    c.read(DOCS[2]!, 'v7');
    log.wait(100);

    const e = run(log);
    expect(e.engineErrors).toBe(0);
    expect(everyNow(log, (now) => brief(e.findings(now)))).toEqual([]);
    const snap = e.snapshot(log.t + 1000);
    const listedOnly = snap.uris.find((r) => r.uri === 'file:///docs/listed-only.md')!;
    expect(listedOnly).toMatchObject({ cached: false, listed: true, findings: [] });
    expect(snap.uris.filter((r) => r.cached).every((r) => r.serverHasSubscription && r.deliveryChannelOpen && r.clientBelievesSubscribed)).toBe(true);
    expect(snap.metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 1, resubscribeShare: 1, rereadShare: 1, subscribeSuccessRate: 1 });
  });
});

describe('healthy 2026 client', () => {
  it('listens, re-reads every notification, re-listens with the full set after a graceful end and after a drop', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    for (const uri of DOCS) c.read(uri, `${uri} v1`);
    let l = c.listen(DOCS);
    for (let round = 2; round < 5; round++) {
      log.wait(500);
      for (const uri of DOCS) {
        l.updated(uri);
        log.wait(20);
        c.read(uri, `${uri} v${round}`);
      }
    }
    l.complete();
    l = c.listen(DOCS);
    l.updated(DOCS[0]!);
    c.read(DOCS[0]!, 'v5');
    l.drop();
    log.wait(300);
    l = c.listen(DOCS);
    // The page closes a listen it no longer needs after opening its replacement.
    const extra = c.listen([DOCS[1]!]);
    c.cancel(extra);
    l.updated(DOCS[1]!);
    c.read(DOCS[1]!, 'v6');
    log.wait(100);

    const e = run(log);
    expect(e.engineErrors).toBe(0);
    expect(everyNow(log, (now) => brief(e.findings(now)))).toEqual([]);
    const snap = e.snapshot(log.t + 1000);
    expect(snap.uris.every((r) => r.cached && r.serverHasSubscription && r.deliveryChannelOpen)).toBe(true);
    expect(snap.metrics.activeListenStreams).toBe(1);
  });

  it('stays quiet while idle past the ttlMs of what it listens to (the demo server sends 30 s)', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    for (const uri of DOCS) c.read(uri, `${uri} v1`, { ttlMs: 30_000, cacheScope: 'private' });
    const l = c.listen(DOCS);
    log.wait(45_000);
    l.updated(DOCS[0]!);
    c.read(DOCS[0]!, 'v2', { ttlMs: 30_000, cacheScope: 'private' });
    const e = run(log);
    for (const after of [0, 31_000, 90_000]) expect(brief(findingsAfter(e, after))).toEqual([]);
    // Still said, as a look worth taking.
    expect(brief(findingsAfter(e, 31_000), 'info')).toContain(`cache-age-exceeded ${DOCS[1]} ttl info`);
  });
});

describe('healthy legacy transports', () => {
  it('HTTP+SSE over EventSource, through a reconnect that re-initializes and resubscribes', () => {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse', 'eventsource');
    c.connect('a');
    c.initialize();
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    c.call('resources/subscribe', { uri: 'demo://1' });
    c.serverNotify('notifications/resources/updated', { uri: 'demo://1' });
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'y' }] });
    c.drop();
    log.wait(500);
    c.connect('b');
    c.initialize();
    c.call('resources/subscribe', { uri: 'demo://1' });
    c.serverNotify('notifications/resources/updated', { uri: 'demo://1' });
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'z' }] });
    const e = run(log);
    expect(everyNow(log, (now) => brief(e.findings(now)))).toEqual([]);
    const snap = e.snapshot(log.t);
    expect(snap.sessions.map((s) => [s.key, s.open, s.endCause ?? '-', s.notInitialized ?? false, s.version])).toEqual([
      ['a', false, 'transport-closed', false, '2024-11-05'],
      ['b', true, '-', false, '2024-11-05'],
    ]);
    // Counted once (at the new endpoint, not again at its initialize), and resubscribed.
    expect([snap.metrics.reconnects, snap.metrics.reconnectsResubscribed, snap.metrics.resubscribeShare]).toEqual([1, 1, 1]);
  });

  it('WebSocket', () => {
    const log = new FrameLog();
    const c = new WsClient(log, 'ws://localhost:3002/mcp');
    c.connect();
    c.initialize();
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    c.call('resources/subscribe', { uri: 'demo://1' });
    c.receive(JSON.stringify({ method: 'notifications/resources/updated', params: { uri: 'demo://1' }, jsonrpc: '2.0' }));
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'y' }] });
    const e = run(log);
    expect(everyNow(log, (now) => brief(e.findings(now)))).toEqual([]);
    expect(findingsAfter(e, 60_000).filter((f) => f.severity !== 'info')).toEqual([]);
  });
});
