// The names the panel shows for a session or a listen, in one place: the Sessions grid, the timeline's lanes and the
// drawer show sessionLabel, and a view that names a session by its id (a message's, a finding's, a URI's holder)
// sessionIdNamer — the same names (`WebSocket #2`, `listen 3`); `session:` matches them, the same everywhere. The
// CLI's text report names them so too.
import type { DecodedMessage, SessionView } from '../../shared/engine/index.ts';

/** What a session is named by: its id, its kind, and whether (and as what key) a reloaded page resumed it. */
export type Named = Pick<SessionView, 'label' | 'kind'> & Partial<Pick<SessionView, 'key' | 'resumedFrom' | 'transport'>>;

/** A session id (a label: a finding's session, a URI's holder, a session's own) as the views show it. */
export interface SessionIdName {
  (id: string): string;
  /**
   * Connection id → the label of the 2026 listen whose request went on it (its stream is that request's answer): what
   * a message of that connection is filed under (sessionIdOn). Absent: none known.
   */
  readonly listens?: ReadonlyMap<string, string>;
}

const AS_IS: SessionIdName = (id) => id;
/** What sessionIdNamer reads of a session. */
export type Nameable = Pick<SessionView, 'label'> & Partial<Pick<SessionView, 'kind' | 'transport' | 'conn'>>;
const namers = new WeakMap<readonly Nameable[], SessionIdName>();
/** The last namer made, and the names it gives: a snapshot naming the same sockets alike gets that very function. */
let last: { names: Map<string, string>; listens: Map<string, string>; namer: SessionIdName } | undefined;

function sameNames(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, shown] of a) if (b.get(id) !== shown) return false;
  return true;
}

/**
 * A 2026 listen stream as the views name it: `listen <request id>` (its label: the id, `1 #2` for a reused one). An id
 * that says so already is shown as it is: the SDK's own listens are `listen:0`, `listen:1` (not `listen listen:0`).
 */
const listenName = (label: string): string => (/^listen\b/i.test(label) ? label : `listen ${label}`);

/**
 * How the views name the session ids of `sessions` (a snapshot's, in the engine's order: first seen first). A
 * WebSocket has no session id: the engine names its session after the hook's connection id (`ws:<document>.<n>`, a
 * random document id and a count of every fetch and socket of the page), which tells the user nothing; it is shown
 * as `WebSocket #n`, n counting the snapshot's WebSockets in the order they connected (unique, and stable as more
 * come). A 2026 listen has no session id either: the engine labels it by its request id (`3`), which the Sessions
 * grid and the lanes show as `listen 3`; so does every view that names it by its id (the Messages view's rows, a
 * finding's session, a URI's holders, the metrics), and `session:"listen 3"` finds it there too — unless a session of
 * the snapshot has that very id (then the id alone is ambiguous and is shown as it is). Any other id is shown as it
 * is. The engine's ids, keys and the trace are unchanged: names only. The namer also knows each listen's connection
 * (`listens`): a listen's messages are named by it (sessionIdOn), since a request id may be two listens' (`listen:1`
 * and `listen:1 #2`, two clients').
 */
export function sessionIdNamer(sessions: readonly Nameable[]): SessionIdName {
  let namer = namers.get(sessions);
  if (namer) return namer;
  const names = new Map<string, string>();
  let sockets = 0;
  const sessionIds = new Set<string>();
  for (const s of sessions) {
    if (s.kind === 'listen') continue;
    sessionIds.add(s.label);
    if (s.transport === 'websocket' && !names.has(s.label)) names.set(s.label, `WebSocket #${++sockets}`);
  }
  // A listen's connection (its request's, and its stream's), by the engine's label for it: two clients' `listen:1` are
  // one request id and two labels (`listen:1`, `listen:1 #2`). A connection two listens claim (a batch of two) is
  // neither's.
  const listens = new Map<string, string>();
  const shared = new Set<string>();
  for (const s of sessions) {
    if (s.kind !== 'listen') continue;
    if (!sessionIds.has(s.label)) names.set(s.label, listenName(s.label));
    if (s.conn === undefined) continue;
    if (listens.has(s.conn)) shared.add(s.conn);
    listens.set(s.conn, s.label);
  }
  for (const conn of shared) listens.delete(conn);
  // One function per set of names, not per snapshot (a new sessions array each): what a view keeps by its namer (the
  // Messages view's filtered rows) is redone only when a name changed — a socket connected, a listen opened — not at
  // every update.
  if (names.size === 0 && listens.size === 0) namer = AS_IS;
  else if (last && sameNames(last.names, names) && sameNames(last.listens, listens)) namer = last.namer;
  else {
    const f = (id: string): string => names.get(id) ?? id;
    namer = Object.assign(f, { listens });
    last = { names, listens, namer };
  }
  namers.set(sessions, namer);
  return namer;
}

/**
 * The session id a message (a Messages row, a decoded message) is filed under, by its connection `conn`: a 2026
 * listen's messages — its request, the acknowledgement, the notifications on its stream, its end — under the label
 * the engine gives that listen (`listen:1 #2` for a second client's `listen:1`: the request id alone cannot say which
 * of the two), else `session` (its session id, a listen's request id as the rows keep it, or ''). The names come from
 * the snapshot in view, the rows keep only their connection: after a trim, the engine rebuilt from what is left names
 * the listens anew, and the rows with them.
 */
export function sessionIdOn(session: string, conn: string, name: SessionIdName): string {
  return (conn !== '' ? name.listens?.get(conn) : undefined) ?? session;
}

/**
 * A decoded message's session as the drawer says it: its session id as the views name it; a 2026 listen's message
 * (its request, the acknowledgement, a notification on its stream, its end: its connection's) by its listen (`listen
 * 3`, `listen:1 #2`), as the Messages view's rows are; any other 2026-07-28 message has none, and says so (it read `—`
 * for every 2026 message). A 2025 message before its session began (an initialize) is `—`.
 */
export function messageSessionName(m: Pick<DecodedMessage, 'session' | 'conn' | 'generation'>, name: SessionIdName): string {
  const id = sessionIdOn(m.session ?? '', m.conn, name);
  if (id !== '') return name(id);
  return m.generation === '2026' ? 'none (2026-07-28 has no sessions)' : '—';
}

/**
 * Whether `session:<value>` (lower-cased, as the filter keeps it) finds a session by `name`, one of the names it is
 * known by (its id; the name a view shows for it). Any part of it, case ignored — a prefix of a long Mcp-Session-Id
 * is enough, and so is the tail the Messages column shows — but a number is matched whole: `session:"websocket #1"`
 * finds `WebSocket #1` and not `WebSocket #10`–`#19`, `session:"listen 3"` not `listen 31`, `session:"resumed #1"`
 * not `S1 (resumed #12)`, `session:ws:<document>.1` not `ws:<document>.12`. A number is a word of the name (a run of
 * [A-Za-z0-9_-], as session ids are words in a detail) made only of digits; within an id's word (`3f2a91c0-…`,
 * `S10`, a UUID's group) digits are not one, so a prefix or part of an id matches as it did (`session:S1` finds
 * `S10`: a short id is a prefix of a longer one, type it whole when both exist). An id all digits is a number.
 */
export function sessionNameMatches(value: string, name: string): boolean {
  if (value === '') return true;
  const text = name.toLowerCase();
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) {
    if (!cutsNumber(text, i) && !cutsNumber(text, i + value.length)) return true;
  }
  return false;
}

/** `session:` finds a session id by the id itself or by the name `name` shows for it (sessionNameMatches). */
export function sessionIdMatches(value: string, id: string, name: SessionIdName): boolean {
  if (sessionNameMatches(value, id)) return true;
  const shown = name(id);
  return shown !== id && sessionNameMatches(value, shown);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** [a-z0-9_-] (of lower-cased text): what an id's word is made of. */
const isWordChar = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 122) || c === 95 || c === 45;

/** Whether position k of `text` (between text[k-1] and text[k]) is inside a number: a word of digits only. */
function cutsNumber(text: string, k: number): boolean {
  if (k <= 0 || k >= text.length || !isDigit(text.charCodeAt(k - 1)) || !isDigit(text.charCodeAt(k))) return false;
  for (let a = k - 1; a >= 0 && isWordChar(text.charCodeAt(a)); a--) if (!isDigit(text.charCodeAt(a))) return false;
  for (let b = k; b < text.length && isWordChar(text.charCodeAt(b)); b++) if (!isDigit(text.charCodeAt(b))) return false;
  return true;
}

/**
 * The tooltip of a session id shown by its name: the name and the id it stands for (`WebSocket #2 (ws:<doc>.7)`), or
 * the name alone when it says the id whole (an id shown as it is; a listen's `listen 3`). Wherever a view names a
 * session by `name` (the Findings view's Session column, the metrics, the drawer's finding, the Messages view's
 * session column).
 */
export function sessionIdTitle(id: string, name: SessionIdName): string {
  const shown = name(id);
  return shown === id || shown === listenName(id) ? shown : `${shown} (${id})`;
}

/**
 * A session id as a narrow cell shows it (the Messages view's session column, the metrics): the name the views give,
 * with the id in it shortened by `cut` — an id shown as it is, `cut(id)`; a listen's, `listen <cut(id)>` — and a name
 * that does not hold the id (`WebSocket #12`: short, and cut it lost its number) whole. The tooltip gives it in full
 * (sessionIdTitle). A reused listen's label, `<request id> #n` (a session id has no space), keeps its ` #n` whole and
 * only its request id is cut: `listen:1 #2`, not `lis…:1 #2`.
 */
export function shortSessionName(id: string, name: SessionIdName, cut: (id: string) => string): string {
  const shown = name(id);
  const suffix = / #\d+$/.exec(id);
  const short = suffix ? cut(id.slice(0, suffix.index)) + suffix[0] : cut(id);
  if (shown === id) return short;
  return shown === listenName(id) ? listenName(short) : shown;
}

/**
 * How a sentence names a session id (the drawer's finding, the CLI report's `where:`): `session S1`, `session
 * WebSocket #2`, and a listen, which is no session, by its name alone: `listen 3` (not `session listen 3`).
 */
export function sessionMention(id: string, name: SessionIdName): string {
  const shown = name(id);
  return shown === listenName(id) ? shown : `session ${shown}`;
}

/**
 * `text` (a finding's detail: "ws:doc.3 ended (transport-closed) at seq 25") with the WebSocket session ids it names
 * as the views show them. Only ids `name` renames are touched, whole (a longer id that starts with one is left).
 */
export function nameSessionsIn(text: string, name: SessionIdName): string {
  if (name === AS_IS || !text.includes('ws:')) return text;
  return text.replace(/ws:[^\s,;()]+/g, (id) => {
    // A sentence's full stop or colon after the id is not part of it.
    for (let end = id.length; end > 3; end--) {
      const shown = name(id.slice(0, end));
      if (shown !== id.slice(0, end)) return shown + id.slice(end);
      if (!/[.:]/.test(id[end - 1]!)) break;
    }
    return id;
  });
}

/**
 * What the views show for a session: the session id (a WebSocket's as `name` says: `WebSocket #2`); for a listen,
 * `listen <request id>`. A session a reloaded page resumed has its earlier session's id: `S1 (resumed #2)` (its key
 * is `S1 #2`) tells the two apart.
 */
export function sessionLabel(s: Named, name: SessionIdName = AS_IS): string {
  if (s.kind === 'listen') return listenName(s.label);
  const id = name(s.label);
  if (s.resumedFrom === undefined) return id;
  const n = s.key !== undefined && s.key.startsWith(`${s.label} #`) ? s.key.slice(s.label.length + 1) : '';
  return `${id} (resumed${n ? ` ${n}` : ''})`;
}

/**
 * What `session:` looks at on a session or a listen (a Sessions row, a session lane): the names the panel shows for
 * it — the session id, the listen's request id, and its label as its row and lane say (`listen <id>`, `S1 (resumed
 * #2)`, `WebSocket #2`) — the ids the URI table and Findings match (a URI's holders, a finding's session). Never its
 * internal key: a listen's holds its page and endpoint, so `session:localhost` showed every listen and no session, and
 * `-session:mcp` hid every listen.
 */
export function sessionNames(s: Named, name: SessionIdName = AS_IS): string[] {
  const shown = sessionLabel(s, name);
  return shown === s.label ? [s.label] : [s.label, shown];
}

/** `ids` (session ids a row or finding is matched by) with the names the views show for them added. */
export function withShownNames(ids: readonly string[], name: SessionIdName): readonly string[] {
  if (name === AS_IS) return ids;
  let out: string[] | undefined;
  for (const id of ids) {
    const shown = name(id);
    if (shown !== id) (out ??= [...ids]).push(shown);
  }
  return out ?? ids;
}
