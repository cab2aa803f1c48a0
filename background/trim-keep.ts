// What a trim at the log's cap keeps of the oldest frames it drops (tab-log.ts enforceCaps → log-store.ts dropOldest):
// the frames that opened exchanges going on past the cut (a GET or listen stream, a WebSocket, a request whose answer
// is among the frames left: its request and response head, a legacy endpoint event, a listen acknowledgement — what
// Clear keeps, open-exchanges.ts) and the current page's page-start (its first, and its latest top-level one). Without
// them the frames left have no method, URL or session: a HAR of them had entries with an empty URL, the trace lost its
// page URL (a review, 2026-12-06). Fed the dropped frames in seq order; it never reads the frames that stay. Pure.
import type { Frame } from '../shared/frames.ts';
import { openSeqs, trackOpen, type OpenExchanges } from './open-exchanges.ts';

export class TrimKeep {
  /** Exchanges opened among the dropped frames and not ended among them (they go on past the cut). */
  private readonly open: OpenExchanges = {};
  /** The dropped frames `open` may name (openers, endpoint and acknowledgement events), by seq. */
  private readonly candidates = new Map<number, Frame>();
  private segmentStart: Frame | undefined;
  private topStart: Frame | undefined;

  constructor(
    /** The log's current page segment: only its page-starts are kept. */
    private readonly segment: number,
  ) {}

  add(f: Frame): void {
    if (f.kind === 'page-start') {
      if (f.segment !== this.segment) return;
      this.segmentStart ??= f;
      if (f.top) this.topStart = f;
      return;
    }
    trackOpen(this.open, f);
    const conn = 'conn' in f ? f.conn : undefined;
    const o = conn !== undefined && Object.hasOwn(this.open, conn) ? this.open[conn] : undefined;
    if (o && (o.seqs.includes(f.seq) || o.endpoint === f.seq || o.ack === f.seq)) this.candidates.set(f.seq, f);
  }

  /** How many frames `kept` would return (cheap: the trim asks after every chunk). */
  count(): number {
    const pages = this.segmentStart === undefined ? 0 : this.topStart === undefined || this.topStart === this.segmentStart ? 1 : 2;
    return openSeqs(this.open).length + pages;
  }

  /** The frames to keep, in seq order. */
  kept(): Frame[] {
    const seqs = new Set(openSeqs(this.open));
    if (this.segmentStart) seqs.add(this.segmentStart.seq);
    if (this.topStart) seqs.add(this.topStart.seq);
    const page = [this.segmentStart, this.topStart].filter((f): f is Frame => f !== undefined);
    const out = new Map<number, Frame>();
    for (const f of [...page, ...this.candidates.values()]) if (seqs.has(f.seq)) out.set(f.seq, f);
    return [...out.values()].sort((a, b) => a.seq - b.seq);
  }
}
