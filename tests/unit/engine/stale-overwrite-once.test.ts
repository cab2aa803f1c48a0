// One late answer is one stale-overwrite: open while the cache holds the older content, history from the overwrite to
// what ended it. An audit of the demo (out-of-order-reads, 2026-12-05): it was logged at the answer and counted again
// as the open finding — Count 2 and two spans for one late answer, while the metrics said 1.
import { describe, expect, it } from 'vitest';
import { findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const PAGE = 'http://localhost:8080/app';

/** Subscribed, two notifications, two re-reads answered out of order (the older last, with other content). */
function lateAnswer(log: FrameLog) {
  const c = new StreamableClient(log, URL, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  get.updated(POLICY);
  const first = c.beginRead(POLICY);
  get.updated(POLICY);
  const second = c.beginRead(POLICY);
  second.respond({ contents: [{ uri: POLICY, text: 'v3' }] });
  log.wait(50);
  first.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
  return { c, staleT: log.t };
}

const stale = (log: FrameLog, ms: number) => findingsAfter(run(log), ms).filter((f) => f.id === 'stale-overwrite');

describe('stale-overwrite, once per late answer', () => {
  it('open: one occurrence, no spans, from the late answer, as the metrics count it', () => {
    const log = new FrameLog();
    const { staleT } = lateAnswer(log);
    const [f, ...rest] = stale(log, 5000);
    expect(rest).toEqual([]);
    expect([f!.count, f!.open, f!.spans]).toEqual([1, true, undefined]);
    expect(staleT - f!.firstT).toBeLessThan(5);
    expect(f!.detail).toMatch(/^the read sent at seq \d+ was answered after a newer read/);
    expect(run(log).snapshot(log.t).metrics.staleOverwrites).toBe(1);
  });

  it('repaired by a later read: one occurrence, history from the overwrite to the repair', () => {
    const log = new FrameLog();
    const { c, staleT } = lateAnswer(log);
    log.wait(1000);
    c.read(POLICY, 'v3');
    const [f, ...rest] = stale(log, 5000);
    expect(rest).toEqual([]);
    expect([f!.count, f!.open, f!.spans]).toEqual([1, false, undefined]);
    expect(staleT - f!.firstT).toBeLessThan(5);
    expect(log.t - f!.lastT).toBeLessThan(5);
  });

  it('the page goes while the cache is stale: one occurrence, history until the page end', () => {
    const log = new FrameLog();
    log.pageStart(PAGE);
    lateAnswer(log);
    log.wait(1000);
    log.pageEnd(PAGE);
    const [f, ...rest] = stale(log, 5000);
    expect(rest).toEqual([]);
    expect([f!.count, f!.open, f!.lastT]).toEqual([1, false, log.t]);
  });

  it('three answers 3rd, 1st, 2nd: two occurrences (each late answer), as the metrics count them', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    const reads = [0, 1, 2].map(() => {
      get.updated(POLICY);
      return c.beginRead(POLICY);
    });
    const at: number[] = [];
    for (const [i, text] of [[2, 'v4'], [0, 'v2'], [1, 'v3']] as const) {
      log.wait(100);
      reads[i]!.respond({ contents: [{ uri: POLICY, text }] });
      at.push(log.t);
    }
    const [f, ...rest] = stale(log, 5000);
    expect(rest).toEqual([]);
    expect([f!.count, f!.open, f!.spans?.length]).toEqual([2, true, 2]);
    expect(run(log).snapshot(log.t).metrics.staleOverwrites).toBe(2);
    // The first ends where the second begins (the 2nd read's answer, older than the 3rd's still).
    expect(f!.spans![0]![1]).toBe(f!.spans![1]![0]);
    expect(at[2]! - f!.spans![1]![0]).toBeLessThan(5);
  });
});
