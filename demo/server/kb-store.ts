// The knowledge base's live state: every editable resource with its text, revision and lastModified. Pure (no I/O, no
// SDK); the clock is injected so tests are deterministic. Edits notify listeners with the URI that changed — the
// fan-out (update-fanout.ts) decides who, if anyone, hears about it.
import {
  ARTICLES_SCHEMA,
  EDIT_NOTES,
  SCHEMA_URI,
  SEED_ARTICLES,
  SEED_DOCUMENTS,
  articleUri,
} from './seed-documents.ts';

export type EntryKind = 'document' | 'article' | 'schema';

export interface KbEntry {
  uri: string;
  kind: EntryKind;
  name: string;
  title: string;
  mimeType: string;
  text: string;
  /** 1 for the seed content, +1 per edit. */
  revision: number;
  /** ISO 8601, as `annotations.lastModified`. */
  lastModified: string;
}

export type ChangeListener = (entry: KbEntry) => void;

export class KbStore {
  private entries = new Map<string, KbEntry>();
  private listeners = new Set<ChangeListener>();
  private bodies = new Map<string, string>();
  private edits = 0;
  /** When the current seed was loaded: the listing's lastModified (edits to bodies never change the listing). */
  seededAt = '';

  constructor(private readonly now: () => number = Date.now) {
    this.reset();
  }

  /** Back to the seed content (revision 1 everywhere). Does not notify. */
  reset(): void {
    this.entries.clear();
    this.bodies.clear();
    const at = new Date(this.now()).toISOString();
    this.seededAt = at;
    for (const d of SEED_DOCUMENTS) {
      this.bodies.set(d.uri, d.body);
      this.entries.set(d.uri, { uri: d.uri, kind: 'document', name: d.name, title: d.title, mimeType: d.mimeType, text: d.body, revision: 1, lastModified: at });
    }
    for (const a of SEED_ARTICLES) {
      const uri = articleUri(a.id);
      this.bodies.set(uri, a.body);
      this.entries.set(uri, { uri, kind: 'article', name: `article ${a.id}`, title: a.title, mimeType: 'application/json', text: articleText(a.id, a.title, a.body, 1, at), revision: 1, lastModified: at });
    }
    this.entries.set(SCHEMA_URI, { uri: SCHEMA_URI, kind: 'schema', name: 'articles schema', title: 'Articles table schema', mimeType: 'application/json', text: JSON.stringify(ARTICLES_SCHEMA, null, 2), revision: 1, lastModified: at });
  }

  get(uri: string): KbEntry | undefined {
    return this.entries.get(uri);
  }

  all(kind?: EntryKind): KbEntry[] {
    const list = [...this.entries.values()];
    return kind ? list.filter((e) => e.kind === kind) : list;
  }

  /** URIs the edit timer cycles through (documents and article rows; never the schema). */
  editableByTimer(): string[] {
    return this.all().filter((e) => e.kind !== 'schema').map((e) => e.uri);
  }

  /**
   * A new revision of `uri`: `text` replaces the body when given, otherwise a revision line is appended to the original.
   * Returns the updated entry, or undefined when the URI is not an editable resource.
   */
  edit(uri: string, text?: string): KbEntry | undefined {
    const old = this.entries.get(uri);
    if (!old) return undefined;
    this.edits += 1;
    const revision = old.revision + 1;
    const at = new Date(this.now()).toISOString();
    const note = EDIT_NOTES[(this.edits - 1) % EDIT_NOTES.length] ?? '';
    let newText: string;
    if (old.kind === 'article') {
      const body = text ?? `${this.bodies.get(uri) ?? ''} ${note}`;
      newText = articleText(Number(uri.slice(uri.lastIndexOf('/') + 1)), old.title, body, revision, at);
    } else if (old.kind === 'schema') {
      newText = text ?? JSON.stringify({ ...ARTICLES_SCHEMA, revision, note }, null, 2);
    } else {
      newText = text ?? `${this.bodies.get(uri) ?? ''}\n\n_Revision ${revision} (${at}): ${note}_`;
    }
    const entry: KbEntry = { ...old, text: newText, revision, lastModified: at };
    this.entries.set(uri, entry);
    for (const l of this.listeners) l(entry);
    return entry;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function articleText(id: number, title: string, body: string, revision: number, updatedAt: string): string {
  return JSON.stringify({ id, title, body, revision, updated_at: updatedAt }, null, 2);
}
