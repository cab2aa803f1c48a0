// Which client a URI row (or a finding) belongs to, in a few words, when the table (or the Findings view, or the CLI's
// report) shows more than one: two frames of a page connected to the same server, or two servers that both offer
// `config://app`, would otherwise give rows that read the same. Only what tells the clients apart is said: the
// endpoint when endpoints differ, the page (top or iframe) when two documents share an endpoint. One client: no tag at
// all.
import type { ClientView, EngineSnapshot, Finding, UriRow } from '../../shared/engine/index.ts';

type Rowish = Pick<UriRow, 'doc' | 'endpoint'>;

export const clientKeyOf = (r: Rowish): string => `${r.doc} ${r.endpoint}`;

/** host + path (+ query) of a URL, without its scheme; the text as given when it is not one. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'ws:' && u.protocol !== 'wss:') return url;
    return `${u.host}${u.pathname === '/' && !u.search ? '' : u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

function pageName(c: Pick<ClientView, 'doc' | 'page'>): string {
  if (!c.page) return `document ${c.doc.slice(0, 6)}`;
  return c.page.top ? 'top page' : `iframe ${shortUrl(c.page.url)}`;
}

type Clientish = Pick<ClientView, 'doc' | 'endpoint' | 'page'> & { ended?: boolean };

/**
 * Pages' names, told apart where two read the same: a document that unloaded is `(unloaded)` (`(unloaded #2)` among
 * several), the live ones numbered among the live ones (`#2`). Numbered among all, an iframe that reloaded was
 * `iframe localhost:44273 #2` in the table, its `#1` (the unloaded one, whose rows went) listed nowhere but in
 * Findings (a review).
 */
function pageNames(docs: readonly Clientish[]): string[] {
  const names = docs.map(pageName);
  const count = (keep: (i: number) => boolean) => {
    const m = new Map<string, number>();
    names.forEach((n, i) => keep(i) && m.set(n, (m.get(n) ?? 0) + 1));
    return m;
  };
  const total = count(() => true);
  const live = count((i) => docs[i]!.ended !== true);
  const ended = count((i) => docs[i]!.ended === true);
  const seen = new Map<string, number>();
  return names.map((n, i) => {
    if (total.get(n) === 1) return n;
    const gone = docs[i]!.ended === true;
    const key = `${gone ? 'e' : 'l'} ${n}`;
    const k = (seen.get(key) ?? 0) + 1;
    seen.set(key, k);
    if (gone) return ended.get(n) === 1 ? `${n} (unloaded)` : `${n} (unloaded #${k})`;
    return live.get(n) === 1 ? n : `${n} #${k}`;
  });
}

/** Names that differ, each made unique by its order of appearance (`#2`, `#3`) where two would read the same. */
function unique(names: string[]): string[] {
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const n of names) total.set(n, (total.get(n) ?? 0) + 1);
  return names.map((n) => {
    if (total.get(n) === 1) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return `${n} #${k}`;
  });
}

/**
 * A tag per client key (`doc endpoint`) among the clients that have rows; empty when they are fewer than two.
 * Clients are taken in the engine's order (first seen first), so a tag does not change as rows come and go. Which
 * parts a tag has (the page, the endpoint) is decided among the clients shown; the names themselves, numbered where
 * two read alike, among all the snapshot's clients — so the URI table and the Findings view, which show different
 * clients, call one client the same (a review found `iframe w/frame #2` in one and `iframe w/frame` in the other);
 * an unloaded document is called so rather than numbered (see pageNames).
 */
export function clientTags(clients: readonly Clientish[], rows: readonly Rowish[]): Map<string, string> {
  const tags = new Map<string, string>();
  const withRows = new Set(rows.map(clientKeyOf));
  if (withRows.size < 2) return tags;
  const shown = clients.filter((c) => withRows.has(clientKeyOf(c)));
  const endpoints = new Set(shown.map((c) => c.endpoint));
  const perEndpoint = new Map<string, number>();
  for (const c of shown) perEndpoint.set(c.endpoint, (perEndpoint.get(c.endpoint) ?? 0) + 1);
  const sharedEndpoint = [...perEndpoint.values()].some((n) => n > 1);
  const allEndpoints = [...new Set(clients.map((c) => c.endpoint))];
  const endpointNames = endpoints.size > 1 ? unique(allEndpoints.map(shortUrl)) : [];
  const endpointName = new Map(allEndpoints.map((e, i) => [e, endpointNames[i]]));
  // Named per document (one iframe on two servers is one iframe), numbered across documents that read alike.
  const docs = [...new Map(clients.map((c) => [c.doc, c])).values()];
  const docNames = sharedEndpoint ? pageNames(docs) : [];
  const pageOf = new Map(docs.map((c, i) => [c.doc, docNames[i]]));
  shown.forEach((c) => {
    const parts = [pageOf.get(c.doc), endpointName.get(c.endpoint)].filter((p): p is string => p !== undefined);
    tags.set(clientKeyOf(c), parts.join(' · '));
  });
  return tags;
}

const cache = new WeakMap<object, Map<string, string>>();

/** clientTags of a snapshot's live rows, computed once per snapshot. */
export function snapshotClientTags(snap: Pick<EngineSnapshot, 'clients' | 'uris'>): Map<string, string> {
  let tags = cache.get(snap);
  if (!tags) cache.set(snap, (tags = clientTags(snap.clients, snap.uris)));
  return tags;
}

const findingCache = new WeakMap<object, { clients: object; tags: Map<string, string> }>();

/**
 * clientTags of a snapshot's findings, as the URI table's of its rows: decided among the clients the findings are of
 * (those that name their client: a capture error names none), so one client's findings carry no tag. Once per
 * findings array.
 */
export function findingClientTags(snap: Pick<EngineSnapshot, 'clients' | 'findings'>): Map<string, string> {
  const hit = findingCache.get(snap.findings);
  if (hit && hit.clients === snap.clients) return hit.tags;
  const tags = clientTags(snap.clients, snap.findings.filter(hasClient));
  findingCache.set(snap.findings, { clients: snap.clients, tags });
  return tags;
}

const hasClient = (f: Finding): f is Finding & Rowish => f.doc !== undefined && f.endpoint !== undefined;

/** A finding's tag among `tags` (findingClientTags), or '' (no tag: one client, or a finding of no client). */
export function findingClientTag(tags: ReadonlyMap<string, string>, f: Pick<Finding, 'doc' | 'endpoint'>): string {
  return f.doc === undefined || f.endpoint === undefined ? '' : (tags.get(clientKeyOf({ doc: f.doc, endpoint: f.endpoint })) ?? '');
}

const sessionCache = new WeakMap<object, { clients: object; tags: Map<string, string> }>();

/**
 * clientTags of a snapshot's sessions and listens, as the URI table's of its rows: decided among the clients that
 * have sessions, so one client's sessions carry no tag (two iframes' sessions were two rows alike in the Sessions
 * grid: a review). Once per sessions array.
 */
export function sessionClientTags(snap: Pick<EngineSnapshot, 'clients' | 'sessions'>): Map<string, string> {
  const hit = sessionCache.get(snap.sessions);
  if (hit && hit.clients === snap.clients) return hit.tags;
  const tags = clientTags(snap.clients, snap.sessions);
  sessionCache.set(snap.sessions, { clients: snap.clients, tags });
  return tags;
}

/**
 * A document's page in words, for a drawer's Page fact: its URL and whether it is the top page or an iframe, then
 * `extra` (the browser frame and page segment of a frame), and the tag the views show it by, if any.
 */
export function pageFact(clients: readonly Pick<ClientView, 'doc' | 'page'>[], doc: string, tag: string | undefined, extra = ''): string {
  const page = clients.find((c) => c.doc === doc && c.page)?.page;
  const where = page ? `${page.url} (${page.top ? 'top page' : 'iframe'}${extra ? `, ${extra}` : ''})` : `— (its page load is not in view${extra ? `; ${extra}` : ''})`;
  return tag ? `${where}; shown as “${tag}”` : where;
}

/** The tag a document is shown by in the views (the URI table's or the Sessions grid's), when all say one. */
export function docTag(snap: Pick<EngineSnapshot, 'clients' | 'sessions' | 'uris'>, doc: string): string | undefined {
  const found = new Set<string>();
  for (const tags of [snapshotClientTags(snap), sessionClientTags(snap)]) for (const [k, v] of tags) if (k.startsWith(`${doc} `)) found.add(v);
  return found.size === 1 ? [...found][0] : undefined;
}
