// The detail drawer's evidence links, in node: each link is labelled by what its frame carried (`#32 resources/read`),
// on every render of the drawer (a live snapshot re-renders it several times a second). On the engine benchmark's
// 200,000-frame synthetic trace, the time to label the links of the finding with the most evidence, and of every
// finding in the snapshot: from the messages decoded (the drawer until 2026-12-05), and from the message list's
// columns (frameLabelAt, what it does now). Medians of 7 runs; the labels are checked equal.
// `npx tsx tests/bench/evidence-labels.ts`
import { Engine } from '../../shared/engine/index.ts';
import type { Frame } from '../../shared/frames.ts';
import { messageIndexAtSeq } from '../../panel/model/sessions-view.ts';
import { frameLabel, frameLabelAt } from '../../panel/model/frame-label.ts';
import { syntheticTrace } from './synthetic-trace.ts';

const { frames } = syntheticTrace(200_000);
const engine = Engine.replay(frames, {});
const snap = engine.snapshot(frames.at(-1)!.t + 1000);
const bySeq = new Map<number, Frame>(frames.map((f) => [f.seq, f]));

/** The drawer's label of frame `seq`: its messages decoded (DetailDrawer's messagesAtSeq), then frameLabel. */
function decodedLabel(seq: number): string {
  const list = engine.messageList(engine.messageCount);
  const msgs = [];
  for (let i = messageIndexAtSeq(list, seq); i < list.count && list.store.seqAt(i) === seq; i++) msgs.push(engine.message(i)!);
  return frameLabel(bySeq.get(seq), msgs);
}

/** The drawer's label now: from the columns. */
function columnLabel(seq: number): string {
  return frameLabelAt(engine.messageList(engine.messageCount), seq, bySeq.get(seq));
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;

function measure(name: string, seqs: readonly number[], reps: number, label: (seq: number) => string): void {
  const runs: number[] = [];
  let out = '';
  for (let run = 0; run < 7; run++) {
    const t = performance.now();
    for (let r = 0; r < reps; r++) for (const s of seqs) out = label(s);
    runs.push((performance.now() - t) / reps);
  }
  void out;
  console.log(`${name}: ${(median(runs) * 1000).toFixed(1)} µs to label ${seqs.length} links`);
}

const widest = snap.findings.reduce((a, b) => (b.evidence.length > a.evidence.length ? b : a));
const all = snap.findings.flatMap((f) => f.evidence);
console.log(`${frames.length} frames, ${engine.messageCount} messages, ${snap.findings.length} findings; widest: ${widest.id}, ${widest.evidence.length} evidence frames`);
const differ = all.filter((s) => decodedLabel(s) !== columnLabel(s));
if (differ.length) throw new Error(`labels differ at ${differ.slice(0, 5).join(', ')}`);
measure('decoded, widest finding', widest.evidence, 2000, decodedLabel);
measure('columns, widest finding', widest.evidence, 2000, columnLabel);
measure('decoded, every finding', all, 20, decodedLabel);
measure('columns, every finding', all, 20, columnLabel);
