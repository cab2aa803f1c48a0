// A resource the server deleted: it notifies, the client re-reads and is told "not found" (-32002; -32602 "… not
// found" from 2026-07-28 servers and the v1 SDK's McpServer). The client asked, and there is nothing newer: no
// notified-not-reread, and the old entry is no cache of anything the server has (no cached-not-subscribed once the
// client unsubscribes it). A false-positive audit on real SDK traffic (2026-12-05) found a warning open for ever, with
// the detail "no resources/read", for a read that was sent and answered.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const GONE = 'file:///docs/old.md';
const KEPT = 'file:///docs/policy.md';

function deleted(code: number, message: string, then?: (c: StreamableClient) => void) {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of [GONE, KEPT]) {
    c.read(u, `${u} v1`);
    c.subscribe(u);
  }
  log.wait(1000);
  get.updated(GONE);
  get.notify('notifications/resources/list_changed');
  c.beginRead(GONE).fail(code, message);
  then?.(c);
  return { log, e: run(log) };
}

describe('a resource the server deleted', () => {
  it('re-read answered -32002: no finding, the row is no longer cached, the notification counts as re-read', () => {
    const { log, e } = deleted(-32002, 'Resource not found');
    expect(brief(findingsAfter(e, 5000))).toEqual([]);
    const snap = e.snapshot(log.t + 5000);
    expect(snap.uris.find((r) => r.uri === GONE)).toMatchObject({ cached: false, lastReadFailed: 'error -32002: Resource not found' });
    expect(snap.metrics.rereadShare).toBe(1);
  });

  it('-32002, then the client unsubscribes it: still nothing (the entry is no cache any more)', () => {
    const { e } = deleted(-32002, 'Resource not found', (c) => c.unsubscribe(GONE));
    expect(brief(findingsAfter(e, 5000))).toEqual([]);
  });

  it('-32602 saying "not found" is the same; -32602 about anything else is a failed re-read, and the finding says so', () => {
    expect(brief(findingsAfter(deleted(-32602, 'Resource file:///docs/old.md not found').e, 5000))).toEqual([]);
    const bad = findingsAfter(deleted(-32602, 'Invalid params: uri').e, 5000);
    expect(brief(bad)).toEqual([`notified-not-reread ${GONE} - warning`]);
    expect(bad[0]!.detail).toMatch(/^the re-read failed \(error -32602: Invalid params: uri\); no successful resources\/read in [\d.]+ (?:ms|s) after 1 notification\(s\)$/);
  });

  it('near miss: an internal error (-32603) on the re-read leaves the notification waiting, the entry cached', () => {
    const { log, e } = deleted(-32603, 'Internal error');
    expect(brief(findingsAfter(e, 5000))).toEqual([`notified-not-reread ${GONE} - warning`]);
    expect(e.snapshot(log.t + 5000).uris.find((r) => r.uri === GONE)!.cached).toBe(true);
  });

  it('2026-07-28: the listen delivers the update, the re-read is -32602 not found, the client re-listens without it: nothing', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, ENDPOINT);
    c.discover();
    c.read(GONE, 'v1');
    c.read(KEPT, 'v1');
    const l = c.listen([GONE, KEPT]);
    l.updated(GONE);
    c.beginRead(GONE).fail(-32602, 'Resource not found');
    c.listen([KEPT]);
    c.cancel(l);
    expect(brief(findingsAfter(run(log), 5000))).toEqual([]);
  });
});
