// A bug in the log's bookkeeping of open exchanges must not fail the batch: a failed batch is re-sent by its relay and
// fails again, for ever, and the panel reads it as a disk problem. Here trackOpen throws for one connection.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { LogStore } from '../../../background/log-store.ts';
import { TabLog } from '../../../background/tab-log.ts';
import { connOf } from '../../../shared/frames.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';

vi.mock('../../../background/open-exchanges.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../background/open-exchanges.ts')>();
  return {
    ...real,
    trackOpen: (open: Parameters<typeof real.trackOpen>[0], f: Parameters<typeof real.trackOpen>[1]) => {
      if (connOf(f) === 'boom') throw new Error('bookkeeping bug (simulated)');
      real.trackOpen(open, f);
    },
  };
});

describe('TabLog bookkeeping', () => {
  it('keeps a batch whose open-exchange bookkeeping throws: every frame stored, in order', async () => {
    const store = new LogStore('tab-log-bookkeeping');
    const log = new TabLog(1, store, () => ({ maxFrames: 1000, maxBytes: 1e9 }), () => false, { watchedMs: 5, unwatchedMs: 5 });
    const request = (conn: string, n: number) => ({ kind: 'http-request', doc: 'd', n, t: n, conn, method: 'POST', url: 'http://x/mcp', headers: {} });
    const { frames } = await log.accept('r', 1, [JSON.stringify({ tag: PAGE_TAG, frames: [request('a', 1), request('boom', 2), request('c', 3)] })], 0, 0);
    expect(frames.map((f) => connOf(f))).toEqual(['a', 'boom', 'c']);
    expect((await store.readAfter(1, 0, 10)).map((f) => f.seq)).toEqual([1, 2, 3]);
  });
});
