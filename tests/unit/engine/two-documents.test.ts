// Two page documents in one log (a preserved log across a reload, or two frames of a page) talking to the same endpoint
// about the same URI are two clients: their findings stay apart, each on its own URI row and timeline lane.
import { describe, expect, it } from 'vitest';
import { Engine, findingRowKey, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { findingsForRow } from '../../../panel/model/uri-table.ts';
import { staleIntervals } from '../../../panel/model/timeline.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';

/** Page 1 reads A without ever subscribing and lives 100 s; page 2 (a reload) does the same and is still open. */
function reloadedTwice(generation: '2025' | '2026'): { snap: EngineSnapshot; firstPageEnd: number } {
  const client = (log: FrameLog, session: string) => {
    if (generation === '2026') {
      const c = new ModernClient(log, URL);
      c.discover();
      return c;
    }
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: session });
    return c;
  };
  const page1 = new FrameLog('doc-1');
  page1.pageStart('http://localhost:8080/app');
  client(page1, 'S1').read(A, 'v1');
  page1.wait(100_000);
  page1.pageEnd('http://localhost:8080/app');
  const firstPageEnd = page1.t;
  const page2 = new FrameLog('doc-2', page1.t + 10, page1.lastSeq);
  page2.pageStart('http://localhost:8080/app');
  client(page2, 'S2').read(A, 'v2');
  page2.wait(100_000);
  const engine = new Engine();
  engine.applyAll([...page1.frames, ...page2.frames]);
  return { snap: engine.snapshot(page2.t), firstPageEnd };
}

describe('two documents, same endpoint and URI', () => {
  for (const generation of ['2025', '2026'] as const) {
    it(`${generation}: one finding per document, each on its own row`, () => {
      const { snap, firstPageEnd } = reloadedTwice(generation);
      const found = snap.findings.filter((f) => f.id === 'cached-not-subscribed');
      // 2026 has no session to tell the two pages apart: they were merged into one finding before (count 2).
      expect(found.map((f) => [f.doc, f.open, f.count])).toEqual([
        ['doc-1', false, 1],
        ['doc-2', true, 1],
      ]);
      const row = snap.uris.find((r) => r.uri === A)!;
      expect(row.doc).toBe('doc-2');
      expect(findingsForRow(snap.findings, row).map((f) => f.doc)).toEqual(['doc-2']);
      expect(findingRowKey(found[1]!)).toBe(row.key);
      // The timeline shades the current page's row from its own read on, not from the first page's.
      const stale = staleIntervals(snap, snap.uris[0]!.cacheReadAt! + 200_000).get(row.key) ?? [];
      expect(stale.length).toBe(1);
      expect(stale[0]!.t0).toBeGreaterThan(firstPageEnd);
    });
  }
});

describe('a reloaded page that resumes its stored session id (the SDK transport\'s sessionId option skips initialize)', () => {
  it('the session is the new page\'s (picked up mid-way), not the unloaded page\'s ended one', () => {
    const page1 = new FrameLog('doc-1');
    page1.pageStart('http://localhost:8080/app');
    const c1 = new StreamableClient(page1, URL, '2025-11-25');
    c1.initialize({ sessionId: 'S1' });
    c1.openGet();
    c1.read(A, 'v1');
    c1.subscribe(A);
    page1.pageEnd('http://localhost:8080/app');
    const page2 = new FrameLog('doc-2', page1.t + 10, page1.lastSeq);
    page2.pageStart('http://localhost:8080/app');
    const c2 = new StreamableClient(page2, URL, '2025-11-25');
    c2.sessionId = 'S1';
    c2.read(A, 'v2');
    c2.subscribe(A);
    page2.wait(100);
    const engine = new Engine();
    engine.applyAll([...page1.frames, ...page2.frames]);
    const snap = engine.snapshot(page2.t + 3000);
    const sessions = snap.sessions.filter((s) => s.label === 'S1').map((s) => [s.doc, s.open, s.observedFromStart]);
    expect(sessions).toEqual([
      ['doc-1', false, true],
      ['doc-2', true, false],
    ]);
    // The new page's subscribe is held by its session; what is missing is its GET stream, and said so.
    const findings = engine.findings(page2.t + 3000).filter((f) => f.doc === 'doc-2' && f.open);
    expect(findings.map((f) => `${f.id} ${f.reason ?? '-'}`)).toEqual(['no-delivery-channel never-opened']);
  });
});

