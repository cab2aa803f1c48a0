// docs/findings.md is the catalogue's own text: rendered from shared/findings/catalogue.ts and compared here, so the
// document and the code cannot drift. Also: every id the engine can emit has an entry, and every entry is reachable.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { CATALOGUE, FINDING_IDS, PHANTOM_REASONS, RESUME_REASONS } from '../../../shared/findings/catalogue.ts';
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

  it("a fix that says to read again says how with the 2.x SDK client, whose readResource() answers from its cache within ttlMs", () => {
    // The option as @modelcontextprotocol/client 2.x spells it (tsc checks this line against its types); what it does
    // on the wire: tests/unit/engine/sdk-v2-recovery.test.ts.
    const refresh: NonNullable<Parameters<Client['readResource']>[1]>['cacheMode'] = 'refresh';
    const how = `readResource(params, { cacheMode: '${refresh}' })`;
    const fixes = {
      'resume-gap': CATALOGUE['resume-gap'].fix,
      'cache-age-exceeded': CATALOGUE['cache-age-exceeded'].fix,
      'no-event-ids': RESUME_REASONS['no-event-ids'].fix,
      'subscription-lapsed': RESUME_REASONS['subscription-lapsed'].fix,
      'lapse-reread-late': RESUME_REASONS['lapse-reread-late'].fix,
      'subscribe-not-offered': PHANTOM_REASONS['subscribe-not-offered'].fix,
    };
    for (const [what, fix] of Object.entries(fixes)) {
      expect(fix, what).toContain(how);
      expect(fix, what).toMatch(/a plain call answers from its cache while the last answer's ttlMs lasts\.$/);
    }
    // An updated notification evicts its URI from the SDK's cache: a plain re-read after one reaches the server.
    expect(CATALOGUE['notified-not-reread'].fix).not.toContain('cacheMode');
  });

  it('docs/findings.md names every resume-gap reason', () => {
    const doc = renderFindingsDoc();
    for (const r of Object.keys(RESUME_REASONS)) expect(doc, r).toContain(`| \`${r}\` |`);
  });

  it('every id is emitted somewhere in the engine', () => {
    const src = ['coverage', 'refresh', 'lifecycle', 'protocol-checks']
      .map((f) => readFileSync(new URL(`../../../shared/findings/${f}.ts`, import.meta.url), 'utf8'))
      .join('\n');
    for (const id of FINDING_IDS) expect(src.includes(`'${id}'`), id).toBe(true);
  });
});
