// One tab's append-only frame log: stamps page frames (seq, browser frame id, page segment), enforces the caps by
// dropping the oldest frames and counting them, and keeps every step in order on one promise chain, so concurrent
// relay batches, panel backlogs and clears never interleave half-way. Persistence is the LogStore's.
import type { Frame, PageFrame } from '../shared/frames.ts';
import type { TabStats } from '../shared/messages.ts';
import { emptyMeta, type LogStore, type StoredFrame, type TabMeta } from './log-store.ts';

export interface LogCaps {
  maxFrames: number;
  maxBytes: number;
}

export const DEFAULT_CAPS: LogCaps = { maxFrames: 250_000, maxBytes: 128 * 1024 * 1024 };
/** When a cap is hit, free this share of it at once, so trimming is amortized instead of once per frame. */
const TRIM_SHARE = 0.1;
const MAX_REMEMBERED_RELAYS = 200;

export interface AcceptedBatch {
  /** The frames that were new (a re-sent batch yields none). */
  frames: Frame[];
  stats: TabStats;
}

export class TabLog {
  private chain: Promise<unknown> = Promise.resolve();
  private meta: TabMeta | undefined;
  /** Open error-level findings, set by the badge. */
  errors = 0;

  constructor(
    readonly tabId: number,
    private readonly store: LogStore,
    private readonly caps: () => LogCaps,
  ) {}

  /** Runs `step` after every earlier step of this tab. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async loaded(): Promise<TabMeta> {
    this.meta ??= (await this.store.loadMeta(this.tabId)) ?? emptyMeta(this.tabId);
    return this.meta;
  }

  stats(): TabStats {
    const m = this.meta ?? emptyMeta(this.tabId);
    return {
      tabId: this.tabId,
      frames: m.frames,
      bytes: m.bytes,
      dropped: m.dropped,
      rejected: m.rejected,
      ...(m.rejectedWhy ? { rejectedWhy: m.rejectedWhy } : {}),
      lastSeq: m.lastSeq,
      segment: m.segment,
      errors: this.errors,
    };
  }

  /** Accepts one relay batch exactly once. Resolves after the frames are persisted. */
  accept(relay: string, batch: number, frames: PageFrame[], frameId: number, rejected: number, rejectedWhy?: string): Promise<AcceptedBatch> {
    return this.run(async () => {
      const prev = await this.loaded();
      if ((prev.relays[relay] ?? 0) >= batch) return { frames: [], stats: this.stats() };
      // Re-inserting moves this relay to the end: key order is recency order, which pruning relies on.
      const relays = { ...prev.relays };
      delete relays[relay];
      relays[relay] = batch;
      const meta: TabMeta = { ...prev, relays };
      meta.rejected += rejected;
      if (rejectedWhy && !meta.rejectedWhy) meta.rejectedWhy = rejectedWhy;
      pruneRelays(meta);
      const stored: StoredFrame[] = [];
      for (const pf of frames) {
        if (pf.kind === 'page-start' && pf.top && frameId === 0) meta.segment++;
        const frame = { ...pf, seq: ++meta.lastSeq, frameId, segment: Math.max(meta.segment, 1) } as Frame;
        const size = JSON.stringify(frame).length;
        stored.push({ frame, size });
        meta.frames++;
        meta.bytes += size;
      }
      if (meta.frames === stored.length) meta.firstSeq = stored[0]?.frame.seq ?? meta.firstSeq;
      await this.store.append(meta, stored);
      this.meta = meta;
      await this.enforceCaps();
      return { frames: stored.map((s) => s.frame), stats: this.stats() };
    });
  }

  private async enforceCaps(): Promise<void> {
    const meta = this.meta!;
    const caps = this.caps();
    if (meta.frames <= caps.maxFrames && meta.bytes <= caps.maxBytes) return;
    const framesToFree = meta.frames > caps.maxFrames ? meta.frames - caps.maxFrames + Math.ceil(caps.maxFrames * TRIM_SHARE) : 0;
    const bytesToFree = meta.bytes > caps.maxBytes ? meta.bytes - caps.maxBytes + Math.ceil(caps.maxBytes * TRIM_SHARE) : 0;
    const freed = await this.store.dropOldest(meta, framesToFree, bytesToFree);
    const next: TabMeta = {
      ...meta,
      frames: meta.frames - freed.frames,
      bytes: meta.bytes - freed.bytes,
      dropped: meta.dropped + freed.frames,
      firstSeq: freed.nextSeq,
    };
    await this.store.putMeta(next);
    this.meta = next;
  }

  /**
   * Reads the log after `since` in chunks, each chunk its own step (appends may run in between and are picked up by the
   * next chunk). `onChunk(frames, done)` is called for each; when `done`, the caller is live from the next append on.
   */
  async backlog(since: number, chunk: number, onChunk: (frames: Frame[], done: boolean) => void): Promise<void> {
    let after = since;
    for (;;) {
      const done = await this.run(async () => {
        await this.loaded();
        const rows = await this.store.readAfter(this.tabId, after, chunk);
        const frames = rows.map((r) => r.frame);
        const last = frames.at(-1);
        if (last) after = last.seq;
        const isDone = frames.length < chunk;
        onChunk(frames, isDone);
        return isDone;
      });
      if (done) return;
    }
  }

  /** Empties the log; sequence numbers keep counting (never reused) and the relays' batch memory stays. */
  clear(): Promise<TabStats> {
    return this.run(async () => {
      const prev = await this.loaded();
      await this.store.deleteTab(this.tabId);
      const meta: TabMeta = { ...emptyMeta(this.tabId), lastSeq: prev.lastSeq, firstSeq: prev.lastSeq + 1, segment: prev.segment, relays: prev.relays };
      await this.store.putMeta(meta);
      this.meta = meta;
      return this.stats();
    });
  }

  async ensureLoaded(): Promise<TabStats> {
    await this.run(() => this.loaded());
    return this.stats();
  }

  forget(): Promise<void> {
    return this.run(async () => {
      await this.store.deleteTab(this.tabId);
      this.meta = undefined;
    });
  }
}

function pruneRelays(meta: TabMeta): void {
  const ids = Object.keys(meta.relays);
  if (ids.length <= MAX_REMEMBERED_RELAYS) return;
  // Keep the most recently active relays (an old, finished document's relay is not coming back).
  const keep = ids.slice(-MAX_REMEMBERED_RELAYS);
  meta.relays = Object.fromEntries(keep.map((id) => [id, meta.relays[id]!]));
}
