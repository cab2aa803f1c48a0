// The findings view's model: open first, worst first, earliest first (causes before consequences); and which findings a
// filter keeps. Pure.
import type { Finding } from '../../shared/engine/index.ts';
import { SEVERITY_RANK } from '../../shared/findings/types.ts';
import { reasonEntry } from '../../shared/findings/catalogue.ts';
import { clientMatches, STALE_FINDINGS, uriMatches, type Filter } from './filter.ts';
import { nameSessionsIn, sessionIdMatches, sessionIdNamer, type SessionIdName } from './session-label.ts';
import { concernedSession, sessionsMatching, type SessionSpan } from './uri-table.ts';


/** `finding:`, `uri:`, `session:`, `is:error|warning|info|problem|stale|phantom`, free text; other terms do not apply to findings. */
export function findingMatches(f: Finding, filter: Filter, sessions: readonly SessionSpan[] = [], client = ''): boolean {
  for (const t of filter.terms) {
    // undefined: the term says nothing about findings (method:, is:stale…): ignored, negated or not.
    let hit: boolean | undefined;
    if (t.key === 'finding') hit = f.id.includes(t.value);
    else if (t.key === 'client') hit = clientMatches(t.value, client);
    else if (t.key === 'uri') hit = f.uri !== undefined && uriMatches(t.value, f.uri);
    // Its own session, or one its detail names (the session that held a subscription lost on re-initialize), or one
    // it held in: findingSessions(f, sessions).some(sessionIdMatches), asked of the matching sessions only (uri-table.ts).
    else if (t.key === 'session') hit = sessionConcerns(f, t.value, sessions);
    else if (t.key === 'is' && (t.value === 'error' || t.value === 'warning' || t.value === 'info')) hit = f.severity === t.value;
    else if (t.key === 'is' && t.value === 'problem') hit = f.severity !== 'info';
    // The staleness findings, and the phantom one: what the same terms mean in the URI table.
    else if (t.key === 'is' && t.value === 'stale') hit = STALE_FINDINGS.has(f.id);
    else if (t.key === 'is' && t.value === 'phantom') hit = f.id === 'phantom-subscription';
    // What the row shows: the severity and state columns too ("error" found no finding while the column said ERROR),
    // the session and detail as named there (a WebSocket's `WebSocket #2`) as well as the ids they hold.
    else if (t.key === 'text') {
      const name = sessionIdNamer(sessions);
      const session = f.session ?? '';
      // (And its Client column, when shown: `client` is its tag.)
      hit = [f.id, f.title, f.uri ?? '', session, name(session), findingDetail(f), findingDetail(f, name), f.severity, f.open ? 'open' : 'past', client].some((s) => s.toLowerCase().includes(t.value));
    }
    if (hit !== undefined && hit === t.negate) return false;
  }
  return true;
}

function sessionConcerns(f: Finding, value: string, sessions: readonly SessionSpan[]): boolean {
  if (f.session !== undefined && sessionIdMatches(value, f.session, sessionIdNamer(sessions))) return true;
  return sessions.length > 0 && concernedSession(f, sessions, sessionsMatching(sessions, value)) >= 0;
}

/**
 * The Findings view's order, read top-down as a story: open before past, then worst first, then the earliest first (a
 * cause happens before what it causes), then — at the same instant — a finding about no URI (the session or the
 * connection) before those about a URI (a server restart's 404 ends the session and leaves each URI phantom and
 * uncovered in the same frame: the expired session is the cause), then by key (unique: a total order, so a snapshot's
 * findings keep their places whatever order they came in). Newest first put open findings, whose lastT is all `now`, in
 * key order, and the expired session after its consequences.
 */
export function compareFindingsView(a: Finding, b: Finding): number {
  return (
    Number(b.open) - Number(a.open) ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    a.firstT - b.firstT ||
    Number(a.uri !== undefined) - Number(b.uri !== undefined) ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(compareFindingsView);
}

/**
 * The Detail column: a reason the catalogue names (reasonEntry: cached-not-subscribed's coverage reasons,
 * phantom-subscription's `subscribe-not-offered`; not resume-gap's, which its detail says) in words before the detail ("lost when its session ended: S1 ended
 * …"), as the drawer names it; not when the detail already starts with it, and never a bare code (other reasons,
 * `ttl`, `not-advertised` or `no-last-event-id`, are codes whose detail says it in words). With `name`, the session ids
 * it names as the views show them (sessionIdNamer).
 */
export function findingDetail(f: Pick<Finding, 'id' | 'reason' | 'detail'>, name?: SessionIdName): string {
  const entry = reasonEntry(f.id, f.reason);
  // The sessions it names, as the views name them (`name`: a WebSocket's `WebSocket #2`, not its connection id).
  const detail = name ? nameSessionsIn(f.detail ?? '', name) : (f.detail ?? '');
  // resume-gap's details tell how the stream came back: its label before them said it twice.
  if (entry?.inDetail && detail) return detail;
  const label = entry?.label;
  if (label === undefined || detail.startsWith(label)) return detail;
  return detail ? `${label}: ${detail}` : label;
}
