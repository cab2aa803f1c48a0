// The Messages view's filtered rows, kept incrementally. The rows (FrameRows.rows) only grow at the end while live, but
// for a trim of their oldest frames (FrameRows.dropBefore: a prefix goes) and a rebuild (another array); a row does not
// change once built. Filtering every row again on each commit cost 5–15 ms per 100k rows (12–37 ms at the 250k cap), up
// to 5 times a second; now only the rows appended since the last commit are filtered, and the result is recomputed in
// full only when the rows array, the filter or what the filter reads of the context changed (an audit, 2026-12-05).
import { matchesMessage, type Filter, type MessageContext, type MessageFacts } from './filter.ts';

export interface FilterableRow extends MessageFacts {
  seq: number;
}

/** The context's URI sets (not its session names). */
type ContextSet = Exclude<keyof MessageContext, 'name'>;

/** The context's sets the filter reads: is:stale, is:problem and is:phantom (negated or not) go by the URI rows. */
export function contextSetsRead(f: Filter): ContextSet[] {
  const out = new Set<ContextSet>();
  for (const t of f.terms) {
    if (t.key !== 'is') continue;
    if (t.value === 'stale') out.add('staleUris');
    else if (t.value === 'problem') out.add('problemUris');
    else if (t.value === 'phantom') out.add('phantomUris');
  }
  return [...out];
}

/** Whether the filter matches rows by the name their session is shown with (MessageContext.name). */
function readsSessionNames(f: Filter): boolean {
  return f.terms.some((t) => t.key === 'session' || t.key === 'text');
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** The number of rows (sorted by seq) with seq < seq, or with seq <= seq when `through`. */
function countBefore(rows: readonly { seq: number }[], seq: number, through: boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const s = rows[mid]!.seq;
    if (s < seq || (through && s === seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The number of rows with seq <= lastSeq (rows sorted by seq): where the rows are cut while scrubbing. */
export function countUpTo(rows: readonly { seq: number }[], lastSeq: number): number {
  return countBefore(rows, lastSeq, true);
}

/** The rows with seq <= lastSeq: the rows themselves when none is later (no copy), else the prefix. */
export function rowsUpTo<R extends { seq: number }>(rows: readonly R[], lastSeq: number): readonly R[] {
  const n = countUpTo(rows, lastSeq);
  return n === rows.length ? rows : rows.slice(0, n);
}

/** The index of this very row object in rows sorted by seq, or -1. */
function indexOfRow<R extends { seq: number }>(rows: readonly R[], r: R): number {
  for (let i = countUpTo(rows, r.seq) - 1; i >= 0 && rows[i]!.seq === r.seq; i--) if (rows[i] === r) return i;
  return -1;
}

/**
 * `rows.filter((r) => matchesMessage(filter, r, ctx))`, kept from one call to the next. The result is an array owned
 * here (as FrameRows' rows, it grows in place while live): read it before the next call.
 */
export class IncrementalMessageFilter<R extends FilterableRow> {
  private src: readonly R[] | null = null;
  private filter: Filter | null = null;
  private ctx: MessageContext | null = null;
  /** How many rows of src (from its start) are filtered into out, and the last of them. */
  private done = 0;
  private last: R | null = null;
  private out: R[] = [];
  /** Passes over every row, and calls that filtered only new rows (tests and measurements). */
  readonly counts = { full: 0, incremental: 0 };

  apply(rows: readonly R[], filter: Filter, ctx: MessageContext): R[] {
    if (rows !== this.src || filter !== this.filter || !this.sameContext(ctx, filter)) return this.full(rows, filter, ctx);
    this.ctx = ctx;
    let from = this.done;
    if (from > 0 && rows[from - 1] !== this.last) {
      // A prefix of the rows went (a trim), or they changed otherwise: the last row filtered tells which.
      const at = indexOfRow(rows, this.last!);
      if (at < 0) return this.full(rows, filter, ctx);
      from = at + 1;
      this.dropGone(rows);
    }
    this.counts.incremental++;
    this.take(rows, from);
    return this.out;
  }

  /** Whether what the filter reads of the context is the same as what the kept result was filtered with. */
  private sameContext(ctx: MessageContext, filter: Filter): boolean {
    const old = this.ctx;
    if (old === ctx) return true;
    if (!old) return false;
    for (const k of contextSetsRead(filter)) if (!sameSet(old[k], ctx[k])) return false;
    // Session names (the same function while the names are: sessionIdNamer), read by session: and free text.
    if (old.name !== ctx.name && readsSessionNames(filter)) return false;
    return true;
  }

  /** Out without the rows no longer in rows: a prefix of out (the rows lost a prefix). */
  private dropGone(rows: readonly R[]): void {
    const out = this.out;
    if (rows.length === 0) return void (out.length = 0);
    const first = rows[0]!;
    let k = countBefore(out, first.seq, false);
    // Rows of the first frame kept that went (a frame cut between its rows: not what dropBefore does, but kept right).
    while (k < out.length && out[k]!.seq === first.seq && indexOfRow(rows, out[k]!) < 0) k++;
    if (k > 0) out.splice(0, k);
  }

  private full(rows: readonly R[], filter: Filter, ctx: MessageContext): R[] {
    this.src = rows;
    this.filter = filter;
    this.ctx = ctx;
    this.out = [];
    this.counts.full++;
    this.take(rows, 0);
    return this.out;
  }

  private take(rows: readonly R[], from: number): void {
    const { out, filter, ctx } = this;
    const n = rows.length;
    for (let i = from; i < n; i++) {
      const r = rows[i]!;
      if (matchesMessage(filter!, r, ctx!)) out.push(r);
    }
    this.done = n;
    this.last = n > 0 ? rows[n - 1]! : null;
  }
}
