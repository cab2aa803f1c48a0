// The URI row's last read says when it failed (found by a product review, 2026-12-03: after a server restart the row
// said "Last read 2 s ago" for a read that got a 404, as if the cache had just been refreshed).
import { describe, expect, it } from 'vitest';
import { run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';
const doc = (text: string) => ({ contents: [{ uri: A, mimeType: 'text/markdown', text }] });

function rowAfter(script: (c: StreamableClient, log: FrameLog) => void) {
  const log = new FrameLog();
  const c = new StreamableClient(log, URL, '2025-06-18');
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(A, 'v1');
  log.wait(1000);
  script(c, log);
  return run(log).snapshot(log.t + 1000).uris.find((u) => u.uri === A)!;
}

describe('last read of a URI', () => {
  it('answered with content: not failed', () => {
    const r = rowAfter(() => {});
    expect([r.cached, r.lastReadFailed]).toEqual([true, undefined]);
  });
  it('an error answer: failed, with its code and message; the cache stays as it was', () => {
    const r = rowAfter((c) => c.beginRead(A).fail(-32603, 'Internal error'));
    expect(r.lastReadFailed).toBe('error -32603: Internal error');
    expect(r.cached).toBe(true);
    expect(r.cacheAgeMs).toBeGreaterThanOrEqual(1000);
  });
  it('"resource not found" (-32002): failed, and the entry is no cache of anything the server has any more (resource-gone.test.ts)', () => {
    const r = rowAfter((c) => c.beginRead(A).fail(-32002, 'Resource not found'));
    expect(r.lastReadFailed).toBe('error -32002: Resource not found');
    expect(r.cached).toBe(false);
  });
  it('an HTTP 404 (the session is gone) or a fetch that failed: failed, without an answer', () => {
    expect(rowAfter((c) => c.beginRead(A).httpStatus(404, -32001, 'Session not found')).lastReadFailed).toBe('error -32001: Session not found');
    expect(rowAfter((c) => c.beginRead(A).networkError()).lastReadFailed).toBe('no answer (the request failed)');
  });
  it('an answer the client refuses: failed, with the reason', () => {
    expect(rowAfter((c) => c.beginRead(A).respond({ contents: 'nope' })).lastReadFailed).toMatch(/^answer refused: /);
  });
  it('only the last read counts: a failed read then a good one is not failed, an earlier read failing later changes nothing', () => {
    expect(rowAfter((c) => {
      c.beginRead(A).fail(-32603, 'boom');
      c.read(A, 'v2');
    }).lastReadFailed).toBeUndefined();
    expect(rowAfter((c) => {
      const early = c.beginRead(A);
      c.read(A, 'v2');
      early.fail(-32603, 'boom');
    }).lastReadFailed).toBeUndefined();
  });
});
