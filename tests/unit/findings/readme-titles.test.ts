// The README names findings as the panel does: by the title the panel shows (shared/findings/catalogue.ts) next to the
// id (`*"<title>"* (`<id>`)`), so a reader can find in the panel what the walkthrough promises, and the two cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../shared/findings/catalogue.ts';
import type { FindingId } from '../../../shared/findings/types.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** Every `*"title"*` followed by `(`id`…` in the text (a line break may fall between them). */
function quoted(text: string): { title: string; id: string }[] {
  return [...text.matchAll(/\*"([^"*]+)"\*\s+\(`([a-z-]+)`/g)].map((m) => ({ title: m[1] ?? '', id: m[2] ?? '' }));
}

describe('README finding titles', () => {
  it('the walkthrough quotes the panel titles of the reconnect-without-resubscribe findings, with their ids', () => {
    const step2 = README.slice(README.indexOf('2. Untick'), README.indexOf('Or let a scenario do the clicking'));
    expect(quoted(step2).map((q) => q.id).sort()).toEqual(['cached-not-subscribed', 'phantom-subscription']);
  });

  it('every quoted title is the catalogue title of the id next to it', () => {
    const q = quoted(README);
    expect(q.length).toBeGreaterThan(0);
    for (const { title, id } of q) {
      expect(id in CATALOGUE, id).toBe(true);
      expect(title, id).toBe(CATALOGUE[id as FindingId].title);
    }
  });
});
