// The URI table's view model: which rows pass the filter (in the engine's order: problems first, worst first), the
// sessions that concern each row (for `session:`), keyboard movement of the selection, and the finding counts per
// severity for the toolbar. Pure.
import { findingRowKey, followsUriAcrossSessions, type EngineSnapshot, type Finding, type SessionView, type Severity, type UriRow } from '../../shared/engine/index.ts';
import { clientKeyOf, clientTags } from './client-tags.ts';
import { matchesRow, type Filter } from './filter.ts';
import { formatAgoCoarse, formatDuration } from './format.ts';
import { sessionIdMatches, sessionIdNamer, sessionLabel, withShownNames, type SessionIdName } from './session-label.ts';

/**
 * Session / listen ids per row key: holders now, plus the sessions named by the row's findings. (All of them:
 * filterRows asks only for one per `session:` term, rowSessionWitnesses.)
 */
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
  // The table and the timeline filter the same snapshot with the same filter, the timeline a frame or two later: it
  // gets the table's rows.
  const last = lastFiltered.get(snapshot.uris);
  if (last && last.filter === filter && last.findings === snapshot.findings && last.sessions === snapshot.sessions) return last.rows;
  const rows = filterRowsNow(snapshot, filter);
  lastFiltered.set(snapshot.uris, { filter, findings: snapshot.findings, sessions: snapshot.sessions, rows });
  return rows;
}

const lastFiltered = new WeakMap<readonly UriRow[], { filter: Filter; findings: readonly Finding[]; sessions: readonly SessionSpan[] | undefined; rows: UriRow[] }>();

function filterRowsNow(snapshot: Pick<EngineSnapshot, 'uris' | 'findings'> & Partial<Pick<EngineSnapshot, 'sessions'>>, filter: Filter): UriRow[] {
  // Only a session: term reads the sessions that concern each row.
  const values = [...new Set(filter.terms.filter((t) => t.key === 'session').map((t) => t.value))];
  const sessions = values.length > 0 ? rowSessionWitnesses(snapshot, values) : undefined;
  // Matched by the names the views show too (a WebSocket's `WebSocket #2`, session-label.ts).
  const name = sessionIdNamer(snapshot.sessions ?? []);
  const titles = filter.terms.some((t) => t.key === 'text') ? rowFindingTitles(snapshot.findings) : undefined;
  // `client:` and free text find a row by its client's tag as the table shows it (client-tags.ts).
  const clients = (snapshot as Partial<Pick<EngineSnapshot, 'clients'>>).clients;
  const tags = clients && filter.terms.some((t) => t.key === 'text' || t.key === 'client') ? clientTags(clients, snapshot.uris) : undefined;
  return snapshot.uris.filter((row) => matchesRow(filter, { row, sessions: withShownNames(sessions?.get(row.key) ?? [], name), titles: titles?.get(row.key), client: tags?.get(clientKeyOf(row)) }));
}

/**
 * What `session:` terms need of rowSessions, for these term values: per row, its holders and its findings' own
 * sessions, plus for each value one session matching it that a finding of the row names or held in, if any. A term
 * asks whether some session of the row matches it; those lists answer as the whole rowSessions would. The whole is
 * findings × sessions long (a URI cached across 300 reconnects held in all 301): hundreds of ms per snapshot.
 */
function rowSessionWitnesses(snapshot: Pick<EngineSnapshot, 'uris' | 'findings'> & Partial<Pick<EngineSnapshot, 'sessions'>>, values: readonly string[]): Map<string, string[]> {
  const all = snapshot.sessions ?? [];
  const matching = values.map((v) => sessionsMatching(all, v));
  const byUri = new Map<string, string[]>();
  for (const f of snapshot.findings) {
    const k = findingRowKey(f);
    if (k === undefined) continue;
    let list = byUri.get(k);
    if (f.session !== undefined) (list ??= []).push(f.session);
    for (const index of matching) {
      const i = concernedSession(f, all, index);
      if (i >= 0) (list ??= []).push(all[i]!.label);
    }
    if (list && !byUri.has(k)) byUri.set(k, list);
  }
  const out = new Map<string, string[]>();
  for (const r of snapshot.uris) {
    const named = byUri.get(r.key);
    out.set(r.key, named ? [...r.heldBy, ...named] : r.heldBy);
  }
  return out;
}

/** A row is highlighted when something is wrong with it (warning or error). */
export function isProblem(r: UriRow): boolean {
  return r.status === 'error' || r.status === 'warning';
}

/** Cache age at `now` (ticking between snapshots), or undefined when not cached. */
export function cacheAge(r: UriRow, now: number): number | undefined {
  return r.cached && r.cacheReadAt !== undefined ? Math.max(0, now - r.cacheReadAt) : undefined;
}

/**
 * The cache at `now` is older than the bound the engine judges it by (ageLimitMs): not the row's expected max age, which
 * for a learned cadence is no bound while the URI is held with a channel open.
 */
export function isOverAge(r: UriRow, now: number): boolean {
  const age = cacheAge(r, now);
  return age !== undefined && age > r.ageLimitMs;
}

/**
 * Where an expected max age comes from, in words: the source, and for a freshness rule its pattern (the first matching
 * rule, as the engine applies them), so two rules' "(rule)" can be told apart.
 */
export function freshnessSourceText(source: UriRow['expectedMaxAgeSource'], rule?: string): string {
  return source === 'rule' && rule !== undefined ? `rule ${rule}` : source;
}

/** The expected max age and where it comes from: "1 min 00 s (rule file:///docs/**)". */
export function expectedMaxAgeText(r: Pick<UriRow, 'expectedMaxAgeMs' | 'expectedMaxAgeSource' | 'expectedMaxAgeRule'>): string {
  return `${formatDuration(r.expectedMaxAgeMs)} (${freshnessSourceText(r.expectedMaxAgeSource, r.expectedMaxAgeRule)})`;
}

/** The age cell's title: the expected bound, and the one in force when that differs. */
export function ageTitle(r: Pick<UriRow, 'expectedMaxAgeMs' | 'expectedMaxAgeSource' | 'expectedMaxAgeRule' | 'ageLimitMs' | 'ageLimitSource'>): string {
  const expected = `expected at most ${expectedMaxAgeText(r)}`;
  return r.ageLimitMs === r.expectedMaxAgeMs && r.ageLimitSource === r.expectedMaxAgeSource
    ? expected
    : `${expected}; judged by ${formatDuration(r.ageLimitMs)} (${r.ageLimitSource}) while subscribed with a channel open`;
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

/**
 * Open findings by severity (the ✖ ▲ ℹ counts: what holds now), and the past ones apart: `past`, warnings and errors
 * that held earlier and no longer do (a stream that resumed without Last-Event-ID, a notification the server never
 * sent): the toolbar showed ✖ 0 ▲ 0 for them, and the Resources view all green, while the Findings view listed them (a
 * first-use audit, 2026-12-05); and `pastInfo`, past notes (an unsolicited update): a run whose only finding was one
 * read ✖ 0 ▲ 0 ℹ 0 and no pill (a live review, 2026-12). The ℹ count stays open-only, as ✖ and ▲ are.
 */
export function findingCounts(findings: readonly Finding[]): SeverityCounts & { past: number; pastInfo: number } {
  const c = { error: 0, warning: 0, info: 0, past: 0, pastInfo: 0 };
  for (const f of findings) {
    if (f.open) c[f.severity]++;
    else if (f.severity !== 'info') c.past++;
    else c.pastInfo++;
  }
  return c;
}

/**
 * The toolbar's past pill: every finding that held earlier and no longer does (problems and notes, as the counts beside
 * it count every open one), or null when there is none. Its name says how many are problems; one of notes only is
 * muted (`notesOnly`), not the look of a problem.
 */
export function pastPill(past: number, pastInfo: number): { n: number; notesOnly: boolean; title: string; label: string } | null {
  const n = past + pastInfo;
  if (n === 0) return null;
  const parts = [past ? `${past} ${past === 1 ? 'problem' : 'problems'}` : '', pastInfo ? `${pastInfo} info` : ''].filter(Boolean).join(', ');
  return {
    n,
    notesOnly: past === 0,
    title: `Findings that held earlier and no longer do (${parts}${past ? '; a problem is a warning or an error' : ''}): show them in the Findings view`,
    label: pastInfo === 0 ? `${past} past ${past === 1 ? 'problem' : 'problems'}: show the Findings view` : `${n} past ${n === 1 ? 'finding' : 'findings'} (${parts}): show the Findings view`,
  };
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

/**
 * What findingSessions needs of a session: its label, and its client and life to tell when a finding held in it; its
 * kind and transport say the name the views show for it (sessionIdNamer).
 */
export type SessionSpan = Pick<SessionView, 'label'> & Partial<Pick<SessionView, 'doc' | 'endpoint' | 'startT' | 'endT' | 'kind' | 'transport'>>;

/**
 * The sessions a finding is about: its own, any known session its detail names (a subscription lost on re-initialize
 * was held by the session that ended: `session:<old id>` finds it too), and for a finding that follows its URI across
 * sessions, every session of its client during which it held. In the order of `sessions`.
 *
 * The plain definition scans every session per finding (namesId on the detail, the finding's time against the
 * session's life): findings × sessions, over a second per keystroke with 14,000 findings and 301 sessions. Here the
 * detail's words are looked up in an index of the sessions by label, and the sessions a finding held in are found
 * from its spans in an index of its client's sessions by start.
 */
export function findingSessions(f: FindingFacts, sessions: readonly SessionSpan[] = []): string[] {
  const out = f.session !== undefined ? [f.session] : [];
  if (sessions.length === 0) return out;
  const index = sessionIndex(sessions);
  if (f.detail) {
    for (const i of sortedUnique(namedIn(f.detail, index, sessions))) if (namedSessionCounts(f, sessions[i]!)) out.push(sessions[i]!.label);
  }
  const client = followsUriAcrossSessions(f.id, f.uri) ? index.byClient.get(f.doc)?.get(f.endpoint) : undefined;
  if (client) {
    const held: number[] = [];
    if (f.spans) for (const [t0, t1] of f.spans) collectHeld(client, 0, client.pos.length, t0, t1, held);
    else collectHeld(client, 0, client.pos.length, f.firstT, f.lastT, held);
    const seen = new Set(out);
    for (const i of sortedUnique(held)) {
      const label = sessions[i]!.label;
      if (seen.has(label)) continue;
      seen.add(label);
      out.push(label);
    }
  }
  return out;
}

/**
 * Some session of `index` (a position in `sessions`) that findingSessions lists for `f` besides its own, or -1.
 * Asking for one matching a `session:` term, not for them all, costs a lookup per word of the detail and a search per
 * span, whatever the number of sessions the finding held in.
 */
export function concernedSession(f: FindingFacts, sessions: readonly SessionSpan[], index: SessionIndex): number {
  if (index.size === 0) return -1;
  if (f.detail) for (const i of namedIn(f.detail, index, sessions)) if (namedSessionCounts(f, sessions[i]!)) return i;
  const client = followsUriAcrossSessions(f.id, f.uri) ? index.byClient.get(f.doc)?.get(f.endpoint) : undefined;
  if (!client) return -1;
  if (!f.spans) return firstHeld(client, 0, client.pos.length, f.firstT, f.lastT);
  for (const [t0, t1] of f.spans) {
    const i = firstHeld(client, 0, client.pos.length, t0, t1);
    if (i >= 0) return i;
  }
  return -1;
}

type FindingFacts = Pick<Finding, 'id' | 'session' | 'detail' | 'doc' | 'endpoint' | 'firstT' | 'lastT' | 'spans'> & Partial<Pick<Finding, 'uri'>>;

/** A session the detail names counts only if it is of the finding's own client (and not the finding's own session). */
function namedSessionCounts(f: FindingFacts, s: SessionSpan): boolean {
  return s.label !== f.session && (s.doc === undefined || s.doc === f.doc) && (s.endpoint === undefined || s.endpoint === f.endpoint);
}

/** Sessions indexed for findingSessions (by their positions in the list), all of them or those a term matches. */
export interface SessionIndex {
  /** How many sessions are indexed. */
  size: number;
  /** Labels of one word ([A-Za-z0-9_-], not all digits): named by that word in a detail. */
  byWord: Map<string, number[]>;
  /**
   * All-digit labels (a listen's request id): a bare number ("seq 21") names a listen only as "listen 21",
   * "session 21" or "21 ended".
   */
  byNumber: Map<string, number[]>;
  /** Labels of more than one word (a session id with a dot or a space): rare, matched by namesId one by one. */
  other: number[];
  /** The sessions with a start, per client (doc, then endpoint; undefined is a key of its own, as `!==` compares). */
  byClient: Map<string | undefined, Map<string | undefined, ClientSessions>>;
}

/**
 * One client's sessions sorted by start, as a binary search tree over the array (the root of [lo, hi) is its middle):
 * `maxEnd[mid]` is the latest end in mid's subtree, so a search skips the subtrees that ended before a span began.
 */
interface ClientSessions {
  pos: number[];
  start: number[];
  /** endT, or Infinity for a session still open. */
  end: number[];
  maxEnd: number[];
}

// Keyed by the snapshot's sessions array (a new one per snapshot, never changed once built): built once per snapshot
// (per term value), not per finding or row.
const indexCache = new WeakMap<readonly SessionSpan[], SessionIndex>();
const matchingCache = new WeakMap<readonly SessionSpan[], Map<string, SessionIndex>>();

function sessionIndex(sessions: readonly SessionSpan[]): SessionIndex {
  let index = indexCache.get(sessions);
  if (!index) {
    index = buildSessionIndex(sessions, sessions.map((_, i) => i));
    indexCache.set(sessions, index);
  }
  return index;
}

/** The sessions whose label, or the name the views show for it, `session:<value>` finds (sessionIdMatches), indexed. */
export function sessionsMatching(sessions: readonly SessionSpan[], value: string): SessionIndex {
  let byValue = matchingCache.get(sessions);
  if (!byValue) matchingCache.set(sessions, (byValue = new Map()));
  let index = byValue.get(value);
  if (!index) {
    const positions: number[] = [];
    const name = sessionIdNamer(sessions);
    for (let i = 0; i < sessions.length; i++) {
      const label = sessions[i]!.label;
      if (sessionIdMatches(value, label, name)) positions.push(i);
    }
    index = buildSessionIndex(sessions, positions);
    byValue.set(value, index);
  }
  return index;
}

const ONE_WORD = /^[A-Za-z0-9_-]+$/;
const DIGITS = /^\d+$/;

function buildSessionIndex(sessions: readonly SessionSpan[], positions: readonly number[]): SessionIndex {
  const index: SessionIndex = { size: positions.length, byWord: new Map(), byNumber: new Map(), other: [], byClient: new Map() };
  const unsorted = new Map<string | undefined, Map<string | undefined, number[]>>();
  for (const i of positions) {
    const s = sessions[i]!;
    // (An empty label, an empty Mcp-Session-Id header, names nothing.)
    if (DIGITS.test(s.label)) addTo(index.byNumber, s.label, i);
    else if (ONE_WORD.test(s.label)) addTo(index.byWord, s.label, i);
    else if (s.label.length > 0) index.other.push(i);
    if (s.startT === undefined) continue;
    let docs = unsorted.get(s.doc);
    if (!docs) unsorted.set(s.doc, (docs = new Map()));
    addTo(docs, s.endpoint, i);
  }
  for (const [doc, endpoints] of unsorted) {
    const clients = new Map<string | undefined, ClientSessions>();
    for (const [endpoint, list] of endpoints) clients.set(endpoint, clientSessions(sessions, list));
    index.byClient.set(doc, clients);
  }
  return index;
}

function addTo<K>(map: Map<K, number[]>, key: K, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

function clientSessions(sessions: readonly SessionSpan[], positions: number[]): ClientSessions {
  const pos = positions.slice().sort((a, b) => sessions[a]!.startT! - sessions[b]!.startT!);
  const start = pos.map((i) => sessions[i]!.startT!);
  const end = pos.map((i) => sessions[i]!.endT ?? Infinity);
  const c: ClientSessions = { pos, start, end, maxEnd: new Array<number>(pos.length) };
  fillMaxEnd(c, 0, pos.length);
  return c;
}

/** Fills maxEnd for the subtree over [lo, hi); returns its latest end. */
function fillMaxEnd(c: ClientSessions, lo: number, hi: number): number {
  if (lo >= hi) return -Infinity;
  const mid = (lo + hi) >>> 1;
  const m = Math.max(c.end[mid]!, fillMaxEnd(c, lo, mid), fillMaxEnd(c, mid + 1, hi));
  c.maxEnd[mid] = m;
  return m;
}

/**
 * Pushes to `out` the sessions in [lo, hi) during which a finding that held over [t0, t1] held: those that start by
 * t1 and end after t0 (a session's life is [startT, endT)).
 */
function collectHeld(c: ClientSessions, lo: number, hi: number, t0: number, t1: number, out: number[]): void {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // Every session of this subtree ended by t0.
    if (c.maxEnd[mid]! <= t0) return;
    collectHeld(c, lo, mid, t0, t1, out);
    // This session and every later one start after t1.
    if (c.start[mid]! > t1) return;
    if (c.end[mid]! > t0) out.push(c.pos[mid]!);
    lo = mid + 1;
  }
}

/** The same search, for one such session (its position in the list), or -1. */
function firstHeld(c: ClientSessions, lo: number, hi: number, t0: number, t1: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c.maxEnd[mid]! <= t0) return -1;
    const left = firstHeld(c, lo, mid, t0, t1);
    if (left >= 0) return left;
    if (c.start[mid]! > t1) return -1;
    if (c.end[mid]! > t0) return c.pos[mid]!;
    lo = mid + 1;
  }
  return -1;
}

/**
 * The sessions `detail` names, by position (unsorted, maybe repeated). A one-word label is named by a whole word of
 * the detail — exactly what namesId finds: a match bounded by non-word characters is a maximal run of word characters.
 * So the detail is cut into such runs, and each looked up; "listen 21", "session 21" and "21 ended" are two runs
 * one space apart.
 */
function namedIn(detail: string, index: SessionIndex, sessions: readonly SessionSpan[]): number[] {
  const out: number[] = [];
  let prev = '';
  let prevEnd = -2;
  for (let i = 0; i < detail.length; ) {
    if (!isWordChar(detail.charCodeAt(i))) {
      i++;
      continue;
    }
    const from = i;
    while (i < detail.length && isWordChar(detail.charCodeAt(i))) i++;
    const word = detail.slice(from, i);
    pushAll(out, index.byWord.get(word));
    if (from === prevEnd + 1 && detail.charCodeAt(prevEnd) === 32) {
      if (prev === 'listen' || prev === 'session') pushAll(out, index.byNumber.get(word));
      if (word === 'ended') pushAll(out, index.byNumber.get(prev));
    }
    prev = word;
    prevEnd = i;
  }
  for (const i of index.other) if (namesId(detail, sessions[i]!.label)) out.push(i);
  return out;
}

/** [A-Za-z0-9_-], what namesId counts as part of an id. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
}

function pushAll(out: number[], items: readonly number[] | undefined): void {
  if (items) for (const x of items) out.push(x);
}

function sortedUnique(xs: number[]): number[] {
  xs.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < xs.length; i++) if (i === 0 || xs[i] !== xs[i - 1]) xs[n++] = xs[i]!;
  xs.length = n;
  return xs;
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

/**
 * What a severity count in the toolbar says (its accessible name and tooltip): how many open findings, and what a click
 * shows. The count is of findings; the table shows rows, and two findings of one URI are one row: "2 errors, on 1 URI:
 * show the error row" (it said "2 errors: show error rows" and showed one).
 */
export function severityCountLabel(shown: Pick<EngineSnapshot, 'findings' | 'uris'>, severity: Severity, n: number, view: string): string {
  const noun = severity === 'info' || n === 1 ? severity : `${severity}s`;
  if (viewForSeverity(shown, severity, view) === 'findings') return `${n} ${noun}: show the ${severity} findings`;
  let rows = 0;
  for (const r of shown.uris) if (r.status === severity) rows++;
  if (rows === n) return `${n} ${noun}: show ${severity} rows`;
  return `${n} ${noun}, on ${rows} ${rows === 1 ? 'URI' : 'URIs'}: show the ${rows === 1 ? `${severity} row` : `${rows} ${severity} rows`}`;
}

/** The session (or listen) that held a URI last, for a row nobody holds now: when it ended and why. */
export interface LastHolder {
  /** As the views name it (sessionLabel). */
  name: string;
  endT: number;
  endCause: SessionView['endCause'];
}

const holderKey = (doc: string, endpoint: string, uri: string): string => `${doc} ${endpoint}\n${uri}`;
const lastHoldersCache = new WeakMap<readonly SessionView[], Map<string, LastHolder>>();

/**
 * Per client and URI, the ended session or listen of that client that last held it: an ended one's `subscriptions` are
 * what it held when it ended, so the latest to end holding the URI is the one that lost it. One pass over the
 * snapshot's sessions, kept per sessions array (the table's rows are windowed and re-rendered every second).
 */
export function lastHolders(sessions: readonly SessionView[]): Map<string, LastHolder> {
  const cached = lastHoldersCache.get(sessions);
  if (cached) return cached;
  const out = new Map<string, LastHolder>();
  const name = sessionIdNamer(sessions);
  for (const s of sessions) {
    if (s.open || s.endT === undefined) continue;
    for (const uri of s.subscriptions) {
      const k = holderKey(s.doc, s.endpoint, uri);
      const was = out.get(k);
      if (was === undefined || was.endT <= s.endT) out.set(k, { name: sessionLabel(s, name), endT: s.endT, endCause: s.endCause });
    }
  }
  lastHoldersCache.set(sessions, out);
  return out;
}

/**
 * The Server cell's tooltip: who holds the URI (named as the views name sessions: `name`); nobody — and, when known,
 * which session held it last, when (before `now`) and how it ended.
 */
export function serverTitle(r: Pick<UriRow, 'doc' | 'endpoint' | 'uri' | 'heldBy' | 'serverHasSubscription'>, holders: ReadonlyMap<string, LastHolder>, now: number, name: SessionIdName = (id) => id): string {
  if (r.heldBy.length > 0) return `Held by ${r.heldBy.map(name).join(', ')}`;
  const last = holders.get(holderKey(r.doc, r.endpoint, r.uri));
  if (last === undefined) return r.serverHasSubscription ? 'Held' : 'Not held by any session';
  // Relative, as the Last notify and Last read cells (and no Date: a table cell's text is plain arithmetic).
  return `Not held by any session. Of the sessions that ended, ${last.name} held it last; it ended ${formatAgoCoarse(last.endT, now)} (${last.endCause ?? 'cause unknown'})`;
}

const ageSeverityCache = new WeakMap<readonly Finding[], Map<string, Severity>>();

/**
 * Per URI row key, the severity of its open cache-age-exceeded finding (once per findings array): a cache past its
 * age is shown in that finding's colour — not the row's worst (a phantom row's info age read as an error), nor red
 * while the grace before the finding opens runs.
 */
export function ageSeverities(findings: readonly Finding[]): Map<string, Severity> {
  let m = ageSeverityCache.get(findings);
  if (m) return m;
  m = new Map();
  for (const f of findings) {
    if (f.id !== 'cache-age-exceeded' || !f.open) continue;
    const k = findingRowKey(f);
    if (k !== undefined) m.set(k, f.severity);
  }
  ageSeverityCache.set(findings, m);
  return m;
}

const rowTitlesCache = new WeakMap<readonly Finding[], Map<string, string[]>>();

/**
 * Per URI row key, the titles of its open findings as the Findings view and the CLI show them (once per findings
 * array): a finding's own title, which is its reason's when the reason has one (resume-gap's subscription-lapsed is
 * "Subscribed again, but not read again", not resume-gap's "Stream reconnected without resuming"). In the order the
 * engine lists the row's finding ids, a title said once.
 */
export function rowFindingTitles(findings: readonly Finding[]): Map<string, string[]> {
  let m = rowTitlesCache.get(findings);
  if (m) return m;
  m = new Map();
  for (const f of findings) {
    const k = f.open ? findingRowKey(f) : undefined;
    if (k === undefined) continue;
    const list = m.get(k);
    if (!list) m.set(k, [f.title]);
    else if (!list.includes(f.title)) list.push(f.title);
  }
  rowTitlesCache.set(findings, m);
  return m;
}
