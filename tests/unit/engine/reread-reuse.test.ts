// The engine refills the objects of its re-read bookkeeping (a notification's pending re-read, the record of the
// re-read sent for it, its inferred flow walk) from spares the core keeps between frames (core.spareReread, spareSent,
// spareFlow). Engine.fork drops the spares, so an engine forked after every frame never carries one over: it must
// show exactly what the engine that reuses them shows, whatever the order of notifications, reads, answers, failures
// and waits. Directed cases first (each found by removing one field's reset), then random programs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import type { EngineCore } from '../../../shared/engine/core.ts';
import type { Pending, UriState } from '../../../shared/engine/uri-state.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient, type PendingCall, type SseStream } from '../../support/mcp-clients.ts';

const URIS = ['file:///a', 'file:///b', 'file:///c'];
type Op =
  | { k: 'notify'; c: number; u: number }
  | { k: 'read'; c: number; u: number }
  | { k: 'answer'; i: number; how: 'ok' | 'changed' | 'fail' | 'gone' | 'net' }
  | { k: 'wait'; ms: number };

/** Two clients on one page, each subscribed to every URI with it cached; then the program; then (maybe) the unload. */
function build(ops: Op[], unload: boolean): Frame[] {
  const log = new FrameLog('doc-1');
  const clients: StreamableClient[] = [];
  const gets: SseStream[] = [];
  for (const [i, url] of ['http://h/mcp', 'http://h2/mcp'].entries()) {
    const c = new StreamableClient(log, url, '2025-06-18');
    c.initialize({ sessionId: `S${i}` });
    const g = c.openGet({ ids: `e${i}` });
    g.priming();
    for (const u of URIS) {
      c.read(u, `${u} 0`);
      c.subscribe(u);
    }
    clients.push(c);
    gets.push(g);
  }
  const out: { p: PendingCall; u: number }[] = [];
  let n = 1;
  for (const o of ops) {
    if (o.k === 'notify') gets[o.c]!.updated(URIS[o.u]!);
    else if (o.k === 'read') out.push({ p: clients[o.c]!.beginRead(URIS[o.u]!), u: o.u });
    else if (o.k === 'answer' && out.length > 0) {
      const [r] = out.splice(o.i % out.length, 1);
      const uri = URIS[r!.u]!;
      if (o.how === 'ok') r!.p.respond({ contents: [{ uri, text: `${uri} 0` }] });
      else if (o.how === 'changed') r!.p.respond({ contents: [{ uri, text: `${uri} ${n++}` }] });
      else if (o.how === 'fail') r!.p.fail(-32603, 'boom');
      else if (o.how === 'gone') r!.p.fail(-32002, 'Resource not found');
      else r!.p.networkError();
    } else if (o.k === 'wait') log.wait(o.ms);
  }
  if (unload) log.pageEnd('http://page/');
  return log.frames;
}

function view(e: Engine, now: number): unknown {
  const s = e.snapshot(now);
  return { findings: s.findings, metrics: s.metrics, uris: s.uris, flow: s.flow, lastT: s.lastT, lastSeq: s.lastSeq };
}

/** The engine as it runs, and one forked after every frame (no spare survives a frame), compared along the way. */
function same(frames: Frame[]): void {
  const reusing = new Engine({ graceMs: 500 });
  let fresh = new Engine({ graceMs: 500 });
  for (let i = 0; i < frames.length; i++) {
    reusing.apply(frames[i]!);
    fresh.apply(frames[i]!);
    fresh = fresh.fork();
    if (i % 17 === 0) expect(view(reusing, frames[i]!.t + 600)).toStrictEqual(view(fresh, frames[i]!.t + 600));
  }
  const last = frames.at(-1)!.t;
  for (const d of [0, 400, 600, 5000, 60_000]) expect(view(reusing, last + d), `${d} ms after`).toStrictEqual(view(fresh, last + d));
  expect(reusing.engineErrors).toBe(0);
}

const notify = (u = 0): Op => ({ k: 'notify', c: 0, u });
const read = (u = 0): Op => ({ k: 'read', c: 0, u });
const answer = (how: 'ok' | 'fail' | 'net'): Op => ({ k: 'answer', i: 0, how });
const wait = (ms: number): Op => ({ k: 'wait', ms });

describe('re-read bookkeeping refilled from spares', () => {
  it('a failed re-read leaves nothing on the next wait (its failure is not told again)', () => {
    same(build([notify(), read(), answer('fail'), wait(700), notify(), read(), answer('ok'), notify(), wait(2000)], false));
  });

  it('the count of re-reads out starts again with each wait', () => {
    same(build([notify(), read(), notify(), answer('ok'), answer('ok'), read(), answer('net'), notify(), wait(2000)], false));
  });

  it("a notification's inferred walk starts at its own time and sequence", () => {
    same(build([read(), answer('ok'), notify(), read(), notify(), wait(2000)], false));
  });

  it('random programs over two clients and three URIs, the page unloading or not', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ k: fc.constant('notify' as const), c: fc.nat(1), u: fc.nat(2) }) },
      { weight: 4, arbitrary: fc.record({ k: fc.constant('read' as const), c: fc.nat(1), u: fc.nat(2) }) },
      { weight: 4, arbitrary: fc.record({ k: fc.constant('answer' as const), i: fc.nat(20), how: fc.constantFrom('ok' as const, 'ok' as const, 'fail' as const, 'gone' as const, 'net' as const, 'changed' as const) }) },
      { weight: 3, arbitrary: fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(5, 100, 300, 700, 2000) }) },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 5, maxLength: 40 }), fc.boolean(), (ops, unload) => same(build(ops, unload))),
      { numRuns: 150 },
    );
  }, 120_000);

  // The forked-after-every-frame engine runs the in-place refill too (a new notification while a re-read is in flight
  // refills that wait), and a spare's leftovers only show where a later step reads them. So each refill is checked
  // field by field against an engine whose objects were never reused, the reused ones made dirty first.
  function pendingOf(e: Engine): Pending | undefined {
    const core = (e as unknown as { core: EngineCore }).core;
    const u: UriState = [...core.clients.values()][0]!.uris.get(URIS[0]!)!;
    return u.pendingReread;
  }
  function fields(p: Pending | undefined): unknown {
    return p && { t: p.t, seq: p.seq, count: p.count, session: p.session, reread: p.reread && { ...p.reread }, failed: p.failed, out: p.out, carried: p.carried };
  }
  const dirt = { count: 9, session: 'stale', failed: 'stale', out: 7, carried: [{ from: 1, count: 3 }] };

  it('a wait refilled in place (a notification while its re-read is in flight) holds only the new notification', () => {
    const frames = build([notify(), read(), notify()], false);
    const last = frames.length - 1;
    expect(frames[last]!.kind).toBe('sse-event');
    const clean = Engine.replay(frames, { graceMs: 500 });
    const e = new Engine({ graceMs: 500 });
    e.applyAll(frames.slice(0, last));
    const inFlight = pendingOf(e)!;
    expect(inFlight.reread).toBeDefined();
    Object.assign(inFlight, dirt);
    e.apply(frames[last]!);
    expect(pendingOf(e)).toBe(inFlight);
    // What it carries is made from the dirty wait's own counts: every other field as in the clean engine.
    expect({ ...(fields(pendingOf(e)) as object), carried: undefined }).toEqual({ ...(fields(pendingOf(clean)) as object), carried: undefined });
    expect(pendingOf(e)!.reread).toBeUndefined();
  });

  it('spares refilled (a wait, a re-read record, a flow walk) hold only what their new use sets', () => {
    // notify → re-read → answered: all three objects become spares; then a notification and a re-read refill them.
    const frames = build([notify(), read(), answer('ok'), wait(700), notify(), wait(700), read()], false);
    const clean = Engine.replay(frames, { graceMs: 500 });
    const e = new Engine({ graceMs: 500 });
    const core = (e as unknown as { core: EngineCore }).core;
    let dirtied = 0;
    for (const f of frames) {
      e.apply(f);
      if (core.spareReread) Object.assign(core.spareReread, dirt), dirtied++;
      if (core.spareSent) Object.assign(core.spareSent, { t: -1, seq: -1, queued: true }), dirtied++;
      if (core.spareFlow) Object.assign(core.spareFlow, { deadline: -1, seq: -1 }), dirtied++;
    }
    expect(dirtied).toBeGreaterThan(0);
    expect(fields(pendingOf(e))).toEqual(fields(pendingOf(clean)));
    const now = frames.at(-1)!.t + 5000;
    expect(view(e, now)).toStrictEqual(view(clean, now));
  });
});
