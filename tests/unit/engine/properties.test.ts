// Property tests (fast-check): random and mutated frame streams never throw (nor trip the engine's internal error
// counter); replay is deterministic; a snapshot at any point equals a fresh replay of that prefix (snapshots and
// findings are pure); invariants hold on every snapshot.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, messageAt, messagesSlice, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { FRAME_KINDS, type Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, request, result, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const URIS = ['file:///docs/', 'file:///docs/a.md', 'file:///docs/b.md', 'postgres://kb/articles/schema', 'postgres://kb/articles/1'];

/** Scripted traces that exercise every rule; the mutation tests start from these. */
function scripted(): Frame[][] {
  const out: Frame[][] = [];
  {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet({ ids: 'e' });
    for (const u of URIS) {
      c.read(u, `${u} 1`);
      c.subscribe(u);
    }
    get.priming().updated(URIS[1]!);
    const a = c.beginRead(URIS[1]!);
    get.updated(URIS[1]!);
    const b = c.beginRead(URIS[1]!);
    b.respond({ contents: [{ uri: URIS[1]!, text: '3' }] });
    a.respond({ contents: [{ uri: URIS[1]!, text: '2' }] });
    get.close('failed');
    c.openGet();
    c.beginRead(URIS[2]!).httpStatus(404, -32001, 'Session not found');
    c.initialize({ sessionId: 'S2' });
    c.subscribe(URIS[0]!);
    c.unsubscribe(URIS[0]!);
    c.delete();
    out.push(log.frames);
  }
  {
    const log = new FrameLog('doc-2');
    const c = new ModernClient(log, URL);
    c.discover();
    for (const u of URIS) c.read(u, `${u} 1`, { ttlMs: 1000 });
    const l = c.listen(URIS, { accepted: URIS.slice(1) });
    l.updated(URIS[2]!);
    c.read(URIS[2]!, 'x');
    l.drop();
    const l2 = c.listen(URIS.slice(2));
    c.cancel(l2);
    c.listen([URIS[0]!]).complete();
    out.push(log.frames);
  }
  {
    const log = new FrameLog('doc-3');
    const s = new LegacySseClient(log, 'http://localhost:3001/sse', 'eventsource');
    s.connect('x');
    s.initialize();
    s.call('resources/subscribe', { uri: URIS[1]! });
    s.serverNotify('notifications/resources/updated', { uri: URIS[1]! });
    s.drop();
    const w = new WsClient(log, 'ws://localhost:3002/');
    w.connect();
    w.initialize();
    w.call('resources/read', { uri: URIS[1]! }, { contents: [{ uri: URIS[1]!, text: 'w' }] });
    w.close();
    log.pageEnd('http://localhost:8080/');
    out.push(log.frames);
  }
  return out;
}

/**
 * Reconnect churn: each session re-reads the URIs, subscribes to some, and its server sends updates for all of them —
 * unsolicited ones in the sessions that hold no subscription, again in a later session of the same id, and
 * cached-not-subscribed following a URI across sessions: logged findings recorded again and again along the trace.
 */
function churn(): Frame[] {
  const log = new FrameLog('doc-churn');
  const c = new StreamableClient(log, URL, '2025-11-25');
  for (let r = 0; r < 6; r++) {
    if (r > 0) {
      log.wait(700);
      c.delete();
    }
    c.initialize({ sessionId: `S${r % 3}` });
    const get = c.openGet();
    for (const u of URIS) c.read(u, `${u} ${r}`);
    if (r % 2 === 0) c.subscribe(URIS[r % URIS.length]!);
    for (const u of URIS) get.updated(u);
    log.wait(300);
    get.updated(URIS[(r + 1) % URIS.length]!);
  }
  return log.frames;
}

const SCRIPTED = [...scripted(), churn()];

const payloadTexts = [
  request('resources/read', { uri: URIS[1]! }, 1),
  request('resources/subscribe', { uri: URIS[2]! }, 2),
  request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 3),
  request('subscriptions/listen', { notifications: { resourceSubscriptions: URIS } }, 'listen:1'),
  result(1, { contents: [{ uri: URIS[1]!, text: 'a' }] }),
  result(3, { protocolVersion: '2025-06-18', capabilities: { resources: { subscribe: true } }, serverInfo: { name: 's', version: '1' } }),
  result('listen:1', { resultType: 'complete' }),
  JSON.stringify({ method: 'notifications/resources/updated', params: { uri: URIS[1]! }, jsonrpc: '2.0' }),
  JSON.stringify({ method: 'notifications/subscriptions/acknowledged', params: { notifications: { resourceSubscriptions: [URIS[1]] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen:1' } }, jsonrpc: '2.0' }),
  JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
  `[${request('resources/read', { uri: URIS[0]! }, 9)}]`,
  '{"jsonrpc":"2.0","id":',
  '',
  'null',
  '[]',
  '{"jsonrpc":"2.0","method":7}',
];

const payload = fc.oneof(
  fc.constantFrom(...payloadTexts).map((text) => ({ text })),
  fc.string().map((text) => ({ text })),
  fc.constantFrom(...payloadTexts).map((text) => ({ text: text.slice(0, 20), truncated: { bytes: 999_999, hash: 'h' } })),
  fc.constant({ text: '[binary]', opaque: true }),
);
const conn = fc.constantFrom('c1', 'c2', 'c3', 'c4');
const headers = fc.record(
  { 'mcp-session-id': fc.constantFrom('S1', 'S2'), 'mcp-protocol-version': fc.constantFrom('2025-06-18', '2026-07-28', 'garbage'), 'content-type': fc.constantFrom('application/json', 'text/event-stream'), 'last-event-id': fc.constantFrom('e-1', 'nope') },
  { requiredKeys: [] },
);

/** Shape-valid frames with random content, in random order. */
const randomFrame = fc.oneof(
  fc.record({ kind: fc.constant('http-request' as const), conn, method: fc.constantFrom('POST', 'GET', 'DELETE', 'patch'), url: fc.constantFrom(URL, `${URL}?sessionId=x`, 'http://localhost:3001/message?sessionId=x'), headers, body: payload }),
  fc.record({ kind: fc.constant('http-response' as const), conn, status: fc.constantFrom(200, 202, 400, 404, 405, 409, 500), statusText: fc.constant(''), url: fc.constant(URL), redirected: fc.boolean(), headers }),
  fc.record({ kind: fc.constant('http-body' as const), conn, body: payload }),
  fc.record({ kind: fc.constant('sse-event' as const), conn, data: payload, id: fc.constantFrom('e-1', 'e-2'), event: fc.constantFrom('message', 'endpoint', 'other') }, { requiredKeys: ['kind', 'conn', 'data'] }),
  fc.record({ kind: fc.constant('http-end' as const), conn, outcome: fc.constantFrom('complete' as const, 'aborted' as const, 'failed' as const), phase: fc.constantFrom('request' as const, 'body' as const), bytes: fc.nat() }),
  fc.record({ kind: fc.constantFrom('es-connect' as const), conn, url: fc.constant('http://localhost:3001/sse'), withCredentials: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('es-open' as const, 'es-close' as const, 'ws-error' as const), conn }),
  fc.record({ kind: fc.constant('es-error' as const), conn, readyState: fc.constantFrom(0, 2) }),
  fc.record({ kind: fc.constant('ws-connect' as const), conn, url: fc.constant('ws://x/'), protocols: fc.constant(['mcp']) }),
  fc.record({ kind: fc.constant('ws-open' as const), conn, protocol: fc.constant('mcp') }),
  fc.record({ kind: fc.constant('ws-message' as const), conn, dir: fc.constantFrom('in' as const, 'out' as const), data: payload }),
  fc.record({ kind: fc.constant('ws-close' as const), conn, code: fc.constant(1006), reason: fc.constant(''), wasClean: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('page-start' as const, 'page-end' as const), url: fc.constant('http://p/'), top: fc.boolean(), persisted: fc.boolean() }),
  fc.record({ kind: fc.constant('capture-error' as const), where: fc.constant('x'), message: fc.constant('y') }),
);

function stamp(drafts: object[], t0 = 1_000): Frame[] {
  return drafts.map((d, i) => ({ ...d, doc: (d as { doc?: string }).doc ?? 'doc-r', n: i + 1, t: t0 + i * 250, seq: i + 1, frameId: 0, segment: 1 }) as Frame);
}

/** Renumber after a mutation so seq stays strictly increasing (the engine's one precondition). */
function renumber(frames: readonly Frame[]): Frame[] {
  return frames.map((f, i) => ({ ...f, seq: i + 1 }));
}

const mutation = fc.oneof(
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('dup' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('corrupt' as const), at: fc.nat() }),
);

function mutate(frames: Frame[], muts: { op: string; at: number }[]): Frame[] {
  const f = [...frames];
  for (const m of muts) {
    if (f.length === 0) break;
    const i = m.at % f.length;
    if (m.op === 'drop') f.splice(i, 1);
    else if (m.op === 'dup') f.splice(i, 0, f[i]!);
    else if (m.op === 'swap' && i + 1 < f.length) [f[i], f[i + 1]] = [f[i + 1]!, f[i]!];
    else if (m.op === 'truncate' || m.op === 'corrupt') {
      const x = f[i]! as Frame & { body?: { text: string }; data?: { text: string } };
      const key = x.body ? 'body' : x.data ? 'data' : undefined;
      if (!key) continue;
      const text = x[key]!.text;
      f[i] = { ...x, [key]: m.op === 'truncate' ? { text: text.slice(0, text.length >> 1), truncated: { bytes: text.length, hash: 'h' } } : { text: text.replace(/"/, '') } } as Frame;
    }
  }
  return renumber(f);
}

function comparable(s: EngineSnapshot): unknown {
  return { ...s, messages: messagesSlice(s.messages) };
}

function checkInvariants(s: EngineSnapshot): void {
  const liveLabels = new Set(s.sessions.filter((x) => x.open).map((x) => `${x.endpoint} ${x.label}`));
  for (const r of s.uris) {
    // No server-side subscription without a live session or listen stream holding it.
    if (r.serverHasSubscription) expect(r.heldBy.length).toBeGreaterThan(0);
    else expect(r.heldBy).toEqual([]);
    for (const h of r.heldBy) expect(liveLabels.has(`${r.endpoint} ${h}`)).toBe(true);
    if (r.deliveryChannelOpen) expect(r.serverHasSubscription).toBe(true);
    if (!r.cached) expect(r.cacheReadAt).toBeUndefined();
    if (r.cached) expect(r.cacheAgeMs).toBeGreaterThanOrEqual(0);
    expect(r.status === 'ok').toBe(r.findings.length === 0);
  }
  for (const x of s.sessions) {
    if (!x.open) expect(x.endCause).toBeDefined();
    if (x.deliveryChannelOpen) expect(x.open).toBe(true);
  }
  const sessionKeys = s.sessions.map((x) => x.key);
  expect(new Set(sessionKeys).size).toBe(sessionKeys.length);
  const keys = s.findings.map((f) => f.key);
  expect(new Set(keys).size).toBe(keys.length);
  for (const f of s.findings) {
    expect(f.firstT).toBeLessThanOrEqual(f.lastT);
    expect(f.evidence.every((seq) => seq >= 1 && seq <= s.lastSeq)).toBe(true);
    expect([...f.evidence]).toEqual([...f.evidence].sort((a, b) => a - b));
    expect(['error', 'warning', 'info']).toContain(f.severity);
  }
  for (const v of Object.values(s.metrics)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
  expect(s.metrics.subscribeSucceeded).toBeLessThanOrEqual(s.metrics.subscribeRequested);
  for (const k of ['subscribeSuccessRate', 'resubscribeShare', 'rereadShare'] as const) {
    const v = s.metrics[k];
    if (v !== null) expect(v >= 0 && v <= 1).toBe(true);
  }
  const perUriSum = new Array(s.flow.edgeCounts.length).fill(0);
  for (const p of Object.values(s.flow.perUri)) p.edgeCounts.forEach((n, i) => (perUriSum[i] += n));
  s.flow.edgeCounts.forEach((n, i) => expect(n).toBeGreaterThanOrEqual(perUriSum[i]));
  for (const [key, p] of Object.entries(s.flow.perUri)) {
    expect(p.node).toBe(p.path.at(-1)?.node);
    void key;
  }
  // Pairing is symmetric within the snapshot.
  for (let i = 0; i < s.messages.count; i++) {
    const m = messageAt(s.messages, i)!;
    if (m.pair !== undefined) expect(messageAt(s.messages, m.pair)!.pair).toBe(i);
  }
}

function exercise(frames: Frame[]): Engine {
  const e = new Engine({ graceMs: 500 });
  for (const f of frames) e.apply(f);
  const last = frames.at(-1)?.t ?? 0;
  // Also a clock a little behind the page's (the panel and the badge judge live at their own Date.now()).
  for (const now of [last - 1000, last - 20, last, last + 400, last + 5000, last + 3_600_000]) {
    const s = e.snapshot(now);
    checkInvariants(s);
  }
  expect(e.engineErrors).toBe(0);
  return e;
}

describe('engine properties', () => {
  it('every frame kind is exercised by the random generator', () => {
    const kinds = new Set(fc.sample(randomFrame, 2000).map((f) => f.kind));
    expect([...kinds].sort()).toEqual([...FRAME_KINDS].filter((k) => k !== 'sse-comment').sort());
  });

  it('random frame streams never throw and keep the invariants', () => {
    fc.assert(fc.property(fc.array(randomFrame, { maxLength: 120 }), (drafts) => void exercise(stamp(drafts))), { numRuns: 300 });
  }, 60_000);

  it('mutated real traces (dropped, duplicated, swapped, truncated, corrupted frames) never throw', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCRIPTED.keys()), fc.array(mutation, { maxLength: 12 }), (which, muts) => void exercise(mutate(SCRIPTED[which]!, muts))),
      { numRuns: 300 },
    );
  }, 60_000);

  it('replay is deterministic', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCRIPTED.keys()), fc.array(mutation, { maxLength: 6 }), (which, muts) => {
        const frames = mutate(SCRIPTED[which]!, muts);
        const now = (frames.at(-1)?.t ?? 0) + 3000;
        expect(comparable(Engine.replay(frames).snapshot(now))).toEqual(comparable(Engine.replay(frames).snapshot(now)));
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it('the state at any point equals a fresh replay of that prefix (snapshots do not disturb it)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCRIPTED.keys()), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), fc.nat(10_000), (which, cuts, dt) => {
        const frames = SCRIPTED[which]!;
        const points = [...new Set(cuts.map((c) => 1 + (c % frames.length)))].sort((a, b) => a - b);
        const live = new Engine();
        let k = 0;
        for (const p of points) {
          while (k < p) live.apply(frames[k++]!);
          const now = frames[p - 1]!.t + dt;
          const a = live.snapshot(now);
          live.findings(now + 1);
          expect(comparable(a)).toEqual(comparable(Engine.replay(frames, {}, { seq: frames[p - 1]!.seq }).snapshot(now)));
          expect(comparable(Engine.replay(frames, {}, { t: frames[p - 1]!.t }).snapshot(now))).toEqual(comparable(a));
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);

  // Snapshots keep the logged findings between calls (FindingLog.findings), rebuilding only the records that changed:
  // whatever snapshots were taken along the way (or none), and across a fork, the findings are a fresh replay's.
  it('findings kept between snapshots equal a fresh replay at every point, and after a fork', () => {
    const trace = fc.oneof(
      fc.tuple(fc.constantFrom(...SCRIPTED.keys()), fc.array(mutation, { maxLength: 6 })).map(([which, muts]) => mutate(SCRIPTED[which]!, muts)),
      fc.array(randomFrame, { maxLength: 80 }).map((drafts) => stamp(drafts)),
    );
    const fresh = (frames: readonly Frame[], seq: number, now: number) => Engine.replay(frames, { graceMs: 500 }, { seq }).findings(now);
    fc.assert(
      fc.property(trace, fc.array(fc.nat(), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), fc.nat(), fc.nat(5_000), (frames, snaps, checks, forkAt, dt) => {
        if (frames.length === 0) return;
        const snapAt = new Set(snaps.map((x) => x % frames.length));
        const checkAt = new Set([...checks.map((x) => x % frames.length), frames.length - 1]);
        const k = forkAt % frames.length;
        const live = new Engine({ graceMs: 500 });
        let forked: Engine | undefined;
        for (let i = 0; i < frames.length; i++) {
          live.apply(frames[i]!);
          const now = frames[i]!.t + dt;
          if (snapAt.has(i)) live.snapshot(now);
          if (checkAt.has(i)) expect(live.findings(now)).toStrictEqual(fresh(frames, frames[i]!.seq, now));
          if (i === k) {
            forked = live.fork();
            // The fork goes on from here, fed the rest of the frames and asked at other points.
            for (let j = i + 1; j < frames.length; j++) {
              forked.apply(frames[j]!);
              if (snapAt.has(frames.length - 1 - j)) forked.findings(frames[j]!.t + dt);
            }
          }
        }
        const now = frames.at(-1)!.t + dt;
        const whole = fresh(frames, frames.at(-1)!.seq, now);
        expect(live.findings(now)).toStrictEqual(whole);
        expect(forked!.findings(now)).toStrictEqual(whole);
        expect(live.fork().findings(now + 1)).toStrictEqual(fresh(frames, frames.at(-1)!.seq, now + 1));
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  // Snapshots keep each URI's flow entry while the URI takes no step and nothing is projected for it (snapshot.ts),
  // handing the same object to the next snapshot: whatever snapshots were taken along the way (at clocks that project
  // inferences or not), and across a fork, a snapshot equals one built from scratch by a fresh replay.
  it('snapshots with kept per-URI flow entries equal a fresh replay at every point, and after a fork', () => {
    const trace = fc.oneof(
      fc.tuple(fc.constantFrom(...SCRIPTED.keys()), fc.array(mutation, { maxLength: 6 })).map(([which, muts]) => mutate(SCRIPTED[which]!, muts)),
      fc.array(randomFrame, { maxLength: 80 }).map((drafts) => stamp(drafts)),
    );
    const fresh = (frames: readonly Frame[], seq: number, now: number) => comparable(Engine.replay(frames, { graceMs: 500 }, { seq }).snapshot(now));
    fc.assert(
      fc.property(trace, fc.array(fc.tuple(fc.nat(), fc.nat(3_000)), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 4 }), fc.nat(), fc.nat(3_000), (frames, snaps, checks, forkAt, dt) => {
        if (frames.length === 0) return;
        // Snapshots along the way at several clocks each (some past the grace: inferences projected, some not).
        const snapAt = new Map<number, number[]>();
        for (const [at, d] of snaps) snapAt.set(at % frames.length, [...(snapAt.get(at % frames.length) ?? []), d]);
        const checkAt = new Set([...checks.map((x) => x % frames.length), frames.length - 1]);
        const k = forkAt % frames.length;
        const live = new Engine({ graceMs: 500 });
        let forked: Engine | undefined;
        for (let i = 0; i < frames.length; i++) {
          live.apply(frames[i]!);
          for (const d of snapAt.get(i) ?? []) live.snapshot(frames[i]!.t + d);
          const now = frames[i]!.t + dt;
          if (checkAt.has(i)) expect(comparable(live.snapshot(now))).toEqual(fresh(frames, frames[i]!.seq, now));
          if (i === k) {
            forked = live.fork();
            for (let j = i + 1; j < frames.length; j++) {
              forked.apply(frames[j]!);
              for (const d of snapAt.get(j) ?? []) forked.snapshot(frames[j]!.t + d);
            }
          }
        }
        const now = frames.at(-1)!.t + dt;
        const whole = fresh(frames, frames.at(-1)!.seq, now);
        expect(comparable(live.snapshot(now))).toEqual(whole);
        expect(comparable(forked!.snapshot(now))).toEqual(whole);
        // The same frames, later clocks: kept entries and projections as a fresh replay has them.
        for (const later of [now + 1, now + 600, now + 3_600_000]) expect(comparable(live.snapshot(later))).toEqual(fresh(frames, frames.at(-1)!.seq, later));
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('a URI that took no step keeps its flow entry from one snapshot to the next; one that did gets a new one', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    for (const u of URIS) {
      c.read(u, `${u} 1`);
      c.subscribe(u);
    }
    const e = new Engine({ graceMs: 500 });
    e.applyAll(log.frames);
    const first = e.snapshot(log.t + 1000);
    const a = first.flow.perUri;
    log.wait(100);
    get.updated(URIS[1]!);
    c.read(URIS[1]!, 'changed');
    e.applyAll(log.frames.slice(e.frameCount));
    const b = e.snapshot(log.t + 1000).flow.perUri;
    const touched = first.uris.find((r) => r.uri === URIS[1])!.key;
    expect(b[touched]).not.toBe(a[touched]);
    expect(b[touched]!.path.length).toBeGreaterThan(a[touched]!.path.length);
    const others = Object.keys(a).filter((k) => k !== touched);
    expect(others.length).toBe(URIS.length - 1);
    for (const key of others) expect(b[key]).toBe(a[key]);
  });

  it('a fork continues like the engine it was taken from, and neither disturbs the other', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SCRIPTED.keys()), fc.array(mutation, { maxLength: 6 }), fc.nat(), fc.boolean(), (which, muts, cut, retainMessages) => {
        const frames = mutate(SCRIPTED[which]!, muts);
        const k = cut % (frames.length + 1);
        const now = (frames.at(-1)?.t ?? 0) + 3000;
        const saved = new Engine({ graceMs: 500, retainMessages });
        for (let i = 0; i < k; i++) saved.apply(frames[i]!);
        const before = comparable(saved.snapshot(now));
        const a = saved.fork();
        const b = saved.fork();
        for (let i = k; i < frames.length; i++) a.apply(frames[i]!);
        const whole = comparable(Engine.replay(frames, { graceMs: 500, retainMessages }).snapshot(now));
        expect(comparable(a.snapshot(now))).toEqual(whole);
        // The saved engine did not see the fork's frames, and a second fork from it continues the same way.
        expect(comparable(saved.snapshot(now))).toEqual(before);
        for (let i = k; i < frames.length; i++) b.apply(frames[i]!);
        expect(comparable(b.snapshot(now))).toEqual(whole);
        expect(a.engineErrors + b.engineErrors).toBe(0);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
