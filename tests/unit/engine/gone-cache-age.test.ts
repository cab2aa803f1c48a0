// A review (2026-12-05): a read answered "resource not found" un-caches the entry; what it spent past a declared bound
// used to vanish with it.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const U = 'file:///docs/prices.md';
const opts = { freshnessRules: [{ pattern: 'file:**', maxAgeMs: 5000 }] };

function scenario(gone: boolean) {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(U, 'v1');
  c.subscribe(U);
  log.wait(20_000); // 15 s past its 5 s bound
  const mid = brief(run(log, opts).findings(log.t));
  const r = c.beginRead(U);
  if (gone) r.fail(-32002, 'Resource not found');
  else r.respond({ contents: [{ uri: U, mimeType: 'text/markdown', text: 'v1' }] });
  return { mid, e: run(log, opts) };
}

describe('cache-age history when the refresh finds the resource gone', () => {
  it('refresh succeeds: the 15 s over the bound stays as history', () => {
    const { mid, e } = scenario(false);
    expect(mid).toEqual([`cache-age-exceeded ${U} rule warning`]);
    expect(brief(findingsAfter(e, 3000))).toEqual([`cache-age-exceeded ${U} rule warning`]);
  });
  it('a refresh answered -32002: the same 15 s stay as history (forgotten as a replaced entry is)', () => {
    const { mid, e } = scenario(true);
    expect(mid).toEqual([`cache-age-exceeded ${U} rule warning`]);
    expect(brief(findingsAfter(e, 3000))).toEqual([`cache-age-exceeded ${U} rule warning`]);
  });
});
