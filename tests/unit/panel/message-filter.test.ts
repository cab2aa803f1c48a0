import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesMessage, parseFilter, type Filter, type MessageContext } from '../../../panel/model/filter.ts';
import { FrameRows, type FrameRow } from '../../../panel/frame-rows.ts';
import { contextSetsRead, countUpTo, IncrementalMessageFilter, rowsUpTo, type FilterableRow } from '../../../panel/model/message-filter.ts';
import type { Frame } from '../../../shared/frames.ts';

type Row = FilterableRow;

const URIS = ['file:///a', 'file:///b', 'file:///c', 'ui://d'];
const METHODS = ['resources/read', 'tools/call', 'resources/subscribe', '(result)', ''];
const FILTERS = ['is:stale', '-is:stale', 'is:problem method:read', 'is:phantom', '-is:phantom uri:file', 'is:error', 'read', 'is:stale is:problem', '-is:problem', 'uri:b', 'session:s1 -is:stale', 'session:"websocket #2"', '-"websocket #1"'];
/** How a snapshot names the rows' sessions (MessageContext.name): none, one socket known, two. */
const NAMERS = [undefined, (id: string) => (id === 's1' ? 'WebSocket #1' : id), (id: string) => (id === 's1' ? 'WebSocket #1' : id === 's2' ? 'WebSocket #2' : id)];

function makeRow(seq: number, pick: { m: number; u: number; many: boolean; err: boolean; s: number }): Row {
  const uri = pick.u < URIS.length ? URIS[pick.u]! : '';
  return {
    seq,
    method: METHODS[pick.m % METHODS.length]!,
    uri,
    uris: pick.many && uri !== '' ? [uri, URIS[(pick.u + 1) % URIS.length]!] : [],
    session: `s${pick.s}`,
    error: pick.err ? '-32601 Method not found' : '',
    note: '',
    transport: 'HTTP POST',
    id: String(seq),
  };
}

function ctxOf(stale: number, problem: number, phantom: number): MessageContext {
  const set = (mask: number) => new Set(URIS.filter((_, i) => mask & (1 << i)));
  return { staleUris: set(stale), problemUris: set(problem), phantomUris: set(phantom) };
}

function expectSame<R extends FilterableRow>(got: readonly R[], rows: readonly R[], filter: Filter, ctx: MessageContext): void {
  const want = rows.filter((r) => matchesMessage(filter, r, ctx));
  const ids = new Map(rows.map((r, i) => [r, i]));
  // The very row objects, in order (the list keys and selects them).
  expect(got.map((r) => ids.get(r) ?? -1)).toEqual(want.map((r) => ids.get(r)));
}

const pickArb = fc.record({ m: fc.nat(9), u: fc.nat(5), many: fc.boolean(), err: fc.boolean(), s: fc.nat(2) });
const opArb = fc.oneof(
  // Frames appended: each one to three rows (a batch is several rows of one seq).
  { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), frames: fc.array(fc.array(pickArb, { minLength: 1, maxLength: 3 }), { maxLength: 8 }) }) },
  // The oldest frames dropped (FrameRows.dropBefore), by how far into the seqs held.
  // (In percent: fc.double favours tiny values.)
  { weight: 2, arbitrary: fc.record({ op: fc.constant('trim' as const), at: fc.nat(120) }) },
  // Any prefix of the rows cut, even between the rows of a frame.
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cut' as const), n: fc.nat(12) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rebuild' as const), keep: fc.nat(100) }) },
  // Another array of some of the same row objects (one from the middle gone): not a trim.
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rebuild-same-rows' as const), at: fc.nat(100) }) },
  // Typed again: a new Filter object, maybe of the same text.
  { weight: 2, arbitrary: fc.record({ op: fc.constant('filter' as const), i: fc.nat(FILTERS.length - 1) }) },
  // A new snapshot: a new context object, often of the same content.
  { weight: 3, arbitrary: fc.record({ op: fc.constant('context' as const), stale: fc.nat(15), problem: fc.nat(15), phantom: fc.nat(15) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('mutate-context' as const), which: fc.constantFrom('staleUris' as const, 'problemUris' as const, 'phantomUris' as const), u: fc.nat(3) }) },
  // The sessions named otherwise (a socket connected; scrubbing back before it).
  { weight: 2, arbitrary: fc.record({ op: fc.constant('names' as const), i: fc.nat(NAMERS.length - 1) }) },
);

describe('IncrementalMessageFilter', () => {
  it('always equals a full filter over the same rows (appends, trims, rebuilds, filter and context changes)', () => {
    fc.assert(
      fc.property(fc.nat(FILTERS.length - 1), fc.array(opArb, { maxLength: 40 }), (f0, ops) => {
        let rows: Row[] = [];
        let seq = 1;
        let filter = parseFilter(FILTERS[f0]!);
        let ctx = ctxOf(1, 2, 4);
        const inc = new IncrementalMessageFilter<Row>();
        expectSame(inc.apply(rows, filter, ctx), rows, filter, ctx);
        for (const o of ops) {
          switch (o.op) {
            case 'append':
              for (const frame of o.frames) {
                for (const p of frame) rows.push(makeRow(seq, p));
                seq++;
              }
              break;
            case 'trim': {
              // As FrameRows.dropBefore: in place, every row of a frame before the seq.
              const cut = Math.floor((seq * o.at) / 100);
              let n = 0;
              while (n < rows.length && rows[n]!.seq < cut) n++;
              if (n > 0) rows.splice(0, n);
              break;
            }
            case 'rebuild':
              // Another array with new rows (a new FrameRows over the frames kept).
              rows = rows.slice(Math.floor((rows.length * o.keep) / 100)).map((r) => ({ ...r }));
              break;
            case 'cut':
              rows.splice(0, o.n);
              break;
            case 'rebuild-same-rows': {
              const gone = Math.floor((rows.length * o.at) / 100);
              rows = rows.filter((_, i) => i !== gone);
              break;
            }
            case 'filter':
              filter = parseFilter(FILTERS[o.i]!);
              break;
            case 'context':
              ctx = ctxOf(o.stale, o.problem, o.phantom);
              break;
            case 'mutate-context': {
              // A new context object whose one set differs by one URI from the last one's.
              const s = new Set(ctx[o.which]);
              const u = URIS[o.u]!;
              if (s.has(u)) s.delete(u);
              else s.add(u);
              ctx = { ...ctx, [o.which]: s };
              break;
            }
            case 'names':
              ctx = { ...ctx, name: NAMERS[o.i] };
              break;
          }
          expectSame(inc.apply(rows, filter, ctx), rows, filter, ctx);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('filters only the rows appended since the last commit, and keeps the result over a trim', () => {
    const rows: Row[] = [];
    const pick = { m: 0, u: 0, many: false, err: false, s: 0 };
    for (let i = 1; i <= 1000; i++) rows.push(makeRow(i, { ...pick, u: i % 5 }));
    const filter = parseFilter('is:stale');
    const inc = new IncrementalMessageFilter<Row>();
    inc.apply(rows, filter, ctxOf(1, 0, 0));
    for (let i = 1001; i <= 1100; i++) rows.push(makeRow(i, { ...pick, u: i % 5 }));
    // A new snapshot's context, same content: no full pass.
    expect(inc.apply(rows, filter, ctxOf(1, 0, 0))).toHaveLength(220);
    rows.splice(0, 500);
    expect(inc.apply(rows, filter, ctxOf(1, 0, 0))).toHaveLength(120);
    expect(inc.counts).toEqual({ full: 1, incremental: 2 });
    // The set the filter reads changed: a full pass. One it does not read: none.
    expect(inc.apply(rows, filter, ctxOf(3, 0, 0))).toHaveLength(240);
    expect(inc.apply(rows, filter, ctxOf(3, 5, 7))).toHaveLength(240);
    expect(inc.counts).toEqual({ full: 2, incremental: 3 });
  });

  it('keeps up with FrameRows: appends, dropBefore, a batch frame', () => {
    const fr = new FrameRows();
    const frame = (seq: number, body: string): Frame =>
      ({ kind: 'ws-message', seq, t: seq, frameId: 0, segment: 0, conn: 'c1', dir: seq % 2 ? 'out' : 'in', data: { text: body } }) as unknown as Frame;
    const filter = parseFilter('is:stale');
    const ctx = ctxOf(1, 0, 0);
    const inc = new IncrementalMessageFilter<FrameRow>();
    const body = (i: number) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'resources/read', params: { uri: URIS[i % 4] } });
    for (let seq = 1; seq <= 400; seq++) {
      fr.add(frame(seq, seq % 7 ? body(seq) : `[${body(seq)},${body(seq + 1)}]`));
      if (seq % 50 === 0) fr.dropBefore(seq - 120);
      if (seq % 10 === 0) expectSame(inc.apply(fr.rows, filter, ctx), fr.rows, filter, ctx);
    }
    expect(inc.counts.full).toBe(1);
    expect(inc.apply(fr.rows, filter, ctx).length).toBeGreaterThan(10);
    expect(fr.rows[0]!.seq).toBeGreaterThan(200);
  });

  it('says which context sets a filter reads', () => {
    expect(contextSetsRead(parseFilter('method:read "is:stale" is:error'))).toEqual([]);
    expect(contextSetsRead(parseFilter('-is:stale is:problem is:phantom is:stale')).sort()).toEqual(['phantomUris', 'problemUris', 'staleUris']);
  });
});

describe('rowsUpTo', () => {
  it('is the rows with seq <= lastSeq, the same array when nothing is later', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(5)), fc.integer({ min: -1, max: 40 }), (steps, last) => {
        let seq = 0;
        const rows = steps.map((d) => ({ seq: (seq += d) }));
        const got = rowsUpTo(rows, last);
        expect(got).toEqual(rows.filter((r) => r.seq <= last));
        expect(countUpTo(rows, last)).toBe(got.length);
        if (got.length === rows.length) expect(got).toBe(rows);
      }),
    );
  });
});
