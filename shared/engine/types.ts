// The engine's public shapes: options, and the snapshot the views render (plain, immutable data). Internal model
// classes live in client-model.ts, uri-state.ts and ledger.ts.
import type { DecodedMessage, Generation, Transport } from '../decode/types.ts';
import type { Finding, FindingId, Severity } from '../findings/types.ts';
import type { FlowStep, NodeId } from '../flow/index.ts';
import type { Metrics } from '../metrics.ts';
import type { MessageList } from './message-list.ts';

export interface FreshnessRule {
  /** Glob over the URI: `*` matches within a path segment, `**` across segments, `?` one character. */
  pattern: string;
  maxAgeMs: number;
}

export interface EngineOptions {
  freshnessRules?: FreshnessRule[];
  /** Expected freshness when nothing else says (default 10 minutes). */
  defaultMaxAgeMs?: number;
  /**
   * Grace before timing-dependent findings fire: a notification not followed by a read, an expired session not
   * re-initialized, a condition (cached but not subscribed…) that might still be fixed by the next message. Default 2 s.
   */
  graceMs?: number;
  /**
   * Keep every decoded message for views (the panel's message list, detail drawer, timeline). Default true. The
   * background's badge engine passes false: it only needs findings, and a store that keeps each message's text would
   * grow with every frame of a long-lived page (the log on disk is capped; this memory was not).
   */
  retainMessages?: boolean;
}

export const DEFAULT_MAX_AGE_MS = 10 * 60_000;
export const DEFAULT_GRACE_MS = 2_000;

export type FreshnessSource = 'rule' | 'ttl' | 'learned' | 'default';

/** Why a session or listen stream ended. */
export type EndCause =
  | 're-initialize'
  | 'http-404'
  | 'http-400'
  | 'delete'
  | 'unload'
  | 'transport-closed'
  | 'graceful-close'
  | 'dropped'
  | 'client-close'
  | 'server-cancel'
  | 'listen-error';

export interface UriRow {
  /** Stable row key: client + URI. */
  key: string;
  uri: string;
  endpoint: string;
  doc: string;
  cached: boolean;
  cacheReadAt?: number;
  cacheAgeMs?: number;
  contentHash?: string;
  /** UTF-8 bytes of the cached content. */
  size?: number;
  /**
   * The cached content's lastModified, from the answer of the read that wrote it (none when that answer had none); for
   * a URI only listed, the list's.
   */
  lastModified?: string;
  /**
   * The lastModified the latest resources/list gave (the server's version as it answered, which may be newer than the
   * cache's: a list is not a read), and when that list was answered.
   */
  listedLastModified?: string;
  listedAt?: number;
  ttlMs?: number;
  cacheScope?: string;
  /** Seen in a resources/list answer (that alone does not make it cached). */
  listed: boolean;
  clientBelievesSubscribed: boolean;
  serverHasSubscription: boolean;
  deliveryChannelOpen: boolean;
  /** Session ids / listen ids that hold the subscription now. */
  heldBy: string[];
  lastNotifyT?: number;
  /** When the last resources/read for it was sent. */
  lastReadT?: number;
  /** That read failed (an error answer, an answer the client refuses, no answer): why, in a few words. */
  lastReadFailed?: string;
  readsInFlight: number;
  notifications: number;
  expectedMaxAgeMs: number;
  expectedMaxAgeSource: FreshnessSource;
  /** expectedMaxAgeSource 'rule': the pattern of the freshness rule that matched (the first matching one). */
  expectedMaxAgeRule?: string;
  /**
   * The bound its cache age is judged by now (findings/refresh.ts ageBound): the expected one, but the default rather
   * than a shorter learned cadence while it is held with a delivery channel open. Compare ages against this, not
   * expectedMaxAgeMs (which is for display).
   */
  ageLimitMs: number;
  ageLimitSource: FreshnessSource;
  findings: FindingId[];
  /** Worst severity among its findings, or 'ok'. */
  status: Severity | 'ok';
  flowNode?: NodeId;
}

/** A session (2025: Mcp-Session-Id, legacy sessionId, WebSocket) or a 2026 listen stream: one server-side subscription set. */
export interface SessionView {
  key: string;
  /** What to show: the session id, or the listen request id. URI rows' `heldBy` use it. */
  label: string;
  kind: 'session' | 'listen';
  endpoint: string;
  doc: string;
  transport: Transport;
  generation: Generation;
  /** The version its initialize negotiated; without one in the log, what its requests' MCP-Protocol-Version says (versionFromHeader). */
  version?: string;
  /** `version` is read from the MCP-Protocol-Version request header (no initialize of this session was seen). */
  versionFromHeader?: true;
  /**
   * The key of the earlier session (same id, same endpoint, ended) this one resumes: a reloaded page reused its stored
   * Mcp-Session-Id and sent no initialize, on purpose. Also `observedFromStart: false` (its start is not in the log).
   */
  resumedFrom?: string;
  startT: number;
  startSeq: number;
  open: boolean;
  endT?: number;
  endSeq?: number;
  endCause?: EndCause;
  /**
   * URIs the server holds for it in their own right (acknowledged subscriptions); for an ended one, what it held when
   * it ended. Sub-resources covered through a subscribed parent are not among them (coveredViaParent): the metric
   * "Subscribed URIs per session" counts these.
   */
  subscriptions: string[];
  /** Sub-resources the server notified under a parent this session holds, as [child, parent]: held through the parent. */
  coveredViaParent?: Array<[string, string]>;
  /** Listen only: what the client asked for. */
  requested?: string[];
  /**
   * Listen only: the connection of its request, whose answer is its stream — the listen's messages (its request, the
   * acknowledgement, the notifications, its end) are that connection's. The Messages view and the drawer name them by
   * it: its request id alone is not the listen's (a new client reuses `listen:1`; this one may be `listen:1 #2`).
   */
  conn?: string;
  deliveryChannelOpen: boolean;
  /** Seen from its start (initialize / listen request) rather than picked up mid-way. */
  observedFromStart: boolean;
  /** Legacy HTTP+SSE: the client's stream reconnected to this new session by itself and no initialize followed (yet). */
  notInitialized?: true;
}

/** A long-lived delivery channel: a session's GET stream, a listen stream, a legacy SSE stream, a WebSocket. */
export interface StreamView {
  stream: string;
  kind: 'get' | 'listen' | 'sse' | 'ws';
  endpoint: string;
  /** The session it delivers for, by its key (SessionView.key: the session id, `<id> #2` for a later session with the same id); for a listen stream, its listen's key. */
  session?: string;
  openT: number;
  openSeq: number;
  open: boolean;
  closeT?: number;
  closeSeq?: number;
  outcome?: 'complete' | 'aborted' | 'failed';
}

export interface ClientView {
  key: string;
  doc: string;
  endpoint: string;
  transport: Transport;
  generation: Generation;
  version?: string;
  /** Server capability resources.subscribe, when the server said. */
  serverSubscribe?: boolean;
  currentSession?: string;
  /** The page that ran it unloaded. */
  ended: boolean;
  /** Its document's URL and whether it is the tab's top-level page (absent when its page-start is not in view). */
  page?: { url: string; top: boolean };
}

export interface FlowSnapshot {
  /** Count per edge index (see EDGES), all URIs together. */
  edgeCounts: number[];
  /** Every node any URI ever reached (ended pages' URIs too, as the counts). */
  reached: NodeId[];
  /** Per URI: its current node, counts, last steps and every node it ever reached (the path keeps only the last 64 steps). */
  perUri: Record<string, { node?: NodeId; edgeCounts: number[]; path: FlowStep[]; reached: NodeId[] }>;
}

export interface EngineSnapshot {
  now: number;
  frames: number;
  lastSeq: number;
  lastT?: number;
  clients: ClientView[];
  sessions: SessionView[];
  streams: StreamView[];
  /**
   * When older closed streams were left out of `streams` (only the latest are kept): the close time of the oldest one
   * kept. Before it, a session's channels are not known from `streams` (no channel there is no gap).
   */
  streamsKnownFrom?: number;
  uris: UriRow[];
  findings: Finding[];
  flow: FlowSnapshot;
  metrics: Metrics;
  messages: MessageList;
}

export type { DecodedMessage };
