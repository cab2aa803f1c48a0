// IndexedDB persistence of the per-tab frame logs (via idb). Every accepted batch is written in one transaction together
// with the tab's metadata, so after an MV3 service-worker termination at any moment the log and its counters agree.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Frame } from '../shared/frames.ts';

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
  /** Per relay instance, the last batch persisted: makes re-sends after a reconnect idempotent. */
  relays: Record<string, number>;
}

export interface StoredFrame {
  size: number;
  frame: Frame;
}

interface LogSchema extends DBSchema {
  frames: { key: [number, number]; value: StoredFrame };
  tabs: { key: number; value: TabMeta };
}

export function emptyMeta(tabId: number): TabMeta {
  return { tabId, lastSeq: 0, firstSeq: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, segment: 0, relays: {} };
}

export class LogStore {
  private db: Promise<IDBPDatabase<LogSchema>>;

  constructor(name = 'mcp-devtools-log') {
    this.db = openDB<LogSchema>(name, 1, {
      upgrade(db) {
        db.createObjectStore('frames');
        db.createObjectStore('tabs', { keyPath: 'tabId' });
      },
    });
  }

  async loadMeta(tabId: number): Promise<TabMeta | undefined> {
    return (await this.db).get('tabs', tabId);
  }

  async allTabIds(): Promise<number[]> {
    return (await this.db).getAllKeys('tabs');
  }

  /** Writes frames and the new meta atomically. */
  async append(meta: TabMeta, frames: StoredFrame[]): Promise<void> {
    const db = await this.db;
    const tx = db.transaction(['frames', 'tabs'], 'readwrite');
    const store = tx.objectStore('frames');
    for (const f of frames) void store.put(f, [meta.tabId, f.frame.seq]);
    void tx.objectStore('tabs').put(meta);
    await tx.done;
  }

  /** Frames with seq > afterSeq, in order, at most `limit`. */
  async readAfter(tabId: number, afterSeq: number, limit: number): Promise<StoredFrame[]> {
    const range = IDBKeyRange.bound([tabId, afterSeq + 1], [tabId, Number.MAX_SAFE_INTEGER]);
    return (await this.db).getAll('frames', range, limit);
  }

  /** Deletes the oldest frames of a tab until `bytesToFree` bytes or `framesToFree` frames are gone; returns what went. */
  async dropOldest(meta: TabMeta, framesToFree: number, bytesToFree: number): Promise<{ frames: number; bytes: number; nextSeq: number }> {
    const db = await this.db;
    const tx = db.transaction('frames', 'readwrite');
    let frames = 0;
    let bytes = 0;
    let nextSeq = meta.firstSeq;
    let cursor = await tx.store.openCursor(IDBKeyRange.bound([meta.tabId, 0], [meta.tabId, Number.MAX_SAFE_INTEGER]));
    while (cursor && (frames < framesToFree || bytes < bytesToFree)) {
      frames++;
      bytes += cursor.value.size;
      nextSeq = cursor.value.frame.seq + 1;
      void cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
    return { frames, bytes, nextSeq };
  }

  async putMeta(meta: TabMeta): Promise<void> {
    await (await this.db).put('tabs', meta);
  }

  async deleteTab(tabId: number): Promise<void> {
    const db = await this.db;
    const tx = db.transaction(['frames', 'tabs'], 'readwrite');
    void tx.objectStore('frames').delete(IDBKeyRange.bound([tabId, 0], [tabId, Number.MAX_SAFE_INTEGER]));
    void tx.objectStore('tabs').delete(tabId);
    await tx.done;
  }
}
