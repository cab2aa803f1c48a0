// The MCP view of the knowledge base, independent of SDK generation: what resources/list, resources/templates/list and
// resources/read return. v1.ts and v2.ts wire these into their SDKs. The listing file:///docs/ is a resource whose content
// is the list of documents (names and URIs only), so editing a document never changes it — the seed's "parent URI" trap.
import type { KbEntry, KbStore } from './kb-store.ts';
import { ARTICLE_TEMPLATE, LISTING_URI, SCHEMA_URI } from './seed-documents.ts';

export interface ListedResource {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
  annotations: { lastModified: string };
}

export interface ResourceSnapshot {
  uri: string;
  mimeType: string;
  text: string;
  lastModified: string;
}

export interface TemplateDescription {
  uriTemplate: string;
  name: string;
  title: string;
  mimeType: string;
}

const LISTING_NAME = 'docs';
const LISTING_TITLE = 'Document index';

function listed(e: KbEntry): ListedResource {
  return { uri: e.uri, name: e.name, title: e.title, mimeType: e.mimeType, annotations: { lastModified: e.lastModified } };
}

/** Every concrete resource: the listing, the documents, the schema and the article rows (the template's expansion). */
export function listResources(store: KbStore): ListedResource[] {
  const listing: ListedResource = {
    uri: LISTING_URI,
    name: LISTING_NAME,
    title: LISTING_TITLE,
    mimeType: 'application/json',
    annotations: { lastModified: store.seededAt },
  };
  return [listing, ...store.all('document').map(listed), ...store.all('schema').map(listed), ...store.all('article').map(listed)];
}

export function listTemplates(): TemplateDescription[] {
  return [{ uriTemplate: ARTICLE_TEMPLATE, name: 'article', title: 'Knowledge-base article by id', mimeType: 'application/json' }];
}

export function listingText(store: KbStore): string {
  return JSON.stringify(
    store.all('document').map((d) => ({ uri: d.uri, name: d.name, title: d.title })),
    null,
    2,
  );
}

/** The current content of `uri`, or undefined when there is no such resource. Taken at call time (a snapshot). */
export function readResource(store: KbStore, uri: string): ResourceSnapshot | undefined {
  if (uri === LISTING_URI) return { uri, mimeType: 'application/json', text: listingText(store), lastModified: store.seededAt };
  const e = store.get(uri);
  return e ? { uri: e.uri, mimeType: e.mimeType, text: e.text, lastModified: e.lastModified } : undefined;
}

export function isKnownResource(store: KbStore, uri: string): boolean {
  return uri === LISTING_URI || store.get(uri) !== undefined;
}

export { LISTING_URI, SCHEMA_URI };
