// One URI as one client sees it — a row of the URI table: the client's cache entry (the readCache), what the client
// believes about its subscription, which ledgers hold it server-side, its notification cadence, its open conditions
// and its walk along the seed chart. Plain mutable state; the rules that change it live in the engine handlers.
import { hashText } from '../hash.ts';
import { utf8Length } from '../payload.ts';
import { newConditionSlots, type ConditionSlots, type FindingSpec } from '../findings/finding-log.ts';
import type { CoverageReason } from '../findings/types.ts';
import type { GapDoubt } from '../findings/gap.ts';
import { newFlowState, type FlowState } from '../flow/flow-tracker.ts';
import type { FlowPending, FlowStage } from './flow-rules.ts';
import { BURST_MS, CADENCE_WINDOW, expectedFreshness, type CompiledRule, type Freshness } from './freshness.ts';
import type { SubscriptionLedger } from './ledger.ts';
import type { AnswerWait } from './work-run.ts';
import type { ClientModel } from './client-model.ts';
import type { RequestId } from '../decode/types.ts';

/**
 * Where the cached content lives, without a second copy: the raw payload of the answer that wrote it (kept by the
 * frame log anyway), parsed again only when a comparison or a view needs the content. Keeping the parsed text instead
 * cost a third of the replay time (every document promoted through the young generation), measured on the bench.
 * For an answer cut at capture, only the hash of the full payload is known.
 */
export interface ContentRef {
  raw: string | undefined;
  /** Position in a JSON-RPC batch, or -1. */
  batch: number;
  /** Capture-truncated answer: hash and size of the full payload (which includes the JSON-RPC id). */
  hash: string | undefined;
  bytes: number | undefined;
}

// Frozen: a sentinel compared by identity, which a fork (fork.ts) shares rather than copies.
const NO_CONTENT: ContentRef = Object.freeze({ raw: undefined, batch: -1, hash: undefined, bytes: undefined }) as ContentRef;

/** The identity text of a parsed read result's contents: one part's text (or blob), or the JSON of several parts. */
export function contentTextOf(result: unknown): string {
  const contents = (result as { contents?: unknown } | undefined)?.contents;
  if (!Array.isArray(contents)) return '';
  if (contents.length === 1) {
    const c = contents[0] as { text?: unknown; blob?: unknown } | null;
    if (c && typeof c === 'object') return typeof c.text === 'string' ? c.text : typeof c.blob === 'string' ? c.blob : '';
  }
  return JSON.stringify(contents);
}

/** The content a ref points at, parsed from its raw answer; undefined when it was cut at capture. */
export function contentTextOfRef(ref: ContentRef): string | undefined {
  if (ref.raw === undefined || ref.hash !== undefined) return undefined;
  try {
    const v: unknown = ref.batch >= 0 ? parsedBatch(ref.raw) : JSON.parse(ref.raw);
    const m = (ref.batch >= 0 && Array.isArray(v) ? v[ref.batch] : v) as { result?: unknown } | null;
    return contentTextOf(m?.result);
  } catch {
    return undefined;
  }
}

/**
 * The last JSON-RPC batch parsed, kept: the rows one batch wrote share its raw text and are described one after
 * another (a batch of 8,000 read results was parsed once per row: minutes for one snapshot). Read-only use.
 */
let lastRaw: string | undefined;
let lastParsed: unknown;
function parsedBatch(raw: string): unknown {
  if (raw !== lastRaw) {
    lastParsed = JSON.parse(raw);
    lastRaw = raw;
  }
  return lastParsed;
}

/**
 * Does the cached content differ from `next`? undefined when it cannot be told: an answer cut at capture is only known
 * by a hash of its whole payload, id included, so two cut answers never compare equal — rather than guess, the
 * change-based findings (stale-overwrite, missed-update) stay silent.
 */
export function contentDiffers(cached: ContentRef, next: string | undefined): boolean | undefined {
  if (next === undefined || cached.hash !== undefined) return undefined;
  const old = contentTextOfRef(cached);
  return old === undefined ? undefined : old !== next;
}

export interface Pending {
  t: number;
  seq: number;
  /** Notifications coalesced into this pending re-read. */
  count: number;
  /** The session the notification that began this wait came on: the finding names it, whatever is current later. */
  session?: string;
  /** The first read sent since, while it (or a later one) is in flight: it settles the re-read only if it succeeds. */
  reread?: { t: number; seq: number; queued?: boolean };
  /** Why the last re-read failed (an error answer, no answer), while the notification waits again. */
  failed?: string;
  /** Reads sent since `seq` and not answered yet (reads sent before it do not count: they cannot answer it). */
  out?: number;
  /**
   * The notifications before this one whose re-read was in flight when the next came, oldest first, one group per
   * wait they began: not in `count` (they were followed by a read). A read with content sent since a group's `from`
   * answers it (and every older group); `out` counts the reads sent from `from` up to the next group's (or this
   * notification's) seq still unanswered: when all of those fail, the group waits with the next one again (with this
   * one, in `count`, when it is the last). Never empty when set; at most MAX_CARRIED groups.
   */
  carried?: CarriedGroup[];
}

export interface CarriedGroup {
  count: number;
  from: number;
  out: number;
}

/**
 * The most carried groups a pending re-read keeps (notifications overlapping their re-reads this deep are rare): past
 * it the two oldest merge, from the older's seq, so a read sent for the older one may answer the younger early (a
 * missed finding, never a false one).
 */
export const MAX_CARRIED = 8;

/** The notifications carried by a pending re-read (their re-read in flight). */
export function carriedCount(p: Pending): number {
  let n = 0;
  for (const g of p.carried ?? []) n += g.count;
  return n;
}

/** Every notification a pending re-read stands for, also those whose own re-read is still in flight (the metrics). */
export function pendingCount(p: Pending): number {
  return p.count + carriedCount(p);
}

export class UriState {
  // The cache entry, as a client that writes every read answer in arrival order would hold it.
  cached = false;
  readAt = 0;
  /** When the read before the entry's current one was answered, while the entry stayed cached (a poll's last period). */
  prevReadAt: number | undefined = undefined;
  /**
   * When the first read of the entry's current run was answered: reads answered within the grace of it are one read
   * (a component mounted twice reads twice a few ms apart; that is no poll), so they leave prevReadAt as it was.
   */
  readRunAt = 0;
  readSeq = 0;
  /** The session the entry was read in (its live holder, else the client's current one, as the answer came). */
  readSession: string | undefined = undefined;
  content: ContentRef = NO_CONTENT;
  /** Hash and size of `content`, computed together (one parse of the answer) when a view first asks. */
  private described = false;
  private memoHash: string | undefined;
  private memoSize: number | undefined;
  /** The cached content's lastModified: from the answer of the read that wrote it, never from a list. */
  lastModified: string | undefined;
  /**
   * A version the cached content is at least: its own lastModified, or else the one a resources/list answered before
   * its read was sent gave (the server's version then: the read got that one or a newer one). A later list giving the
   * same value proves the content current (findings/gap.ts settleGapByList); the value is not shown as the cache's.
   */
  lastModifiedAtLeast: string | undefined;
  ttlMs: number | undefined;
  cacheScope: string | undefined;
  /**
   * The highest send order answered (to spot an older answer arriving later), where it was answered, and (while the
   * cache holds an older answer) that answer's content.
   */
  newestOrder = 0;
  newestSeq = 0;
  newest: ContentRef | undefined;
  writtenSeq = 0;
  /** Seq of the request whose answer is cached: a notification after it announces any change since. */
  writtenReqSeq = 0;
  /** Its JSON-RPC id (a missed-update names the two reads whose content differed). */
  writtenReqId: RequestId | null | undefined = undefined;
  /** How its last holder ended, as coverage findings say it (findings/coverage.ts endedHow). */
  endedText: { ledger: SubscriptionLedger; endSeq: number | undefined; text: string; lost: string } | undefined = undefined;
  /** The reconnect (index) after which this URI was still to be subscribed again; -1: none. */
  missingIn = -1;

  /**
   * An older answer overwrote a newer one and nothing has rewritten it since: the cache is known stale. The finding it
   * is (open while it lasts; findings/refresh.ts endStale logs it once it ends).
   */
  staleSince: { t: number; seq: number; evidence: number[]; spec: FindingSpec } | undefined;

  listed = false;
  /**
   * The lastModified the latest resources/list gave (the server's version when it answered, which may be newer than the
   * cache's), the time and seq of that answer.
   */
  listedLastModified: string | undefined;
  listedAt: number | undefined;
  listedSeq = 0;

  /** NaN until a read is sent (a double field, written in place: `number | undefined` boxed every write, promoted with the URI). */
  lastReadReqT = NaN;
  /** The seq of the last read sent (a delivery gap's doubt takes one sent since it began as its re-read). */
  lastReadReqSeq = 0;
  /** The message index of the last read sent, and why it failed when it did (undefined: answered, or on its way). */
  lastReadIndex = -1;
  lastReadFailed: string | undefined = undefined;
  readsInFlight = 0;

  believed = false;
  believedSeq = 0;
  /** The listen ledger the belief comes from (2026), or undefined for resources/subscribe (2025). */
  beliefListen: SubscriptionLedger | undefined;
  subscribeInFlight = 0;
  /** Send seqs of subscribes (or listens) said not advertised, until answered (findings/protocol-checks.ts). */
  unadvertisedSubscribes: number[] | undefined = undefined;
  /** When the client last unsubscribed (undefined once it subscribes again): an update crossing it needs no re-read. */
  unsubscribedT: number | undefined = undefined;

  /** Ledgers that hold it now. */
  holders: SubscriptionLedger[] = [];
  heldSince: number | undefined;
  heldSeq = 0;
  /**
   * When the client asked for the hold that began at heldSince: the subscribe's request, when one was in flight, or
   * the listen's that named the URI (answered late, it was still sent right after the read); else heldSince. Judges
   * the read-then-subscribe order (findings/refresh.ts).
   */
  heldAskedT: number | undefined = undefined;
  /** When the client last sent resources/subscribe for it (the request of the answer that may begin a hold). */
  subscribeSentT = NaN;
  /** The session its latest resources/subscribe was sent on (its answer will not come once that ends). */
  subscribeOn: SubscriptionLedger | undefined = undefined;
  /**
   * The wait on the subscribe (or listen) in flight for it, as the excuse of its cached-not-subscribed and of its
   * phantom-subscription (findings/coverage.ts); kept after it ends, until the next one, to judge what it held off.
   */
  waitCached: AnswerWait | undefined = undefined;
  waitBelief: AnswerWait | undefined = undefined;
  /** The resubscribing run's generation its subscribe in flight is a step of (WorkRun.awaiting), if it is one. */
  resubscribeGen: number | undefined = undefined;
  /** The session that subscribe was sent on, and its place in that session's resubscribesAwaiting (ledger.ts). */
  resubscribeOn: SubscriptionLedger | undefined = undefined;
  resubscribeSlot = -1;
  /** When it last stopped being held by anything: a change read after a hold that lapsed and came back was not missed. */
  releasedT: number | undefined = undefined;
  /** When a notification could last reach it, as of its last release (findings/refresh.ts overAge: a learned cadence's finding begins no earlier). */
  deliveryLostT: number | undefined = undefined;
  /** Where and why it last stopped being held (a subscribe made again later is a lapse: findings/gap.ts markLapse). */
  released: { seq: number; reason: CoverageReason } | undefined = undefined;
  /** heldSince when it was last released (a revived session held it all along: it gets it back). */
  heldSinceBeforeRelease: number | undefined = undefined;
  /** The last way it stopped being (or failed to become) subscribed: the reason a cached entry is uncovered. */
  loss: { reason: CoverageReason; t: number; seq: number } | undefined;

  /** NaN until a notification (see lastReadReqT). */
  lastNotifyT = NaN;
  lastNotifySeq = 0;
  notifyCount = 0;
  /** The last CADENCE_WINDOW intervals between notifications, as a ring. */
  private ring = new Float64Array(CADENCE_WINDOW);
  private ringCount = 0;
  /** ringCount % CADENCE_WINDOW, kept rather than divided for every notification. */
  private ringPos = 0;
  pendingReread: Pending | undefined;
  /** A changed read without a notification, waiting out the grace for a late notification. */
  /** A changed read no notification explained yet; `until`: the notification may still come until then. */
  pendingMissed: { t: number; seq: number; evidence: number[]; held: boolean; until: number; detail: string; session?: string } | undefined;
  /** Its cache, read before a delivery gap no stream resumed, not read again since (findings/gap.ts). */
  gapDoubt: GapDoubt | undefined = undefined;

  /** Its marks in its client's keyed runs (WorkRun.stepOnce): rereading, catchingUp. */
  rereadMark = -1;
  catchUpMark = -1;

  readonly conds: ConditionSlots = newConditionSlots();
  readonly flow: FlowState = newFlowState();
  /** Time-based flow inferences waiting for their deadlines (flow-rules.ts): no re-read (I ⇢ K), no resubscribe (P → Q). */
  flowReread: FlowPending | undefined;
  flowPhantom: FlowPending | undefined;
  /** The chart's reconnect question still open for this URI (flow-rules.ts). */
  flowStage: FlowStage;

  constructor(
    readonly key: string,
    readonly uri: string,
    readonly client: ClientModel,
  ) {}

  get held(): boolean {
    return this.holders.length > 0;
  }

  get channelOpen(): boolean {
    for (const l of this.holders) if (l.channels > 0) return true;
    return false;
  }

  /**
   * Until when a notification could reach it (held with a delivery channel open): undefined while one still can, or
   * when none ever could that is known; else the last of its holders' channel closes, or when it stopped being held.
   */
  deliveryEndedT(): number | undefined {
    if (this.holders.length === 0) return this.deliveryLostT;
    let last: number | undefined;
    for (const l of this.holders) {
      if (l.channels > 0) return undefined;
      const c = l.lastChannelClose?.t;
      if (c !== undefined && (last === undefined || c > last)) last = c;
    }
    return last;
  }

  /**
   * `c` is copied into the row's own ref, one per row rather than one per read answer: a ref lives until the URI's
   * next read, long enough to be promoted to the old generation every time.
   */
  setContent(c: ContentRef): void {
    const own = this.content;
    if (own === NO_CONTENT) this.content = { raw: c.raw, batch: c.batch, hash: c.hash, bytes: c.bytes };
    else {
      own.raw = c.raw;
      own.batch = c.batch;
      own.hash = c.hash;
      own.bytes = c.bytes;
    }
    this.described = false;
  }

  /**
   * Hash and size are computed when a view asks, once per cache write and from one parse of the answer: hashing every
   * read would cost as much as parsing it. An answer cut at capture has both from the capture.
   */
  private describe(): void {
    if (this.described) return;
    this.described = true;
    const c = this.content;
    const text = c.hash === undefined || c.bytes === undefined ? contentTextOfRef(c) : undefined;
    this.memoHash = c.hash ?? (text !== undefined ? hashText(text) : undefined);
    this.memoSize = c.bytes ?? (text !== undefined ? utf8Length(text) : undefined);
  }

  get contentHash(): string | undefined {
    if (!this.cached) return undefined;
    this.describe();
    return this.memoHash;
  }

  get size(): number | undefined {
    if (!this.cached) return undefined;
    this.describe();
    return this.memoSize;
  }

  private endedEpoch = -1;
  private ended: SubscriptionLedger | undefined;

  /**
   * The most recently ended ledger that held this URI, memoized per client ledger epoch: every condition a reconnect
   * re-checks explains itself with it, and the scan visits every session and listen stream of the client.
   */
  endedWith(): SubscriptionLedger | undefined {
    const epoch = this.client.ledgerEpoch;
    if (this.endedEpoch !== epoch) {
      this.ended = this.client.ledgersEndedWith(this.uri);
      this.endedEpoch = epoch;
    }
    return this.ended;
  }

  private fresh: { ttlMs: number | undefined; notifyCount: number; ringCount: number; value: Freshness } | undefined;

  /**
   * Expected freshness (freshness.ts), memoized until what it depends on changes (ttlMs, notifications): a snapshot
   * asks twice per URI (timers, row) and the learned cadence sorts the intervals each time.
   */
  freshness(rules: readonly CompiledRule[], defaultMaxAgeMs: number): Freshness {
    const f = this.fresh;
    if (f && f.ttlMs === this.ttlMs && f.notifyCount === this.notifyCount && f.ringCount === this.ringCount) return f.value;
    const value = expectedFreshness(this.uri, rules, this.ttlMs, this.notifyCount, this.intervals, defaultMaxAgeMs);
    this.fresh = { ttlMs: this.ttlMs, notifyCount: this.notifyCount, ringCount: this.ringCount, value };
    return value;
  }

  /** The first notification of the latest burst: intervals are measured between bursts (BURST_MS). */
  private cadenceT = NaN;

  noteInterval(t: number): void {
    const from = this.cadenceT;
    const first = Number.isNaN(from);
    if (!first && t - from < BURST_MS) return;
    this.cadenceT = t;
    if (first) return;
    this.ring[this.ringPos] = t - from;
    this.ringCount++;
    if (++this.ringPos === CADENCE_WINDOW) this.ringPos = 0;
  }

  /** Recent intervals between notifications (order does not matter: they feed a median). */
  get intervals(): number[] {
    return Array.from(this.ring.subarray(0, Math.min(this.ringCount, CADENCE_WINDOW)));
  }
}
