// Two page documents in one log (a preserved log across a reload, or two frames of a page) talking to the same endpoint
// about the same URI are two clients: their findings stay apart, each on its own URI row and timeline lane.
import { describe, expect, it } from 'vitest';
import { Engine, findingRowKey, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { findingsForRow } from '../../../panel/model/uri-table.ts';
import { staleIntervals } from '../../../panel/model/timeline.ts';
import { clientKeyOf, clientTags, snapshotClientTags } from '../../../panel/model/client-tags.ts';
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


describe('which client a row is', () => {
  /** A top page and its iframe on one endpoint, and the iframe on a second server too, all reading A. */
  function threeClients(): EngineSnapshot {
    const top = new FrameLog('doc-top');
    top.pageStart('http://localhost:8080/app');
    const t = new StreamableClient(top, URL, '2025-11-25');
    t.initialize({ sessionId: 'S1' });
    t.read(A, 'v1');
    const inner = new FrameLog('doc-inner', top.t + 5, top.lastSeq);
    inner.pageStart('http://widgets.test:8081/w?id=1', false);
    for (const [endpoint, session] of [[URL, 'S2'], ['https://other.test/mcp', 'S3']] as const) {
      const c = new StreamableClient(inner, endpoint, '2025-11-25');
      c.initialize({ sessionId: session });
      c.read(A, 'v1');
    }
    const engine = new Engine();
    engine.applyAll([...top.frames, ...inner.frames]);
    return engine.snapshot(inner.t + 10);
  }

  it("the engine names each client's page; the panel tags rows with what tells them apart", () => {
    const snap = threeClients();
    expect(snap.clients.map((c) => [c.doc, c.endpoint, c.page])).toEqual([
      ['doc-top', URL, { url: 'http://localhost:8080/app', top: true }],
      ['doc-inner', URL, { url: 'http://widgets.test:8081/w?id=1', top: false }],
      ['doc-inner', 'https://other.test/mcp', { url: 'http://widgets.test:8081/w?id=1', top: false }],
    ]);
    const rows = snap.uris.filter((r) => r.uri === A);
    expect(rows).toHaveLength(3);
    const tags = snapshotClientTags(snap);
    expect(rows.map((r) => tags.get(clientKeyOf(r))).sort()).toEqual([
      'iframe widgets.test:8081/w?id=1 · localhost:3000/mcp',
      'iframe widgets.test:8081/w?id=1 · other.test/mcp',
      'top page · localhost:3000/mcp',
    ]);
    expect(snapshotClientTags(snap)).toBe(tags);
  });

  it('says only what differs, and nothing for one client', () => {
    const c = (doc: string, endpoint: string, page?: { url: string; top: boolean }) => ({ doc, endpoint, ...(page ? { page } : {}) });
    const one = [c('d1', URL, { url: 'http://a.test/', top: true })];
    expect(clientTags(one, [{ doc: 'd1', endpoint: URL }]).size).toBe(0);
    // Two servers, one page: the endpoint alone.
    const twoServers = [c('d1', URL), c('d1', 'ws://b.test:9/ws')];
    expect([...clientTags(twoServers, twoServers).values()]).toEqual(['localhost:3000/mcp', 'b.test:9/ws']);
    // Two documents, one server: the page alone (a document whose page-start is not in view by its id).
    const twoDocs = [c('d1', URL, { url: 'http://a.test/', top: true }), c('abcdef123', URL)];
    expect([...clientTags(twoDocs, twoDocs).values()]).toEqual(['top page', 'document abcdef']);
    // Two iframes alike are numbered (one iframe on two servers is one iframe, above).
    const alike = [c('d1', URL, { url: 'http://w.test/x', top: false }), c('d2', URL, { url: 'http://w.test/x', top: false })];
    expect([...clientTags(alike, alike).values()]).toEqual(['iframe w.test/x #1', 'iframe w.test/x #2']);
    // A client without rows (its page unloaded) is not counted, nor tagged.
    expect(clientTags(twoDocs, [{ doc: 'd1', endpoint: URL }]).size).toBe(0);
    // An iframe that reloaded (its first document unloaded, its rows gone) beside another iframe: the live one is not
    // `#2` with no `#1` listed; the unloaded one, where it is still shown (Findings), says so.
    const ended = { ...c('d1', URL, { url: 'http://w.test/x', top: false }), ended: true };
    const reloaded = [ended, c('d3', URL, { url: 'http://v.test/', top: false }), c('d2', URL, { url: 'http://w.test/x', top: false })];
    expect([...clientTags(reloaded, reloaded.slice(1)).values()]).toEqual(['iframe v.test', 'iframe w.test/x']);
    expect([...clientTags(reloaded, reloaded).values()]).toEqual(['iframe w.test/x (unloaded)', 'iframe v.test', 'iframe w.test/x']);
    // Two live ones alike are still numbered among themselves; two unloaded ones among theirs.
    const many = [ended, { ...c('d0', URL, { url: 'http://w.test/x', top: false }), ended: true }, ...alike.map((x) => ({ ...x, doc: `${x.doc}b` }))];
    expect([...clientTags(many, many).values()]).toEqual(['iframe w.test/x (unloaded #1)', 'iframe w.test/x (unloaded #2)', 'iframe w.test/x #1', 'iframe w.test/x #2']);
  });
});
