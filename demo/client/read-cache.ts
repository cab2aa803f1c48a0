// The client's resource cache, the thing that goes stale: per URI the text, when it was read, the server's ttlMs (2026),
// whether a notification marked it dirty, and which read wrote it. Pure; time is passed in.

export interface CacheEntry {
  uri: string;
  text: string;
  mimeType?: string;
  /** When the response that wrote this entry arrived. */
  readAt: number;
  ttlMs?: number;
  dirty: boolean;
  /** The client's sequence number of the read that wrote it (higher = issued later). */
  readSeq: number;
  /** How many responses have written this entry. */
  writes: number;
}

export class ReadCache {
  private entries = new Map<string, CacheEntry>();

  get(uri: string): CacheEntry | undefined {
    return this.entries.get(uri);
  }

  has(uri: string): boolean {
    return this.entries.has(uri);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  all(): CacheEntry[] {
    return [...this.entries.values()];
  }

  get size(): number {
    return this.entries.size;
  }

  write(uri: string, value: { text: string; mimeType?: string; ttlMs?: number }, at: number, readSeq: number): CacheEntry {
    const prev = this.entries.get(uri);
    const entry: CacheEntry = { uri, ...value, readAt: at, dirty: false, readSeq, writes: (prev?.writes ?? 0) + 1 };
    this.entries.set(uri, entry);
    return entry;
  }

  markDirty(uri: string): void {
    const e = this.entries.get(uri);
    if (e) e.dirty = true;
  }

  ageMs(uri: string, now: number): number | undefined {
    const e = this.entries.get(uri);
    return e ? now - e.readAt : undefined;
  }

  /** The seed's "most direct signal": the mean age of the cached entries. */
  averageAgeMs(now: number): number {
    if (!this.entries.size) return 0;
    let sum = 0;
    for (const e of this.entries.values()) sum += now - e.readAt;
    return sum / this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
