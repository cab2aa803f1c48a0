// Engine.fork on real traces (the golden fixtures recorded by the e2e suite) and a long synthetic one: a fork taken
// mid-trace and fed the rest reaches exactly what one replay of the whole trace reaches; the engine it came from is
// left as it was. The scrubber relies on this (panel/scrub-engines.ts).
import { describe, expect, it } from 'vitest';
import { Engine, messagesSlice, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { deepCopy, ForkError } from '../../../shared/engine/fork.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { traceCases } from '../../support/trace-cases.ts';

function text(s: EngineSnapshot): string {
  return JSON.stringify({ ...s, messages: messagesSlice(s.messages) });
}

const cases = traceCases();

describe('Engine.fork', () => {
  for (const [name, load] of cases) {
    it(`continues like the original: ${name}`, () => {
      const frames = load();
      const now = (frames.at(-1)?.t ?? 0) + 60_000;
      const whole = text(Engine.replay(frames).snapshot(now));
      for (const cut of [1, frames.length >> 2, frames.length >> 1, frames.length - 1]) {
        const saved = Engine.replay(frames.slice(0, cut));
        saved.snapshot(now);
        const fork = saved.fork();
        fork.applyAll(frames.slice(cut));
        expect(text(fork.snapshot(now))).toBe(whole);
        expect(fork.messageCount).toBe(Engine.replay(frames).messageCount);
        // The engine forked from saw none of the fork's frames: fed them itself, it too reaches the whole (a cached
        // snapshot would not tell: applying frames recomputes it).
        saved.applyAll(frames.slice(cut));
        expect(text(saved.snapshot(now))).toBe(whole);
      }
    });
  }

  it('gives URIs that were not cached at the fork their own cache entries (a shared sentinel stays shared)', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    c.subscribe('file:///a.md');
    c.subscribe('file:///b.md');
    const cut = log.frames.length;
    c.read('file:///a.md', 'a');
    c.read('file:///b.md', 'bbbb');
    const fork = Engine.replay(log.frames.slice(0, cut)).fork();
    fork.applyAll(log.frames.slice(cut));
    const now = log.t + 1;
    const size = (e: Engine) => e.snapshot(now).uris.map((u) => `${u.uri} ${u.size} ${u.contentHash}`);
    expect(size(fork)).toEqual(size(Engine.replay(log.frames)));
  });

  it('refuses state it cannot copy, instead of sharing it', () => {
    expect(() => deepCopy({ a: [1, { f: () => 1 }] })).toThrow(ForkError);
    expect(() => deepCopy({ p: Promise.resolve() })).toThrow(ForkError);
    const buf = new Int32Array(8);
    expect(() => deepCopy({ a: buf, b: buf.subarray(2) })).toThrow(ForkError);
  });

  it('keeps sharing and prototypes', () => {
    class Box {
      constructor(public v: number[]) {}
    }
    const shared = new Box([1]);
    const m = new Map([[shared, new Set([shared])]]);
    const c = deepCopy({ a: shared, b: shared, m, t: new Float64Array([1, 2]) });
    expect(c.a).toBe(c.b);
    expect(c.a).not.toBe(shared);
    expect(c.a).toBeInstanceOf(Box);
    expect([...c.m.keys()][0]).toBe(c.a);
    expect([...c.m.get(c.a)!][0]).toBe(c.a);
    c.t[0] = 9;
    expect(shared.v).toEqual([1]);
    c.a.v.push(2);
    expect(shared.v).toEqual([1]);
  });
});
