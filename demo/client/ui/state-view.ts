// The cache table (what is cached, since when, ticking age, ttl, dirty, what the client believes vs what the server
// holds for this session), the seed's client and server metrics, and the event log.
import type { AppState } from '../app-state.ts';
import { LISTING_URI } from '../kb-client.ts';
import { age, clock, percent, shortUri } from './format.ts';
import { h } from './dom.ts';

/** The subscriptions the server really holds for the client's current session or listen streams. */
function serverSubscriptions(s: AppState): Set<string> | undefined {
  if (!s.server) return undefined;
  const conn = s.client.conn;
  if (conn?.sessionId) return new Set(s.server.sessions.find((x) => x.id === conn.sessionId)?.subscriptions ?? []);
  if (conn?.settings.generation === '2026-07-28') return new Set(s.server.listens.flatMap((l) => l.uris));
  return new Set();
}

export function cacheTable(s: AppState): HTMLElement {
  const c = s.client;
  const now = Date.now();
  const onServer = serverSubscriptions(s);
  const target = (uri: string) => (c.switches.subscribeTo === 'parent' && uri.startsWith(LISTING_URI) ? LISTING_URI : uri);
  const rows = c.cache.all().map((e) => {
    const t = target(e.uri);
    const believed = c.believed.has(t);
    const held = onServer?.has(t);
    const gap = believed && held === false;
    return h('tr', { 'data-uri': e.uri, class: gap ? 'gap' : '' },
      h('td', {}, shortUri(e.uri)), h('td', {}, clock(e.readAt)), h('td', { class: 'age' }, age(now - e.readAt)),
      h('td', {}, e.ttlMs === undefined ? '–' : age(e.ttlMs)), h('td', {}, e.dirty ? 'dirty' : ''),
      h('td', {}, believed ? (t === e.uri ? 'yes' : `via ${shortUri(t)}`) : c.polled.has(t) ? 'no (polling)' : 'no'),
      h('td', {}, held === undefined ? '?' : held ? 'yes' : 'NO'),
    );
  });
  return h('section', { class: 'pane cache' }, h('h2', {}, `Cache (${c.cache.size})`),
    h('table', { id: 'cache-table' },
      h('thead', {}, h('tr', {}, ...['URI', 'cached since', 'age', 'ttl', '', 'client believes subscribed', 'server holds subscription'].map((t) => h('th', {}, t)))),
      h('tbody', {}, ...rows)));
}

export function metricsView(s: AppState): HTMLElement {
  const m = s.client.metrics;
  const r = m.ratios();
  const conn = s.client.conn;
  const sm = s.server?.metrics;
  const item = (k: string, v: string | number) => h('div', { class: 'metric' }, h('span', { class: 'k' }, k), h('span', { class: 'v' }, String(v)));
  return h('section', { class: 'pane metrics' }, h('h2', {}, 'Metrics'),
    h('div', { class: 'metric-group' }, h('h3', {}, 'Client'),
      item('connection', conn ? `${conn.protocolVersion ?? '?'} ${conn.sessionId ? `· session ${conn.sessionId.slice(0, 8)}…` : ''}` : 'none'),
      item('subscribe success', percent(r.subscribeSuccess)), item('reconnects', m.reconnects),
      item('reconnects → resubscribe', percent(r.resubscribeAfterReconnect)), item('notifications → read', percent(r.readAfterNotification)),
      item('avg cache age', age(s.client.cache.averageAgeMs(Date.now()))), item('reads (discarded)', `${m.reads} (${m.readsDiscarded})`)),
    sm ? h('div', { class: 'metric-group' }, h('h3', {}, 'Server'),
      item('active sessions', s.server?.sessions.length ?? 0), item('listen streams', s.server?.listens.length ?? 0),
      item('updated sent (per min)', `${sm.updatesSent} (${sm.updatesPerMinute})`), item('dropped: nobody subscribed', sm.droppedNoSubscriber),
      item('dropped by fault', sm.droppedByFault), item('sent without open stream', sm.lostNoChannel), item('edits', sm.edits))
      : h('p', { class: 'muted' }, s.serverError ?? 'Server state unavailable.'),
  );
}

export function logView(s: AppState): HTMLElement {
  const lines = s.log.slice(-150).reverse().map((l) =>
    h('div', { class: `log-line ${l.kind}` }, h('span', { class: 't' }, clock(l.at)), h('span', { class: 'kind' }, l.kind), l.uri ? h('span', { class: 'uri' }, shortUri(l.uri)) : null, ' ', l.text));
  return h('section', { class: 'pane log' }, h('h2', {}, 'Events'), h('div', { id: 'log' }, ...lines));
}
