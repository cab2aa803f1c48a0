// The seed's scenarios as data: for each, the protocol generation, the client switches (which client bug), the server
// faults, a scripted sequence of steps, what the client must be seen doing (`expect` steps), and the findings the
// devtools engine is expected to produce. Played by the demo page itself (?scenario=<name>), listed by `npm start -- --list`,
// and looped over by the tests. Pure data and types (FindingId from shared/); no DOM, no Node.
import type { FindingId } from '../shared/findings/types.ts';
import type { NodeId } from '../shared/flow/chart.ts';
import type { FlowJumpReason } from '../shared/flow/flow-tracker.ts';
import type { FaultsPatch } from './server/faults.ts';
import type { ClientSwitches, ConnectionSettings } from './client/switches.ts';

/** Every finding id of the engine (DESIGN §6), as a runtime list for the tests; the type comes from shared/. */
export const FINDING_IDS = [
  'cached-not-subscribed',
  'phantom-subscription',
  'no-delivery-channel',
  'notified-not-reread',
  'stale-overwrite',
  'cache-age-exceeded',
  'missed-update',
  'resume-gap',
  'session-expired-not-reinitialized',
  'subscribe-unsupported',
  'unsolicited-update',
  'protocol-header-missing',
  'version-regression',
] as const satisfies readonly FindingId[];
// Fails to compile when the engine gains an id this list lacks.
const ALL_IDS_LISTED: Exclude<FindingId, (typeof FINDING_IDS)[number]> extends never ? true : never = true;
void ALL_IDS_LISTED;

export const POLICY = 'file:///docs/policy.md';
export const ONBOARDING = 'file:///docs/onboarding.md';
export const SCHEMA = 'postgres://kb/articles/schema';
export const ARTICLE_101 = 'postgres://kb/articles/101';

export type ScenarioStep =
  /** Read into the cache and subscribe (to the URI or its parent, per the switches). */
  | { do: 'open'; uri: string }
  /** Read through the cache (an unexpired entry is served without a request). `fromCache` is checked when given. */
  | { do: 'show'; uri: string; fromCache?: boolean }
  /** A forced resources/read (the seed's low-frequency fallback check). */
  | { do: 'refresh'; uri: string }
  /** Admin: edit a resource `times` times, `gapMs` apart (the server notifies subscribers). */
  | { do: 'edit'; uri: string; times?: number; gapMs?: number }
  /** The app's reconnect button: end the session, new transport, initialize. */
  | { do: 'reconnect' }
  /** Admin: restart the server (every session / listen stream dropped). */
  | { do: 'restart' }
  /** Admin: close every GET / listen stream without ending sessions. */
  | { do: 'drop-streams' }
  /** Admin: change fault switches mid-scenario. */
  | { do: 'faults'; set: FaultsPatch }
  | { do: 'wait'; ms: number }
  /** Until the client connects again (a re-initialize after the session expired), or timeout. */
  | { do: 'wait-for-reconnect'; timeoutMs?: number }
  /** Until the client sees its session expire (a 404 on a request or on its GET stream's reconnect), or timeout. */
  | { do: 'wait-for-session-expired'; timeoutMs?: number }
  /** Until the server holds a read of `uri` (outOfOrderReads), so the next edit is surely newer than that read's snapshot. */
  | { do: 'wait-for-held-read'; uri: string; timeoutMs?: number }
  /** Until no read is in flight and the client was quiet for `quietMs` (default 300). */
  | { do: 'settle'; quietMs?: number }
  /** The client's cache for `uri` compared with the server's current content ('fresh' is given a few seconds to become true). */
  | { do: 'expect'; uri: string; cache: 'fresh' | 'stale' };

export interface Scenario {
  name: string;
  title: string;
  /** What goes wrong and where in the seed; shown in the page and by --list. */
  story: string;
  connection: ConnectionSettings;
  client: Partial<ClientSwitches>;
  faults: FaultsPatch;
  steps: ScenarioStep[];
  findings: {
    /** Each must be produced. */
    expected: FindingId[];
    /** May also appear (side effects of the same fault) without failing the scenario. */
    allowed?: FindingId[];
  };
  /**
   * Where the seed's flow chart must take `uri` (default: the policy document) in the panel: nodes it reaches and
   * nodes it must never reach. Omitted where the traffic alone does not say (the chart is walked by inference).
   */
  /**
   * Where the chart takes the URI: nodes reached, never reached, and jumps (`L-M`: a path step the chart has no arrow
   * for; `I-K`: one its arrow there does not mean), with `jumpReasons` the reasons those carry (FlowJumpReason, the
   * drawn jumps' `data-jump-reason`; checked when given).
   */
  flow?: { uri?: string; reaches: NodeId[]; never?: NodeId[]; jumps?: string[]; jumpReasons?: FlowJumpReason[] };
}

/** A notification delivered and re-read: the chart's happy path, no failure node. */
const FRESH_PATH = { reaches: ['G', 'I', 'J', 'L'], never: ['H', 'K', 'M', 'Q'] } satisfies Scenario['flow'];

const V1: ConnectionSettings = { generation: '2025-11-25', transport: 'streamable-http' };
const V1_SSE: ConnectionSettings = { generation: '2025-11-25', transport: 'sse' };
const V2: ConnectionSettings = { generation: '2026-07-28', transport: 'streamable-http' };

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'healthy',
    title: 'Healthy client (2025-11-25)',
    story: 'Reads, subscribes to what it caches, re-reads on every notification, resubscribes after a reconnect. Stays fresh.',
    connection: V1,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'open', uri: ARTICLE_101 },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
      { do: 'reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: ARTICLE_101 },
      { do: 'settle' },
      { do: 'expect', uri: ARTICLE_101, cache: 'fresh' },
    ],
    findings: { expected: [] },
    flow: FRESH_PATH,
  },
  {
    name: 'healthy-slow-server',
    title: 'Healthy client, slow server (2025-11-25)',
    story: 'The healthy client against a server that takes 2.5 s to answer each subscribe, past the engine\'s 2 s grace: its resubscribes after a reconnect wait one behind another. The wait is the server\'s latency, not a blind spot: nothing is flagged.',
    connection: V1,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'open', uri: ARTICLE_101 },
      { do: 'faults', set: { slowSubscribesMs: 2500 } },
      // Resolves once both resubscribes are answered, one 2.5 s after the other.
      { do: 'reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: ARTICLE_101 },
      { do: 'settle' },
      { do: 'expect', uri: ARTICLE_101, cache: 'fresh' },
    ],
    findings: { expected: [] },
    flow: { uri: ARTICLE_101, ...FRESH_PATH },
  },
  {
    name: 'healthy-v2',
    title: 'Healthy client (2026-07-28, subscriptions/listen)',
    story: 'Same knowledge base on the 2026-07-28 generation: one listen stream, acknowledged, every update re-read.',
    connection: V2,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'open', uri: ARTICLE_101 },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
      { do: 'reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: ARTICLE_101 },
      { do: 'settle' },
      { do: 'expect', uri: ARTICLE_101, cache: 'fresh' },
    ],
    findings: { expected: [] },
    flow: FRESH_PATH,
  },
  {
    name: 'healthy-sse',
    title: 'Healthy client on the legacy HTTP+SSE transport',
    story: 'The 2024-11-05 transport (GET /sse + POST /message) still delivers updates on the SSE stream.',
    connection: V1_SSE,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: [] },
    flow: FRESH_PATH,
  },
  {
    name: 'reconnect-without-resubscribe',
    title: 'Reconnect without resubscribe',
    story: 'Seed §3: after a reconnect the client re-initializes but never re-sends resources/subscribe. It thinks it is subscribed; the new session has no record; edits are never announced.',
    connection: V1,
    client: { resubscribeAfterInit: false },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['phantom-subscription', 'cached-not-subscribed'] },
    flow: { reaches: ['N', 'O', 'P', 'Q', 'M'] },
  },
  {
    name: 'out-of-order-reads',
    title: 'Concurrent reads answer out of order',
    story: 'Seed §4: two edits in quick succession trigger two reads; the server answers the first one last, and without an ordering guard the older content overwrites the newer.',
    connection: V1,
    client: { readOrderGuard: false },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'faults', set: { outOfOrderReads: true } },
      { do: 'edit', uri: POLICY },
      { do: 'wait-for-held-read', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['stale-overwrite'] },
    flow: { reaches: ['J', 'M'], jumps: ['L-M'] },
  },
  {
    name: 'parent-only',
    title: 'Subscribed to the parent URI only',
    story: 'Seed §2: the client subscribes to file:///docs/ and expects to hear about every document; the listing never changes when a body does.',
    connection: V1,
    client: { subscribeTo: 'parent' },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['cached-not-subscribed'] },
  },
  {
    name: 'notify-no-reread',
    title: 'Notification marks dirty, nothing re-reads',
    story: 'Seed §4: the handler only flags the entry; the read path serves any cached entry and never looks at the flag.',
    connection: V1,
    client: { onNotification: 'mark-dirty' },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'show', uri: POLICY, fromCache: true },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['notified-not-reread'] },
    flow: { reaches: ['G', 'I', 'K', 'M'], jumps: ['I-K'], jumpReasons: ['not-reread'] },
  },
  {
    name: 'server-restart',
    title: 'Server restart, client never re-initializes',
    story: 'Seed §7: a restart drops every session; requests with the old id get 404 and the client keeps using it, serving its old cache.',
    connection: V1,
    client: { reinitOnSessionExpired: false },
    faults: {},
    // The refresh follows the 404 that ends the session (the GET stream's reconnect, ~300 ms after the restart drops it)
    // at once: the chart's "no resubscribe" (Q) is inferred the grace (2 s) after that 404, from where the URI is then
    // (J: the refresh). A fixed wait and a settle put the refresh ~1.1 s after the 404, and a busy machine could push it
    // past the grace (N → Q); sent before the 404 instead, the refresh's own 404 could end the session after it (N → Q).
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'restart' },
      { do: 'edit', uri: POLICY },
      { do: 'wait-for-session-expired' },
      { do: 'refresh', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['session-expired-not-reinitialized', 'phantom-subscription'], allowed: ['cached-not-subscribed', 'no-delivery-channel'] },
    flow: { reaches: ['Q', 'M'], jumps: ['J-Q'] },
  },
  {
    name: 'restart-recovered',
    title: 'Server restart, healthy recovery',
    story: 'The recommended default: on 404 the client initializes a new session, resubscribes every cached key and re-reads them.',
    connection: V1,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'restart' },
      { do: 'wait-for-reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: [], allowed: ['phantom-subscription'] },
    flow: FRESH_PATH,
  },
  {
    name: 'dropped-notifications',
    title: 'Server drops notifications',
    story: 'Seed §1: the update is never sent. Pure subscription cannot tell "unchanged" from "not told"; only the fallback read reveals it.',
    connection: V1,
    client: {},
    faults: { dropNotifications: true },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
      { do: 'refresh', uri: POLICY },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: ['missed-update'] },
    // The GET stream stayed open: K by a jump, I ⇢ K, not the chart's I → K "lost when the connection broke".
    flow: { reaches: ['K'], never: ['M'], jumps: ['I-K'], jumpReasons: ['lost-channel-open'] },
  },
  {
    name: 'no-get-stream',
    title: 'No GET stream (405)',
    story: 'The server refuses the standalone SSE stream; the SDK tolerates 405 silently, and every notification is dropped for lack of a channel.',
    connection: V1,
    client: {},
    faults: { refuseGetStream: true },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['no-delivery-channel'] },
  },
  {
    name: 'stream-resumed',
    title: 'GET stream drops and resumes with Last-Event-ID',
    story: 'The GET stream closes; the SDK reconnects with Last-Event-ID and the server replays the notification sent in the gap. Nothing is lost.',
    connection: V1,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
      { do: 'drop-streams' },
      { do: 'edit', uri: POLICY },
      { do: 'wait', ms: 600 },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: [] },
    flow: FRESH_PATH,
  },
  {
    name: 'resume-gap',
    title: 'GET stream drops; the update in the gap is lost',
    story: 'Seed §3: the stream closes and is reopened without Last-Event-ID (a header allowlist strips it), so the server cannot replay; the notification sent in between is gone.',
    connection: V1,
    client: { resumeWithLastEventId: false },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
      { do: 'drop-streams' },
      { do: 'edit', uri: POLICY },
      { do: 'wait', ms: 600 },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['resume-gap'] },
  },
  {
    name: 'no-subscribe-capability',
    title: 'Server without resources.subscribe',
    story: 'Seed §7: the client never checks the capability, subscribes anyway, ignores the -32601 and believes it is subscribed.',
    connection: V1,
    client: { honorCapabilities: false },
    faults: { noSubscribeCapability: true },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['subscribe-unsupported', 'cached-not-subscribed'] },
  },
  {
    name: 'unsolicited-update',
    title: 'Updates for URIs nobody subscribed to',
    story: 'The server notifies every session about every edit; the client gets updated for a document it never cached or subscribed.',
    connection: V1,
    client: {},
    faults: { notifyUnsubscribed: true },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: ONBOARDING },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: ['unsolicited-update'] },
    // Notified though nobody held it: G is reached by a jump from F, not by F's "yes" (no session subscribed to it).
    flow: { uri: ONBOARDING, reaches: ['E', 'F', 'G'], jumps: ['F-G'] },
  },
  {
    name: 'protocol-header-missing',
    title: 'MCP-Protocol-Version header missing',
    story: 'Seed §7: the client drops the negotiated version header on HTTP; the server silently assumes 2025-03-26.',
    connection: V1,
    client: { sendProtocolHeader: false },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: ['protocol-header-missing'] },
  },
  {
    name: 'version-regression',
    title: 'Protocol version regresses after a restart',
    story: 'A rolled-back server answers the re-initialize with an older protocol version (2025-03-26) than the first session negotiated.',
    connection: V1,
    client: {},
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'faults', set: { downgradeProtocol: '2025-03-26' } },
      { do: 'restart' },
      { do: 'wait-for-reconnect' },
      { do: 'settle' },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: ['version-regression'], allowed: ['phantom-subscription'] },
  },
  {
    name: 'listen-refused',
    title: 'Listen acknowledged without the URIs (2026-07-28)',
    story: 'The server has no resources.subscribe: the acknowledgement honours none of the requested URIs and the stream ends. The client never reads the ack.',
    connection: V2,
    client: { honorCapabilities: false },
    faults: { noSubscribeCapability: true },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['cached-not-subscribed'], allowed: ['subscribe-unsupported', 'no-delivery-channel'] },
  },
  {
    name: 'listen-dropped',
    title: 'Listen stream dropped, never reopened (2026-07-28)',
    story: 'A restart cuts the listen stream without its final response; the client does not listen again and misses every later update.',
    connection: V2,
    client: { relistenOnDrop: false },
    faults: {},
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'restart' },
      { do: 'wait', ms: 300 },
      { do: 'edit', uri: POLICY },
      { do: 'settle' },
      { do: 'expect', uri: POLICY, cache: 'stale' },
    ],
    findings: { expected: ['phantom-subscription', 'cached-not-subscribed'], allowed: ['no-delivery-channel'] },
    // 2026-07-28 has no re-initialize: a listen again would be the reconnect (O → P); none is P —no→ Q.
    flow: { reaches: ['O', 'P', 'Q', 'M'] },
  },
  {
    name: 'ttl-expired',
    title: 'Cache served past ttlMs (2026-07-28)',
    story: 'The server says the result is good for 500 ms (ttlMs); the client keeps serving it from cache long after.',
    connection: V2,
    client: { honorTtl: false },
    faults: { ttlMs: 500 },
    steps: [
      { do: 'open', uri: POLICY },
      { do: 'wait', ms: 1000 },
      { do: 'show', uri: POLICY, fromCache: true },
      { do: 'expect', uri: POLICY, cache: 'fresh' },
    ],
    findings: { expected: ['cache-age-exceeded'] },
  },
];

export const SCENARIO_NAMES: readonly string[] = SCENARIOS.map((s) => s.name);

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
