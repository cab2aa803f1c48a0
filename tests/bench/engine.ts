// Engine benchmark: replay a synthetic 200,000-frame trace (both generations, 500 URIs, 20 reconnects) and compare with
// JSON.parse of the same payloads in the same run — parsing is the floor, the budget is 2×. Also µs per frame, heap
// retained per 1,000 frames, and the cost of a snapshot. Runs are interleaved and the median taken, so a noisy
// neighbour slows both sides alike.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine } from '../../shared/engine/index.ts';
import { syntheticTrace } from './synthetic-trace.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

export async function benchEngine(): Promise<{
  engineReplayVsJsonParse: number;
  engineUsPerFrame: number;
  engineHeapKbPer1kFrames: number;
  rows: string[][];
}> {
  const trace = syntheticTrace(200_000, 500, 20);
  const { frames, payloads } = trace;
  const parseMs: number[] = [];
  const replayMs: number[] = [];
  let sink = 0;
  let last: Engine | undefined;
  for (let run = 0; run < 7; run++) {
    gc();
    let t = performance.now();
    for (const p of payloads) sink += (JSON.parse(p) as { id?: number }).id ?? 0;
    parseMs.push(performance.now() - t);
    gc();
    t = performance.now();
    const e = new Engine();
    e.applyAll(frames);
    replayMs.push(performance.now() - t);
    last = e;
  }
  // Heap: what one engine keeps after replaying the trace (the frames themselves are the caller's).
  last = undefined;
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = new Engine();
  kept.applyAll(frames);
  gc();
  const after = process.memoryUsage().heapUsed;
  const heapKbPer1k = (after - before) / 1024 / (frames.length / 1000);
  const now = kept.lastT! + 1000;
  let t = performance.now();
  const snap = kept.snapshot(now);
  const snapshotMs = performance.now() - t;
  t = performance.now();
  kept.snapshot(now + 1);
  const snapshot2Ms = performance.now() - t;
  if (kept.engineErrors) throw new Error(`engine errors during the bench: ${kept.firstError}`);
  void sink;

  const parse = median(parseMs);
  const replay = median(replayMs);
  const ratio = replay / parse;
  const usPerFrame = (replay * 1000) / frames.length;
  const payloadMb = payloads.reduce((n, p) => n + p.length, 0) / 1e6;
  const rows = [
    ['engine: frames replayed', String(frames.length), ''],
    ['engine: JSON payloads (MB)', `${payloads.length} (${payloadMb.toFixed(1)})`, ''],
    ['engine: JSON.parse of the payloads (ms)', parse.toFixed(1), ''],
    ['engine: replay (ms)', replay.toFixed(1), ''],
    ['engine: replay ÷ JSON.parse', ratio.toFixed(2), '≤ 2.0'],
    ['engine: µs per frame', usPerFrame.toFixed(2), ''],
    ['engine: heap per 1,000 frames (KB)', heapKbPer1k.toFixed(1), ''],
    ['engine: first snapshot (ms)', snapshotMs.toFixed(1), ''],
    ['engine: next snapshot, new now (ms)', snapshot2Ms.toFixed(1), ''],
    ['engine: URIs / sessions / findings', `${snap.uris.length} / ${snap.sessions.length} / ${snap.findings.length}`, ''],
  ];
  return {
    engineReplayVsJsonParse: Number(ratio.toFixed(3)),
    engineUsPerFrame: Number(usPerFrame.toFixed(3)),
    engineHeapKbPer1kFrames: Number(heapKbPer1k.toFixed(1)),
    rows,
  };
}

// Run alone: `npx tsx tests/bench/engine.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchEngine();
  for (const row of r.rows) console.log(row.join('\t'));
  const { rows, ...figures } = r;
  void rows;
  console.log(JSON.stringify(figures));
}
