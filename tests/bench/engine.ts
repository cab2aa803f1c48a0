// Engine benchmark: replay a synthetic 200,000-frame trace (both generations, 500 URIs, 20 reconnects) and compare with
// JSON.parse of the same payloads in the same run — parsing is the floor, the budget is 2×. Also µs per frame, heap
// retained per 1,000 frames and the cost of a snapshot. Parse and replay alternate in chunks so both see the same
// momentary load of a shared machine; the fastest of several passes is taken.
// Every pass starts from a forced full GC, and after a forced GC V8 optimizes the engine's functions all over again
// during the pass (measured with --trace-opt; the compiles take the second core), while JSON.parse is a builtin with
// nothing to warm. So each pass first replays and parses a small warm-up trace, untimed: the figure is the engine's
// steady-state throughput. The ratio without that warm-up (the protocol before 2026-12-03) is reported alongside.
// The headline trace uses markdown documents of 0.5–4 KB; the same figures for 1 KB documents are reported alongside
// (smaller documents mean less parsing per frame, so the ratio is higher).
// At scale, for information: a 5,000-URI client that never resubscribes (replay + snapshot), and a client holding
// 5,000 subscribed URIs live at 1,000 frames/s (a snapshot every 200 ms, as the panel takes them: scale-trace.ts).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine } from '../../shared/engine/index.ts';
import { neverResubscribingTrace } from './reconnect-trace.ts';
import { scaleTrace } from './scale-trace.ts';
import { payloadsOf, syntheticTrace, type SyntheticTrace } from './synthetic-trace.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const RUNS = 7;

/**
 * A client holding 5,000 subscribed, cached URIs, live: 200 notifications/s spread over them, each re-read (1,000
 * frames/s), for 20 s of trace time; the frames of every 200 ms applied, then a snapshot at that time, as the panel
 * takes one every SNAPSHOT_MS while frames stream. Median and p95 of the snapshots, in ms.
 */
function liveSnapshotsAtScale(): { median: number; p95: number; n: number } {
  const { setup, live } = scaleTrace(5000, 200, 20);
  const engine = new Engine();
  engine.applyAll(setup);
  engine.snapshot(engine.lastT! + 1);
  const times: number[] = [];
  let i = 0;
  for (let now = live[0]!.t; i < live.length; ) {
    now += 200;
    while (i < live.length && live[i]!.t <= now) engine.apply(live[i++]!);
    const t = performance.now();
    engine.snapshot(now);
    times.push(performance.now() - t);
  }
  if (engine.engineErrors) throw new Error(`engine errors during the bench: ${engine.firstError}`);
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1]!, p95: times[Math.floor(times.length * 0.95)]!, n: times.length };
}

interface Measured {
  parseMs: number;
  replayMs: number;
  ratio: number;
  /** The same ratio without the warm-up after each forced GC (re-optimizing the engine's code counted in); NaN if not asked. */
  coldRatio: number;
  usPerFrame: number;
  heapKbPer1k: number;
  engine: Engine;
}

const CHUNK = 5000;

/** A small trace with every path of the big one (both generations, reconnects): replayed and parsed, untimed. */
let warmTrace: SyntheticTrace | undefined;
function warmUp(): number {
  warmTrace ??= syntheticTrace(20_000, 50, 4);
  const e = new Engine();
  e.applyAll(warmTrace.frames);
  let sink = 0;
  for (const x of warmTrace.payloads) sink += (JSON.parse(x) as { id?: number }).id ?? 0;
  return sink + e.frameCount;
}

/**
 * Parse and replay alternate chunk by chunk (5,000 frames, then JSON.parse of exactly those frames' payloads), so both
 * sides run under the same momentary load of a shared machine; each side's total is summed, and the fastest of RUNS
 * full passes is taken.
 */
function timeRuns({ frames }: SyntheticTrace, warm: boolean): { parseMs: number; replayMs: number } {
  const chunks: { frames: typeof frames; payloads: string[] }[] = [];
  for (let i = 0; i < frames.length; i += CHUNK) {
    const part = frames.slice(i, i + CHUNK);
    chunks.push({ frames: part, payloads: payloadsOf(part) });
  }
  const parse: number[] = [];
  const replay: number[] = [];
  let sink = 0;
  for (let run = 0; run < RUNS; run++) {
    gc();
    if (warm) sink += warmUp();
    const engine = new Engine();
    let p = 0;
    let r = 0;
    for (const c of chunks) {
      let t = performance.now();
      for (const f of c.frames) engine.apply(f);
      r += performance.now() - t;
      t = performance.now();
      for (const x of c.payloads) sink += (JSON.parse(x) as { id?: number }).id ?? 0;
      p += performance.now() - t;
    }
    parse.push(p);
    replay.push(r);
  }
  void sink;
  return { parseMs: Math.min(...parse), replayMs: Math.min(...replay) };
}

/** What one engine keeps after replaying the trace (the frames are the caller's). Its own function: a loop that just
 *  replayed can still hold its last engine in a stack slot, which would hide it from the difference. */
function heapOf(frames: SyntheticTrace['frames']): { engine: Engine; kbPer1k: number } {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const engine = new Engine();
  engine.applyAll(frames);
  gc();
  gc();
  return { engine, kbPer1k: (process.memoryUsage().heapUsed - before) / 1024 / (frames.length / 1000) };
}

function measure(trace: SyntheticTrace, alsoCold: boolean): Measured {
  const cold = alsoCold ? timeRuns(trace, false) : { replayMs: NaN, parseMs: NaN };
  const { parseMs, replayMs } = timeRuns(trace, true);
  const { engine, kbPer1k } = heapOf(trace.frames);
  if (engine.engineErrors) throw new Error(`engine errors during the bench: ${engine.firstError}`);
  return { parseMs, replayMs, ratio: replayMs / parseMs, coldRatio: cold.replayMs / cold.parseMs, usPerFrame: (replayMs * 1000) / trace.frames.length, heapKbPer1k: kbPer1k, engine };
}

export async function benchEngine(): Promise<{
  engineReplayVsJsonParse: number;
  engineUsPerFrame: number;
  engineHeapKbPer1kFrames: number;
  engineReplayVsJsonParse1KbDocs: number;
  engineReplayVsJsonParseNoWarmUp: number;
  engineManyReconnectsMs: number;
  engineScaleLiveSnapshotMs: number;
  rows: string[][];
}> {
  const mixed = syntheticTrace(200_000, 500, 20);
  const m = measure(mixed, true);
  const now = m.engine.lastT! + 1000;
  let t = performance.now();
  const snap = m.engine.snapshot(now);
  const snapshotMs = performance.now() - t;
  t = performance.now();
  m.engine.snapshot(now + 1);
  const snapshot2Ms = performance.now() - t;
  const small = measure(syntheticTrace(200_000, 500, 20, 1024), false);
  // At scale: 5,000 URIs, 300 reconnects, never a resubscribe (one replay and snapshot, for the order of magnitude).
  const many = neverResubscribingTrace(5000, 300);
  gc();
  t = performance.now();
  const manyEngine = new Engine();
  manyEngine.applyAll(many);
  const manyReplayMs = performance.now() - t;
  const manySnap = manyEngine.snapshot(manyEngine.lastT! + 1000);
  const manyMs = performance.now() - t;
  gc();
  const scale = liveSnapshotsAtScale();
  const mb = (tr: SyntheticTrace): string => (tr.payloads.reduce((n, p) => n + p.length, 0) / 1e6).toFixed(1);
  const rows = [
    ['engine: frames replayed (JSON payloads, MB)', `${mixed.frames.length} (${mixed.payloads.length}, ${mb(mixed)})`, ''],
    ['engine: JSON.parse of the payloads (ms)', m.parseMs.toFixed(1), ''],
    ['engine: replay (ms)', m.replayMs.toFixed(1), ''],
    ['engine: replay ÷ JSON.parse', m.ratio.toFixed(2), '≤ 2.0'],
    ['engine: replay ÷ JSON.parse, no warm-up after the forced GC', m.coldRatio.toFixed(2), '(info)'],
    ['engine: µs per frame', m.usPerFrame.toFixed(2), ''],
    ['engine: heap per 1,000 frames (KB)', m.heapKbPer1k.toFixed(1), ''],
    ['engine: replay ÷ JSON.parse, 1 KB documents', small.ratio.toFixed(2), '(info)'],
    ['engine: µs per frame, 1 KB documents', small.usPerFrame.toFixed(2), ''],
    ['engine: first snapshot (ms)', snapshotMs.toFixed(1), ''],
    ['engine: next snapshot, new now (ms)', snapshot2Ms.toFixed(1), ''],
    ['engine: URIs / sessions / findings', `${snap.uris.length} / ${snap.sessions.length} / ${snap.findings.length}`, ''],
    [`engine: 5,000 URIs × 300 reconnects without resubscribe (${many.length} frames): replay + snapshot (ms)`, `${manyReplayMs.toFixed(0)} + ${(manyMs - manyReplayMs).toFixed(0)}`, '(info)'],
    ['engine: same, findings', String(manySnap.findings.length), '(info)'],
    [`engine: 5,000 subscribed URIs, 1,000 frames/s: a snapshot every 200 ms, median / p95 of ${scale.n} (ms)`, `${scale.median.toFixed(1)} / ${scale.p95.toFixed(1)}`, '(info)'],
  ];
  return {
    engineReplayVsJsonParse: Number(m.ratio.toFixed(3)),
    engineUsPerFrame: Number(m.usPerFrame.toFixed(3)),
    engineHeapKbPer1kFrames: Number(m.heapKbPer1k.toFixed(1)),
    engineReplayVsJsonParse1KbDocs: Number(small.ratio.toFixed(3)),
    engineReplayVsJsonParseNoWarmUp: Number(m.coldRatio.toFixed(3)),
    engineManyReconnectsMs: Math.round(manyMs),
    engineScaleLiveSnapshotMs: Number(scale.median.toFixed(2)),
    rows,
  };
}

// Run alone: `npx tsx tests/bench/engine.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, ...figures } = await benchEngine();
  for (const row of rows) console.log(row.join('\t'));
  console.log(JSON.stringify(figures));
}
