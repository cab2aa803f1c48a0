// The log's trim at its frame cap keeps the frames that opened exchanges going on past the cut and the current page's
// page-start (background/trim-keep.ts, log-store.ts dropOldest): a HAR of what is left has every entry's method and
// URL and its page; the counts stay honest (a review, 2026-12-06: entries with method UNKNOWN and url '').
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import { LogStore } from '../../../background/log-store.ts';
import { TabLog, type LogCaps } from '../../../background/tab-log.ts';
import { TrimKeep } from '../../../background/trim-keep.ts';
import { keptOpen } from '../../../background/open-exchanges.ts';
import { buildHar } from '../../../shared/har.ts';
import type { Frame } from '../../../shared/frames.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';

let dbCount = 0;
let n = 0;
const msg = (...frames: Record<string, unknown>[]) => JSON.stringify({ tag: PAGE_TAG, frames: frames.map((f) => ({ doc: 'd', n: ++n, t: 1_700_000_000_000 + n, ...f })) });
const URL = 'http://x/mcp';
const events = (conn: string, count: number) => msg(...Array.from({ length: count }, (_, i) => ({ kind: 'sse-event', conn, data: { text: `{"jsonrpc":"2.0","method":"notifications/message","params":{"i":${i}}}` } })));

describe('the trim at the cap', () => {
  it('keeps the opening frames of exchanges still going on and the page-start; a HAR of the log has every method and URL', async () => {
    const store = new LogStore(`trim-keep-test-${++dbCount}`);
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const log = new TabLog(1, store, () => caps, () => false, { watchedMs: 5, unwatchedMs: 5 });
    let b = 0;
    let sent = 0;
    const send = async (text: string) => {
      sent += (JSON.parse(text) as { frames: unknown[] }).frames.length;
      await log.accept('r', ++b, [text], 0, 0);
    };
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(
      msg(
        { kind: 'http-request', conn: 'd.get', method: 'GET', url: URL, headers: { accept: 'text/event-stream' } },
        { kind: 'http-response', conn: 'd.get', status: 200, statusText: 'OK', url: URL, redirected: false, headers: { 'content-type': 'text/event-stream' } },
        { kind: 'http-request', conn: 'd.post', method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, body: { text: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' } },
      ),
    );
    for (let i = 0; i < 30; i++) await send(events('d.get', 10));
    // The POST's answer comes after its request went past the cap.
    await send(
      msg(
        { kind: 'http-response', conn: 'd.post', status: 200, statusText: 'OK', url: URL, redirected: false, headers: { 'content-type': 'application/json' } },
        { kind: 'http-body', conn: 'd.post', body: { text: '{"jsonrpc":"2.0","id":1,"result":{}}' } },
        { kind: 'http-end', conn: 'd.post', outcome: 'complete', phase: 'body', bytes: 36 },
      ),
    );
    let stored = await store.readAfter(1, 0, 1e6);
    let stats = log.stats();
    expect(stats.dropped).toBeGreaterThan(0);
    expect(stats.dropped + stats.frames).toBe(sent);
    expect(stored).toHaveLength(stats.frames);
    expect(stored.slice(0, 4).map((f) => f.kind)).toEqual(['page-start', 'http-request', 'http-response', 'http-request']);
    expect(stats.kept).toEqual(stored.slice(0, 4).map((f) => f.seq));
    // In seq order, the rest without gaps from lastSeq - (frames - kept) + 1.
    const rest = stored.slice(4).map((f) => f.seq);
    expect(rest[0]).toBe(stats.lastSeq - (stats.frames - 4) + 1);
    expect(rest.every((s, i) => s === rest[0]! + i)).toBe(true);
    let har = buildHar(stored, { dropped: { frames: stats.dropped } });
    expect(har.log.pages.map((p) => p.title)).toEqual(['http://x/kb']);
    // The stream lost the events in the gap: said (_mcp.gap, its comment, log.comment); the POST, whose response came
    // after the gap, lost nothing.
    const gap: [number, number] = [stats.kept!.at(-1)! + 1, rest[0]! - 1];
    expect(har.log.entries.map((e) => [e.request.method, e.request.url, e._mcp.partial ?? false, e._mcp.gap])).toEqual([
      ['GET', URL, false, gap],
      ['POST', URL, false, undefined],
    ]);
    expect(har.log.entries[0]!.comment).toBe(`Frames ${gap[0]}–${gap[1]} are missing from this export (the log's cap dropped them while this exchange went on): any of its own frames among them (events, messages, its body) are not here.`);
    expect(har.log.comment).toContain(`${stats.dropped} frames were dropped by the log's cap before this export; 1 exchange went on across frames missing from this export`);
    expect(har.log.comment).not.toContain('_mcp.partial');

    // Once the POST's end went past the cap too, its request is no longer kept; the open stream's still is.
    for (let i = 0; i < 30; i++) await send(events('d.get', 10));
    stored = await store.readAfter(1, 0, 1e6);
    stats = log.stats();
    expect(stored.slice(0, 3).map((f) => f.kind)).toEqual(['page-start', 'http-request', 'http-response']);
    expect(stored.some((f) => 'conn' in f && f.conn === 'd.post')).toBe(false);
    expect(stats.kept).toHaveLength(3);
    expect(stats.dropped + stats.frames).toBe(sent);
    har = buildHar(stored);
    expect(har.log.entries.map((e) => [e.request.method, e.request.url, e._mcp.partial ?? false, e._mcp.gap !== undefined])).toEqual([['GET', URL, false, true]]);
    // A log reopened (a worker restart) reads the same.
    const reopened = new TabLog(1, store, () => caps);
    expect(await reopened.ensureLoaded()).toMatchObject({ frames: stats.frames, dropped: stats.dropped, kept: stats.kept });
  });

  const logWith = (caps: LogCaps) => {
    const store = new LogStore(`trim-keep-test-${++dbCount}`);
    const log = new TabLog(1, store, () => caps, () => false, { watchedMs: 5, unwatchedMs: 5 });
    let b = 0;
    return { store, log, send: (text: string) => log.accept('r', ++b, [text], 0, 0) };
  };
  const openGet = (conn: string) =>
    msg(
      { kind: 'http-request', conn, method: 'GET', url: URL, headers: { accept: 'text/event-stream' } },
      { kind: 'http-response', conn, status: 200, statusText: 'OK', url: URL, redirected: false, headers: { 'content-type': 'text/event-stream' } },
    );

  it('counts the bytes it keeps: a waiting request with a body above half the size cap goes, and the log ends within its cap', async () => {
    const caps: LogCaps = { maxFrames: 1e6, maxBytes: 40_000 };
    const { store, log, send } = logWith(caps);
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(openGet('d.get'));
    // A tools/call whose answer takes long, with a body of 25 kB (the body cap may be above the size cap).
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"blob":"${'x'.repeat(25_000)}"}}`;
    await send(msg({ kind: 'http-request', conn: 'd.big', method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, body: { text: big } }));
    for (let i = 0; i < 40; i++) {
      await send(events('d.get', 5));
      expect(log.stats().bytes).toBeLessThanOrEqual(caps.maxBytes + 2_000);
    }
    const stats = log.stats();
    expect(stats.bytes).toBeLessThanOrEqual(caps.maxBytes);
    const stored = await store.readAfter(1, 0, 1e6);
    // The page-start and the stream's openers stay; the big request went with the rest.
    expect(stored.slice(0, 3).map((f) => f.kind)).toEqual(['page-start', 'http-request', 'http-response']);
    expect(stored.some((f) => 'conn' in f && f.conn === 'd.big')).toBe(false);
  });

  it('counts the frames it keeps: openers of more open exchanges than half the frame cap are not all kept, and the log ends within its cap', async () => {
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const { store, log, send } = logWith(caps);
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(openGet('d.get'));
    // 60 requests waiting for their answers, each with its response head: 120 openers.
    for (let i = 0; i < 60; i++) {
      await send(
        msg(
          { kind: 'http-request', conn: `d.p${i}`, method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, body: { text: `{"jsonrpc":"2.0","id":${i},"method":"tools/call"}` } },
          { kind: 'http-response', conn: `d.p${i}`, status: 200, statusText: 'OK', url: URL, redirected: false, headers: { 'content-type': 'text/event-stream' } },
        ),
      );
    }
    for (let i = 0; i < 30; i++) await send(events('d.get', 10));
    const stats = log.stats();
    expect(stats.frames).toBeLessThanOrEqual(caps.maxFrames);
    expect(stats.kept!.length).toBeLessThanOrEqual(caps.maxFrames / 2);
    const stored = await store.readAfter(1, 0, 1e6);
    expect(stored).toHaveLength(stats.frames);
    // The page-start and the stream first; then the newest requests, whole.
    expect(stored.slice(0, 3).map((f) => f.kind)).toEqual(['page-start', 'http-request', 'http-response']);
    const keptConns = new Set(stored.filter((f) => stats.kept!.includes(f.seq) && 'conn' in f).map((f) => (f as { conn: string }).conn));
    expect(keptConns.has('d.p59')).toBe(true);
    expect(keptConns.has('d.p0')).toBe(false);
    for (const c of keptConns) expect(stored.filter((f) => stats.kept!.includes(f.seq) && 'conn' in f && f.conn === c)).toHaveLength(2);
  });

  it('does not write the chunk of what it kept again while what it keeps is the same', async () => {
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const { log, send } = logWith(caps);
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(openGet('d.get'));
    const put = vi.spyOn(IDBObjectStore.prototype, 'put');
    const keptWrites = () => put.mock.calls.filter(([v]) => (v as { frames?: { kind: string }[] }).frames?.[0]?.kind === 'page-start').length;
    let trims = 0;
    for (let i = 0; i < 40; i++) {
      const before = log.stats().dropped;
      await send(events('d.get', 10));
      if (log.stats().dropped > before) trims++;
    }
    const writes = keptWrites();
    put.mockRestore();
    expect(trims).toBeGreaterThanOrEqual(3);
    expect(log.stats().kept).toHaveLength(3);
    expect(writes).toBe(1);
  });

  it('measures (JSON.stringify) no frame again while what it keeps is the same, nor the openers of exchanges ended among the dropped frames', async () => {
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const { store, log, send } = logWith(caps);
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(openGet('d.get'));
    // A request waiting for its answer, with a body of 20 kB: kept at every trim.
    const big = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"blob":"${'x'.repeat(20_000)}"}}`;
    await send(msg({ kind: 'http-request', conn: 'd.big', method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, body: { text: big } }));
    const stringify = vi.spyOn(JSON, 'stringify');
    /** Characters of stored frames (those with a seq) stringified since the last call. */
    const measured = () => {
      const chars = stringify.mock.calls.reduce((sum, [v]) => sum + (typeof (v as { seq?: unknown } | null)?.seq === 'number' ? stringify(v).length : 0), 0);
      stringify.mockClear();
      return chars;
    };
    let trims = 0;
    const after: number[] = [];
    for (let i = 0; i < 40; i++) {
      const before = log.stats().dropped;
      // An exchange that opens and ends within a batch: its openers are dropped with it, never kept.
      const c = `d.short${i}`;
      await send(
        msg(
          { kind: 'http-request', conn: c, method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, body: { text: `{"jsonrpc":"2.0","id":"s${i}","method":"ping"}` } },
          { kind: 'http-response', conn: c, status: 200, statusText: 'OK', url: URL, redirected: false, headers: { 'content-type': 'application/json' } },
          { kind: 'http-end', conn: c, outcome: 'complete', phase: 'body', bytes: 0 },
        ),
      );
      await send(events('d.get', 8));
      const chars = measured();
      if (log.stats().dropped > before && trims++ > 0) after.push(chars);
    }
    stringify.mockRestore();
    expect(trims).toBeGreaterThanOrEqual(3);
    expect(log.stats().kept).toHaveLength(4);
    // The first trim measured what it kept (the 20 kB body among it); the next ones nothing.
    expect(after).toEqual(Array(trims - 1).fill(0));
    // The bytes the log counts for what it kept are still the frames' JSON length.
    const stored = await store.readAfter(1, 0, 1e6);
    const keptSize = stored.slice(0, 4).reduce((sum, f) => sum + JSON.stringify(f).length, 0);
    const db = await openDB(`trim-keep-test-${dbCount}`);
    const chunks = (await db.getAll('chunks')) as { bytes: number; frames: Frame[] }[];
    db.close();
    expect(chunks.find((ch) => ch.frames[0]?.kind === 'page-start')!.bytes).toBe(keptSize);
  });

  it('a kept chunk written without sizes (an older log) is measured and written once more with them, then reused', async () => {
    const caps: LogCaps = { maxFrames: 100, maxBytes: 1e9 };
    const { log, send } = logWith(caps);
    await send(msg({ kind: 'page-start', url: 'http://x/kb', top: true }));
    await send(openGet('d.get'));
    const db = await openDB(`trim-keep-test-${dbCount}`);
    const keptChunk = async () => ((await db.getAll('chunks')) as { bytes: number; frames: Frame[]; sizes?: number[] }[]).find((ch) => ch.frames[0]?.kind === 'page-start');
    while (log.stats().kept === undefined) await send(events('d.get', 10));
    const first = (await keptChunk())!;
    expect(first.sizes).toEqual(first.frames.map((f) => JSON.stringify(f).length));
    const { sizes: _, ...older } = first;
    await db.put('chunks', older, [1, first.frames.at(-1)!.seq]);
    const put = vi.spyOn(IDBObjectStore.prototype, 'put');
    const keptWrites = () => put.mock.calls.filter(([v]) => (v as { frames?: { kind: string }[] }).frames?.[0]?.kind === 'page-start').length;
    for (let i = 0; i < 30; i++) await send(events('d.get', 10));
    const writes = keptWrites();
    put.mockRestore();
    expect(writes).toBe(1);
    expect(await keptChunk()).toEqual(first);
    expect(log.stats().kept).toEqual(first.frames.map((f) => f.seq));
    db.close();
  });

  it('keeps a page-start of the current segment only, and an exchange ended among the dropped frames not at all', () => {
    const f = (seq: number, segment: number, rest: Record<string, unknown>) => ({ seq, segment, doc: 'd', frameId: 0, t: seq, ...rest }) as unknown as Frame;
    const keep = new TrimKeep(2);
    keep.add(f(1, 1, { kind: 'page-start', url: 'http://x/old', top: true }));
    keep.add(f(2, 1, { kind: 'http-request', conn: 'a', method: 'POST', url: URL, headers: {} }));
    keep.add(f(3, 1, { kind: 'http-end', conn: 'a', outcome: 'complete', phase: 'request', bytes: 0 }));
    keep.add(f(4, 2, { kind: 'page-start', url: 'http://x/frame', top: false }));
    keep.add(f(5, 2, { kind: 'page-start', url: 'http://x/new', top: true }));
    keep.add(f(6, 2, { kind: 'ws-connect', conn: 'w', url: 'ws://x/mcp', protocols: [] }));
    keep.add(f(7, 2, { kind: 'ws-open', conn: 'w', protocol: '' }));
    keep.add(f(8, 2, { kind: 'ws-message', conn: 'w', dir: 'in', data: { text: '{}' } }));
    expect(keep.kept().map((k) => k.seq)).toEqual([4, 5, 6, 7]);
    expect(keep.count()).toBe(4);
  });

  it('Clear keeps nothing of an exchange whose opening frame is not stored (more open than the 256 tracked, a trace cut)', () => {
    const open = { a: { doc: 'd', seqs: [1, 2] }, b: { doc: 'd', seqs: [3, 4], endpoint: 5 } };
    expect(keptOpen(open, new Set([2, 3, 4]), undefined)).toEqual({ b: { doc: 'd', seqs: [3, 4] } });
  });
});
