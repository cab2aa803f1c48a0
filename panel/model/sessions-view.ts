// The sessions view's model: one entry per session (2025) or listen stream (2026) with what the server negotiated
// (version, capabilities read from the initialize answer), its life (start, end and cause), subscriptions and its
// streams; and the seed's metrics as labelled figures. Pure.
import type { ClientView, EngineSnapshot, MessageList, Metrics, SessionView, StreamView } from '../../shared/engine/index.ts';
import { decodedJson, messageAt } from '../../shared/engine/index.ts';
import { rereadJudged } from '../../shared/metrics.ts';
import { formatClock, formatDuration, formatShare, shortId } from './format.ts';
import { sessionIdNamer, sessionIdTitle, sessionLabel, shortSessionName, type SessionIdName } from './session-label.ts';
import { printableText } from '../../shared/printable-text.ts';
import { shortUrl } from './client-tags.ts';
import type { Filter } from './filter.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

/** First message index whose frame seq is ≥ `seq` (messages are in seq order). */
export function messageIndexAtSeq(list: MessageList, seq: number): number {
  let lo = 0;
  let hi = list.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list.store.seqAt(mid) ?? Infinity) < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The messages of frame `seq` in `list`: indexes `[first, end)` (empty when the frame carried none). */
export function messageRangeAtSeq(list: MessageList, seq: number): { first: number; end: number } {
  const first = messageIndexAtSeq(list, seq);
  let end = first;
  while (end < list.count && list.store.seqAt(end) === seq) end++;
  return { first, end };
}

/** Why a legacy session shows "not initialized" (SessionView.notInitialized). */
export const NOT_INITIALIZED = 'the stream reconnected by itself to this new session and the client has not sent initialize on it';

/** `resources.subscribe`, `tools.listChanged`, `prompts` …: the server capabilities in a flat, readable list. */
export function flattenCapabilities(caps: unknown): string[] {
  const out: string[] = [];
  const c = obj(caps);
  if (!c) return out;
  for (const [k, v] of Object.entries(c)) {
    const inner = obj(v);
    const flags = inner ? Object.entries(inner).filter(([, x]) => x === true) : [];
    if (flags.length === 0) out.push(k);
    else for (const [f] of flags) out.push(`${k}.${f}`);
  }
  return out;
}

/** The capabilities of the answer that started the session (initialize result at its start seq), when seen. */
export function sessionCapabilities(list: MessageList, s: SessionView): string[] | undefined {
  if (s.kind !== 'session' || !s.observedFromStart) return undefined;
  for (let i = messageIndexAtSeq(list, s.startSeq); i < list.count; i++) {
    const m = messageAt(list, i);
    if (!m || m.seq !== s.startSeq) break;
    if (m.kind === 'result' && m.method === 'initialize') return flattenCapabilities(obj(obj(decodedJson(m))?.result)?.capabilities);
  }
  return undefined;
}

/**
 * `sessionCapabilities`, worked out once per session of an engine (its message store): the Sessions view and the flow
 * chart's A/B steps ask on every snapshot, and each answer decodes an initialize result.
 */
const CAPS = new WeakMap<object, Map<string, string[] | undefined>>();
export function capabilitiesOf(list: MessageList, s: SessionView): string[] | undefined {
  let map = CAPS.get(list.store);
  if (!map) CAPS.set(list.store, (map = new Map()));
  if (map.has(s.key)) return map.get(s.key);
  const caps = sessionCapabilities(list, s);
  map.set(s.key, caps);
  return caps;
}

export interface SessionEntry {
  key: string;
  label: string;
  session: SessionView;
  client: ClientView | undefined;
  capabilities: string[] | undefined;
  /** Its long-lived streams the snapshot keeps (every open one; closed ones since `streamsKnownFrom`). */
  streams: StreamView[];
  /** The Streams cell: `streams` summed up by kind and outcome (streamsSummary), and whether earlier ones were dropped. */
  streamsText: string;
  durationMs: number;
}

/** Said for a session that began before the oldest closed stream the engine keeps (its earlier ones were dropped). */
export const STREAMS_NOT_KEPT = 'earlier streams not kept';

/**
 * A session's streams summed up by kind, in the order each kind first appears: `get ×31 (1 open, 30 complete)`; a
 * single stream as `get` (open) or `get (complete)`. Bounded whatever the count (SEP-1699 polling opens one a second).
 */
export function streamsSummary(streams: readonly StreamView[]): string {
  const kinds = new Map<string, { n: number; open: number; outcomes: Map<string, number> }>();
  for (const st of streams) {
    let k = kinds.get(st.kind);
    if (!k) kinds.set(st.kind, (k = { n: 0, open: 0, outcomes: new Map() }));
    k.n++;
    if (st.open) k.open++;
    else {
      const o = st.outcome ?? 'closed';
      k.outcomes.set(o, (k.outcomes.get(o) ?? 0) + 1);
    }
  }
  const out: string[] = [];
  for (const [kind, k] of kinds) {
    if (k.n === 1) {
      out.push(k.open ? kind : `${kind} (${[...k.outcomes.keys()][0]})`);
      continue;
    }
    const parts = k.open ? [`${k.open} open`] : [];
    for (const [o, n] of [...k.outcomes].sort((a, b) => b[1] - a[1])) parts.push(`${n} ${o}`);
    out.push(`${kind} ×${k.n} (${parts.join(', ')})`);
  }
  return out.join(', ');
}

/** The session drawer's full list: one line per stream, `get 09:00:01.000 → 09:00:02.000 (complete)`. */
export function sessionStreamLines(streams: readonly StreamView[]): string[] {
  return streams.map((st) => `${st.kind} ${formatClock(st.openT)} → ${st.open ? 'open' : `${formatClock(st.closeT ?? st.openT)} (${st.outcome ?? 'closed'})`}`);
}

/** The session drawer's Streams: every stream of the session the snapshot keeps, one a line (the cell sums them up). */
export function sessionStreamsDetail(snapshot: Pick<EngineSnapshot, 'streams' | 'streamsKnownFrom'>, s: Pick<SessionView, 'key' | 'endpoint' | 'startT'>): string {
  const lines = sessionStreamLines(snapshot.streams.filter((st) => st.session === s.key && st.endpoint === s.endpoint));
  if (snapshot.streamsKnownFrom !== undefined && s.startT < snapshot.streamsKnownFrom) lines.unshift(`(${STREAMS_NOT_KEPT}: the engine keeps the latest closed streams only)`);
  return lines.length ? lines.join('\n') : '(none)';
}

/** The Streams cell of a session: the summary, said to be partial when the session began before the streams kept. */
export function streamsText(s: Pick<SessionView, 'startT'>, streams: readonly StreamView[], streamsKnownFrom: number | undefined): string {
  const summary = streamsSummary(streams);
  if (streamsKnownFrom !== undefined && s.startT < streamsKnownFrom) return summary ? `${STREAMS_NOT_KEPT}; ${summary}` : STREAMS_NOT_KEPT;
  return summary || '—';
}

/** Streams by `<session key> <endpoint>`: indexed once per snapshot, not filtered once per session. */
export function streamsBySession(streams: readonly StreamView[]): Map<string, StreamView[]> {
  const by = new Map<string, StreamView[]>();
  for (const st of streams) {
    if (st.session === undefined) continue;
    const k = `${st.session} ${st.endpoint}`;
    const list = by.get(k);
    if (list) list.push(st);
    else by.set(k, [st]);
  }
  return by;
}

export function sessionEntries(snapshot: Pick<EngineSnapshot, 'sessions' | 'streams' | 'clients' | 'messages' | 'now' | 'streamsKnownFrom'>): SessionEntry[] {
  const clients = new Map(snapshot.clients.map((c) => [`${c.doc} ${c.endpoint}`, c]));
  const streams = streamsBySession(snapshot.streams);
  const name = sessionIdNamer(snapshot.sessions);
  return [...snapshot.sessions]
    .sort((a, b) => b.startT - a.startT)
    .map((s) => {
      const caps = capabilitiesOf(snapshot.messages, s);
      const own = streams.get(`${s.key} ${s.endpoint}`) ?? [];
      return {
        key: s.key,
        label: sessionLabel(s, name),
        session: s,
        client: clients.get(`${s.doc} ${s.endpoint}`),
        capabilities: caps,
        streams: own,
        streamsText: streamsText(s, own, snapshot.streamsKnownFrom),
        durationMs: (s.open ? snapshot.now : (s.endT ?? s.startT)) - s.startT,
      };
    });
}

/**
 * The Subscriptions cell: how many URIs the session holds in its own right — the figure the metric "Subscribed URIs per
 * session" gives — and, in its tooltip, those URIs and the sub-resources covered through a held parent (not counted).
 */
export function subscriptionsCell(s: Pick<SessionView, 'subscriptions' | 'coveredViaParent'>): { count: number; title: string } {
  const covered = coveredLines(s);
  return { count: s.subscriptions.length, title: [...s.subscriptions, ...covered].join('\n') };
}

/**
 * The Channel column: open (green), none (red: a live session with no delivery channel is a real problem), or for an
 * ended session a muted "—" (it has no channel to have: "none" in red read as the same error, a live review 2026-12).
 */
export function channelCell(s: Pick<SessionView, 'open' | 'deliveryChannelOpen'>): { text: string; cls: 'yes' | 'no' | 'muted'; title: string | undefined } {
  if (s.deliveryChannelOpen) return { text: 'open', cls: 'yes', title: undefined };
  if (!s.open) return { text: '—', cls: 'muted', title: 'session ended' };
  return { text: 'none', cls: 'no', title: 'No delivery channel is open' };
}

/** Each sub-resource held through a subscribed parent, as the tooltip lists it (the drawer says the same, each URI a link): `<child> (covered via <parent>)`. */
export function coveredLines(s: Pick<SessionView, 'coveredViaParent'>): string[] {
  return (s.coveredViaParent ?? []).map(([child, parent]) => `${child} (covered via ${parent})`);
}

/** The seed's metrics (DESIGN §1.6) as label / value pairs, server side first; sessions named as the views name them (`name`). */
export function metricRows(m: Metrics, name: SessionIdName = (id) => id): Array<{ group: 'server' | 'client' | 'capture'; label: string; value: string; name: keyof Metrics; title?: string }> {
  const n = (x: number | null): string => (x === null ? '—' : String(Math.round(x * 10) / 10));
  return [
    { group: 'server', name: 'activeSessions', label: 'Active sessions', value: String(m.activeSessions) },
    { group: 'server', name: 'activeListenStreams', label: 'Active listen streams', value: String(m.activeListenStreams) },
    {
      group: 'server',
      name: 'subscribedUrisPerSession',
      label: 'Subscribed URIs per session',
      // One session a line, its id cut as the Sessions grid shows it (the whole ids in the tooltip): full ids in a row
      // made the metrics wider than their column, and the values were cut off (a UX audit).
      // (A name the views give, `WebSocket #2`, is short and whole: cut, it lost its number; a listen's id is cut.)
      // Each name escaped on its own line (printableText): the cell keeps the line breaks between them (multiLine).
      value: m.subscribedUrisPerSession.length ? m.subscribedUrisPerSession.map((s) => `${printableText(shortSessionName(s.session, name, (id) => shortId(id, 8)))}: ${s.uris}`).join('\n') : '—',
      title: m.subscribedUrisPerSession.map((s) => `${sessionIdTitle(s.session, name)}: ${s.uris}`).join('\n'),
    },
    { group: 'server', name: 'notificationsPerMinute', label: 'Updated notifications (per minute)', value: `${m.notifications} (${m.notificationsPerMinute === null ? 'under a minute observed' : `${n(m.notificationsPerMinute)}/min`})` },
    { group: 'server', name: 'updatesDroppedInferred', label: 'Updates with no subscriber (inferred)', value: String(m.updatesDroppedInferred) },
    { group: 'client', name: 'subscribeSuccessRate', label: 'Subscribe success rate', value: `${formatShare(m.subscribeSuccessRate)} (${m.subscribeSucceeded}/${m.subscribeSucceeded + m.subscribeFailed})` },
    { group: 'client', name: 'reconnects', label: 'Reconnects', value: String(m.reconnects) },
    { group: 'client', name: 'resubscribeShare', label: 'Reconnects followed by a full re-sent subscribe', value: `${formatShare(m.resubscribeShare)} (${m.reconnectsResubscribed}/${m.reconnectsToResubscribe})` },
    { group: 'client', name: 'rereadShare', label: 'Notifications followed by a read', value: `${formatShare(m.rereadShare)} (${m.notificationsReread}/${rereadJudged(m)})${m.notificationsPendingReread ? `, ${m.notificationsPendingReread} pending` : ''}` },
    { group: 'client', name: 'averageCacheAgeMs', label: 'Average cache age', value: m.averageCacheAgeMs === null ? '—' : formatDuration(m.averageCacheAgeMs) },
    { group: 'client', name: 'maxCacheAgeMs', label: 'Oldest cache entry', value: m.maxCacheAgeMs === null ? '—' : formatDuration(m.maxCacheAgeMs) },
    { group: 'client', name: 'staleOverwrites', label: 'Stale overwrites', value: String(m.staleOverwrites) },
    { group: 'capture', name: 'messages', label: 'Messages', value: String(m.messages) },
    { group: 'capture', name: 'invalidMessages', label: 'Invalid messages', value: String(m.invalidMessages) },
    { group: 'capture', name: 'captureErrors', label: 'Capture errors', value: String(m.captureErrors) },
    { group: 'capture', name: 'engineErrors', label: 'Engine errors', value: String(m.engineErrors) },
  ];
}

/**
 * The Version cell (`long`: the drawer's): the negotiated version, or — no initialize of the session in the log — what
 * its requests' MCP-Protocol-Version header says, marked so.
 */
export function versionText(s: Pick<SessionView, 'version' | 'versionFromHeader'>, long = false): string {
  if (s.version === undefined) return '—';
  if (!s.versionFromHeader) return s.version;
  return long ? `${s.version} (from the MCP-Protocol-Version request header: no initialize of this session was seen)` : `${s.version} (from header)`;
}

/** After the start time: `*` picked up mid-way, `↻` resumed by the page (no initialize, on purpose). */
export function startMark(s: Pick<SessionView, 'observedFromStart' | 'resumedFrom'>): string {
  return s.resumedFrom !== undefined ? ' ↻' : s.observedFromStart ? '' : ' *';
}

/** The `↻` note: which sessions the page resumed by their stored id (it sent no initialize: nothing was missed). */
export function resumedNote(entries: ReadonlyArray<Pick<SessionEntry, 'session'>>): string {
  const ids = [...new Set(entries.map((e) => e.session.label))];
  return `↻ resumed session ${ids.join(', ')} (no initialize: the page reused the stored id of an earlier session on the same endpoint, so nothing is missing; its version is read from the MCP-Protocol-Version header).`;
}

/** The notes under the Sessions table: rows picked up mid-way (`*`), and rows the page resumed (`↻`). */
export function sessionNotes(entries: ReadonlyArray<Pick<SessionEntry, 'session'>>): Array<{ kind: 'mid-way' | 'resumed'; text: string }> {
  const notes: Array<{ kind: 'mid-way' | 'resumed'; text: string }> = [];
  const midWay = entries.filter((e) => !e.session.observedFromStart && e.session.resumedFrom === undefined);
  if (midWay.length > 0) notes.push({ kind: 'mid-way', text: midWayNote(midWay.map((e) => e.session.kind)) });
  const resumed = entries.filter((e) => e.session.resumedFrom !== undefined);
  if (resumed.length > 0) notes.push({ kind: 'resumed', text: resumedNote(resumed) });
  return notes;
}

/**
 * The note under the Sessions table for rows picked up mid-way (`*`): what they miss (a session its initialize, a 2026
 * listen its subscriptions/listen request) and why it can be missing.
 */
export function midWayNote(kinds: ReadonlyArray<'session' | 'listen'>): string {
  const session = kinds.includes('session');
  const listen = kinds.includes('listen');
  const what = session && listen ? 'initialize (a session) or subscriptions/listen request (a listen)' : listen ? 'subscriptions/listen request' : 'initialize';
  return `* picked up mid-way: its ${what} is not in the log (the page began before the extension was loaded, or Clear or the log cap dropped it). Reload the page to capture from the start.`;
}

/**
 * The client tag a Sessions row shows: not one that only repeats its Endpoint cell (the clients differ by endpoint
 * alone), except while the filter has a `client:` term. That term matches the whole tag, shown or not (as the
 * Resources and Findings views and the timeline's lanes match it for the same client), so then the row shows it: a
 * row the filter kept for a tag it did not show read as a filter gone wrong (a review).
 */
export function sessionRowTag(endpoint: string, tag: string, f: Filter): string {
  return tag === shortUrl(endpoint) && !f.terms.some((t) => t.key === 'client') ? '' : tag;
}
