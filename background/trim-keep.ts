// What a trim at the log's cap keeps of the oldest frames it drops (tab-log.ts enforceCaps → log-store.ts dropOldest):
// the frames that opened exchanges going on past the cut (a GET or listen stream, a WebSocket, a request whose answer
// is among the frames left: its request and response head, a legacy endpoint event, a listen acknowledgement — what
// Clear keeps, open-exchanges.ts) and the current page's page-start (its first, and its latest top-level one). Without
// them the frames left have no method, URL or session: a HAR of them had entries with an empty URL, the trace lost its
// page URL (a review, 2026-12-06). At most KEEP_SHARE of each cap is kept: the page-starts, then whole exchanges,
// streams first and the newest first; openers beyond it go like the rest (their exchanges are then partial in an export).
// Fed the dropped frames in seq order; it never reads the frames that stay. It measures (JSON.stringify) only the frames
// of exchanges open when it weighs them, once, and none whose size the kept chunk of the previous trim stored. Pure.
import type { Frame } from '../shared/frames.ts';
import { trackOpen, type OpenExchanges } from './open-exchanges.ts';

/** What the kept frames may take of the log's caps at most (frames, bytes). */
export interface KeepBudget {
  frames: number;
  bytes: number;
}

/**
 * The share of each cap the kept frames may take (log-store.ts dropOldest, tab-log.ts enforceCaps): openers that alone
 * would take more (a request waiting with a body of several MiB under a 1 MiB cap, a thousand open exchanges under a
 * 1,000-frame cap) are not all kept, so the log still ends within its caps.
 */
export const KEEP_SHARE = 0.5;

export class TrimKeep {
  /** Exchanges opened among the dropped frames and not ended among them (they go on past the cut). */
  private readonly open: OpenExchanges = {};
  /** The dropped frames `open` may name (openers, endpoint and acknowledgement events), by seq. */
  private readonly candidates = new Map<number, Frame>();
  /**
   * The stored size (JSON length, as the log counts bytes) of the frames measured so far, by seq: measured when select
   * first weighs an exchange still open (the trim asks after each chunk: one that opened and ended within a chunk is
   * never measured, one open across chunks is, once), or given by add (the
   * sizes a previous trim stored with its kept chunk), so a trim that keeps what the last one kept stringifies nothing.
   */
  private readonly sizes = new Map<number, number>();
  private segmentStart: Frame | undefined;
  private topStart: Frame | undefined;
  /** What select() chose, until the next add. */
  private chosen: number[] | undefined;

  constructor(
    /** The log's current page segment: only its page-starts are kept. */
    private readonly segment: number,
    /** At most this much is kept: the page-starts always, then whole exchanges while they fit (see select). */
    private readonly budget: KeepBudget = { frames: Infinity, bytes: Infinity },
  ) {}

  /** Feeds a dropped frame, in seq order; `size`: its stored size when known (the kept chunk's `sizes`). */
  add(f: Frame, size?: number): void {
    this.chosen = undefined;
    if (f.kind === 'page-start') {
      if (f.segment !== this.segment) return;
      if (this.segmentStart === undefined) this.segmentStart = f;
      if (f.top) this.topStart = f;
      if (size !== undefined && (this.segmentStart === f || this.topStart === f)) this.sizes.set(f.seq, size);
      return;
    }
    trackOpen(this.open, f);
    const conn = 'conn' in f ? f.conn : undefined;
    const o = conn !== undefined && Object.hasOwn(this.open, conn) ? this.open[conn] : undefined;
    if (o && (o.seqs.includes(f.seq) || o.endpoint === f.seq || o.ack === f.seq)) {
      this.candidates.set(f.seq, f);
      if (size !== undefined) this.sizes.set(f.seq, size);
    }
  }

  /** The stored size of a candidate or page-start, measured once. */
  private size(seq: number): number {
    let n = this.sizes.get(seq);
    if (n === undefined) {
      const f = this.candidates.get(seq) ?? (this.segmentStart?.seq === seq ? this.segmentStart : this.topStart?.seq === seq ? this.topStart : undefined);
      n = f === undefined ? 0 : JSON.stringify(f).length;
      this.sizes.set(seq, n);
    }
    return n;
  }

  /**
   * The seqs to keep, ascending: the page-starts, then the open exchanges' frames, an exchange whole or not at all,
   * streams before requests waiting for their answer and the newest first, while they fit in the budget (an exchange
   * that does not fit is left out; an older, smaller one may still fit).
   */
  private select(): number[] {
    if (this.chosen) return this.chosen;
    const out = new Set<number>();
    let frames = 0;
    let bytes = 0;
    for (const f of [this.segmentStart, this.topStart]) {
      if (f === undefined || out.has(f.seq)) continue;
      out.add(f.seq);
      frames++;
      bytes += this.size(f.seq);
    }
    const exchanges = Object.values(this.open).reverse();
    for (const o of [...exchanges.filter((x) => x.stream), ...exchanges.filter((x) => !x.stream)]) {
      const seqs = [...o.seqs, ...(o.endpoint !== undefined ? [o.endpoint] : []), ...(o.ack !== undefined ? [o.ack] : [])].filter((s) => this.candidates.has(s));
      if (seqs.length === 0 || frames + seqs.length > this.budget.frames) continue;
      const size = seqs.reduce((sum, s) => sum + this.size(s), 0);
      if (bytes + size > this.budget.bytes) continue;
      for (const s of seqs) out.add(s);
      frames += seqs.length;
      bytes += size;
    }
    this.chosen = [...out].sort((a, b) => a - b);
    return this.chosen;
  }

  /** How many frames `kept` would return (cheap: the trim asks after every chunk). */
  count(): number {
    return this.select().length;
  }

  /** Their bytes, as the log counts them (the JSON length of each frame). */
  bytes(): number {
    return this.select().reduce((sum, s) => sum + this.size(s), 0);
  }

  /** The stored size of each frame `kept` returns, in its order (written with the kept chunk for the next trim). */
  keptSizes(): number[] {
    return this.select().map((s) => this.size(s));
  }

  /** The frames to keep, in seq order. */
  kept(): Frame[] {
    const page = new Map([this.segmentStart, this.topStart].filter((f): f is Frame => f !== undefined).map((f) => [f.seq, f]));
    return this.select().map((s) => (this.candidates.get(s) ?? page.get(s))!);
  }
}
