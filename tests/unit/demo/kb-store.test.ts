// The knowledge base's pure state: seed content, edits (revision, lastModified, listeners), reset.
import { describe, expect, it } from 'vitest';
import { KbStore } from '../../../demo/server/kb-store.ts';
import { listResources, readResource } from '../../../demo/server/resources.ts';

describe('KbStore', () => {
  it('edits bump the revision and lastModified and tell listeners; reset goes back to the seed', () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const store = new KbStore(() => t);
    const seen: string[] = [];
    store.onChange((e) => seen.push(`${e.uri}@${e.revision}`));
    const before = store.get('file:///docs/policy.md');
    t += 1000;
    const after = store.edit('file:///docs/policy.md');
    expect(after?.revision).toBe(2);
    expect(after?.lastModified).toBe('2026-01-01T00:00:01.000Z');
    expect(after?.text).not.toBe(before?.text);
    expect(after?.text.startsWith(before?.text ?? '')).toBe(true);
    expect(seen).toEqual(['file:///docs/policy.md@2']);
    expect(store.edit('file:///nope')).toBeUndefined();
    store.reset();
    expect(store.get('file:///docs/policy.md')?.revision).toBe(1);
  });

  it('article edits keep valid JSON rows; the timer never picks the schema', () => {
    const store = new KbStore();
    const a = store.edit('postgres://kb/articles/102', 'New body');
    expect(JSON.parse(a?.text ?? '')).toMatchObject({ id: 102, body: 'New body', revision: 2 });
    expect(store.editableByTimer()).not.toContain('postgres://kb/articles/schema');
  });

  it('resources: the listing is readable, unknown URIs are undefined', () => {
    const store = new KbStore();
    expect(listResources(store)[0]?.uri).toBe('file:///docs/');
    expect(readResource(store, 'file:///docs/')?.mimeType).toBe('application/json');
    expect(readResource(store, 'postgres://kb/articles/999')).toBeUndefined();
  });
});
