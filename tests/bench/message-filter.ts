// The Messages view's filter per live commit, in node: 100k and 250k rows (the cap), 50 rows appended per commit, a new
// snapshot's context (same content) each time. Before: every row filtered again (rows.filter(matchesMessage)); after:
// IncrementalMessageFilter (only the appended rows). Median and p95 of 60 commits, in ms.
// `npx tsx tests/bench/message-filter.ts`
import { FrameRows } from '../../panel/frame-rows.ts';
import { matchesMessage, parseFilter, type MessageContext } from '../../panel/model/filter.ts';
import { IncrementalMessageFilter } from '../../panel/model/message-filter.ts';
import type { Frame } from '../../shared/frames.ts';

const URIS = Array.from({ length: 200 }, (_, i) => `file:///docs/page-${i}.md`);
const STALE = new Set(URIS.filter((_, i) => i % 7 === 0));
const context = (): MessageContext => ({ staleUris: new Set(STALE), problemUris: new Set(STALE), phantomUris: new Set() });

let seq = 0;
function frame(): Frame {
  seq++;
  const i = seq >> 1;
  const uri = URIS[i % URIS.length];
  const body =
    seq % 2
      ? { jsonrpc: '2.0', id: i, method: i % 3 ? 'resources/read' : 'tools/call', params: { uri } }
      : { jsonrpc: '2.0', id: i, result: { contents: [{ uri, text: 'x' }] } };
  return { kind: 'ws-message', seq, t: seq, frameId: 0, segment: 0, conn: 'c1', dir: seq % 2 ? 'out' : 'in', data: { text: JSON.stringify(body) } } as unknown as Frame;
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 0.5).toFixed(3)} p95 ${pct(xs, 0.95).toFixed(3)}`;

for (const size of [100_000, 250_000]) {
  seq = 0;
  const fr = new FrameRows();
  while (fr.rows.length < size) fr.add(frame());
  for (const q of ['is:stale', 'method:read', 'policy', '-is:problem']) {
    const filter = parseFilter(q);
    const before: number[] = [];
    const after: number[] = [];
    const inc = new IncrementalMessageFilter<(typeof fr.rows)[number]>();
    inc.apply(fr.rows, filter, context());
    let n = 0;
    for (let commit = 0; commit < 60; commit++) {
      for (let k = 0; k < 50; k++) fr.add(frame());
      const ctx = context();
      let t = performance.now();
      const full = fr.rows.filter((r) => matchesMessage(filter, r, ctx));
      before.push(performance.now() - t);
      t = performance.now();
      const got = inc.apply(fr.rows, filter, ctx);
      after.push(performance.now() - t);
      if (got.length !== full.length) throw new Error('incremental result differs');
      n = got.length;
    }
    console.log(`${String(size).padStart(7)} rows  ${q.padEnd(24)} ${String(n).padStart(7)} shown  before ${fmt(before)}  after ${fmt(after)}  (full passes ${inc.counts.full})`);
  }
}
