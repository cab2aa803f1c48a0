// The background's badge engine runs with retainMessages: false. It must reach exactly the findings, URI states,
// sessions, flow and metrics of a full engine, and it must not keep what the frames carried: over a long-lived page the
// worker's heap would otherwise grow with every payload (the log on disk is capped, that memory was not).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { traceCases } from '../../support/trace-cases.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

/** Everything a snapshot says except the message list (which a non-retaining engine leaves empty). */
function analysis(frames: readonly Frame[], retainMessages: boolean): { text: string; messages: number } {
  const e = new Engine({ retainMessages });
  e.applyAll(frames);
  const snap = e.snapshot((e.lastT ?? 0) + 60_000);
  return { text: JSON.stringify(snap, (k, v) => (k === 'messages' ? undefined : v)), messages: snap.messages.count };
}

describe('an engine that keeps no messages', () => {
  const cases = traceCases();
  for (const [name, frames] of cases) {
    it(`reaches the same analysis: ${name}`, () => {
      const f = frames();
      const full = analysis(f, true);
      const lean = analysis(f, false);
      expect(full.messages).toBeGreaterThan(0);
      expect(lean.messages).toBe(0);
      expect(lean.text).toBe(full.text);
    });
  }

  it('does not keep the payloads it read (heap stays flat as frames stream through)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // 1,500 reads of distinct 16 KB documents: ~24 MB of payload text, as JSON lines the way the worker receives them.
    const log = new FrameLog('heap-doc');
    const client = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
    client.initialize({ sessionId: 'S1' });
    client.openGet({ ids: 'g' });
    for (let i = 0; i < 30; i++) client.subscribe(`file:///d/${i}.md`);
    for (let i = 0; i < 1500; i++) client.read(`file:///d/${i % 30}.md`, `${i}:${'x'.repeat(16 * 1024)}`);
    const lines = log.frames.map((f) => JSON.stringify(f));
    const retainedBy = (retainMessages: boolean): number => {
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      const e = new Engine({ retainMessages });
      for (const line of lines) e.apply(JSON.parse(line) as Frame);
      gc();
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(e.frameCount).toBe(lines.length);
      return grown;
    };
    const full = retainedBy(true);
    const lean = retainedBy(false);
    // The full engine keeps every payload's text for the panel (≥ 24 MB); the lean one only the state.
    expect(full).toBeGreaterThan(20 * 1024 * 1024);
    expect(lean).toBeLessThan(3 * 1024 * 1024);
  });
});
