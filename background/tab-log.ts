// One tab's append-only frame log: stamps page frames (seq, browser frame id, page segment), enforces the caps by
// dropping the oldest frames and counting them, and keeps every step in order on one promise chain, so concurrent
// relay batches, panel backlogs and clears never interleave half-way. Writes are coalesced: batches arriving within the
// write delay go to IndexedDB in one transaction (IndexedDB work runs in the browser process and competes with the
// inspected page for CPU). A batch is only acknowledged, and only shown to panels, once it is persisted: a worker
// stopped in between loses nothing, because the relay re-sends what was not acknowledged.
import type { Frame } from '../shared/frames.ts';
import type { TabStats } from '../shared/messages.ts';
import { parseHookMessage } from '../shared/hook-message.ts';
import { redactHeaderMap } from '../shared/redact-frame.ts';
import { emptyMeta, type FrameChunk, type LogStore, type TabMeta } from './log-store.ts';
import { keptOpen, openSeqs, renumberOpen, trackOpen, type OpenExchanges } from './open-exchanges.ts';
import { KEEP_SHARE, TrimKeep } from './trim-keep.ts';

export interface LogCaps {
  maxFrames: number;
  maxBytes: number;
}

export const DEFAULT_CAPS: LogCaps = { maxFrames: 250_000, maxBytes: 128 * 1024 * 1024 };
/** When a cap is hit, free this share of it at once, so trimming is amortized instead of once per frame. */
const TRIM_SHARE = 0.1;
const MAX_REMEMBERED_RELAYS = 200;
export interface WriteDelays {
  /** While a panel shows the tab: frames reach a panel only once persisted, so this is its latency. */
  watchedMs: number;
  /**
   * While no panel shows the tab (the usual case: the extension installed, devtools closed). Each IndexedDB
   * transaction costs the browser process a fixed amount, whatever it holds; ten a second were most of the browser
   * process's share of the page overhead (docs/architecture.md). The badge is updated once a second at most anyway.
   */
  unwatchedMs: number;
}

export const WRITE_DELAYS: WriteDelays = { watchedMs: 100, unwatchedMs: 1000 };
const WRITE_MAX_FRAMES = 5000;

interface PendingWrite {
  chunk: FrameChunk | undefined;
  done: (stats: TabStats) => void;
  failed: (e: unknown) => void;
}

export interface AcceptedBatch {
  /** The frames that were new (a re-sent batch yields none). */
  frames: Frame[];
  stats: TabStats;
}

/**
 * A batch failed on purpose, nothing wrong with the disk: the log it was for went (a new browser session, the storage
 * cleared under it), and its relay sends it again to the log that replaces it.
 */
export class SentAgain extends Error {
  constructor(why: string) {
    super(`${why} (the batch is sent again)`);
    this.name = 'SentAgain';
  }
}

const NEW_SESSION = 'the log was dropped for a new browser session';

export class TabLog {
  private chain: Promise<unknown> = Promise.resolve();
  private meta: TabMeta | undefined;
  private pending: PendingWrite[] = [];
  private pendingFrames = 0;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set by discard: the store this log wrote to was emptied under it. */
  private discarded = false;
  private writeTimerMs = 0;
  /** Open error-level findings, set by the badge. */
  errors = 0;

  /**
   * The user's extra secret header names (lower case), redacted here before anything is stored: the page is not told
   * them (every site would learn them), so the hook redacts only the headers that are always secret.
   */
  extraSecretHeaders: () => Promise<readonly string[]> = async () => [];

  constructor(
    readonly tabId: number,
    private readonly store: LogStore,
    private readonly caps: () => LogCaps,
    /** Whether a panel shows this tab now (Tabs counts them: the count outlives a log that is replaced). */
    private readonly isWatched: () => boolean = () => false,
    private readonly delays: WriteDelays = WRITE_DELAYS,
  ) {}

  /** Runs `step` after every earlier step of this tab. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async loaded(): Promise<TabMeta> {
    while (this.stale || !this.meta) {
      this.stale = false;
      this.meta = undefined;
      const stored = await this.store.loadMeta(this.tabId);
      // Closed again while it was read: read it again from the newer connection.
      if (this.stale) continue;
      const last = this.persisted;
      // The store lost what this log wrote (the user cleared the extension's storage): the log starts over empty, its
      // numbers going on (panels hold the earlier ones), as after Clear.
      this.meta = last !== undefined && (!stored || stored.lastSeq < last.lastSeq) ? { ...emptied(last), dropped: last.dropped, rejected: last.rejected } : (stored ?? emptyMeta(this.tabId));
      this.persisted = { ...this.meta };
    }
    return this.meta;
  }

  /** The metadata as last written or read (a copy): what the store must still hold unless it was cleared under us. */
  private persisted: TabMeta | undefined;

  /** Set by storageReopened: the metadata in memory may not be what the store holds any more. */
  private stale = false;

  /**
   * The database was closed under the log and opened again (the user cleared the extension's storage): batches waiting
   * to be written fail (their relays send them again) and the metadata is read again before the next step.
   */
  storageReopened(): void {
    this.failPending(new SentAgain('the extension\'s storage was closed under the log'));
    this.stale = true;
  }

  /** Batches waiting for their write fail now (their relays send them again). */
  private failPending(gone: SentAgain): void {
    if (this.writeTimer !== undefined) clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    const batch = this.pending;
    this.pending = [];
    this.pendingFrames = 0;
    for (const p of batch) p.failed(gone);
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
      ...(m.kept?.length ? { kept: m.kept } : {}),
      segment: m.segment,
      errors: this.errors,
    };
  }

  /**
   * Accepts one relay batch exactly once: parses and validates the hook messages (untrusted page text), stamps the
   * valid frames and persists them as one chunk. Resolves after the chunk is persisted.
   */
  accept(
    relay: string,
    batch: number,
    payloads: string[],
    frameId: number,
    rejected: number,
    rejectedWhy?: string,
    lost = 0,
    /** False once the sender's port was reset after a failed write: what it sent since must come again, in order. */
    current: () => boolean = () => true,
  ): Promise<AcceptedBatch> {
    // The step hands back a box, not the promise itself: the chain must not wait for the write it schedules behind it.
    return this.run(async (): Promise<{ persisted: Promise<AcceptedBatch> }> => {
      if (!current()) throw new Error('batch from a port reset after a failed write (it will be re-sent)');
      const prev = await this.loaded();
      if ((prev.relays[relay] ?? 0) >= batch) {
        // Already accepted. If its write is still to come, the re-sent copy is answered with that write: acknowledged
        // now, it would let the relay forget a batch whose write may yet fail.
        if (this.pending.length === 0) return { persisted: Promise.resolve({ frames: [], stats: this.stats() }) };
        const written = new Promise<TabStats>((done, failed) => this.pending.push({ chunk: undefined, done, failed }));
        return { persisted: written.then((stats) => ({ frames: [], stats })) };
      }
      // Re-inserting moves this relay to the end: key order is recency order, which pruning relies on.
      const relays = { ...prev.relays };
      const liveDocs = prev.liveDocs ? [...prev.liveDocs] : [];
      const segmentFrameIds = prev.segmentFrameIds ? [...prev.segmentFrameIds] : [];
      delete relays[relay];
      relays[relay] = batch;
      const open: OpenExchanges = { ...prev.open };
      const meta: TabMeta = { ...prev, relays, liveDocs, segmentFrameIds, open };
      meta.rejected += rejected;
      meta.dropped += lost;
      if (rejectedWhy && !meta.rejectedWhy) meta.rejectedWhy = rejectedWhy;
      pruneRelays(meta);
      const extra = await this.extraSecretHeaders();
      const frames: Frame[] = [];
      let bytes = 0;
      let pageEnded = false;
      for (const text of payloads) {
        const parsed = parseHookMessage(text);
        meta.rejected += parsed.rejected;
        if (parsed.why && !meta.rejectedWhy) meta.rejectedWhy = parsed.why;
        bytes += parsed.bytes;
        for (const pf of parsed.frames) {
          if (extra.length > 0 && (pf.kind === 'http-request' || pf.kind === 'http-response')) pf.headers = redactHeaderMap(pf.headers, extra);
          // A frame its document sent after its page-end (its own pagehide or unload handler speaking MCP). A page-start
          // of an ended document is its return from the back/forward cache: alive again.
          const afterEnd = pf.kind !== 'page-start' && pf.kind !== 'page-end' && meta.endedDocs !== undefined && meta.endedDocs.includes(pf.doc);
          if (pf.kind === 'page-end' || afterEnd) pageEnded = true;
          const segmentBefore = meta.segment;
          // The bookkeeping must not fail the batch: a failed batch is re-sent, and fails again, for ever (and reads as a
          // disk problem). A frame it cannot take is counted as rejected; one already numbered is kept.
          try {
            if (pf.kind === 'page-start' || pf.kind === 'page-end') trackDocs(meta, pf.kind, pf.doc, frameId, pf.kind === 'page-start' && pf.top && frameId === 0, pf.t);
          } catch (e) {
            meta.rejected++;
            meta.rejectedWhy ??= `a ${pf.kind} frame could not be taken: ${e instanceof Error ? e.message : String(e)}`.slice(0, 200);
            continue;
          }
          // The parsed objects are ours alone: stamp them in place.
          const frame = pf as Frame;
          frame.seq = ++meta.lastSeq;
          // (Frames before the first page-start are stamped segment 1 too: that segment starts with the log.)
          if (meta.segment !== segmentBefore && segmentBefore > 0) meta.segmentFirstSeq = frame.seq;
          frame.frameId = frameId;
          frame.segment = Math.max(meta.segment, 1);
          // What a document sends after its page-end (a pagehide handler's DELETE) never gets an end of its own.
          if (!afterEnd) {
            try {
              trackOpen(open, frame);
            } catch (e) {
              console.error('mcp-devtools: tracking an open exchange failed', e);
            }
          }
          frames.push(frame);
        }
      }
      let chunk: FrameChunk | undefined;
      if (frames.length > 0) {
        chunk = { firstSeq: frames[0]!.seq, lastSeq: frames.at(-1)!.seq, bytes, frames };
        if (meta.frames === 0) meta.firstSeq = chunk.firstSeq;
        meta.frames += frames.length;
        meta.bytes += bytes;
      }
      this.meta = meta;
      const persisted = new Promise<TabStats>((done, failed) => this.pending.push({ chunk, done, failed }));
      this.pendingFrames += frames.length;
      if (this.pendingFrames >= WRITE_MAX_FRAMES) void this.run(() => this.writePending());
      else this.scheduleWrite(pageEnded);
      return { persisted: persisted.then((stats) => ({ frames, stats })) };
    }).then((box) => box.persisted);
  }

  /** A panel started or stopped showing this tab: while one does, writes (and so its live frames) come sooner. */
  paceChanged(): void {
    if (this.pending.length > 0) this.scheduleWrite();
  }

  /**
   * `soon`: the batch ends a page, or comes after its end. Its relay is gone with the page and cannot re-send it, so it is written within the
   * short delay even when no panel watches (a worker stopped in between would lose it).
   */
  private scheduleWrite(soon = false): void {
    const ms = soon || this.isWatched() ? this.delays.watchedMs : this.delays.unwatchedMs;
    // A timer already due sooner stays; one set for an unwatched tab is brought forward when a panel comes.
    if (this.writeTimer !== undefined && this.writeTimerMs <= ms) return;
    if (this.writeTimer !== undefined) clearTimeout(this.writeTimer);
    this.writeTimerMs = ms;
    this.writeTimer = setTimeout(() => void this.run(() => this.writePending()), ms);
  }

  /** Persists every pending batch in one transaction, then releases their acknowledgements. Runs inside a chain step. */
  private async writePending(): Promise<void> {
    if (this.writeTimer !== undefined) clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    if (this.discarded) return this.discard();
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.pendingFrames = 0;
    try {
      await this.store.append(this.meta!, batch.flatMap((p) => (p.chunk ? [p.chunk] : [])));
      this.persisted = { ...this.meta! };
    } catch (e) {
      for (const p of batch) p.failed(e);
      // What is in memory was never persisted: forget it; the relays re-send on a new port (RelayHub resets theirs).
      this.meta = undefined;
      return;
    }
    if (this.discarded) {
      // A new browser session began while the write was under way: it went into the log that is being dropped. Not
      // acknowledged, so the relays send it again, to the new log.
      for (const p of batch) p.failed(new SentAgain(NEW_SESSION));
      return;
    }
    // The batch is stored: it is done whatever the trim does (a failed trim changed nothing and is tried again at the
    // next write; failing the batch would have the relay re-send frames the log already has, and they would be skipped).
    await this.enforceCaps().catch((e: unknown) => console.error('mcp-devtools: trimming the log failed', e));
    const stats = this.stats();
    for (const p of batch) p.done(stats);
  }

  private async enforceCaps(): Promise<void> {
    const meta = this.meta!;
    const caps = this.caps();
    if (meta.frames <= caps.maxFrames && meta.bytes <= caps.maxBytes) return;
    const framesToFree = meta.frames > caps.maxFrames ? meta.frames - caps.maxFrames + Math.ceil(caps.maxFrames * TRIM_SHARE) : 0;
    const bytesToFree = meta.bytes > caps.maxBytes ? meta.bytes - caps.maxBytes + Math.ceil(caps.maxBytes * TRIM_SHARE) : 0;
    // What the trim keeps of the frames it drops takes at most KEEP_SHARE of each cap (trim-keep.ts).
    const budget = { frames: Math.floor(caps.maxFrames * KEEP_SHARE), bytes: Math.floor(caps.maxBytes * KEEP_SHARE) };
    this.meta = await this.store.dropOldest(meta, framesToFree, bytesToFree, new TrimKeep(meta.segment, budget));
    this.persisted = { ...this.meta };
  }

  /**
   * The caps were lowered: a log over them is trimmed now, not at its next write (a tab that sends nothing more would
   * keep its oversized log). Returns the stats when something was dropped.
   */
  async capsChanged(): Promise<TabStats | undefined> {
    return this.run(async () => {
      const before = (await this.loaded()).dropped;
      await this.writePending();
      if (!this.meta) return undefined;
      await this.enforceCaps();
      return this.meta.dropped > before ? this.stats() : undefined;
    });
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
        await this.writePending();
        const frames = await this.store.readAfter(this.tabId, after, chunk);
        const last = frames.at(-1);
        if (last) after = last.seq;
        const isDone = frames.length < chunk;
        onChunk(frames, isDone);
        return isDone;
      });
      if (done) return;
    }
  }

  /**
   * Empties the log, except the frames that opened the exchanges still open (open-exchanges.ts): those are kept, with
   * new sequence numbers after the last one, and returned (panels and the badge start over from them). Sequence
   * numbers keep counting (never reused) and the relays' batch memory stays.
   */
  clear(): Promise<{ stats: TabStats; kept: Frame[] }> {
    return this.run(async () => {
      await this.loaded();
      await this.writePending();
      // A write that just failed forgot the meta: read it again.
      const prev = await this.loaded();
      const read = prev.open ? await this.store.readSeqs(this.tabId, openSeqs(prev.open)) : [];
      const open = keptOpen(prev.open ?? {}, new Set(read.map((f) => f.seq)), prev.liveDocs);
      const keep = new Set(openSeqs(open));
      const kept = read.filter((f) => keep.has(f.seq));
      const meta = emptied(prev);
      const renumber = new Map<number, number>();
      for (const f of kept) {
        renumber.set(f.seq, meta.lastSeq + 1);
        f.seq = ++meta.lastSeq;
      }
      meta.open = renumberOpen(open, renumber);
      let chunk: FrameChunk | undefined;
      if (kept.length > 0) {
        const bytes = kept.reduce((sum, f) => sum + JSON.stringify(f).length, 0);
        meta.frames = kept.length;
        meta.bytes = bytes;
        chunk = { firstSeq: kept[0]!.seq, lastSeq: kept.at(-1)!.seq, bytes, frames: kept };
      }
      // One transaction: a worker stopped half-way must not leave an empty log that counts from 1 again.
      await this.store.replaceTab(meta, chunk);
      this.meta = meta;
      this.persisted = { ...meta };
      return { stats: this.stats(), kept };
    });
  }

  /** The first sequence number of the current page segment (1 when not known: a log written before it was kept). */
  get segmentFirstSeq(): number {
    return this.meta?.segmentFirstSeq ?? 1;
  }

  async ensureLoaded(): Promise<TabStats> {
    await this.run(() => this.loaded());
    return this.stats();
  }

  /**
   * Dropped with the whole store (a new browser session): nothing of this log is written any more. Batches waiting
   * for their write fail, so their relays send them again, to the log that replaces this one.
   */
  discard(): void {
    this.discarded = true;
    this.failPending(new SentAgain(NEW_SESSION));
  }

  /**
   * The tab was closed: its log goes. Batches waiting for their write fail now (their relays are gone with the tab; a
   * write after the deletion would bring the log back, or fail and read as a disk problem to an open panel).
   */
  forget(): Promise<void> {
    this.discarded = true;
    this.failPending(new SentAgain('the tab was closed'));
    return this.run(async () => {
      await this.store.deleteTab(this.tabId);
      this.meta = undefined;
      this.persisted = undefined;
    });
  }
}

const MAX_LIVE_DOCS = 64;
const MAX_ENDED_DOCS = 8;

/**
 * Page segments. A document's page-start comes with its first MCP frame (see the hook's emitter), so a top-level page
 * that never speaks MCP sends none. A top-level page-start begins a segment, unless the segment was begun by a
 * subframe that started after it (an iframe of this very page spoke first). A subframe's page-start begins one when no
 * document of the current segment is still alive and its browser frame had none in it (the page around it sent
 * nothing; an iframe that reloads keeps its frame id, a new page's iframes get new ones). A page-end takes its
 * document out.
 */
function trackDocs(meta: TabMeta, kind: 'page-start' | 'page-end', doc: string, frameId: number, topLevel: boolean, t: number): void {
  const live = meta.liveDocs!;
  const frames = meta.segmentFrameIds!;
  if (kind === 'page-end') {
    const i = live.lastIndexOf(doc);
    if (i >= 0) live.splice(i, 1);
    const ended = (meta.endedDocs = [...(meta.endedDocs ?? []).filter((d) => d !== doc), doc]);
    if (ended.length > MAX_ENDED_DOCS) ended.shift();
    const inSegment = (meta.segmentEndedDocs = [...(meta.segmentEndedDocs ?? []).filter((d) => d !== doc), doc]);
    if (inSegment.length > MAX_LIVE_DOCS) inSegment.shift();
    return;
  }
  // Back from the back/forward cache (the document ended and starts again).
  const restored = meta.endedDocs?.includes(doc) === true;
  // ...with no page that spoke MCP in between: its segment goes on (the page the view shows is this one again).
  const resumes = topLevel && restored && meta.segmentEndedDocs?.includes(doc) === true;
  // A subframe's page-start began the segment: its top-level page joins it when that page started first, or when both
  // came back from the cache together (their page-starts are stamped at the return, in either order; the subframe is
  // still alive then: one that ended was another page's, gone before this one came back).
  const joinsSubframe =
    topLevel &&
    meta.segmentBegunBySubframeAt !== undefined &&
    (meta.segmentBegunBySubframeAt >= t || (restored && meta.segmentBegunByRestore === true && live.length > 0));
  if (joinsSubframe) {
    meta.segmentBegunBySubframeAt = undefined;
    meta.segmentBegunByRestore = undefined;
  } else if (resumes) {
    // (Its subframes come back with it: their frame ids are still the segment's.)
  } else if (topLevel || (live.length === 0 && !frames.includes(frameId))) {
    meta.segment++;
    live.length = 0;
    frames.length = 0;
    meta.segmentEndedDocs = [];
    meta.segmentBegunBySubframeAt = topLevel ? undefined : t;
    meta.segmentBegunByRestore = topLevel ? undefined : restored;
  }
  // Back from the back/forward cache: the document lives again.
  if (meta.endedDocs?.includes(doc)) meta.endedDocs = meta.endedDocs.filter((d) => d !== doc);
  if (!live.includes(doc)) live.push(doc);
  if (!frames.includes(frameId)) frames.push(frameId);
  // Documents that never said goodbye (a crashed frame) must not pile up.
  if (live.length > MAX_LIVE_DOCS) live.splice(0, live.length - MAX_LIVE_DOCS);
  if (frames.length > MAX_LIVE_DOCS) frames.splice(0, frames.length - MAX_LIVE_DOCS);
}

/**
 * The log emptied (Clear, or the storage cleared under it): no frames, sequence numbers going on (never reused), the
 * page tracking and the relays' batch memory kept.
 */
function emptied(old: TabMeta): TabMeta {
  return {
    ...emptyMeta(old.tabId),
    lastSeq: old.lastSeq,
    firstSeq: old.lastSeq + 1,
    segment: old.segment,
    relays: old.relays,
    segmentFirstSeq: old.segmentFirstSeq,
    liveDocs: old.liveDocs,
    endedDocs: old.endedDocs,
    segmentFrameIds: old.segmentFrameIds,
    segmentBegunBySubframeAt: old.segmentBegunBySubframeAt,
    segmentEndedDocs: old.segmentEndedDocs,
    segmentBegunByRestore: old.segmentBegunByRestore,
  };
}

function pruneRelays(meta: TabMeta): void {
  const ids = Object.keys(meta.relays);
  if (ids.length <= MAX_REMEMBERED_RELAYS) return;
  // Keep the most recently active relays (an old, finished document's relay is not coming back).
  const keep = ids.slice(-MAX_REMEMBERED_RELAYS);
  meta.relays = Object.fromEntries(keep.map((id) => [id, meta.relays[id]!]));
}
