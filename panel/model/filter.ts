// The panel's filter language, parsed by one pure function and matched against URI rows, message rows and timeline
// lanes. `is:stale is:phantom is:error is:warning is:problem is:ok is:cached is:subscribed`, `uri:<text or glob>`,
// `is:info`, `session:<part of the id or of the name shown, a number whole>` (sessionNameMatches), `method:<text>`,
// `finding:<id text>`, `client:<part of the client's tag>` (the tag the views show when a tab has several clients:
// `top page`, `iframe localhost:44273`), free text, `-` in front of any term negates it, double quotes keep spaces. A word with an
// unknown key (`file:///docs`) is free text: URIs are full of colons.
import type { FindingId, UriRow } from '../../shared/engine/index.ts';
import { globToRegExp } from '../../shared/engine/index.ts';
import { CATALOGUE } from '../../shared/findings/catalogue.ts';
import { sessionIdMatches, sessionIdOn, sessionNameMatches, sessionNames, type Named, type SessionIdName } from './session-label.ts';

export const IS_VALUES = ['stale', 'phantom', 'error', 'warning', 'info', 'problem', 'ok', 'cached', 'subscribed', 'rpc'] as const;
export type IsValue = (typeof IS_VALUES)[number];

export type FilterTerm =
  | { key: 'is'; value: IsValue; negate: boolean }
  | { key: 'uri' | 'session' | 'method' | 'finding' | 'client' | 'text'; value: string; negate: boolean };

export interface Filter {
  terms: FilterTerm[];
  /** Problems with the input, in words; the terms they concern are left out. */
  errors: string[];
  /** What the user may not expect, in words (a word that looks like a key but is not one: searched as text). */
  notes: string[];
}

const KEYS = new Set(['is', 'uri', 'session', 'method', 'finding', 'client']);

/** Findings that mean "the cached content may be older than the server's". */
export const STALE_FINDINGS: ReadonlySet<FindingId> = new Set<FindingId>([
  'cached-not-subscribed',
  'phantom-subscription',
  'no-delivery-channel',
  'notified-not-reread',
  'stale-overwrite',
  'cache-age-exceeded',
  'missed-update',
  'resume-gap',
]);

/** Splits on whitespace; "double quotes" group (also after a key: uri:"a b"). */
export function tokenize(input: string): string[] {
  return words(input).map((w) => (w.negate ? `-${w.text}` : w.text));
}

/**
 * The words of the input; `literal` when the word starts with a quote (after an optional `-`): `"-32601"` is text to
 * find, not a negated 32601, and `"is:stale"` is the text itself.
 */
function words(input: string): Array<{ text: string; literal: boolean; negate: boolean }> {
  const out: Array<{ text: string; literal: boolean; negate: boolean }> = [];
  let cur = '';
  let quoted = false;
  let any = false;
  let literal = false;
  let negate = false;
  for (const ch of input) {
    if (ch === '"') {
      if (!any || (cur === '-' && !literal)) {
        literal = true;
        negate = cur === '-';
        cur = '';
      }
      quoted = !quoted;
      any = true;
    } else if (!quoted && /\s/.test(ch)) {
      if (any) out.push({ text: cur, literal, negate });
      cur = '';
      any = false;
      literal = false;
      negate = false;
    } else {
      cur += ch;
      any = true;
    }
  }
  if (any) out.push({ text: cur, literal, negate });
  return out;
}

export function parseFilter(input: string): Filter {
  const terms: FilterTerm[] = [];
  const errors: string[] = [];
  const notes: string[] = [];
  for (const { text: raw, literal, negate: negateLiteral } of words(input)) {
    let word = raw;
    let negate = false;
    if (literal) {
      // Quoted: the text itself (a `-` before the quotes still negates it). Empty quotes ask nothing (`-"` while
      // typing `-"method not found"` must not hide every row).
      if (raw !== '') terms.push({ key: 'text', value: raw.toLowerCase(), negate: negateLiteral });
      continue;
    }
    if (word.length > 1 && word.startsWith('-')) {
      negate = true;
      word = word.slice(1);
    }
    const colon = word.indexOf(':');
    const key = colon > 0 ? word.slice(0, colon).toLowerCase() : '';
    if (!KEYS.has(key)) {
      // `sesion:abc` or `status:ok` reads like a key; `file:///docs` or `urn:x` is a URI (or its start).
      const rest = word.slice(colon + 1);
      if (/^[a-z][a-z-]{1,15}$/.test(key) && !rest.startsWith('/') && !(key === 'localhost' && /^\d/.test(rest)) && !URI_SCHEMES.has(key)) {
        notes.push(`${key}: is not a filter key (${[...KEYS].map((k) => `${k}:`).join(' ')}): searched as text`);
      }
      terms.push({ key: 'text', value: word.toLowerCase(), negate });
      continue;
    }
    const value = word.slice(colon + 1);
    if (value === '') {
      errors.push(`${key}: needs a value`);
      continue;
    }
    if (key === 'is') {
      const v = value.toLowerCase();
      if ((IS_VALUES as readonly string[]).includes(v)) terms.push({ key: 'is', value: v as IsValue, negate });
      else errors.push(`unknown is:${value} (try ${IS_VALUES.map((x) => `is:${x}`).join(', ')})`);
      continue;
    }
    if (key === 'uri' && /\*/.test(value) && !value.includes('**') && !value.includes('://')) {
      // A glob covers the whole URI and `*` stays within a segment: `uri:*.md` matches no `file:///docs/a.md`.
      notes.push(`uri:${value} is a glob over the whole URI, and * stays within one segment: try uri:**${value.replace(/^\*+/, '')}`);
    }
    terms.push({ key: key as 'uri' | 'session' | 'method' | 'finding' | 'client', value: key === 'uri' ? value : value.toLowerCase(), negate });
  }
  return { terms, errors, notes };
}

/** The is: values that say something about a finding (its severity, or whether it is about staleness or a phantom). */
const FINDING_IS: ReadonlySet<string> = new Set(['error', 'warning', 'info', 'problem', 'stale', 'phantom']);

/** Schemes written without `//` (`urn:…`, `mailto:…`): a URI, not a mistyped key. */
const URI_SCHEMES = new Set(['urn', 'mailto', 'data', 'tel', 'about', 'blob', 'ui']);

/** Terms the given view does not use, said in words (so a filter that changes nothing there is not a mystery). */
export function viewNotes(f: Filter, view: 'resources' | 'findings' | 'sessions' | 'messages'): string[] {
  const out = new Set<string>();
  for (const t of f.terms) {
    if (t.key === 'method' && view !== 'messages') out.add('method: applies to the Messages view only');
    if (t.key === 'finding' && (view === 'messages' || view === 'sessions')) out.add('finding: applies to the Resources and Findings views only');
    if (t.key === 'is' && view === 'messages' && (t.value === 'warning' || t.value === 'info' || t.value === 'ok' || t.value === 'cached' || t.value === 'subscribed')) {
      out.add(`is:${t.value} does not apply to messages`);
    }
    if (t.key === 'is' && t.value === 'rpc' && view === 'resources') out.add('is:rpc applies to the Messages view only');
    if (view === 'sessions' && t.key !== 'session' && t.key !== 'client') out.add('only session: and client: apply to the Sessions view');
    if (t.key === 'client' && view === 'messages') out.add('client: does not apply to the Messages view');
    if (view === 'findings' && (t.key === 'method' || (t.key === 'is' && !FINDING_IS.has(t.value)))) {
      out.add(t.key === 'method' ? 'method: applies to the Messages view only' : `is:${t.value} does not apply to findings`);
    }
  }
  return [...out];
}

const globCache = new Map<string, RegExp>();

/**
 * `uri:` matches a substring, or the whole URI when the value has a `*` (then `?` is one character too); a `?` alone
 * is a URI's query (`uri:items?id=12`). Either way without regard to case.
 */
export function uriMatches(pattern: string, uri: string): boolean {
  if (!pattern.includes('*')) return uri.toLowerCase().includes(pattern.toLowerCase());
  let re = globCache.get(pattern);
  if (!re) globCache.set(pattern, (re = new RegExp(globToRegExp(pattern).source, 'i')));
  return re.test(uri);
}

export function isEmpty(f: Filter): boolean {
  return f.terms.length === 0;
}

/** A URI row's facts the filter needs; `sessions` = session / listen ids that concern it (holders, its findings). */
export interface RowFacts {
  row: UriRow;
  sessions: readonly string[];
  /** The titles its Findings column shows (uri-table.ts rowFindingTitles: a reason's own); else each id's catalogue title. */
  titles?: readonly string[] | undefined;
  /** Its client's tag as the table shows it (client-tags.ts; '' or absent: one client, no tag). */
  client?: string | undefined;
}

/** `client:` and free text against a client's tag as shown ('' when none is: one client). */
export function clientMatches(value: string, tag: string | undefined): boolean {
  return tag !== undefined && tag !== '' && tag.toLowerCase().includes(value);
}

/** undefined: the term says nothing about rows (is:rpc). */
function rowIs(v: IsValue, r: UriRow): boolean | undefined {
  switch (v) {
    case 'stale':
      return r.findings.some((f) => STALE_FINDINGS.has(f)) || (r.cached && (r.cacheAgeMs ?? 0) > r.ageLimitMs);
    case 'phantom':
      return r.findings.includes('phantom-subscription') || (r.clientBelievesSubscribed && !r.serverHasSubscription);
    case 'error':
      return r.status === 'error';
    case 'warning':
      return r.status === 'warning';
    case 'info':
      return r.status === 'info';
    case 'problem':
      return r.status === 'error' || r.status === 'warning';
    case 'ok':
      return r.status === 'ok';
    case 'cached':
      return r.cached;
    case 'subscribed':
      return r.serverHasSubscription;
    case 'rpc':
      return undefined;
  }
}

const TITLES_LOWER = new Map(Object.entries(CATALOGUE).map(([id, e]) => [id, e.title.toLowerCase()]));

function titleLower(id: FindingId): string {
  return TITLES_LOWER.get(id) ?? '';
}

/** Whether a term holds for a row; undefined when the term says nothing about rows (then it is ignored, negated or not). */
function termMatchesRow(t: FilterTerm, { row, sessions, titles, client }: RowFacts): boolean | undefined {
  switch (t.key) {
    case 'is':
      return rowIs(t.value, row);
    case 'uri':
      return uriMatches(t.value, row.uri);
    case 'session':
      return sessions.some((s) => sessionNameMatches(t.value, s));
    case 'finding':
      return row.findings.some((f) => f.includes(t.value));
    case 'method':
      return undefined;
    case 'client':
      return clientMatches(t.value, client);
    case 'text':
      // The ids and the titles the Findings column shows ("nobody" found no row while the column said "Cached, but
      // nobody is subscribed": an audit, 2026-12-05).
      // A reason's own title is the one shown ("not read again" finds a lapsed subscription's row).
      return (
        row.uri.toLowerCase().includes(t.value) ||
        row.findings.some((f) => f.includes(t.value)) ||
        (titles ? titles.some((x) => x.toLowerCase().includes(t.value)) : row.findings.some((f) => titleLower(f).includes(t.value))) ||
        row.status === t.value ||
        // Its client's tag, shown beside the URI ("localhost" found no row while the tag said `iframe localhost:…`).
        clientMatches(t.value, client)
      );
  }
}

export function matchesRow(f: Filter, facts: RowFacts): boolean {
  for (const t of f.terms) {
    const hit = termMatchesRow(t, facts);
    if (hit !== undefined && hit === t.negate) return false;
  }
  return true;
}

/** The fields of a message-list row the filter looks at (see frame-rows.ts). */
export interface MessageFacts {
  method: string;
  uri: string;
  session: string;
  /** Its connection: a 2026 listen's messages are named by it (sessionIdOn). */
  conn?: string;
  error: string;
  note: string;
  transport: string;
  id: string;
  /** Every URI the message names when it names several (else empty: `uri` is the one). */
  uris?: readonly string[];
}

/** Whether the message names a URI that passes `test`. */
function anyUri(m: MessageFacts, test: (uri: string) => boolean): boolean {
  if (m.uris && m.uris.length) return m.uris.some(test);
  return m.uri !== '' && test(m.uri);
}

/** URIs the current view considers stale / phantom, so `is:stale` also narrows the message list to their traffic. */
export interface MessageContext {
  staleUris: ReadonlySet<string>;
  phantomUris: ReadonlySet<string>;
  /** URIs whose row is a problem (warning or error): `is:problem`. */
  problemUris: ReadonlySet<string>;
  /**
   * How the views name sessions (the shown snapshot's sessionIdNamer): `session:` and free text find a WebSocket's
   * or a listen's rows by the name the list shows (`WebSocket #2`, `listen 3`) as well as by its id. Absent: ids as
   * they are.
   */
  name?: SessionIdName;
}

/** The context for the Messages view from the URI rows it is judged with (the shown snapshot's). */
export function messageContext(rows: readonly UriRow[]): MessageContext {
  const staleUris = new Set<string>();
  const phantomUris = new Set<string>();
  const problemUris = new Set<string>();
  for (const r of rows) {
    // The table's own test (rowIs): a row stale by its age alone, or with a phantom finding but no belief gap now, is
    // in the table's `is:stale` / `is:phantom` and its messages are too.
    if (rowIs('stale', r)) staleUris.add(r.uri);
    if (rowIs('phantom', r)) phantomUris.add(r.uri);
    if (r.status === 'error' || r.status === 'warning') problemUris.add(r.uri);
  }
  return { staleUris, phantomUris, problemUris };
}

/** Whether a term holds for a message; undefined when it says nothing about messages (ignored, negated or not). */
function termMatchesMessage(t: FilterTerm, m: MessageFacts, ctx: MessageContext): boolean | undefined {
  switch (t.key) {
    case 'is':
      if (t.value === 'error') return m.error !== '';
      // JSON-RPC messages only (requests, notifications, answers): the transport's rows (HTTP heads, SSE priming events,
      // ends, keep-alives) are two thirds of a live list (a first-use audit, 2026-12-05).
      if (t.value === 'rpc') return m.method !== '';
      if (t.value === 'stale') return anyUri(m, (u) => ctx.staleUris.has(u));
      if (t.value === 'problem') return anyUri(m, (u) => ctx.problemUris.has(u));
      if (t.value === 'phantom') return anyUri(m, (u) => ctx.phantomUris.has(u));
      // is:warning, is:info, is:ok, is:cached, is:subscribed say nothing about a message: ignored (and said so, see viewNotes).
      return undefined;
    case 'uri':
      return anyUri(m, (u) => uriMatches(t.value, u));
    case 'session':
      // By its id, and by the name the list shows for it (a WebSocket's `WebSocket #2`, a listen's `listen 3`, as the other views).
      return ctx.name ? sessionIdMatches(t.value, sessionIdOn(m.session, m.conn ?? '', ctx.name), ctx.name) : sessionNameMatches(t.value, m.session);
    case 'method':
      return m.method.toLowerCase().includes(t.value);
    case 'finding':
    case 'client':
      return undefined;
    case 'text': {
      const v = t.value;
      const shown = ctx.name ? ctx.name(sessionIdOn(m.session, m.conn ?? '', ctx.name)) : m.session;
      return [m.method, m.uri, m.session, shown, m.error, m.note, m.transport, m.id].some((s) => s.toLowerCase().includes(v)) || anyUri(m, (u) => u.toLowerCase().includes(v));
    }
  }
}

export function matchesMessage(f: Filter, m: MessageFacts, ctx: MessageContext): boolean {
  for (const t of f.terms) {
    const hit = termMatchesMessage(t, m, ctx);
    if (hit !== undefined && hit === t.negate) return false;
  }
  return true;
}

/**
 * A session lane passes unless a `session:` term excludes it (or, given its client's tag, a `client:` term); other
 * terms do not apply to sessions.
 */
export function matchesSession(f: Filter, ids: readonly string[], client?: string): boolean {
  for (const t of f.terms) {
    if (t.key !== 'session' && (t.key !== 'client' || client === undefined)) continue;
    const hit = t.key === 'client' ? clientMatches(t.value, client) : ids.some((s) => sessionNameMatches(t.value, s));
    if (hit === t.negate) return false;
  }
  return true;
}

/**
 * A session or listen passes unless a `session:` term excludes it by the names it is shown with (sessionNames; `name`:
 * the snapshot's sessionIdNamer, so a WebSocket is found as `WebSocket #2`).
 */
export function matchesSessionView(f: Filter, s: Named, name?: SessionIdName, client?: string): boolean {
  return matchesSession(f, sessionNames(s, name), client);
}
