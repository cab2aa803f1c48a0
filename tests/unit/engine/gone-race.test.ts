// A review (2026-12-05): a read sent before the notification and answered "not found" after it left notified-not-reread
// open for ever on a row that read cached: false.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const GONE = 'file:///docs/old.md';

describe('not-found answer to a read sent just before the deletion notice', () => {
  it('a read in flight when the server deletes and notifies, answered not-found: the notification is answered too', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(GONE, 'v1');
    c.subscribe(GONE);
    log.wait(1000);
    const r = c.beginRead(GONE); // a refresh (poll / user action), in flight…
    get.updated(GONE); // …the server deletes the resource and notifies…
    r.fail(-32002, 'Resource not found'); // …then answers the read: gone. (The client coalesces: no second read.)
    const e = run(log);
    const row = e.snapshot(log.t + 60_000).uris.find((u) => u.uri === GONE)!;
    expect(row.cached).toBe(false);
    expect(brief(findingsAfter(e, 60_000))).toEqual([]);
    expect(e.snapshot(log.t + 60_000).flow.perUri[Object.keys(e.snapshot(log.t + 60_000).flow.perUri).find((k) => k.endsWith(GONE))!]!.reached).not.toContain('K');
  });
});
