// The reconstructed server side: a SubscriptionLedger per session (2025: Mcp-Session-Id, legacy sessionId, WebSocket)
// or per 2026 listen stream — what the server holds for it, whether a channel can deliver, and how it ended. The
// server is never observed directly; everything here is inferred from the answers it gave.
import { EitherRun, WorkRun } from './work-run.ts';
import type { Generation, RequestId, Transport } from '../decode/types.ts';
import type { ClientModel } from './client-model.ts';
import type { EndCause } from './types.ts';
import type { UriState } from './uri-state.ts';

export interface RefusedGets {
  n: number;
  first: number;
  last: number;
  statuses: number[];
  more: boolean;
}

/** The most distinct statuses of refused GETs a ledger keeps. */
export const MAX_REFUSED_STATUSES = 4;

export class SubscriptionLedger {
  open = true;
  /** Attempts at this session's GET stream (work-run.ts): while they go on, its missing channel is on its way back. */
  readonly reopening = new WorkRun();
  /** The excuse of its no-delivery-channel: its own GET attempts, or its client re-initializing (made once, when asked). */
  channelExcuse: EitherRun | undefined = undefined;
  endT: number | undefined;
  endSeq: number | undefined;
  endCause: EndCause | undefined;
  /** URIs the server acknowledged (subscribe result / listen ack) and still holds. */
  readonly uris = new Set<string>();
  /** URIs held because the server notified them under a parent it holds (child → parent): they go with the parent. */
  viaParent: Map<string, string> | undefined;
  /** An ended ledger's viaParent as it was when it ended (ending releases them): what the views show as covered. */
  viaParentAtEnd: Map<string, string> | undefined;
  /** Open delivery channels (GET streams of a session; the listen stream; the legacy SSE stream; the WebSocket). */
  channels = 0;
  channelEverOpened = false;
  /**
   * Since when a delivery channel has been open without a break (channels went from none to one), NaN while none is;
   * and when the last one closed with none left (NaN until then). A missed-update asks whether the notification was
   * lost while a channel stayed open, or when it broke (findings/refresh.ts missedJumps). Written by setChannels.
   */
  channelOpenSince = NaN;
  channelDownT = NaN;
  /** HTTP status that refused the GET stream (405), if any. */
  channelRefused: number | undefined;
  /**
   * A GET asked for its stream back without resuming the one that ended (lifecycle.ts checkResume): the URIs it holds
   * are put in doubt when a stream opens again (findings/gap.ts), not at a GET the server refused.
   */
  pendingGap: { from: { t: number; seq: number }; reason: string } | undefined = undefined;
  /** The seq of the GET its latest resume-gap warning was about: a note about an older gap must not replace it. */
  resumeWarnSeq: number | undefined = undefined;
  /** When the last delivery channel closed, and the `retry` the server asked for (SEP-1699 polling). */
  lastChannelClose: { t: number; seq: number; retryMs?: number } | undefined;
  /**
   * GETs for its stream the server refused (an HTTP error: the SDK retries a dropped stream, then gives up) since it last
   * closed, or since the session began if none opened yet, while the session is open: how many, their distinct statuses
   * (the first MAX_REFUSED_STATUSES; `more` when others came) and the seqs of the first and last answers. Bounded: a
   * client retrying a 503 for ever grows nothing.
   */
  refusedGets: RefusedGets | undefined = undefined;
  /** Negotiated protocol version. */
  version: string | undefined;
  /** What its requests said in MCP-Protocol-Version (the latest): its version when no initialize of it was seen. */
  headerVersion: string | undefined;
  /**
   * The key of the earlier session with the same id on the same endpoint that this one resumes: a reloaded page that
   * reused its stored Mcp-Session-Id (no initialize — on purpose, not a capture that began late).
   */
  resumedFrom: string | undefined;
  /** Listen only. */
  listenId: RequestId | undefined;
  /**
   * Listen only: the connection its request went on and its stream is the answer of (a 2026 listen is a POST of its
   * own), whose messages are this listen's; undefined when that connection carries other things too (a WebSocket).
   */
  conn: string | undefined;
  requested: string[] | undefined;
  acked = false;
  /** Listen only: the client's resubscribing run's generation this listen is a step of (WorkRun.awaiting), until acknowledged. */
  resubscribeGen: number | undefined = undefined;
  /**
   * Session only: its URIs whose resubscribe (a step of the client's resubscribing run, UriState.resubscribeGen) was
   * sent on it and is not answered yet. When it ends, no answer is coming: endLedger tells the run so at once, as for a
   * listen's, rather than leave the run waiting up to ANSWER_CAP_MS (a review, 2026-12-05).
   */
  resubscribesAwaiting: UriState[] | undefined = undefined;
  /** The client re-initialized but this session's GET stream is still open: the server keeps delivering on it. */
  abandoned = false;
  /**
   * Legacy HTTP+SSE: a session the client's stream reconnected to by itself (a new `endpoint` event after the old
   * stream closed) and that has not been initialized since.
   */
  uninitialized = false;

  constructor(
    readonly key: string,
    /** What the views show: the session id or the listen id. */
    readonly label: string,
    readonly kind: 'session' | 'listen',
    readonly client: ClientModel,
    readonly transport: Transport,
    readonly generation: Generation,
    readonly startT: number,
    readonly startSeq: number,
    readonly observedFromStart: boolean,
  ) {}

  /**
   * How a finding's detail names it, as the views do: the session id, a listen as `listen <request id>` (its label alone,
   * `3`, reads as any number in a sentence: "3 ended (dropped) at seq 28").
   */
  get named(): string {
    return this.kind === 'listen' ? `listen ${this.label}` : this.label;
  }

  /** Its delivery channels are `n` now, at `t` (an open, a close, or the count a new session finds). */
  setChannels(n: number, t: number): void {
    if (n > 0 && this.channels === 0) this.channelOpenSince = t;
    else if (n === 0 && this.channels > 0) {
      this.channelOpenSince = NaN;
      this.channelDownT = t;
    }
    this.channels = n;
  }

  /** Able to hold subscriptions right now (a listen only after its acknowledgement). */
  get live(): boolean {
    return this.open && (this.kind === 'session' || this.acked);
  }
}

/** `u`'s subscribe just sent is a step of its client's resubscribing run of generation `gen`, sent on `l` (if known). */
export function awaitResubscribe(u: UriState, gen: number, l: SubscriptionLedger | undefined): void {
  unlistResubscribe(u);
  u.resubscribeGen = gen;
  if (!l) return;
  const list = (l.resubscribesAwaiting ??= []);
  u.resubscribeOn = l;
  u.resubscribeSlot = list.length;
  list.push(u);
}

/** `u`'s resubscribe ended (answered or not): the run's generation it was a step of, for WorkRun.answered, if any. */
export function takeResubscribe(u: UriState): number | undefined {
  const gen = u.resubscribeGen;
  u.resubscribeGen = undefined;
  unlistResubscribe(u);
  return gen;
}

/** Off its session's list of resubscribes awaiting an answer (swap with the last: O(1)). */
function unlistResubscribe(u: UriState): void {
  const l = u.resubscribeOn;
  if (!l) return;
  const list = l.resubscribesAwaiting!;
  const last = list.pop()!;
  if (last !== u) {
    list[u.resubscribeSlot] = last;
    last.resubscribeSlot = u.resubscribeSlot;
  }
  u.resubscribeOn = undefined;
  u.resubscribeSlot = -1;
}
