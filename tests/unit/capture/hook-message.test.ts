import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHookMessage } from '../../../shared/hook-message.ts';
import { HOOK_MESSAGE_PREFIX, PAGE_TAG } from '../../../shared/messages.ts';
import { FRAME_KINDS } from '../../../shared/frames.ts';
import { frameProblem } from '../../../shared/frame-shape.ts';

const good = { kind: 'http-request', doc: 'd', n: 1, t: 1, conn: 'd.1', method: 'POST', url: 'http://x/mcp', headers: {}, body: { text: '{}' } };

describe('parseHookMessage', () => {
  it('accepts valid frames and counts each bad one with the first reason', () => {
    const text = JSON.stringify({ tag: PAGE_TAG, frames: [good, { ...good, n: 'two' }, { kind: 'nope', doc: 'd', n: 3, t: 3 }, 7] });
    const r = parseHookMessage(text);
    expect(r.frames).toEqual([good]);
    expect(r.rejected).toBe(3);
    expect(r.why).toBe('bad frame: field "n" is malformed (got "two")');
    expect(r.bytes).toBe(text.length);
  });
  it('rejects a message without our tag or frames, or not JSON', () => {
    expect(parseHookMessage('nope')).toMatchObject({ frames: [], rejected: 1, why: 'not JSON' });
    expect(parseHookMessage('{"tag":"other","frames":[]}')).toMatchObject({ rejected: 1, why: 'missing or wrong protocol tag' });
    expect(parseHookMessage(`{"tag":"${PAGE_TAG}","frames":{}}`)).toMatchObject({ rejected: 1, why: 'no frames array' });
  });
  it('keeps only the fields a frame has: a forged extra (nested too deep to store or export) is dropped', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const text = `{"tag":"${PAGE_TAG}","frames":[${JSON.stringify({ ...good, body: { text: '{}', x: 1 } }).slice(0, -1)},"extra":${deep}}]}`;
    const r = parseHookMessage(text);
    expect(r.frames).toEqual([good]);
    expect(() => JSON.stringify(r.frames)).not.toThrow();
  });
  it('matches the prefix the relay checks', () => {
    expect(JSON.stringify({ tag: PAGE_TAG, frames: [] }).startsWith(HOOK_MESSAGE_PREFIX)).toBe(true);
  });
  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const r = parseHookMessage(JSON.stringify({ tag: PAGE_TAG, frames: Array.isArray(v) ? v : [v] }));
      return r.frames.length + r.rejected >= 0;
    }));
    fc.assert(fc.property(fc.string(), (s) => parseHookMessage(s).rejected <= 1));
  });
});

describe('frame shapes', () => {
  it('knows every kind and names the missing stamp', () => {
    expect(FRAME_KINDS).toHaveLength(18);
    expect(frameProblem({ ...good })).toBe('field "seq" is missing');
    expect(frameProblem({ ...good, seq: 1, frameId: 0, segment: 1 })).toBeNull();
    expect(frameProblem({ ...good, seq: 1, frameId: 0, segment: 1, body: { text: 1 } })).toBe('field "body" is malformed ("text" is not a string (got 1))');
    // The part of a payload that is wrong, and what it holds.
    expect(frameProblem({ ...good, seq: 1, frameId: 0, segment: 1, body: { text: 'x', truncated: { bytes: -1, hash: 'h' } } })).toBe('field "body" is malformed ("truncated.bytes" is not a whole number ≥ 0 (got -1))');
  });
});
