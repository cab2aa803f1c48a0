// The URI table's view model: which rows pass the filter (in the engine's order: problems first, worst first), the
// sessions that concern each row (for `session:`), keyboard movement of the selection, and the finding counts per
// severity for the toolbar. Pure.
import { findingRowKey, followsUriAcrossSessions, type EngineSnapshot, type Finding, type SessionView, type Severity, type UriRow } from '../../shared/engine/index.ts';
import { matchesRow, type Filter } from './filter.ts';

/** Session / listen ids per row key: holders now, plus the sessions named by the row's findings. */
export function rowSessions(snapshot: Pick<EngineSnapshot, 'uris' | 'findings'> & Partial<Pick<EngineSnapshot, 'sessions'>>): Map<string, string[]> {
  const byUri = new Map<string, string[]>();
  for (const f of snapshot.findings) {
    const k = findingRowKey(f);
    if (k === undefined) continue;
    const named = findingSessions(f, snapshot.sessions);
    if (named.length === 0) continue;
    const list = byUri.get(k);
    if (list) list.push(...named);
    else byUri.set(k, named);
  }
  const out = new Map<string, string[]>();
  for (const r of snapshot.uris) out.set(r.key, [...new Set([...r.heldBy, ...(byUri.get(r.key) ?? [])])]);
  return out;
}

export function filterRows(snapshot: Pick<EngineSnapshot, 'uris' | 'findings'> & Partial<Pick<EngineSnapshot, 'sessions'>>, filter: Filter): UriRow[] {
  if (filter.terms.length === 0) return snapshot.uris;
  // The sessions that concern each row cost a pass over every finding and session: only a session: term reads them.
  const sessions = filter.terms.some((t) => t.key === 'session') ? rowSessions(snapshot) : undefined;
  return snapshot.uris.filter((row) => matchesRow(filter, { row, sessions: sessions?.get(row.key) ?? [] }));
}

/** A row is highlighted when something is wrong with it (warning or error). */
export function isProblem(r: UriRow): boolean {
  return r.status === 'error' || r.status === 'warning';
}

/** Cache age at `now` (ticking between snapshots), or undefined when not cached. */
export function cacheAge(r: UriRow, now: number): number | undefined {
  return r.cached && r.cacheReadAt !== undefined ? Math.max(0, now - r.cacheReadAt) : undefined;
}

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'Home' | 'End' | 'PageUp' | 'PageDown';

export function isNavKey(k: string): k is NavKey {
  return k === 'ArrowUp' || k === 'ArrowDown' || k === 'Home' || k === 'End' || k === 'PageUp' || k === 'PageDown';
}

/** The row key selected after pressing `key`; from nothing, Down/Home pick the first row and Up/End the last. */
export function moveSelection(keys: readonly string[], current: string | null, key: NavKey, page = 10): string | null {
  const next = moveIndex(keys.length, current === null ? -1 : keys.indexOf(current), key, page);
  return next < 0 ? null : keys[next]!;
}

/** The same by position, over `count` rows (-1: none selected, or no rows). */
export function moveIndex(count: number, i: number, key: NavKey, page = 10): number {
  if (count === 0) return -1;
  const last = count - 1;
  let next: number;
  switch (key) {
    case 'ArrowDown':
      next = i < 0 ? 0 : Math.min(last, i + 1);
      break;
    case 'ArrowUp':
      next = i < 0 ? last : Math.max(0, i - 1);
      break;
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = last;
      break;
    case 'PageDown':
      next = i < 0 ? 0 : Math.min(last, i + page);
      break;
    case 'PageUp':
      next = i < 0 ? 0 : Math.max(0, i - page);
      break;
  }
  return next;
}

export type SeverityCounts = Record<Severity, number>;

/** Open findings per severity (what is wrong now). */
export function findingCounts(findings: readonly Finding[]): SeverityCounts {
  const c: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.open) c[f.severity]++;
  return c;
}

/** The findings that concern a row (its client's, about its URI), open first, worst first. */
export function findingsForRow(findings: readonly Finding[], r: Pick<UriRow, 'key'>): Finding[] {
  const rank: Record<Severity, number> = { error: 3, warning: 2, info: 1 };
  return findings
    .filter((f) => findingRowKey(f) === r.key)
    .sort((a, b) => Number(b.open) - Number(a.open) || rank[b.severity] - rank[a.severity] || a.firstT - b.firstT);
}

/**
 * A URI cut in the middle, not at its end: `postgres://kb/artic…/12` and `…/13` stay apart in a narrow column. The
 * last path segment (up to 32 characters) never shrinks; what comes before it ellipsizes.
 */
export function uriParts(uri: string): [string, string] {
  const slash = uri.lastIndexOf('/', uri.length - 2);
  let cut = slash >= 0 && uri.length - slash <= 32 ? slash : Math.max(0, uri.length - 16);
  // Never between the two halves of a surrogate pair (an emoji near the end).
  const c = uri.charCodeAt(cut);
  if (cut > 0 && c >= 0xdc00 && c <= 0xdfff) cut--;
  return [uri.slice(0, cut), uri.slice(cut)];
}

/** What findingSessions needs of a session: its label, and its client and life to tell when a finding held in it. */
export type SessionSpan = Pick<SessionView, 'label'> & Partial<Pick<SessionView, 'doc' | 'endpoint' | 'startT' | 'endT'>>;

/**
 * The sessions a finding is about: its own, any known session its detail names (a subscription lost on re-initialize
 * was held by the session that ended: `session:<old id>` finds it too), and for a finding that follows its URI across
 * sessions, every session of its client during which it held.
 */
export function findingSessions(f: Pick<Finding, 'id' | 'session' | 'detail' | 'doc' | 'endpoint' | 'firstT' | 'lastT' | 'spans'>, sessions: readonly SessionSpan[] = []): string[] {
  const out = f.session !== undefined ? [f.session] : [];
  const detail = f.detail;
  if (detail) {
    for (const s of sessions) {
      // Only a session of the finding's own client; a bare number ("seq 21") names a listen only as "listen 21",
      // "session 21" or "21 ended".
      if (s.label === f.session || (s.doc !== undefined && s.doc !== f.doc) || (s.endpoint !== undefined && s.endpoint !== f.endpoint)) continue;
      const named = /^\d+$/.test(s.label) ? [`listen ${s.label}`, `session ${s.label}`, `${s.label} ended`].some((x) => namesId(detail, x)) : namesId(detail, s.label);
      if (named) out.push(s.label);
    }
  }
  if (followsUriAcrossSessions(f.id)) {
    for (const s of sessions) {
      if (s.startT === undefined || s.doc !== f.doc || s.endpoint !== f.endpoint || out.includes(s.label)) continue;
      if (heldDuring(f, s.startT, s.endT ?? Infinity)) out.push(s.label);
    }
  }
  return out;
}

/** Did the finding hold at some time in [from, to)? */
function heldDuring(f: Pick<Finding, 'firstT' | 'lastT' | 'spans'>, from: number, to: number): boolean {
  if (!f.spans) return f.firstT < to && from <= f.lastT;
  for (const [t0, t1] of f.spans) if (t0 < to && from <= t1) return true;
  return false;
}

/** `text` names `id` as a whole word (S1 is not named by "S10 ended"). */
function namesId(text: string, id: string): boolean {
  // (An empty id — an empty Mcp-Session-Id header — names nothing; indexOf('') would never end the loop.)
  if (id.length === 0) return false;
  for (let i = text.indexOf(id); i >= 0; i = text.indexOf(id, i + 1)) {
    const before = i === 0 ? '' : text[i - 1]!;
    const after = text[i + id.length] ?? '';
    if (!/[A-Za-z0-9_-]/.test(before) && !/[A-Za-z0-9_-]/.test(after)) return true;
  }
  return false;
}

/**
 * Where a click on a severity count shows its findings: the table, filtered in place (`is:<severity>` keeps the rows
 * of that status), unless the table would hide some of the counted ones — a finding about no URI (a session's missing
 * header, a version regression) has no row, and a warning on a row whose status is error (its worst finding) is not
 * an `is:warning` row: the Findings view lists them all. From the Sessions or Messages view (where `is:error` asks
 * about sessions or JSON-RPC errors, not the counted findings), the Findings view.
 */
export function viewForSeverity<V extends string>(shown: Pick<EngineSnapshot, 'findings' | 'uris'>, severity: Severity, view: V): V | 'findings' {
  if (view !== 'resources') return 'findings';
  const status = new Map(shown.uris.map((r) => [r.key, r.status]));
  const hidden = (f: Finding) => {
    const key = f.uri === undefined ? undefined : findingRowKey(f);
    return key === undefined || status.get(key) !== severity;
  };
  return shown.findings.some((f) => f.open && f.severity === severity && hidden(f)) ? 'findings' : view;
}
