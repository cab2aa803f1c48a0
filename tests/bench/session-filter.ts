// The `session:` filter on a large trace, in node: 5,000 URIs, 301 sessions (a client that never resubscribes,
// reconnecting 300 times: ~14,000 findings). Per new snapshot (a live tick: nothing cached yet) and per keystroke on
// the same snapshot, the URI table's filterRows and the Findings view's filter. Medians of 5 runs, in ms.
// `npx tsx tests/bench/session-filter.ts`
import { Engine } from '../../shared/engine/index.ts';
import { parseFilter } from '../../panel/model/filter.ts';
import { findingMatches, sortFindings } from '../../panel/model/findings-view.ts';
import { filterRows } from '../../panel/model/uri-table.ts';
import { neverResubscribingTrace } from './reconnect-trace.ts';

const frames = neverResubscribingTrace(5000, 300);
const engine = Engine.replay(frames, {});
const at = frames.at(-1)!.t + 60_000;

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;

for (const q of ['session:S12', 'session:S1', 'file']) {
  const filter = parseFilter(q);
  const keystroke = parseFilter(`${q} `);
  const table: number[] = [];
  const tableAgain: number[] = [];
  const findings: number[] = [];
  let counts = '';
  for (let run = 0; run < 5; run++) {
    // A later `now`: a new snapshot (new arrays), as every live tick makes; nothing cached for it yet.
    const snap = engine.snapshot(at + run);
    let rows = 0;
    let shown = 0;
    table.push(time(() => (rows = filterRows(snap, filter).length)));
    tableAgain.push(time(() => filterRows(snap, keystroke)));
    findings.push(time(() => (shown = sortFindings(snap.findings).filter((f) => findingMatches(f, filter, snap.sessions)).length)));
    counts = `${snap.uris.length} URIs, ${snap.sessions.length} sessions, ${snap.findings.length} findings; ${rows} rows, ${shown} findings shown`;
  }
  console.log(`${q}: filterRows ${median(table).toFixed(1)} ms (new snapshot), ${median(tableAgain).toFixed(1)} ms (next keystroke); findings view ${median(findings).toFixed(1)} ms  [${counts}]`);
}
