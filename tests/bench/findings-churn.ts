// Findings at scale: a client reconnecting 300 times over 50 URIs whose server sends an update for every URI in every
// session without a subscription (unsolicited-update: one finding per URI per session, ~15,000 closed findings), and
// the cost of a snapshot at a new `now` (the panel builds one up to 5 times a second) — the median of repeated calls.
import { Engine } from '../../shared/engine/index.ts';
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';

export function churnTrace(uris: number, reconnects: number): Frame[] {
  const log = new FrameLog('bench-doc');
  log.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
  for (let r = 0; r <= reconnects; r++) {
    if (r > 0) {
      log.wait(1_000);
      c.delete();
    }
    c.initialize({ sessionId: `S${r}` });
    const get = c.openGet();
    for (let i = 0; i < uris; i++) c.read(`file:///docs/${i}.md`, `# Doc ${i}\nversion ${r}\n`);
    for (let i = 0; i < uris; i++) get.updated(`file:///docs/${i}.md`);
  }
  return log.frames;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const frames = churnTrace(50, 300);
const e = Engine.replay(frames);
const t0 = e.lastT! + 1000;
const first = e.snapshot(t0);
const closed = first.findings.filter((f) => !f.open).length;
const snap: number[] = [];
const find: number[] = [];
for (let i = 1; i <= 200; i++) {
  let t = performance.now();
  e.snapshot(t0 + i * 200);
  snap.push(performance.now() - t);
  t = performance.now();
  e.findings(t0 + i * 200 + 100);
  find.push(performance.now() - t);
}
console.log(`frames ${frames.length}, findings ${first.findings.length} (${closed} closed)`);
console.log(`snapshot(now) median ${median(snap).toFixed(2)} ms (min ${Math.min(...snap).toFixed(2)}); findings(now) median ${median(find).toFixed(2)} ms (min ${Math.min(...find).toFixed(2)})`);
