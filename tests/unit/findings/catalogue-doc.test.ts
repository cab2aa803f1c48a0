// docs/findings.md is the catalogue's own text: rendered from shared/findings/catalogue.ts and compared here, so the
// document and the code cannot drift. Also: every id the engine can emit has an entry, and every entry is reachable.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, FINDING_IDS } from '../../../shared/findings/catalogue.ts';
import { renderFindingsDoc } from '../../support/findings-doc.ts';

const DOC = new URL('../../../docs/findings.md', import.meta.url);

describe('finding catalogue', () => {
  it('docs/findings.md equals the rendering of the catalogue', () => {
    const rendered = renderFindingsDoc();
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, rendered);
    expect(readFileSync(DOC, 'utf8')).toBe(rendered);
  });

  it('has the thirteen ids of the design, each with title, explanation and fix', () => {
    expect(FINDING_IDS.sort()).toEqual(
      [
        'cache-age-exceeded',
        'cached-not-subscribed',
        'missed-update',
        'no-delivery-channel',
        'notified-not-reread',
        'phantom-subscription',
        'protocol-header-missing',
        'resume-gap',
        'session-expired-not-reinitialized',
        'stale-overwrite',
        'subscribe-unsupported',
        'unsolicited-update',
        'version-regression',
      ].sort(),
    );
    for (const id of FINDING_IDS) {
      const c = CATALOGUE[id];
      expect(c.id).toBe(id);
      expect(c.title.length && c.explanation.length > 80 && c.fix.length > 30).toBeTruthy();
    }
  });

  it('every id is emitted somewhere in the engine', () => {
    const src = ['coverage', 'refresh', 'lifecycle', 'protocol-checks']
      .map((f) => readFileSync(new URL(`../../../shared/findings/${f}.ts`, import.meta.url), 'utf8'))
      .join('\n');
    for (const id of FINDING_IDS) expect(src.includes(`'${id}'`), id).toBe(true);
  });
});
