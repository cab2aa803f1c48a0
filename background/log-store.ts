// IndexedDB persistence of the per-tab frame logs (via idb). Frames are stored in chunks — one record per accepted
// batch, keyed [tab, last seq of the chunk] — so a busy page costs one put per batch, not one per frame. Each chunk is
// written in one transaction together with the tab's metadata, so after an MV3 service-worker termination at any
// moment the log and its counters agree.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Frame } from '../shared/frames.ts';
import type { OpenExchanges } from './open-exchanges.ts';
import type { TrimKeep } from './trim-keep.ts';

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
  /**
   * Documents of the current segment that ended (capped). One that starts again is back from the back/forward cache
   * with nothing shown in between that spoke MCP: its segment goes on (its page is the one the view shows).
   */
  segmentEndedDocs?: string[];
  /** The current segment was begun by a subframe back from the back/forward cache: its top-level page's return joins it. */
  segmentBegunByRestore?: boolean;
  /** When a subframe's page-start began the current segment: its page time (a top-level page-start after it joins). */
  segmentBegunBySubframeAt?: number;
  /** Browser frames that started a document in the current segment (an iframe reloading keeps its frame id). */
  segmentFrameIds?: number[];
  /**
   * The frames a trim at the cap kept of those it dropped (trim-keep.ts), by seq, ascending: the log holds these and
   * every seq from lastSeq - (frames - kept.length) + 1 on, without gaps.
   */
  kept?: number[];
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
  /**
   * The stored size (JSON length) of each frame, in its order: only in the chunk a trim wrote of what it kept, so the
   * next trim weighs those frames without stringifying them again (absent in older logs: measured then).
   */
  sizes?: number[];
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

/** The browser closed the database connection (the storage was cleared): not a disk problem, sent again at once. */
export function connectionLost(e: unknown): boolean {
  return e instanceof Error && (e.name === 'InvalidStateError' || (e.name === 'AbortError' && /connection (was|is) clos/i.test(e.message)));
}

export class LogStore {
  private db: Promise<IDBPDatabase<LogSchema>>;
  /**
   * Called when the browser closed the connection under us (the user cleared the extension's storage, or deleted its
   * database): a new one is open by then, and what it holds may be empty. Tabs set it (their metadata is read again).
   */
  onReopen: () => void = () => undefined;

  constructor(private readonly name = 'mcp-devtools-log') {
    this.db = this.open();
  }

  /** The connection in use (set once it is open): the one a close of the browser's must be about to reopen. */
  private current: IDBPDatabase<LogSchema> | undefined;

  private open(): Promise<IDBPDatabase<LogSchema>> {
    let self: IDBPDatabase<LogSchema> | undefined;
    const opening = openDB<LogSchema>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('chunks');
        db.createObjectStore('tabs', { keyPath: 'tabId' });
        db.createObjectStore('settings');
      },
      // Closed by the browser (storage cleared): every later call would fail for the life of the worker.
      terminated: () => this.lost(self),
      // Someone deletes or upgrades the database (devtools' "Clear storage"): let them, and open it again after.
      blocking: () => {
        self?.close();
        this.lost(self);
      },
    });
    void opening.then(
      (db) => {
        self = db;
        this.current = db;
      },
      () => undefined,
    );
    return opening;
  }

  private lost(db: IDBPDatabase<LogSchema> | undefined): void {
    if (db === undefined || db !== this.current) return;
    this.current = undefined;
    this.db = this.open();
    this.onReopen();
  }

  /** The connection; an open that failed (it raced the browser clearing the storage) is tried again, not kept. */
  private async connection(): Promise<IDBPDatabase<LogSchema>> {
    const opening = this.db;
    try {
      return await opening;
    } catch {
      if (this.db === opening) this.db = this.open();
      return this.db;
    }
  }

  /**
   * Runs `fn` on the connection. One the browser has closed (its event not here yet) is replaced; a read is then run
   * again on the new one, a write fails (the log reads its metadata again first: the new database may be empty).
   */
  private async use<T>(fn: (db: IDBPDatabase<LogSchema>) => Promise<T>, retry = true): Promise<T> {
    const db = await this.connection();
    try {
      return await fn(db);
    } catch (e) {
      // The connection is gone: a transaction could not start (InvalidStateError), or Chromium aborted it because the
      // storage was cleared ("AbortError: The connection was closed."). Either way nothing was done.
      if (!connectionLost(e)) throw e;
      this.lost(db);
      if (!retry) throw e;
      return fn(await this.connection());
    }
  }

  async loadMeta(tabId: number): Promise<TabMeta | undefined> {
    return this.use((db) => db.get('tabs', tabId));
  }

  async allTabIds(): Promise<number[]> {
    return this.use((db) => db.getAllKeys('tabs'));
  }

  /**
   * Writes chunks and the new meta atomically. Durability 'relaxed': committed to the OS, not fsynced — a worker
   * termination or a renderer crash loses nothing; only a power cut could, and that is not worth an fsync per batch.
   */
  async append(meta: TabMeta, chunks: FrameChunk[]): Promise<void> {
    return this.use(async (db) => {
      const tx = db.transaction(['chunks', 'tabs'], 'readwrite', { durability: 'relaxed' });
      for (const chunk of chunks) void tx.objectStore('chunks').put(chunk, [meta.tabId, chunk.lastSeq]);
      void tx.objectStore('tabs').put(meta);
      await tx.done;
    }, false);
  }

  /** Frames with seq > afterSeq, in order; whole chunks until at least `limit` frames (or the end). */
  async readAfter(tabId: number, afterSeq: number, limit: number): Promise<Frame[]> {
    return this.use(async (db) => {
      const out: Frame[] = [];
      let cursor = await db.transaction('chunks').store.openCursor(IDBKeyRange.bound([tabId, afterSeq + 1], [tabId, MAX]));
      while (cursor && out.length < limit) {
        for (const f of cursor.value.frames) if (f.seq > afterSeq) out.push(f);
        cursor = await cursor.continue();
      }
      return out;
    });
  }

  /** The frames with these sequence numbers (ascending) that are still stored, in order. */
  async readSeqs(tabId: number, seqs: readonly number[]): Promise<Frame[]> {
    return this.use(async (db) => {
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
    });
  }

  /**
   * Deletes the oldest chunks of a tab until `framesToFree` frames and `bytesToFree` bytes are gone, and writes the meta
   * that counts it, in one transaction: a worker terminated midway leaves both as they were, never chunks gone that
   * the meta still counts. The frames `keep` picks of those (trim-keep.ts: the openers of exchanges going on, the
   * current page's page-start, within its budget) stay, with their sequence numbers, in one chunk before the rest;
   * `meta.kept` lists them (the rest is contiguous). They are not counted as dropped, nor as freed: the amounts to free
   * are net of what is written back. The chunk of what an earlier trim kept is not written again when what is kept is
   * the same (a log over its cap with nothing else to drop trims at every write), nor its frames stringified: it stores
   * their sizes for `keep`, and its byte count stands. Returns the new meta.
   */
  async dropOldest(meta: TabMeta, framesToFree: number, bytesToFree: number, keep?: TrimKeep): Promise<TabMeta> {
    return this.use(async (db) => {
      const tx = db.transaction(['chunks', 'tabs'], 'readwrite');
      const chunks = tx.objectStore('chunks');
      let frames = 0;
      let bytes = 0;
      let nextSeq: number | undefined;
      /** The chunk an earlier trim wrote of what it kept (the first one), while it may stay as it is. */
      let keptChunk: FrameChunk | undefined;
      const keptLast = meta.kept?.at(-1);
      let cursor = await chunks.openCursor(IDBKeyRange.bound([meta.tabId, 0], [meta.tabId, MAX]));
      // Never the newest chunk (the batch just acknowledged and shown live): a batch near the cap, or one frame over it,
      // would otherwise take the whole log with it. It stays, over the cap if it must, until the next write.
      while (cursor && cursor.value.lastSeq < meta.lastSeq && (frames - (keep?.count() ?? 0) < framesToFree || bytes - (keep?.bytes() ?? 0) < bytesToFree)) {
        const chunk = cursor.value;
        const isKept = keep !== undefined && frames === 0 && keptLast !== undefined && chunk.lastSeq === keptLast;
        frames += chunk.frames.length;
        bytes += chunk.bytes;
        const sizes = isKept && chunk.sizes?.length === chunk.frames.length ? chunk.sizes : undefined;
        if (keep) chunk.frames.forEach((f, i) => keep.add(f, sizes?.[i]));
        nextSeq = chunk.lastSeq + 1;
        if (isKept) keptChunk = chunk;
        else void cursor.delete();
        cursor = await cursor.continue();
      }
      const kept = nextSeq === undefined ? [] : (keep?.kept() ?? []);
      let keptBytes = 0;
      const same = keptChunk !== undefined && keptChunk.frames.length === kept.length && keptChunk.frames.every((f, i) => f.seq === kept[i]!.seq);
      // The same kept set: its chunk's byte count stands (nothing stringified; a chunk from before `sizes` is written
      // once more with them).
      if (same) keptBytes = keptChunk!.bytes;
      if (!same || keptChunk!.sizes === undefined) {
        if (keptChunk && !same) void chunks.delete([meta.tabId, keptChunk.lastSeq]);
        if (kept.length > 0) {
          const sizes = keep!.keptSizes();
          keptBytes = sizes.reduce((sum, n) => sum + n, 0);
          // Keyed by its last seq, below every chunk left (all it holds came before them); its key may be a deleted one's.
          void chunks.put({ firstSeq: kept[0]!.seq, lastSeq: kept.at(-1)!.seq, bytes: keptBytes, frames: kept, sizes }, [meta.tabId, kept.at(-1)!.seq]);
        }
      }
      const next: TabMeta = {
        ...meta,
        frames: meta.frames - frames + kept.length,
        bytes: meta.bytes - bytes + keptBytes,
        dropped: meta.dropped + frames - kept.length,
        firstSeq: kept[0]?.seq ?? nextSeq ?? meta.firstSeq,
      };
      if (nextSeq !== undefined) {
        if (kept.length > 0) next.kept = kept.map((f) => f.seq);
        else delete next.kept;
      }
      void tx.objectStore('tabs').put(next);
      await tx.done;
      return next;
    }, false);
  }

  /** The stored settings object as written (validate before use: it may come from an older version). */
  async loadSettings(): Promise<unknown> {
    return this.use((db) => db.get('settings', 'settings'));
  }

  async saveSettings(settings: unknown): Promise<void> {
    await this.use((db) => db.put('settings', settings, 'settings'));
  }

  /** The salt of the background's redaction markers as written (background/marker-salt.ts checks it). */
  async loadMarkerSalt(): Promise<unknown> {
    return this.use((db) => db.get('settings', 'marker-salt'));
  }

  async saveMarkerSalt(salt: readonly number[]): Promise<void> {
    await this.use((db) => db.put('settings', [...salt], 'marker-salt'));
  }

  /** Replaces everything stored for the tab by `meta` and `chunk` (if any), in one transaction. */
  async replaceTab(meta: TabMeta, chunk: FrameChunk | undefined): Promise<void> {
    return this.use(async (db) => {
      const tx = db.transaction(['chunks', 'tabs'], 'readwrite', { durability: 'relaxed' });
      void tx.objectStore('chunks').delete(IDBKeyRange.bound([meta.tabId, 0], [meta.tabId, MAX]));
      if (chunk) void tx.objectStore('chunks').put(chunk, [meta.tabId, chunk.lastSeq]);
      void tx.objectStore('tabs').put(meta);
      await tx.done;
    }, false);
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
    return this.use(async (db) => {
      const tx = db.transaction(['chunks', 'tabs'], 'readwrite');
      void tx.objectStore('chunks').delete(IDBKeyRange.bound([tabId, 0], [tabId, MAX]));
      void tx.objectStore('tabs').delete(tabId);
      await tx.done;
    });
  }
}
