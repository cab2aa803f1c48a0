// Text rendering of an engine snapshot for the terminal: sessions, the URI table, findings with their explanation and
// fix, and the metrics. Plain text, no colours (CI logs), fixed-width columns. Names as the panel's: a client's tag
// (a `client` column, and `client …` in a finding's where) only when the rows or findings are of more than one client
// (two endpoints, or two documents: a reload), a WebSocket's session as `WebSocket #n`, not its connection id, and a
// 2026 listen as `listen <request id>` (an id that says listen already, the SDK's `listen:0`, as it is) wherever one is
// named (the sessions table, a finding's where, the metrics).
import type { EngineSnapshot, Finding, SessionView, UriRow } from '../shared/engine/index.ts';
import { clientKeyOf, findingClientTag, findingClientTags, snapshotClientTags } from '../panel/model/client-tags.ts';
import { nameSessionsIn, sessionIdNamer, sessionLabel, sessionMention, type SessionIdName } from '../panel/model/session-label.ts';
import type { TraceFileV1 } from '../shared/trace/index.ts';
import { rereadJudged } from '../shared/metrics.ts';
import { sessionNotes, startMark, versionText } from '../panel/model/sessions-view.ts';
import { reasonEntry } from '../shared/findings/catalogue.ts';
import { printable as p } from './printable.ts';

function table(head: string[], cells: string[][]): string {
  // Cells hold what the trace said (URIs, session ids…): one line each, control characters shown as escapes.
  const rows = cells.map((r) => r.map((c) => p(c)));
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(w[i]!))).join('  ').trimEnd();
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

const iso = (t: number | undefined): string => (t === undefined ? '-' : new Date(t).toISOString().replace('T', ' ').replace('Z', ' UTC'));
const age = (ms: number | undefined): string => (ms === undefined ? '-' : ms < 10_000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 1000)}s`);
const yes = (b: boolean): string => (b ? 'yes' : 'no');

function sessionRows(sessions: readonly SessionView[], name: SessionIdName): string[][] {
  return sessions.map((s) => [
    // A listen as the panel's Sessions grid names it (`listen 3`; the SDK's own `listen:0` as it is, not `listen listen:0`).
    // `*` picked up mid-way, `↻` resumed by the page: the notes under the table say what that means, as the panel's.
    (s.kind === 'listen' ? sessionLabel(s) : name(s.label)) + startMark(s),
    s.endpoint,
    `${s.transport}/${s.generation}${s.notInitialized ? ' (not initialized)' : s.version ? ` ${versionText(s)}` : ''}${s.resumedFrom !== undefined ? ` (resumes ${s.resumedFrom})` : ''}`,
    s.open ? 'open' : `ended: ${s.endCause ?? '?'}`,
    yes(s.deliveryChannelOpen),
    [...s.subscriptions, ...(s.coveredViaParent ?? []).map(([child, parent]) => `${child}(via ${parent})`)].join(' ') || '-',
  ]);
}

/** `tags`: the client tags (client-tags.ts), empty for one client: then no client column. */
function uriRows(uris: readonly UriRow[], tags: ReadonlyMap<string, string>): string[][] {
  return uris.map((u) => [
    u.status === 'ok' ? 'ok' : u.status.toUpperCase(),
    u.uri,
    ...(tags.size > 0 ? [tags.get(clientKeyOf(u)) ?? '-'] : []),
    u.cached ? `yes (${age(u.cacheAgeMs)})` : u.listed ? 'listed' : 'no',
    yes(u.clientBelievesSubscribed),
    yes(u.serverHasSubscription),
    yes(u.deliveryChannelOpen),
    `${age(u.expectedMaxAgeMs)} ${u.expectedMaxAgeSource}`,
    u.flowNode ?? '-',
    u.findings.join(', ') || '-',
  ]);
}

function findingText(f: Finding, i: number, tags: ReadonlyMap<string, string>, name: SessionIdName): string {
  const client = findingClientTag(tags, f);
  const where = p([f.uri, client ? `client ${client}` : undefined, f.session ? sessionMention(f.session, name) : undefined].filter(Boolean).join(', '));
  const lines = [
    `${i + 1}. [${f.severity.toUpperCase()}] ${f.id}${reasonText(f)}${f.open ? '' : ' — resolved/past'}: ${f.title}`,
    where ? `   where: ${where}` : '',
    f.detail ? `   detail: ${p(nameSessionsIn(f.detail, name))}` : '',
    `   when: ${iso(f.firstT)} → ${iso(f.lastT)}${f.count > 1 ? ` (${f.count}×)` : ''}; frame seq ${f.evidence.join(', ')}`,
    wrap('   why: ', f.explanation),
    wrap('   fix: ', f.fix),
  ];
  return lines.filter(Boolean).join('\n');
}

/** A finding's reason: its code (for grep and --json) and, when the catalogue names it, its words as the panel shows them. */
function reasonText(f: Finding): string {
  if (!f.reason) return '';
  const label = reasonEntry(f.id, f.reason)?.label;
  // A label that only repeats the code (cached-not-subscribed's `unsubscribed`) is said once.
  return label && label !== f.reason ? ` (${f.reason}: ${label})` : ` (${f.reason})`;
}

/** Prose wrapped at 80 columns under its label (the catalogue's sentences run to 250 characters). */
function wrap(label: string, text: string, width = 80): string {
  const indent = ' '.repeat(label.length);
  const out: string[] = [];
  let line = label;
  for (const word of text.split(/\s+/)) {
    if (line.length > label.length && line.length + 1 + word.length > width) {
      out.push(line);
      line = indent + word;
    } else line += (line.length > label.length ? ' ' : '') + word;
  }
  out.push(line);
  return out.join('\n');
}

/** `settings`: the line that says which analysis settings were used (cli/analyze.ts), under "evaluated at". */
export function renderReport(trace: TraceFileV1, snap: EngineSnapshot, failOn: string, settings?: string): string {
  const out: string[] = [];
  out.push(`trace: ${trace.page.url ? p(trace.page.url) : '(no page URL)'} — ${trace.frames.length} frames, written ${Number.isFinite(Date.parse(trace.createdAt)) ? iso(Date.parse(trace.createdAt)) : p(trace.createdAt)} by ${p(trace.tool.name)} ${p(trace.tool.version)}`);
  if (trace.dropped.frames) out.push(`note: the capture dropped ${trace.dropped.frames} frame(s); the analysis is partial`);
  // Messages the page sent malformed (or forged): refused, never frames, so nothing of the trace is missing for them.
  if (trace.dropped.rejected) out.push(`note: the capture refused ${trace.dropped.rejected} malformed message(s) from the page (not frames: the trace is not partial for them)`);
  // Clear keeps no page-start, and the export names the page by the latest one: a trace exported after it names none.
  if (!trace.page.url) out.push("note: no page URL: the trace holds no page start (exported after the panel's Clear, or the page began before the extension was loaded)");
  out.push(`evaluated at: ${iso(snap.now)}`);
  if (settings) out.push(p(settings));
  const name = sessionIdNamer(snap.sessions);
  out.push('', 'SESSIONS', snap.sessions.length ? table(['session', 'endpoint', 'transport', 'state', 'channel', 'subscriptions'], sessionRows(snap.sessions, name)) : '(none)');
  // The panel's notes under its Sessions table: a session picked up mid-way (its initialize not in the log, its version
  // read from the MCP-Protocol-Version header: `(from header)`), one the page resumed.
  // A note is one line: its session ids are the server's, so a line feed in one is escaped (p) rather than forging a
  // line of the report (the report's final printable keeps newlines).
  for (const note of sessionNotes(snap.sessions.map((session) => ({ session })))) out.push(p(note.text));
  const tags = snapshotClientTags(snap);
  out.push(
    '',
    'URIS',
    snap.uris.length
      ? table(['status', 'uri', ...(tags.size > 0 ? ['client'] : []), 'cached', 'client-believes', 'server-has', 'channel', 'expected', 'node', 'findings'], uriRows(snap.uris, tags))
      : '(none)',
  );
  const findingTags = findingClientTags(snap);
  out.push('', `FINDINGS (${snap.findings.length})`, snap.findings.length ? snap.findings.map((f, i) => findingText(f, i, findingTags, name)).join('\n\n') : '(none)');
  const m = snap.metrics;
  const pct = (x: number | null): string => (x === null ? '-' : `${Math.round(x * 100)}%`);
  out.push(
    '',
    'METRICS',
    table(
      ['metric', 'value'],
      [
        ['active sessions / listen streams', `${m.activeSessions} / ${m.activeListenStreams}`],
        ['updated notifications (per minute)', `${m.notifications} (${m.notificationsPerMinute === null ? 'under a minute observed' : `${m.notificationsPerMinute.toFixed(1)}/min`})`],
        ['updates with no subscriber (inferred)', String(m.updatesDroppedInferred)],
        ['subscribe success rate', `${pct(m.subscribeSuccessRate)} (${m.subscribeSucceeded}/${m.subscribeSucceeded + m.subscribeFailed})`],
        ['reconnects / followed by a full re-sent subscribe', `${m.reconnects} / ${m.reconnectsResubscribed} (${pct(m.resubscribeShare)} of ${m.reconnectsToResubscribe} with something to resubscribe)`],
        ['notifications followed by a read', `${m.notificationsReread}/${rereadJudged(m)} (${pct(m.rereadShare)})${m.notificationsPendingReread ? `, ${m.notificationsPendingReread} pending` : ''}`],
        ['subscribed URIs per live session / listen', m.subscribedUrisPerSession.length ? m.subscribedUrisPerSession.map((s) => `${p(name(s.session))}: ${s.uris}`).join(', ') : '-'],
        ['cached entries / average age / oldest', `${m.cachedEntries} / ${age(m.averageCacheAgeMs ?? undefined)} / ${age(m.maxCacheAgeMs ?? undefined)}`],
        ['reads / stale overwrites', `${m.reads} / ${m.staleOverwrites}`],
        ['messages / invalid / unknown', `${m.messages} / ${m.invalidMessages} / ${m.unknownMessages}`],
        ['capture errors', String(m.captureErrors)],
      ],
    ),
  );
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of snap.findings) counts[f.severity]++;
  out.push('', `${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info; failing on ${failOn}`);
  return out.join('\n') + '\n';
}
