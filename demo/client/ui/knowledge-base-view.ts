// The viewer itself: the document list (resources/list, with lastModified) and the selected document as the client's
// cache holds it, next to what the server holds right now — so a stale read is visible without any tooling.
import type { AppState } from '../app-state.ts';
import { age, clock, shortUri } from './format.ts';
import { h, type Child } from './dom.ts';

export interface KbActions {
  select(uri: string): void;
  refresh(uri: string): void;
  edit(uri: string): void;
  show(uri: string): void;
}

export function documentList(s: AppState, a: KbActions): HTMLElement {
  const c = s.client;
  const items = c.documents.map((d) =>
    h('li', { class: d.uri === s.selected ? 'selected' : '', 'data-uri': d.uri, onclick: () => a.select(d.uri) },
      h('div', { class: 'doc-title' }, d.title ?? d.name),
      h('div', { class: 'doc-meta' }, shortUri(d.uri), ' · modified ', clock(d.lastModified),
        c.cache.has(d.uri) ? h('span', { class: 'badge' }, 'cached') : null,
        c.believed.has(d.uri) ? h('span', { class: 'badge sub' }, 'subscribed?') : null),
    ),
  );
  return h('div', {}, h('h2', {}, 'Documents'),
    items.length ? h('ul', {}, ...items) : h('p', { class: 'muted' }, c.conn ? 'No documents listed.' : 'Not connected.'));
}

/** Title and buttons of the selected document: changes only with the selection, so clicks are never lost to a re-render. */
export function documentHead(s: AppState, a: KbActions): HTMLElement {
  const uri = s.selected;
  if (!uri) return h('div', { class: 'document-head' }, h('p', { class: 'muted' }, 'Pick a document.'));
  return h('div', { class: 'document-head' },
    h('h2', {}, uri),
    h('div', { class: 'buttons' },
      h('button', { id: 'refresh', onclick: () => a.refresh(uri), title: 'Force a resources/read' }, 'Refresh'),
      h('button', { id: 'show', onclick: () => a.show(uri), title: 'Read through the cache (what the app does on navigation)' }, 'Show'),
      h('button', { id: 'edit', onclick: () => a.edit(uri), title: 'Edit this document on the server (admin)' }, 'Edit on server'),
    ),
  );
}

/** The cached copy with its ticking age, next to the server's current revision. */
export function documentBody(s: AppState): HTMLElement {
  const uri = s.selected;
  if (!uri) return h('div');
  const entry = s.client.cache.get(uri);
  const server = s.server?.documents.find((d) => d.uri === uri);
  const now = Date.now();
  let verdict: Child = null;
  if (entry && server) {
    const fresh = entry.text === server.text;
    verdict = h('span', { id: 'freshness', class: fresh ? 'ok' : 'bad', 'data-fresh': String(fresh) },
      fresh ? `matches the server (revision ${server.revision})` : `STALE — the server is at revision ${server.revision}, modified ${clock(server.lastModified)}`);
  }
  return h('div', { class: 'document-body' },
    entry
      ? h('div', { class: 'cache-line' }, 'Cached since ', clock(entry.readAt), ' · age ', h('span', { class: 'age' }, age(now - entry.readAt)),
        entry.ttlMs !== undefined ? ` · ttlMs ${entry.ttlMs}` : '', entry.dirty ? h('span', { class: 'badge warn' }, 'dirty') : null, ' · ', verdict)
      : h('div', { class: 'cache-line muted' }, 'Not cached yet.'),
    h('pre', { id: 'content', class: 'content' }, entry?.text ?? ''),
  );
}
