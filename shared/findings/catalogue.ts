// The finding catalogue: id → title, default severity, explanation and fix, in plain words drawn from the seed
// (DESIGN §1). docs/findings.md is checked against this table by a unit test, so the two cannot drift.
import type { CoverageReason, FindingId, PhantomReason, ResumeReason, Severity } from './types.ts';

export interface CatalogueEntry {
  id: FindingId;
  title: string;
  severity: Severity;
  /** The seed chart node this finding reaches or sits at (see shared/flow/chart.ts). */
  node?: string;
  explanation: string;
  fix: string;
}

export interface ReasonEntry {
  label: string;
  severity: Severity;
  explanation: string;
  /** A fix of its own, instead of the finding's (a phantom the server no longer offers subscriptions for). */
  fix?: string;
  /** The findings' detail already says it in words: a list's Detail column shows the detail alone. */
  inDetail?: true;
  /** A title of its own: the finding's explanation is then this entry's alone (the finding's would not fit it). */
  title?: string;
}

/**
 * The end of each fix that says to read a URI again: @modelcontextprotocol/client 2.x's readResource() answers from
 * its response cache while the last answer's ttlMs lasts (cacheMode 'use', the default), so a plain call reads nothing
 * again. (A notifications/resources/updated evicts its URI, so a plain re-read after one does fetch: notified-not-reread
 * needs no such words.)
 */
const SDK_REFRESH = " With the 2.x SDK client, read again with readResource(params, { cacheMode: 'refresh' }): a plain call answers from its cache while the last answer's ttlMs lasts.";

export const CATALOGUE: Record<FindingId, CatalogueEntry> = {
  'cached-not-subscribed': {
    id: 'cached-not-subscribed',
    title: 'Cached, but nobody is subscribed',
    severity: 'warning',
    explanation:
      'The client holds this resource in its cache, but no live session or listen stream on the server subscribes to it. ' +
      'When the resource changes, the server finds no subscriber and sends nothing; the client keeps serving the old content ' +
      'without any signal. The subscription set must equal the cache-key set.',
    fix:
      'Subscribe to every URI you cache, in the current session: after every initialize (or re-listen), resubscribe the whole ' +
      'cache-key set. Subscribe to the concrete URI, not a parent. Keep a slow fallback read of key resources.',
  },
  'phantom-subscription': {
    id: 'phantom-subscription',
    title: 'Client believes it is subscribed; the server has no record',
    severity: 'error',
    node: 'Q',
    explanation:
      'The client subscribed in an earlier session or listen stream and never unsubscribed, so it thinks notifications will come. ' +
      'That session is gone (HTTP 404, server restart, a dropped listen stream), or was left behind by a re-initialize (the server ' +
      'may keep it until it expires it, but nothing sent on it reaches the client), and subscriptions are not restored ' +
      'automatically. No error appears anywhere; the cache just goes stale after the reconnect.',
    fix:
      'Treat every new session as empty: after initialize (2025) or when a listen stream ends (2026), send resources/subscribe ' +
      '(or a new subscriptions/listen) for every URI you still cache.',
  },
  'no-delivery-channel': {
    id: 'no-delivery-channel',
    title: 'Subscribed, but no channel can deliver the notification',
    severity: 'error',
    node: 'K',
    explanation:
      'The server holds the subscription, but the session has no open stream for messages that are not answers to a request: ' +
      'the standalone GET stream was never opened, was refused (405), or dropped and the client gave up reconnecting. ' +
      'The server drops (or only stores) notifications it cannot deliver, so updates are lost silently.',
    fix:
      'Keep the GET stream open for the life of the session and reconnect it without a retry limit (the SDK stops after ' +
      'maxRetries, default 2). If the server refuses GET, poll the resources you cache instead of relying on notifications.',
  },
  'notified-not-reread': {
    id: 'notified-not-reread',
    title: 'Notified, but the client never re-read',
    severity: 'warning',
    node: 'K',
    explanation:
      'notifications/resources/updated only says "read again"; it carries no content and no version. The client received it ' +
      'for a cached URI but did not read it again afterwards (within the grace period), or the re-read failed (an error, ' +
      'an answer the client refused, no answer) and was not retried, so the cache still holds the old content. Typical ' +
      'cause: the handler only marks the entry dirty and the read path prefers cached values.',
    fix: 'On every updated notification for a cached URI, call resources/read for it and replace the cached value; retry a re-read that fails.',
  },
  'stale-overwrite': {
    id: 'stale-overwrite',
    title: 'An older read overwrote a newer one',
    severity: 'error',
    node: 'M',
    explanation:
      'Two reads of the same URI were in flight (for example after two quick notifications) and their responses arrived out ' +
      'of order: the read sent first answered last, with different content. A client that writes responses in arrival order ' +
      'ends on the older version.',
    fix:
      'Number reads per URI and ignore a response older than the one already cached, or compare annotations.lastModified ' +
      '(coarse: server clock) before overwriting; or serialize reads per URI.',
  },
  'cache-age-exceeded': {
    id: 'cache-age-exceeded',
    title: 'Cache older than expected',
    severity: 'warning',
    explanation:
      'Cache age is the most direct signal of a stale read: this entry is older than its expected freshness (a rule you set, ' +
      'the server\'s ttlMs, or the learned update cadence of this URI). Either it really did not change, or the notification ' +
      'chain broke.',
    fix:
      'Re-read it now to check. If it changed, follow the other findings for this URI to see where the chain broke; respect ' +
      'ttlMs; keep a low-frequency full check of key resources.' +
      SDK_REFRESH,
  },
  'missed-update': {
    id: 'missed-update',
    title: 'The content changed, but no notification came',
    severity: 'warning',
    node: 'K',
    explanation:
      'While the URI was subscribed, a later read returned different content, and no notifications/resources/updated for it ' +
      'arrived in between. The notification was never sent or was lost on the way (notifications are one-way and ' +
      'unacknowledged; one sent while a connection dies is gone). A subscription that lapsed after the read and was made ' +
      'again does not count: the change may have come while nothing was subscribed, and the read is the catch-up.',
    fix:
      'Check that the server notifies every change and that the delivery stream stayed up; keep a periodic version check ' +
      '(lastModified) so lost notifications are detected.',
  },
  'resume-gap': {
    id: 'resume-gap',
    title: 'Stream reconnected without resuming',
    severity: 'warning',
    explanation:
      'An SSE stream that carried event ids ended and the client opened a new one without Last-Event-ID (or with an id it ' +
      'never received). Events the server sent in between are not replayed, so notifications in that window are lost. ' +
      'A GET stream that carried no event ids at all cannot be resumed by any client: that gap is only noted (info). ' +
      'Each URI the session held and had cached before the gap gets its own finding, open until the client reads it ' +
      'again: its cache may be stale, and nothing else shows it (the subscription itself never lapsed).',
    fix:
      'Reconnect with the Last-Event-ID of the last event received on that stream (the SDK does this via resumptionToken). ' +
      'When the server sends no event ids, give it an event store (the SDK: eventStore) and have it prime each stream ' +
      'with an event id (SEP-1699). Either way, re-read the subscribed URIs you cache when a stream comes back without ' +
      'resuming, and after subscribing again.' +
      SDK_REFRESH,
  },
  'session-expired-not-reinitialized': {
    id: 'session-expired-not-reinitialized',
    title: 'Session expired and the client did not re-initialize',
    severity: 'error',
    explanation:
      'The server answered HTTP 404 (server-everything: 400) for this session id: the session is gone, for example after a ' +
      'server restart. The client must start a new session with initialize, without the old id; it did not, so every request ' +
      'fails and nothing is subscribed. On the legacy HTTP+SSE transport the same happens without an error: the stream ' +
      'reconnects by itself (an EventSource does), the server gives it a new session, and the client posts to it without ' +
      'initializing — a strict server refuses that, and the new session holds no subscription.',
    fix:
      'On 404 for a session id, drop the id, run initialize again and resubscribe every cached URI (the SDK does not do this ' +
      'automatically). On legacy HTTP+SSE, treat a new endpoint event (or the stream\'s error) as a reconnect: initialize ' +
      'on the new session and resubscribe (the SDK\'s SSEClientTransport just follows the new endpoint).',
  },
  'subscribe-unsupported': {
    id: 'subscribe-unsupported',
    title: 'Subscribe without the server\'s capability',
    severity: 'warning',
    explanation:
      'The client sent resources/subscribe (or a listen with resourceSubscriptions) although the server did not advertise ' +
      'resources.subscribe, or the server rejected the method. No notification will ever come for these URIs.',
    fix: 'Check capabilities.resources.subscribe at initialize (or server/discover) and poll instead when it is absent.',
  },
  'unsolicited-update': {
    id: 'unsolicited-update',
    title: 'Update for a URI this session did not subscribe to',
    severity: 'info',
    explanation:
      'The server sent notifications/resources/updated for a URI that, as far as the observed traffic shows, this session or ' +
      'listen stream does not subscribe to. Either the server keeps state the client does not know about, or the client and ' +
      'server disagree about the subscription set.',
    fix: 'Compare the server\'s subscription set for the session with what the client sent; unsubscribe cleanly.',
  },
  'protocol-header-missing': {
    id: 'protocol-header-missing',
    title: 'MCP protocol header missing or wrong',
    severity: 'warning',
    explanation:
      'On HTTP, every request after initialization must carry the negotiated MCP-Protocol-Version (2025-06-18 and later; on ' +
      '2026-07-28 also Mcp-Method, and Mcp-Name mirroring the body\'s tool or prompt name, resource URI or task id). Without ' +
      'it a 2025 server assumes 2025-03-26, and behaviour can differ from what was negotiated; a 2026-07-28 server refuses ' +
      'the request (HTTP 400).',
    fix: 'Send the negotiated version in MCP-Protocol-Version on every request (and on 2026-07-28 Mcp-Method, and Mcp-Name ' +
      'with the same value as params.name, params.uri or params.taskId, base64-encoded as =?base64?…?= when it is not plain ASCII).',
  },
  'version-regression': {
    id: 'version-regression',
    title: 'Protocol version went down on reconnect',
    severity: 'warning',
    explanation:
      'A later session on the same endpoint negotiated an older protocol version than an earlier one. Features of the newer ' +
      'revision (and their subscription semantics) silently disappear after the reconnect.',
    fix: 'Pin the protocol version you depend on and make reconnects negotiate the same one; check which server answered.',
  },
};

/** The sub-cases of cached-not-subscribed, each with its own severity. */
export const COVERAGE_REASONS: Record<CoverageReason, ReasonEntry> = {
  'never-subscribed': {
    label: 'never subscribed',
    severity: 'warning',
    explanation:
      'The client read this URI but never sent resources/subscribe (or a listen) for it. A client that polls instead — ' +
      'reads it again within its declared freshness (your rule, the server\'s ttlMs) — gets only a note (info) while it ' +
      'keeps doing so: the warning returns once the cache outlives that bound without a re-read.',
  },
  'lost-on-reinit': {
    label: 'lost when its session ended',
    severity: 'error',
    explanation: 'It was subscribed in a session that ended (re-initialize, 404, DELETE, unload, its legacy stream or WebSocket closed), and no live session has subscribed it since: ' +
      'the client re-initialized without subscribing again, or has not re-initialized yet.',
  },
  'lost-with-stream': {
    label: 'lost with the listen stream',
    severity: 'error',
    explanation: 'It was subscribed on a listen stream that ended; no new listen covers it.',
  },
  unsubscribed: {
    label: 'unsubscribed',
    severity: 'warning',
    explanation:
      'The client unsubscribed (or closed its listen stream) but kept the cached content: from then on nothing tells it ' +
      'the resource changed. Nothing on the wire says a cache entry was dropped, so this stays open while the traffic ' +
      'shows the URI cached — until it is subscribed again, or a read finds the resource gone.',
    fix:
      'Unsubscribing ends the notifications, not the cache: when you unsubscribe a URI, drop its cache entry too (its ' +
      'next use reads it afresh). If you still use it, subscribe again, or re-read it whenever you use it.',
  },
  'dropped-on-relisten': {
    label: 'dropped on re-listen',
    severity: 'warning',
    explanation: 'After its listen stream ended the client opened a new listen without this URI.',
  },
  'subscribe-failed': {
    label: 'subscribe failed',
    severity: 'warning',
    explanation: 'The subscribe request failed (error response or transport failure) and was not retried.',
  },
  'parent-only': {
    label: 'only a parent URI subscribed',
    severity: 'warning',
    explanation:
      'A directory-like or schema URI near it, or a pattern (file:///docs/*, a URI template), is subscribed, but subscriptions are per concrete URI: a server may notify sub-resources of what was subscribed, but need not, and none of this server\'s updates for this URI came (once one does, the URI counts as covered); servers match patterns literally.',
  },
  'refused-in-ack': {
    label: 'refused in the listen acknowledgement',
    severity: 'warning',
    explanation: 'The client asked for it in subscriptions/listen, but notifications/subscriptions/acknowledged left it out.',
  },
  'not-seen-subscribing': {
    label: 'not seen subscribing (the capture began mid-session)',
    severity: 'info',
    explanation:
      'The capture began in the middle of this session (its initialize was not seen: after Clear, or when the log dropped its oldest frames), so a subscribe sent before that would not show. Reload the page with devtools open to see the whole session.',
  },
};

/**
 * The sub-cases of phantom-subscription, each with its own severity and advice. Without one it is the catalogue's error:
 * the server offers subscriptions and the client did not send them again.
 */
export const PHANTOM_REASONS: Record<PhantomReason, ReasonEntry & { fix: string }> = {
  'subscribe-not-offered': {
    label: 'the server no longer offers subscriptions',
    severity: 'info',
    explanation:
      'The current session\'s server does not advertise resources.subscribe (the client re-initialized onto a server ' +
      'without it), so no subscription can be made again: polling is all it allows, as for cached-not-subscribed.',
    fix:
      'Check capabilities.resources.subscribe at every initialize (or server/discover): when it is absent, forget the ' +
      'old subscriptions and poll (re-read) the URIs you cache at the freshness you need; subscribe again only once a ' +
      'server advertises it.' +
      SDK_REFRESH,
  },
};

/**
 * The sub-cases of resume-gap: how the stream came back (said of the session, and of each URI it left in doubt), and
 * a subscription lost and made again (said of the URI only).
 */
export const RESUME_REASONS: Record<ResumeReason, ReasonEntry> = {
  'no-last-event-id': {
    label: 'reconnected without Last-Event-ID',
    severity: 'warning',
    inDetail: true,
    explanation: 'The client could have resumed: the stream carried event ids.',
  },
  'unknown-last-event-id': {
    label: 'reconnected with an id never received',
    severity: 'warning',
    inDetail: true,
    explanation: 'The id the client sent is not the last one it received on that stream, so the server replays from the wrong place, or nothing.',
  },
  'no-event-ids': {
    label: 'the stream carried no event ids',
    severity: 'info',
    inDetail: true,
    explanation:
      'No client could have resumed: the server sent no event ids on the stream (it keeps no event store, or does not ' +
      'prime its GET stream with an id, as the SDK v1 server does not).',
    fix:
      'Give the server an event store and have it prime each stream with an event id (SEP-1699), so clients can resume; ' +
      'until then, read the subscribed URIs you cache again when the stream comes back.' +
      SDK_REFRESH,
  },
  'subscription-lapsed': {
    label: 'subscribed again, not read again',
    title: 'Subscribed again, but not read again',
    severity: 'info',
    inDetail: true,
    explanation:
      'This URI\'s subscription ended after it was read (the server lost it when its session ended or its listen stream ' +
      'dropped; or the client unsubscribed, closed its listen, left it out of a new listen) and the client made it ' +
      'again, but has not read the URI since: any update in between was announced to nobody, so its cache may be stale.',
    fix:
      'After every initialize or re-listen, subscribe to every cached URI again and then read each of them again (or ' +
      'compare the lastModified resources/list gives with the cached one), so what changed while nothing was subscribed ' +
      'is caught up.' +
      SDK_REFRESH,
  },
  'lapse-reread-late': {
    label: 'subscribed again, read again late',
    title: 'Subscribed again, but read again only late',
    severity: 'info',
    inDetail: true,
    explanation:
      'This URI\'s subscription ended after it was read (the server lost it when its session ended or its listen stream ' +
      'dropped; or the client unsubscribed, closed its listen, left it out of a new listen) and the client made it ' +
      'again, but read the URI again only past the grace after that (the detail says how many ms): an update made ' +
      'while nothing was subscribed was announced to nobody, so until that late read the cache could have been stale, ' +
      'and shown as current.',
    fix:
      'Read each cached URI again right after subscribing to it again (after every initialize or re-listen), not on a ' +
      'later trigger, or compare the lastModified resources/list gives with the cached one, so what changed while ' +
      'nothing was subscribed is caught up at once.' +
      SDK_REFRESH,
  },
  'lapse-caught-up': {
    label: 'changed while unsubscribed, caught up by the re-read',
    title: 'An update was missed while unsubscribed; the re-read caught it up',
    severity: 'info',
    inDetail: true,
    explanation:
      'This URI\'s subscription ended after it was read (the server lost it when its session ended or its listen stream ' +
      'dropped; or the client unsubscribed, closed its listen, left it out of a new listen). The client subscribed again ' +
      'and read the URI again promptly, and that read found the content changed: the resource was updated while nothing ' +
      'was subscribed, so no notification was sent for it, and the re-read caught the cache up. This is the recovery ' +
      'working; it is noted so you know the gap held a change.',
    fix:
      'Nothing to fix in the client: keep subscribing again and then reading every cached URI again after each ' +
      'initialize or re-listen. Know that an update made while a URI is not subscribed is never notified: until the ' +
      'catch-up read, the cache is only as fresh as its last read.',
  },
};

export const FINDING_IDS = Object.keys(CATALOGUE) as FindingId[];

/** The catalogue's entry for a finding's reason (cached-not-subscribed's, phantom-subscription's, resume-gap's), or undefined. */
export function reasonEntry(id: FindingId, reason: string | undefined): ReasonEntry | undefined {
  if (reason === undefined) return undefined;
  if (id === 'cached-not-subscribed' && reason in COVERAGE_REASONS) return COVERAGE_REASONS[reason as CoverageReason];
  if (id === 'phantom-subscription' && reason in PHANTOM_REASONS) return PHANTOM_REASONS[reason as PhantomReason];
  if (id === 'resume-gap' && reason in RESUME_REASONS) return RESUME_REASONS[reason as ResumeReason];
  return undefined;
}
