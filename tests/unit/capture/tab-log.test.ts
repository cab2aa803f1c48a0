// The per-tab log (background/tab-log.ts) on the real LogStore over an in-memory IndexedDB (fake-indexeddb): exactly-once
// acceptance of relay batches, caps that drop the oldest and count it, and a failed write that loses nothing.
import 'fake-indexeddb/auto';
import { forceCloseDatabase } from 'fake-indexeddb';
import { unwrap } from 'idb';
import { describe, expect, it } from 'vitest';
import { LogStore, emptyMeta, type FrameChunk, type TabMeta } from '../../../background/log-store.ts';
import { TabLog, type LogCaps, type WriteDelays } from '../../../background/tab-log.ts';
import { Tabs } from '../../../background/tabs.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';

let dbCount = 0;
const freshStore = () => new LogStore(`tab-log-test-${++dbCount}`);

/** Short write delays: these tests are about what is written, not when (the pace has its own tests below). */
const FAST: WriteDelays = { watchedMs: 5, unwatchedMs: 5 };
const newLog = (tab: number, store: LogStore, caps: () => LogCaps) => new TabLog(tab, store, caps, () => false, FAST);

let n = 0;
/** One hook message of `count` sse-event frames, numbered so order and duplicates show. */
function payload(count: number): string {
  const frames = Array.from({ length: count }, () => {
    n++;
    return { kind: 'sse-event', doc: 'd', n, t: n, conn: 'd.1', data: { text: `{"jsonrpc":"2.0","method":"m","params":{"n":${n}}}` } };
  });
  return JSON.stringify({ tag: PAGE_TAG, frames });
}

/** The store's connection as the browser has it (what a forced close acts on). */
const rawDb = async (store: LogStore): Promise<IDBDatabase> => unwrap((await (store as unknown as { db: Promise<unknown> }).db) as never) as unknown as IDBDatabase;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const numbers = async (store: LogStore, tab: number) => (await store.readAfter(tab, 0, 1e6)).map((f) => (f as unknown as { n: number }).n);

/** A store whose next append fails (quota, or a worker stopped midway) when asked. */
class FlakyStore extends LogStore {
  failNext = false;
  override async append(meta: TabMeta, chunks: FrameChunk[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('QuotaExceededError (simulated)');
    }
    return super.append(meta, chunks);
  }
}

describe('TabLog', () => {
  it("redacts the user's extra secret headers before storing (the page is not told their names)", async () => {
    const store = freshStore();
    const log = newLog(11, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    log.extraSecretHeaders = async () => ['x-tenant'];
    const request = { kind: 'http-request', doc: 'd', n: 1, t: 1, conn: 'd.1', method: 'POST', url: 'http://x/mcp', headers: { 'x-tenant': 'acme-secret', 'content-type': 'application/json' } };
    const response = { kind: 'http-response', doc: 'd', n: 2, t: 2, conn: 'd.1', status: 200, statusText: 'OK', url: 'http://x/mcp', redirected: false, headers: { 'x-tenant': 'acme-secret' } };
    await log.accept('r', 1, [JSON.stringify({ tag: PAGE_TAG, frames: [request, response] })], 0, 0);
    const stored = await store.readAfter(11, 0, 10);
    expect(JSON.stringify(stored)).not.toContain('acme-secret');
    expect(stored.map((f) => (f.kind === 'http-request' || f.kind === 'http-response' ? f.headers['x-tenant'] : ''))).toEqual([expect.stringMatching(/^\[redacted:[0-9a-f]{8}\]$/), expect.stringMatching(/^\[redacted:/)]);
    expect(stored[0]!.kind === 'http-request' && stored[0]!.headers['content-type']).toBe('application/json');
  });

  it('accepts each relay batch once and stamps seq in order', async () => {
    const store = freshStore();
    const log = newLog(1, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    n = 0;
    const a = payload(3);
    const first = await log.accept('relay-a', 1, [a], 0, 0);
    const again = await log.accept('relay-a', 1, [a], 0, 0); // re-sent after a reconnect
    await log.accept('relay-a', 2, [payload(2)], 0, 0);
    expect(first.frames.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(again.frames).toEqual([]);
    expect(await numbers(store, 1)).toEqual([1, 2, 3, 4, 5]);
    expect(log.stats()).toMatchObject({ frames: 5, lastSeq: 5, dropped: 0 });
  });

  it('drops the oldest beyond the frame cap and counts every dropped frame', async () => {
    const store = freshStore();
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const log = newLog(2, store, () => caps);
    n = 0;
    for (let b = 1; b <= 30; b++) await log.accept('relay-a', b, [payload(10)], 0, 0);
    const kept = await numbers(store, 2);
    const stats = log.stats();
    expect(stats.frames).toBe(kept.length);
    expect(stats.frames).toBeLessThanOrEqual(100);
    expect(stats.dropped + stats.frames).toBe(300);
    // What is kept is the newest, contiguous, ending at the last frame.
    expect(kept.at(-1)).toBe(300);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 301 - kept.length + i));
    // The counters survive a restart of the worker (a new TabLog on the same store).
    const reopened = newLog(2, store, () => caps);
    await reopened.accept('relay-b', 1, [payload(1)], 0, 0);
    expect(reopened.stats().dropped + reopened.stats().frames).toBe(301);
  });

  it('drops the oldest beyond the byte cap', async () => {
    const store = freshStore();
    const one = payload(10).length;
    const log = newLog(3, store, () => ({ maxFrames: 1e6, maxBytes: one * 5 }));
    n = 0;
    for (let b = 1; b <= 20; b++) await log.accept('relay-a', b, [payload(10)], 0, 0);
    const stats = log.stats();
    expect(stats.bytes).toBeLessThanOrEqual(one * 5 + 100);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.dropped + stats.frames).toBe(200);
  });

  it('a trim that fails changes nothing: the batch it followed is stored and done, the counts match the store, the next write trims', async () => {
    class FlakyTrim extends LogStore {
      failTrim = false;
      override async dropOldest(meta: TabMeta, frames: number, bytes: number): Promise<TabMeta> {
        if (this.failTrim) {
          this.failTrim = false;
          throw new Error('worker terminated midway');
        }
        return super.dropOldest(meta, frames, bytes);
      }
    }
    const store = new FlakyTrim(`tab-log-test-${++dbCount}`);
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const log = newLog(20, store, () => caps);
    n = 0;
    for (let b = 1; b <= 10; b++) await log.accept('relay-a', b, [payload(10)], 0, 0);
    store.failTrim = true;
    const eleventh = await log.accept('relay-a', 11, [payload(10)], 0, 0);
    expect(eleventh.frames.map((f) => f.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 101 + i));
    expect(log.stats().frames).toBe((await numbers(store, 20)).length);
    for (let b = 12; b <= 40; b++) await log.accept('relay-a', b, [payload(10)], 0, 0);
    const kept = await numbers(store, 20);
    const reopened = newLog(20, store, () => caps);
    const stats = await reopened.ensureLoaded();
    expect([stats.frames, stats.dropped + stats.frames]).toEqual([kept.length, 400]);
    expect(stats.frames).toBeLessThanOrEqual(100);
  });

  it('a batch re-sent while its first copy waits to be written is answered by that write: if it fails, both fail', async () => {
    const store = new FlakyStore(`tab-log-test-${++dbCount}`);
    const log = newLog(22, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    n = 0;
    const p1 = payload(2);
    store.failNext = true;
    const first = log.accept('relay-a', 1, [p1], 0, 0);
    // The relay reconnected (same worker) and sends the batch again before the first copy is written.
    const again = log.accept('relay-a', 1, [p1], 0, 0);
    const settled = await Promise.allSettled([first, again]);
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    // Re-sent after the failure: stored once.
    expect((await log.accept('relay-a', 1, [p1], 0, 0)).frames.map((f) => f.seq)).toEqual([1, 2]);
    expect(await log.accept('relay-a', 1, [p1], 0, 0)).toMatchObject({ frames: [] });
    expect(await numbers(store, 22)).toEqual([1, 2]);
  });

  it("a new browser session drops the previous session's logs, loaded ones too, before a restored tab's first frames are taken", async () => {
    const store = freshStore();
    const tabs = new Tabs(store);
    tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
    n = 0;
    for (let b = 1; b <= 3; b++) await tabs.get(30).accept('relay-old', b, [payload(5)], 0, 0);
    await tabs.get(31).accept('relay-x', 1, [payload(1)], 0, 0);
    // Tab 31's log is loaded in this worker (its relay spoke before the startup event); tab 30's is only stored.
    (tabs as unknown as { logs: Map<number, unknown> }).logs.delete(30);
    // …and has a batch taken but not yet written: it fails (its relay sends it again, to the new log).
    const unwritten = tabs.get(31).accept('relay-x', 2, [payload(1)], 0, 0).then(() => 'written', (e: unknown) => String(e));
    await sleep(0);
    const reset = tabs.newBrowserSession();
    // The restored tabs speak at once, before the removal is done.
    n = 100;
    const first = tabs.get(30).accept('relay-new', 1, [payload(2)], 0, 0);
    const other = tabs.get(31).accept('relay-x', 3, [payload(1)], 0, 0);
    await reset;
    expect(await unwritten).toMatch(/new browser session/);
    expect((await first).frames.map((f) => f.seq)).toEqual([1, 2]);
    expect((await other).frames.map((f) => f.seq)).toEqual([1]);
    expect(await numbers(store, 30)).toEqual([101, 102]);
    expect(await numbers(store, 31)).toEqual([103]);
    expect(tabs.get(30).stats()).toMatchObject({ frames: 2, lastSeq: 2, dropped: 0 });
  });

  it('a write already under way when a new browser session begins is not acknowledged: the relay sends it again, to the new log', async () => {
    const store = freshStore();
    // The previous session left a log for tab 5 (tab ids are reused).
    await store.append({ ...emptyMeta(5), lastSeq: 40, frames: 40, bytes: 4000 }, [{ firstSeq: 1, lastSeq: 40, bytes: 4000, frames: [] }]);
    const tabs = new Tabs(store);
    tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
    // The startup event comes while the restored tab's first write is in its transaction.
    const db = await (store as unknown as { db: Promise<IDBDatabase> }).db;
    const transaction = db.transaction.bind(db);
    let session: Promise<void> | undefined;
    db.transaction = ((...a: Parameters<IDBDatabase['transaction']>) => {
      const tx = transaction(...a);
      if (!session && a[1] === 'readwrite') session = tabs.newBrowserSession();
      return tx;
    }) as IDBDatabase['transaction'];
    n = 0;
    const first = await tabs.get(5).accept('restored-relay', 1, [payload(3)], 0, 0).then(() => 'acknowledged', (e: Error) => e.message);
    await session;
    expect(first).toMatch(/new browser session/);
    // Sent again: the new log has it, numbered from 1.
    n = 0;
    expect((await tabs.get(5).accept('restored-relay', 1, [payload(3)], 0, 0)).frames.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(await numbers(store, 5)).toEqual([1, 2, 3]);
  });

  it('the cap never trims the batch just written: one near the cap, or one frame over it, stays (and is counted)', async () => {
    const store = freshStore();
    const log = newLog(40, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    n = 0;
    for (let b = 1; b <= 10; b++) await log.accept('relay-a', b, [payload(50)], 0, 0);
    const big = await log.accept('relay-a', 11, [payload(950)], 0, 0);
    expect(big.frames).toHaveLength(950);
    expect(await numbers(store, 40)).toEqual(Array.from({ length: 950 }, (_, i) => 501 + i));
    expect(log.stats()).toMatchObject({ frames: 950, dropped: 500 });
    // One frame over the byte cap: it stays alone, over the cap, until the next write.
    const bytes = freshStore();
    const small = newLog(41, bytes, () => ({ maxFrames: 1000, maxBytes: 2000 }));
    for (let b = 1; b <= 5; b++) await small.accept('relay-a', b, [payload(3)], 0, 0);
    const huge = JSON.stringify({ tag: PAGE_TAG, frames: [{ kind: 'sse-event', doc: 'd', n: ++n, t: n, conn: 'd.1', data: { text: 'x'.repeat(5000) } }] });
    await small.accept('relay-a', 6, [huge], 0, 0);
    expect((await bytes.readAfter(41, 0, 1e6)).map((f) => f.seq)).toEqual([16]);
    expect(small.stats()).toMatchObject({ frames: 1, dropped: 15 });
  });

  it('a Clear right after a write that failed clears (it read the meta the failure forgot)', async () => {
    const store = new FlakyStore(`tab-log-test-${++dbCount}`);
    const log = newLog(42, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    n = 0;
    await log.accept('relay-a', 1, [payload(3)], 0, 0);
    store.failNext = true;
    const failed = log.accept('relay-a', 2, [payload(1)], 0, 0).then(() => 'written', (e: Error) => e.message);
    const cleared = await log.clear();
    expect(await failed).toMatch(/Quota/);
    expect(cleared.stats).toMatchObject({ frames: 0, lastSeq: 3 });
  });

  it('the browser closes the database under the log (storage cleared): it opens it again and goes on, numbers never reused', async () => {
    const name = `tab-log-test-${++dbCount}`;
    const store = new LogStore(name);
    // Tabs hears of the new connection (LogStore.onReopen) and tells its logs.
    const tabs = new Tabs(store);
    tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
    const log = tabs.get(50);
    n = 0;
    await log.accept('relay-a', 1, [payload(3)], 0, 0);
    // Closed only: what was stored is still there.
    forceCloseDatabase((await rawDb(store)) as never);
    expect((await log.accept('relay-a', 2, [payload(2)], 0, 0)).frames.map((f) => f.seq)).toEqual([4, 5]);
    expect(await numbers(store, 50)).toEqual([1, 2, 3, 4, 5]);
    // Closed and emptied (as Chrome does when the user clears the extension's storage).
    forceCloseDatabase((await rawDb(store)) as never);
    const other = new LogStore(name);
    await other.replaceTab(emptyMeta(50), undefined);
    expect((await log.accept('relay-a', 3, [payload(2)], 0, 0)).frames.map((f) => f.seq)).toEqual([6, 7]);
    expect(await numbers(store, 50)).toEqual([6, 7]);
    expect(log.stats()).toMatchObject({ frames: 2, lastSeq: 7 });
  });

  it('the database closed while a log reads its metadata: each batch keeps numbers of its own, none lost', async () => {
    for (const tick of [false, true]) {
      const store = new LogStore(`tab-log-test-${++dbCount}`);
      const tabs = new Tabs(store);
      tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
      await tabs.get(1).accept('r1', 1, [payload(3)], 0, 0);
      const db = await rawDb(store);
      const log = tabs.get(2); // not loaded yet
      n = 10;
      const a = log.accept('r2', 1, [payload(2)], 0, 0);
      if (tick) await Promise.resolve();
      forceCloseDatabase(db as never);
      const b = log.accept('r2', 2, [payload(2)], 0, 0);
      const seqs = async (p: typeof a) => p.then((x) => x.frames.map((f) => f.seq), (e: Error) => e.message);
      expect([await seqs(a), await seqs(b)]).toEqual([[1, 2], [3, 4]]);
      expect(await numbers(store, 2)).toEqual([11, 12, 13, 14]);
    }
  });

  it('lowered caps trim an idle log at once, and say so; caps it is within change nothing', async () => {
    const store = freshStore();
    const caps: LogCaps = { maxFrames: 1000, maxBytes: 1e9 };
    const log = newLog(21, store, () => caps);
    n = 0;
    for (let b = 1; b <= 40; b++) await log.accept('relay-a', b, [payload(10)], 0, 0);
    expect(await log.capsChanged()).toBeUndefined();
    caps.maxFrames = 100;
    const stats = await log.capsChanged();
    const kept = await numbers(store, 21);
    expect(stats).toMatchObject({ frames: kept.length, dropped: 400 - kept.length });
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept.at(-1)).toBe(400);
  });

  it('a failed write loses nothing: later batches from that port are refused until the relay re-sends in order', async () => {
    const store = new FlakyStore(`tab-log-test-${++dbCount}`);
    const log = newLog(4, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    n = 0;
    const p1 = payload(2);
    const p2 = payload(2);
    const p3 = payload(2);
    await log.accept('relay-a', 1, [p1], 0, 0);
    store.failNext = true;
    // What RelayHub does: the port of a failed batch is reset, and what it had already sent is refused.
    let reset = false;
    const current = () => !reset;
    const second = log.accept('relay-a', 2, [p2], 0, 0, undefined, 0, current);
    await expect(second).rejects.toThrow(/simulated/);
    reset = true;
    await expect(log.accept('relay-a', 3, [p3], 0, 0, undefined, 0, current)).rejects.toThrow(/re-sent/);
    // The relay reconnects and re-sends everything unacknowledged, oldest first.
    await log.accept('relay-a', 2, [p2], 0, 0);
    await log.accept('relay-a', 3, [p3], 0, 0);
    expect(await numbers(store, 4)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await store.readAfter(4, 0, 100)).map((f) => f.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log.stats()).toMatchObject({ frames: 6, lastSeq: 6, dropped: 0 });
  });
  it('segments pages: a top-level page-start begins one; an MCP iframe of a page that never spoke MCP begins one too', async () => {
    const store = freshStore();
    const log = newLog(9, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    let k = 0;
    const msg = (doc: string, ...kinds: string[]) =>
      JSON.stringify({
        tag: PAGE_TAG,
        frames: kinds.map((kind) =>
          kind === 'page-start'
            ? { kind, doc, n: ++k, t: k, url: `http://x/${doc}`, top: doc.startsWith('top') }
            : kind === 'page-end'
              ? { kind, doc, n: ++k, t: k, url: `http://x/${doc}`, persisted: false }
              : { kind: 'sse-event', doc, n: ++k, t: k, conn: `${doc}.1`, data: { text: '{"jsonrpc":"2.0","method":"m"}' } },
        ),
      });
    const segmentsOf = async (doc: string) => [...new Set((await store.readAfter(9, 0, 1e6)).filter((f) => f.doc === doc).map((f) => f.segment))];
    let b = 0;
    const send = (frameId: number, text: string) => log.accept('r', ++b, [text], frameId, 0);
    // A frame before any page-start is the first page's: that segment starts with the log.
    await send(0, msg('top1', 'event'));
    // Page 1 speaks MCP at the top and in an iframe: one segment.
    await send(0, msg('top1', 'page-start', 'event'));
    expect(log.segmentFirstSeq).toBe(1);
    await send(3, msg('inner1', 'page-start', 'event'));
    // Navigating away ends both; page 2's top never speaks MCP (so it sends nothing), only its iframe does.
    await send(3, msg('inner1', 'page-end'));
    await send(0, msg('top1', 'page-end'));
    await send(5, msg('inner2', 'page-start', 'event'));
    // A second MCP iframe on page 2 joins its segment; then page 3 speaks at the top.
    await send(6, msg('inner2b', 'page-start', 'event'));
    await send(0, msg('top3', 'page-start', 'event'));
    expect(await segmentsOf('top1')).toEqual([1]);
    expect(await segmentsOf('inner1')).toEqual([1]);
    expect(await segmentsOf('inner2')).toEqual([2]);
    expect(await segmentsOf('inner2b')).toEqual([2]);
    expect(await segmentsOf('top3')).toEqual([3]);
    expect(log.stats().segment).toBe(3);
    // Where the badge's rebuild starts reading: page 3's page-start.
    expect((await store.readAfter(9, log.segmentFirstSeq - 1, 1)).at(0)).toMatchObject({ kind: 'page-start', doc: 'top3' });
    // Page 4: its iframe's first MCP frame arrives before its top's; the top document started earlier, so it joins.
    await send(0, msg('top3', 'page-end'));
    const topStartedAt = ++k;
    await send(7, msg('inner4', 'page-start', 'event'));
    await send(0, JSON.stringify({ tag: PAGE_TAG, frames: [{ kind: 'page-start', doc: 'top4', n: 1, t: topStartedAt, url: 'http://x/top4', top: true }] }));
    await send(0, msg('top4', 'event'));
    expect(await segmentsOf('inner4')).toEqual([4]);
    expect(await segmentsOf('top4')).toEqual([4]);
    // Page 5 speaks at the top again: a new segment, although page 4 began with a subframe.
    await send(0, msg('top4', 'page-end'));
    await send(0, msg('top5', 'page-start', 'event'));
    expect(await segmentsOf('top5')).toEqual([5]);
    // Page 6 is silent; its MCP iframe reloads (same browser frame): still one page. A clear in between changes nothing.
    await send(0, msg('top5', 'page-end'));
    await send(8, msg('inner6', 'page-start', 'event'));
    await send(8, msg('inner6', 'page-end'));
    await log.clear();
    await send(8, msg('inner6b', 'page-start', 'event'));
    expect(await segmentsOf('inner6b')).toEqual([6]);
    expect(log.stats().segment).toBe(6);
  });

  it('a page back from the back/forward cache goes on in its segment when no page in between spoke MCP, and comes back whole when one did', async () => {
    const store = freshStore();
    const log = newLog(10, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }));
    let k = 0;
    const frame = (doc: string, kind: string) =>
      kind === 'page-start'
        ? { kind, doc, n: ++k, t: k, url: `http://x/${doc}`, top: doc.startsWith('top') }
        : kind === 'page-end'
          ? { kind, doc, n: ++k, t: k, url: `http://x/${doc}`, persisted: true }
          : { kind: 'sse-event', doc, n: ++k, t: k, conn: `${doc}.1`, data: { text: '{"jsonrpc":"2.0","method":"m"}' } };
    let b = 0;
    const send = (frameId: number, doc: string, ...kinds: string[]) => log.accept('r', ++b, [JSON.stringify({ tag: PAGE_TAG, frames: kinds.map((x) => frame(doc, x)) })], frameId, 0);
    const segmentsOf = async (doc: string) => [...new Set((await store.readAfter(10, 0, 1e6)).filter((f) => f.doc === doc).map((f) => f.segment))];
    // Page A speaks MCP at the top and in an iframe.
    await send(0, 'topA', 'page-start', 'event');
    await send(3, 'innerA', 'page-start', 'event');
    const firstSeq = log.segmentFirstSeq;
    // To a page that never speaks MCP, and back: the iframe's return may arrive before its top's.
    await send(3, 'innerA', 'page-end');
    await send(0, 'topA', 'page-end');
    await send(3, 'innerA', 'page-start', 'event');
    await send(0, 'topA', 'page-start', 'event');
    expect(await segmentsOf('topA')).toEqual([1]);
    expect(await segmentsOf('innerA')).toEqual([1]);
    expect(log.segmentFirstSeq).toBe(firstSeq);
    // To page B, which speaks MCP (a segment of its own), and back to A: its iframe's return begins a segment, and its
    // top's return joins it although stamped later.
    await send(3, 'innerA', 'page-end');
    await send(0, 'topA', 'page-end');
    await send(0, 'topB', 'page-start', 'event');
    await send(0, 'topB', 'page-end');
    await send(3, 'innerA', 'page-start', 'event');
    await send(0, 'topA', 'page-start', 'event');
    expect(await segmentsOf('topB')).toEqual([2]);
    expect(log.stats().segment).toBe(3);
    expect((await store.readAfter(10, 0, 1e6)).filter((f) => f.segment === 3).map((f) => f.doc)).toEqual(['innerA', 'innerA', 'topA', 'topA']);
    // A reload is a new document: a new segment.
    await send(3, 'innerA', 'page-end');
    await send(0, 'topA', 'page-end');
    await send(0, 'topA2', 'page-start', 'event');
    expect(log.stats().segment).toBe(4);
    // A2, then a silent page P with an MCP iframe, then B; Back to P (its iframe's return begins a segment), Back
    // again to A2: A2 does not join P's segment (P's iframe ended first: it was the other page's).
    await send(0, 'topA2', 'page-end');
    await send(4, 'innerP', 'page-start', 'event');
    await send(4, 'innerP', 'page-end');
    await send(0, 'topB', 'page-start', 'event');
    await send(0, 'topB', 'page-end');
    await send(4, 'innerP', 'page-start', 'event');
    expect(log.stats().segment).toBe(7);
    await send(4, 'innerP', 'page-end');
    await send(0, 'topA2', 'page-start', 'event');
    expect(log.stats().segment).toBe(8);
  });

  describe('write pace', () => {
    const caps = () => ({ maxFrames: 1000, maxBytes: 1e9 });
    const elapsed = async (p: Promise<unknown>) => {
      const t0 = performance.now();
      await p;
      return performance.now() - t0;
    };

    it('writes after the idle delay while no panel shows the tab, after the live delay while one does', async () => {
      const store = freshStore();
      let watching = false;
      const log = new TabLog(20, store, caps, () => watching, { watchedMs: 10, unwatchedMs: 600 });
      n = 0;
      expect(await elapsed(log.accept('r', 1, [payload(2)], 0, 0))).toBeGreaterThanOrEqual(590);
      watching = true;
      expect(await elapsed(log.accept('r', 2, [payload(2)], 0, 0))).toBeLessThan(400);
      watching = false;
      expect(await elapsed(log.accept('r', 3, [payload(2)], 0, 0))).toBeGreaterThanOrEqual(590);
      expect(await numbers(store, 20)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('writes a batch that ends a page within the live delay: its relay is gone and cannot re-send it', async () => {
      const store = freshStore();
      const log = new TabLog(22, store, caps, () => false, { watchedMs: 10, unwatchedMs: 60_000 });
      const end = JSON.stringify({ tag: PAGE_TAG, frames: [{ kind: 'page-end', doc: 'd', n: 1, t: 1, url: 'http://x/', persisted: false }] });
      const accepted = await log.accept('r', 1, [end], 0, 0);
      expect(accepted.frames.map((f) => f.kind)).toEqual(['page-end']);
      expect(await elapsed(log.accept('r', 2, [end.replace('"n":1', '"n":2')], 0, 0))).toBeLessThan(1000);
    });

    it("writes soon what a page sent after its end (its own pagehide handler), not what a live page sends", async () => {
      const store = freshStore();
      const log = new TabLog(23, store, caps, () => false, { watchedMs: 10, unwatchedMs: 60_000 });
      const msg = (...frames: object[]) => JSON.stringify({ tag: PAGE_TAG, frames });
      const req = (doc: string, n: number) => ({ kind: 'http-request', doc, n, t: n, conn: `${doc}.1`, method: 'DELETE', url: 'http://x/mcp', headers: {} });
      const start = (doc: string) => ({ kind: 'page-start', doc, n: 1, t: 1, url: 'http://x/', top: true });
      await log.accept('r', 1, [msg(start('d'), req('d', 2), { kind: 'page-end', doc: 'd', n: 3, t: 3, url: 'http://x/', persisted: false })], 0, 0);
      expect(await elapsed(log.accept('r', 2, [msg(req('d', 4))], 0, 0))).toBeLessThan(1000);
      // A live document's batch waits for the idle delay; so does one back from the back/forward cache.
      const live = log.accept('r2', 1, [msg(start('e'), req('e', 2))], 0, 0);
      expect(await Promise.race([live.then(() => 'written'), new Promise((r) => setTimeout(() => r('waiting'), 300))])).toBe('waiting');
      const back = log.accept('r', 3, [msg({ ...start('d'), n: 5 }, req('d', 6))], 0, 0);
      expect(await Promise.race([back.then(() => 'written'), new Promise((r) => setTimeout(() => r('waiting'), 300))])).toBe('waiting');
    });

    it('brings a pending write forward when a panel comes; the watch count is per tab and outlives a replaced log', async () => {
      const tabs = new Tabs(freshStore());
      tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
      const changes: Array<[number, boolean]> = [];
      tabs.onWatched = (tab, w) => changes.push([tab, w]);
      n = 0;
      // The real delays: an unwatched batch would wait a second.
      const accepted = tabs.get(21).accept('r', 1, [payload(3)], 0, 0);
      await new Promise((r) => setTimeout(r, 20));
      tabs.watch(21, 1);
      tabs.watch(21, 1); // a second panel on the same tab
      expect(await elapsed(accepted)).toBeLessThan(500);
      expect(await numbers(tabs.store, 21)).toEqual([1, 2, 3]);
      await tabs.remove(21); // e.g. the startup clean-up while a panel shows the tab
      expect(tabs.watched(21)).toBe(true);
      tabs.watch(21, -1);
      expect(tabs.watched(21)).toBe(true);
      tabs.watch(21, -1);
      expect(tabs.watched(21)).toBe(false);
      tabs.watch(99, -1); // a panel of a tab never seen: no log is made for it, nothing is said
      expect(changes).toEqual([
        [21, true],
        [21, false],
      ]);
    });
  });
});
