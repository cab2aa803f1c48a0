// IndexedDB persistence of the per-tab frame logs (via idb). Frames are stored in chunks — one record per accepted
// batch, keyed [tab, last seq of the chunk] — so a busy page costs one put per batch, not one per frame. Each chunk is
// written in one transaction together with the tab's metadata, so after an MV3 service-worker termination at any
// moment the log and its counters agree.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Frame } from '../shared/frames.ts';
import type { OpenExchanges } from './open-exchanges.ts';

export interface TabMeta {
  tabId: number;
  /** Last sequence number handed out (0 = none yet). */
  lastSeq: number;
  /** Lowest sequence number still stored (lastSeq + 1 when empty). */
  firstSeq: number;
  frames: number;
  bytes: number;
  dropped: number;
  rejected: number;
  rejectedWhy?: string;
  segment: number;
  /** The first sequence number of the current segment (where the badge's rebuild starts reading); absent in old logs. */
  segmentFirstSeq?: number;
  /**
   * Documents of the current segment that started and have not ended (most recent last, capped). When none is left, a
   * subframe's page-start starts a new segment too: a top-level page that never speaks MCP sends no page-start of its
   * own, so its MCP iframe must not join the previous page's segment.
   */
  liveDocs?: string[];
  /**
   * Documents that ended most recently (capped): what they still send (their own pagehide or unload handlers speaking
   * MCP) is written soon, as their page-end is, since their relay is gone and cannot re-send it.
   */
  endedDocs?: string[];
  /** When a subframe's page-start began the current segment: its page time (a top-level page-start after it joins). */
  segmentBegunBySubframeAt?: number;
  /** Browser frames that started a document in the current segment (an iframe reloading keeps its frame id). */
  segmentFrameIds?: number[];
  /** The exchanges still open and the frames that opened them: Clear keeps those (open-exchanges.ts). */
  open?: OpenExchanges;
  /** Per relay instance, the last batch persisted: makes re-sends after a reconnect idempotent. Key order = recency. */
  relays: Record<string, number>;
}

export interface FrameChunk {
  firstSeq: number;
  lastSeq: number;
  /** Approximate bytes (JSON length of what the page sent). */
  bytes: number;
  frames: Frame[];
}

interface LogSchema extends DBSchema {
  chunks: { key: [number, number]; value: FrameChunk };
  tabs: { key: number; value: TabMeta };
  settings: { key: string; value: unknown };
}

export function emptyMeta(tabId: number): TabMeta {
  return { tabId, lastSeq: 0, firstSeq: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, segment: 0, relays: {} };
}

const MAX = Number.MAX_SAFE_INTEGER;

export class LogStore {
  private db: Promise<IDBPDatabase<LogSchema>>;

  constructor(name = 'mcp-devtools-log') {
    this.db = openDB<LogSchema>(name, 1, {
      upgrade(db) {
        db.createObjectStore('chunks');
        db.createObjectStore('tabs', { keyPath: 'tabId' });
        db.createObjectStore('settings');
      },
    });
  }

  async loadMeta(tabId: number): Promise<TabMeta | undefined> {
    return (await this.db).get('tabs', tabId);
  }

  async allTabIds(): Promise<number[]> {
    return (await this.db).getAllKeys('tabs');
  }

  /**
   * Writes chunks and the new meta atomically. Durability 'relaxed': committed to the OS, not fsynced — a worker
   * termination or a renderer crash loses nothing; only a power cut could, and that is not worth an fsync per batch.
   */
  async append(meta: TabMeta, chunks: FrameChunk[]): Promise<void> {
    const db = await this.db;
    const tx = db.transaction(['chunks', 'tabs'], 'readwrite', { durability: 'relaxed' });
    for (const chunk of chunks) void tx.objectStore('chunks').put(chunk, [meta.tabId, chunk.lastSeq]);
    void tx.objectStore('tabs').put(meta);
    await tx.done;
  }

  /** Frames with seq > afterSeq, in order; whole chunks until at least `limit` frames (or the end). */
  async readAfter(tabId: number, afterSeq: number, limit: number): Promise<Frame[]> {
    const db = await this.db;
    const out: Frame[] = [];
    let cursor = await db.transaction('chunks').store.openCursor(IDBKeyRange.bound([tabId, afterSeq + 1], [tabId, MAX]));
    while (cursor && out.length < limit) {
      for (const f of cursor.value.frames) if (f.seq > afterSeq) out.push(f);
      cursor = await cursor.continue();
    }
    return out;
  }

  /** The frames with these sequence numbers (ascending) that are still stored, in order. */
  async readSeqs(tabId: number, seqs: readonly number[]): Promise<Frame[]> {
    const db = await this.db;
    const store = db.transaction('chunks').store;
    const out: Frame[] = [];
    let i = 0;
    while (i < seqs.length) {
      // The chunk that holds seqs[i], if any: the first whose last seq is at or after it.
      const chunk = (await store.openCursor(IDBKeyRange.bound([tabId, seqs[i]!], [tabId, MAX])))?.value;
      if (!chunk) break;
      const wanted = new Set<number>();
      while (i < seqs.length && seqs[i]! <= chunk.lastSeq) wanted.add(seqs[i++]!);
      for (const f of chunk.frames) if (wanted.has(f.seq)) out.push(f);
    }
    return out;
  }

  /**
   * Deletes the oldest chunks of a tab until `framesToFree` frames and `bytesToFree` bytes are gone, and writes the meta
   * that counts it, in one transaction: a worker terminated midway leaves both as they were, never chunks gone that
   * the meta still counts. Returns the new meta.
   */
  async dropOldest(meta: TabMeta, framesToFree: number, bytesToFree: number): Promise<TabMeta> {
    const db = await this.db;
    const tx = db.transaction(['chunks', 'tabs'], 'readwrite');
    const chunks = tx.objectStore('chunks');
    let frames = 0;
    let bytes = 0;
    let nextSeq: number | undefined;
    let cursor = await chunks.openCursor(IDBKeyRange.bound([meta.tabId, 0], [meta.tabId, MAX]));
    // Never the newest chunk (the batch just acknowledged and shown live): a batch near the cap, or one frame over it,
    // would otherwise take the whole log with it. It stays, over the cap if it must, until the next write.
    while (cursor && cursor.value.lastSeq < meta.lastSeq && (frames < framesToFree || bytes < bytesToFree)) {
      frames += cursor.value.frames.length;
      bytes += cursor.value.bytes;
      nextSeq = cursor.value.lastSeq + 1;
      void cursor.delete();
      cursor = await cursor.continue();
    }
    const next: TabMeta = { ...meta, frames: meta.frames - frames, bytes: meta.bytes - bytes, dropped: meta.dropped + frames, firstSeq: nextSeq ?? meta.firstSeq };
    void tx.objectStore('tabs').put(next);
    await tx.done;
    return next;
  }

  /** The stored settings object as written (validate before use: it may come from an older version). */
  async loadSettings(): Promise<unknown> {
    return (await this.db).get('settings', 'settings');
  }

  async saveSettings(settings: unknown): Promise<void> {
    await (await this.db).put('settings', settings, 'settings');
  }

  /** Replaces everything stored for the tab by `meta` and `chunk` (if any), in one transaction. */
  async replaceTab(meta: TabMeta, chunk: FrameChunk | undefined): Promise<void> {
    const db = await this.db;
    const tx = db.transaction(['chunks', 'tabs'], 'readwrite', { durability: 'relaxed' });
    void tx.objectStore('chunks').delete(IDBKeyRange.bound([meta.tabId, 0], [meta.tabId, MAX]));
    if (chunk) void tx.objectStore('chunks').put(chunk, [meta.tabId, chunk.lastSeq]);
    void tx.objectStore('tabs').put(meta);
    await tx.done;
  }

  /**
   * A new browser session reuses tab ids: every stored log is a previous session's. Deletes them all (settings stay),
   * and every read and write asked for after this call waits for it: a restored tab's first frames neither land in an
   * old log nor go with it.
   */
  dropAllTabs(): Promise<void> {
    const before = this.db;
    const cleared = before.then(async (db) => {
      const tx = db.transaction(['chunks', 'tabs'], 'readwrite');
      void tx.objectStore('chunks').clear();
      void tx.objectStore('tabs').clear();
      await tx.done;
      return db;
    });
    this.db = cleared.catch(() => before);
    return cleared.then(() => undefined);
  }

  async deleteTab(tabId: number): Promise<void> {
    const db = await this.db;
    const tx = db.transaction(['chunks', 'tabs'], 'readwrite');
    void tx.objectStore('chunks').delete(IDBKeyRange.bound([tabId, 0], [tabId, MAX]));
    void tx.objectStore('tabs').delete(tabId);
    await tx.done;
  }
}
