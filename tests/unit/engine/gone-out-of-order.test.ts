// A review (2026-12-05): an older read answered "not found" after a newer read was answered with content un-cached the
// row, and every later notification for it was then ignored.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const U = 'file:///docs/policy.md';
const content = (t: string) => ({ contents: [{ uri: U, mimeType: 'text/markdown', text: t }] });

function scenario(outOfOrderGone: boolean) {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.subscribe(U);
  const r1 = c.beginRead(U); // processed while the file was being replaced
  const r2 = c.beginRead(U);
  r2.respond(content('v1'));
  if (outOfOrderGone) r1.fail(-32002, 'Resource not found');
  else r1.respond(content('v1'));
  log.wait(3000);
  get.updated(U); // a real change; the client never re-reads
  return run(log);
}

describe('older read answered not-found after a newer one with content', () => {
  it('baseline: notified-not-reread', () => {
    expect(brief(findingsAfter(scenario(false), 5000))).toEqual([`notified-not-reread ${U} - warning`]);
  });
  it('an older read answered not-found after a newer one brought content: a failed read, the entry stays cached, the finding stays', () => {
    const e = scenario(true);
    expect(brief(findingsAfter(e, 5000))).toEqual([`notified-not-reread ${U} - warning`]);
    expect(e.snapshot(e.lastT! + 5000).uris.find((r) => r.uri === U)!.cached).toBe(true);
  });
});
