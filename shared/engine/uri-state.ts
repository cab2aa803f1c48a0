// One URI as one client sees it — a row of the URI table: the client's cache entry (the readCache), what the client
// believes about its subscription, which ledgers hold it server-side, its notification cadence, its open conditions
// and its walk along the seed chart. Plain mutable state; the rules that change it live in the engine handlers.
import { hashText } from '../hash.ts';
import { utf8Length } from '../payload.ts';
import { newConditionSlots, type ConditionSlots } from '../findings/finding-log.ts';
import type { CoverageReason } from '../findings/types.ts';
import { newFlowState, type FlowState } from '../flow/flow-tracker.ts';
import { CADENCE_WINDOW } from './freshness.ts';
import type { SubscriptionLedger } from './ledger.ts';
import type { ClientModel } from './client-model.ts';

/** The identity of cached content without keeping a second copy: the text itself (shared with the frame) or, for a
 *  capture-truncated answer, the hash of the full payload. */
export interface ContentId {
  text: string | undefined;
  hash: string | undefined;
  bytes: number | undefined;
}

export function sameContent(a: ContentId, b: ContentId): boolean {
  if (a.text !== undefined && b.text !== undefined) return a.text === b.text;
  return a.hash !== undefined && a.hash === (b.hash ?? (b.text !== undefined ? hashText(b.text) : undefined));
}

export interface Pending {
  t: number;
  seq: number;
  /** Notifications coalesced into this pending re-read. */
  count: number;
}

export class UriState {
  // The cache entry, as a client that writes every read answer in arrival order would hold it.
  cached = false;
  readAt = 0;
  readSeq = 0;
  content: ContentId = { text: undefined, hash: undefined, bytes: undefined };
  private memoHash: string | undefined;
  private memoSize: number | undefined;
  lastModified: string | undefined;
  ttlMs: number | undefined;
  cacheScope: string | undefined;
  /** Send order of the read whose answer is in the cache (to spot an older answer arriving later). */
  writtenOrder = 0;
  writtenSeq = 0;

  /** An older answer overwrote a newer one and nothing has rewritten it since: the cache is known stale. */
  staleSince: { t: number; seq: number; evidence: number[] } | undefined;

  listed = false;
  listedLastModified: string | undefined;

  lastReadReqT: number | undefined;
  readsInFlight = 0;

  believed = false;
  believedSeq = 0;
  /** The listen ledger the belief comes from (2026), or undefined for resources/subscribe (2025). */
  beliefListen: SubscriptionLedger | undefined;
  subscribeInFlight = 0;

  /** Ledgers that hold it now. */
  holders: SubscriptionLedger[] = [];
  heldSince: number | undefined;
  heldSeq = 0;
  /** The last way it stopped being (or failed to become) subscribed: the reason a cached entry is uncovered. */
  loss: { reason: CoverageReason; t: number; seq: number } | undefined;

  lastNotifyT: number | undefined;
  lastNotifySeq = 0;
  notifyCount = 0;
  /** The last CADENCE_WINDOW intervals between notifications, as a ring. */
  private ring = new Float64Array(CADENCE_WINDOW);
  private ringCount = 0;
  pendingReread: Pending | undefined;
  /** A changed read without a notification, waiting out the grace for a late notification. */
  pendingMissed: { t: number; seq: number; evidence: number[]; held: boolean; session?: string } | undefined;

  readonly conds: ConditionSlots = newConditionSlots();
  readonly flow: FlowState = newFlowState();
  /** A time-based flow inference waiting for its deadline (see engine flow rules). */
  flowPending: { kind: 'reread' | 'phantom'; deadline: number; seq: number } | undefined;

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

  setContent(c: ContentId): void {
    this.content = c;
    this.memoHash = undefined;
    this.memoSize = undefined;
  }

  /** Hash and size are computed when a view asks, once per cache write: hashing every read would cost as much as parsing it. */
  get contentHash(): string | undefined {
    if (!this.cached) return undefined;
    return (this.memoHash ??= this.content.hash ?? (this.content.text !== undefined ? hashText(this.content.text) : undefined));
  }

  get size(): number | undefined {
    if (!this.cached) return undefined;
    if (this.content.bytes !== undefined) return this.content.bytes;
    return (this.memoSize ??= this.content.text === undefined ? undefined : utf8Length(this.content.text));
  }

  noteInterval(t: number): void {
    if (this.lastNotifyT === undefined) return;
    this.ring[this.ringCount % CADENCE_WINDOW] = t - this.lastNotifyT;
    this.ringCount++;
  }

  /** Recent intervals between notifications (order does not matter: they feed a median). */
  get intervals(): number[] {
    return Array.from(this.ring.subarray(0, Math.min(this.ringCount, CADENCE_WINDOW)));
  }
}
