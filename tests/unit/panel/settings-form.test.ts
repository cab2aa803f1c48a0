// The settings dialog's form model: what the fields show, what is sent, and the problems named in the fields' words.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { parseArgs } from '../../../cli/analyze.ts';
import { NOT_SAVED_RECONNECTING, capDropNote, cliOptions, defaultText, defaultsDraft, editRule, moveRule, newRule, draftProblem, fromDraft, ruleNotes, sameUris, saveRoute, toDraft } from '../../../panel/model/settings-form.ts';
import { DEFAULT_SETTINGS, validateSettings } from '../../../shared/settings.ts';

const base = () => toDraft(DEFAULT_SETTINGS);

describe('settings form', () => {
  it('round-trips the defaults, and what it sends the background accepts', () => {
    expect(fromDraft(base())).toEqual(DEFAULT_SETTINGS);
    expect(draftProblem(base())).toBeUndefined();
    expect(validateSettings(fromDraft(base())).ok).toBe(true);
  });

  it('takes decimals (a 1.5 s rule, 0.5 MiB is refused only for its range) and drops untouched empty rules', () => {
    const d = { ...base(), rules: [{ pattern: ' file:///docs/** ', seconds: '1.5' }, { pattern: '', seconds: '' }] };
    expect(draftProblem(d)).toBeUndefined();
    expect(fromDraft(d).freshnessRules).toEqual([{ pattern: 'file:///docs/**', maxAgeMs: 1500 }]);
    expect(draftProblem({ ...base(), maxMiB: '0.5' })).toEqual({ field: 'maxMiB', message: 'Max size: a number of MiB from 1 to 2,048' });
    expect(draftProblem({ ...base(), maxMiB: '1.5' })).toBeUndefined();
    // A rule added ("+ Add rule" fills in its max age) and left without a pattern is dropped too.
    const added = { ...base(), rules: [newRule()] };
    expect(draftProblem(added)).toBeUndefined();
    expect(fromDraft(added).freshnessRules).toEqual([]);
    // Not a saved 60 s rule whose pattern the user cleared, nor an added one whose max age was typed: named.
    const saved = toDraft({ ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: 'file:///a', maxAgeMs: 60_000 }] });
    expect(draftProblem({ ...saved, rules: [editRule(saved.rules[0]!, { pattern: '' })] })?.field).toBe('rule-0-pattern');
    expect(draftProblem({ ...base(), rules: [editRule(newRule(), { seconds: '60' })] })?.field).toBe('rule-0-pattern');
  });

  it('says before Save that caps below what the log holds drop its oldest frames now, and in every tab', () => {
    const log = { frames: 1601, bytes: 3 * 1024 * 1024 };
    expect(capDropNote(base(), log)).toBeUndefined();
    expect(capDropNote({ ...base(), maxFrames: '1000' }, log)).toMatch(/^This tab's log holds 1,601 frames: Save drops its oldest frames now .* every other tab/);
    expect(capDropNote({ ...base(), maxFrames: '1000', maxMiB: '2' }, log)).toMatch(/holds 1,601 frames and 3\.0 MiB:/);
    // Not while the field is empty or not a number (the problem is named at Save), nor without a tab.
    expect(capDropNote({ ...base(), maxFrames: '' }, log)).toBeUndefined();
    expect(capDropNote({ ...base(), maxFrames: 'x' }, log)).toBeUndefined();
    // Nor for a cap Save refuses (below its minimum, not whole): it drops nothing.
    expect(capDropNote({ ...base(), maxFrames: '999' }, log)).toBeUndefined();
    expect(capDropNote({ ...base(), maxFrames: '1000.5' }, log)).toBeUndefined();
    expect(capDropNote({ ...base(), maxFrames: '1000' }, null)).toBeUndefined();
  });

  it('names the field of each problem in the words of the form', () => {
    expect(draftProblem({ ...base(), rules: [{ pattern: '', seconds: '5' }] })).toEqual({ field: 'rule-0-pattern', message: 'Rule 1: enter a URI pattern (a glob such as file:///docs/**)' });
    expect(draftProblem({ ...base(), rules: [{ pattern: 'a', seconds: '5' }, { pattern: 'b', seconds: '-1' }] })?.field).toBe('rule-1-seconds');
    expect(draftProblem({ ...base(), rules: [{ pattern: 'a', seconds: 'x' }] })?.message).toBe('Rule 1 max age: “x” is not a number (plain decimal digits, such as 1.5 or 0.5); a number of seconds from 0.001 to 2,592,000 (30 days)');
    expect(draftProblem({ ...base(), defaultSeconds: '' })?.field).toBe('defaultSeconds');
    expect(draftProblem({ ...base(), maxFrames: '5' })).toEqual({ field: 'maxFrames', message: 'Max frames: a number of frames from 1,000 to 5,000,000' });
    expect(draftProblem({ ...base(), maxFrames: '1000.5' })).toEqual({ field: 'maxFrames', message: 'Max frames: a whole number of frames' });
    expect(draftProblem({ ...base(), maxFrames: '1e4' })?.message).toMatch(/^Max frames: “1e4” is not a number/);
    expect(draftProblem({ ...base(), bodyCapKiB: '1e9' })?.field).toBe('bodyCapKiB');
  });

  it('takes header names separated by commas and refuses what is not one', () => {
    expect(fromDraft({ ...base(), extraHeaders: 'X-Tenant, x-customer-key,' }).capture.extraSecretHeaders).toEqual(['X-Tenant', 'x-customer-key']);
    // Header names are case-insensitive: each is kept once, as first spelled, by the form (a review, 2026-12-06: `x-a,,x-a, X-A` saved three).
    expect(fromDraft({ ...base(), extraHeaders: 'x-a,,x-a, X-A' }).capture.extraSecretHeaders).toEqual(['x-a']);
    expect(fromDraft({ ...base(), extraHeaders: 'X-Key, x-other, x-KEY' }).capture.extraSecretHeaders).toEqual(['X-Key', 'x-other']);
    // What is stored is validateSettings' output: lower case, each name once, also for settings saved before the form deduplicated.
    const stored = validateSettings({ ...DEFAULT_SETTINGS, capture: { ...DEFAULT_SETTINGS.capture, extraSecretHeaders: ['X-Key', 'x-other', 'x-KEY', 'x-key'] } });
    expect(stored.ok && stored.settings.capture.extraSecretHeaders).toEqual(['x-key', 'x-other']);
    const fromForm = validateSettings(fromDraft({ ...base(), extraHeaders: 'X-Key, x-KEY' }));
    expect(fromForm.ok && fromForm.settings.capture.extraSecretHeaders).toEqual(['x-key']);
    expect(draftProblem({ ...base(), extraHeaders: 'x-ok, bad header!' })).toEqual({ field: 'extraHeaders', message: 'Extra secret headers: “bad header!” is not a header name (separate names with commas)' });
  });

  it('says the saved freshness rules as npm run analyze options, which the CLI reads back to the same rules', () => {
    const rules = [
      { pattern: 'file:**', maxAgeMs: 60_000 },
      { pattern: "db://it's a=b/*", maxAgeMs: 1500 },
    ];
    const text = cliOptions({ freshnessRules: rules, defaultMaxAgeMs: 600_000 });
    expect(text).toBe("--rule 'file:**=60000' --rule 'db://it'\\''s a=b/*=1500' --default-max-age 600000");
    // As a shell splits it (globs quoted: a bare ** would expand).
    const words = spawnSync('bash', ['-c', `printf '%s\\n' ${text}`], { encoding: 'utf8' }).stdout.trim().split('\n');
    const parsed = parseArgs(['t.json', ...words]);
    expect(typeof parsed === 'object' && 'options' in parsed ? parsed.options : parsed).toMatchObject({ freshnessRules: rules, defaultMaxAgeMs: 600_000 });
    expect(cliOptions({ freshnessRules: [], defaultMaxAgeMs: 5000 })).toBe('--default-max-age 5000');
  });
});

describe('where a Save goes', () => {
  it('a tab panel sends it; with its port down it is not saved (and says so), never applied here only to be undone', () => {
    let sends = 0;
    expect(saveRoute(true, () => (++sends, true))).toBe('sent');
    expect(saveRoute(true, () => (++sends, false))).toBe('reconnecting');
    expect(NOT_SAVED_RECONNECTING).toMatch(/^Not saved: .*reconnecting/);
    // An offline panel (an imported trace, no tab) keeps settings itself: nothing is sent.
    expect(saveRoute(false, () => (++sends, true))).toBe('local');
    expect(sends).toBe(2);
  });

  it('restores the defaults into the form (saved only with Save) and says each field\'s default in its unit', () => {
    const edited = { ...toDraft({ ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: 'file:///a', maxAgeMs: 1000 }], maxFrames: 5000 }), bodyCapKiB: '64' };
    expect(fromDraft(defaultsDraft())).toEqual(DEFAULT_SETTINGS);
    expect(defaultsDraft()).toEqual(base());
    expect(edited).not.toEqual(base());
    expect([defaultText('defaultSeconds'), defaultText('maxFrames'), defaultText('maxMiB'), defaultText('bodyCapKiB')]).toEqual(['default 600 s', 'default 250,000 frames', 'default 128 MiB', 'default 256 KiB']);
  });

  it('moves a rule up or down (the order is the precedence), and not past either end', () => {
    const d = { ...base(), rules: [{ pattern: 'a:', seconds: '1' }, { pattern: 'b:', seconds: '2' }, { pattern: 'c:', seconds: '3' }] };
    expect(moveRule(d, 2, -1).rules.map((r) => r.pattern)).toEqual(['a:', 'c:', 'b:']);
    expect(moveRule(d, 0, 1).rules.map((r) => r.pattern)).toEqual(['b:', 'a:', 'c:']);
    expect(moveRule(d, 0, -1)).toBe(d);
    expect(moveRule(d, 2, 1)).toBe(d);
    expect(fromDraft(moveRule(d, 1, -1)).freshnessRules.map((r) => r.pattern)).toEqual(['b:', 'a:', 'c:']);
  });

  it('notes a rule with no scheme, one an earlier rule shadows, one that matches no URI in view — without blocking Save', () => {
    const uris = ['file:///docs/policy.md', 'file:///docs/faq.md', 'postgres://kb/items'];
    const rules = (...ps: string[]) => ({ ...base(), rules: ps.map((pattern) => ({ pattern, seconds: '60' })) });
    // The filter box's `uri:*.md` mistake: a pattern covers the whole URI.
    const noScheme = rules('*.md', 'docs/policy.md');
    expect(ruleNotes(noScheme, uris).get(0)).toBe('Rule 1: *.md has no scheme (file://, postgres://): a pattern is a glob over the whole URI, and * stays within one segment: try **.md');
    expect(ruleNotes(noScheme, []).get(1)).toMatch(/^Rule 2: docs\/policy\.md has no scheme .*: try \*\*\/docs\/policy\.md$/);
    expect(draftProblem(noScheme)).toBeUndefined();
    // The suggestion matches.
    expect(ruleNotes(rules('**.md'), uris).size).toBe(0);
    // First match wins (shared/engine/freshness.ts): a later, narrower rule never applies.
    const shadowed = rules('file:///docs/**', 'file:///docs/policy.md');
    expect(ruleNotes(shadowed, []).get(1)).toBe('Rule 2 never applies: rule 1 (file:///docs/**) matches first (the first matching rule wins): move it above rule 1');
    expect(ruleNotes(shadowed, uris).has(0)).toBe(false);
    // Reordered, neither is shadowed.
    expect(ruleNotes(moveRule(shadowed, 1, -1), []).size).toBe(0);
    // …but with policy.md in view, the moved rule 2 takes only faq.md: said when that URI is not in view.
    expect(ruleNotes(moveRule(shadowed, 1, -1), uris).size).toBe(0);
    expect(ruleNotes(moveRule(shadowed, 1, -1), ['file:///docs/policy.md']).get(1)).toBe(
      'Rule 2 applies to no URI in view: its one URI is matched first by rule 1 (file:///docs/policy.md): the first matching rule wins',
    );
    expect(ruleNotes(rules('postgres://**', 'postgres://**'), []).get(1)).toBe('Rule 2 never applies: rule 1 has the same pattern and matches first (the first matching rule wins)');
    expect(ruleNotes(rules('**', 'postgres://kb/*'), []).get(1)).toMatch(/^Rule 2 never applies: rule 1 \(\*\*\) matches first/);
    // Shadowed in view only: every URI it matches is taken by earlier rules.
    expect(ruleNotes(rules('file:///docs/p*', 'file:///docs/f*', 'file:///docs/*.md'), uris).get(2)).toBe(
      'Rule 3 applies to no URI in view: its 2 URIs are matched first by rule 1 (file:///docs/p*) and rule 2 (file:///docs/f*): the first matching rule wins',
    );
    // A rule matching no URI in view; nothing said of that with no URI in view.
    expect(ruleNotes(rules('file:///src/**'), uris).get(0)).toBe('Rule 1 matches none of the 3 URIs in view');
    expect(ruleNotes(rules('file:///src/**'), []).size).toBe(0);
    // Rules without a pattern are the Save check's business.
    expect(ruleNotes(rules(''), uris).size).toBe(0);
  });

  it('names text that is no number (1,5: not 15 as an English number input read it) in the panel\'s words, and 1e400 by its range', () => {
    expect(draftProblem({ ...base(), defaultSeconds: '1,5' })).toEqual({
      field: 'defaultSeconds',
      message: 'Default max age: “1,5” is not a number (plain decimal digits, such as 1.5 or 0.5); a number of seconds from 1 to 2,592,000',
    });
    // Plain decimals only, as the CLI takes (a review: 0x10 was saved as 16 s without a word); .5 is 0.5 there too.
    for (const t of ['1e400', '1e3', '0x10', '0b11', '.5', '5.', 'Infinity', '+5', '-0']) {
      expect(draftProblem({ ...base(), defaultSeconds: t })?.message).toBe(`Default max age: “${t}” is not a number (plain decimal digits, such as 1.5 or 0.5); a number of seconds from 1 to 2,592,000`);
    }
    expect(draftProblem({ ...base(), rules: [{ pattern: 'file:///a', seconds: '0x10' }] })?.field).toBe('rule-0-seconds');
    expect(draftProblem({ ...base(), maxFrames: '1e6' })?.message).toMatch(/^Max frames: “1e6” is not a number/);
    expect(draftProblem({ ...base(), bodyCapKiB: '0x100' })?.message).toMatch(/^Body cap: “0x100” is not a number/);
    expect(draftProblem({ ...base(), rules: [{ pattern: 'file:///a', seconds: '0.5' }] })).toBeUndefined();
    expect(draftProblem({ ...base(), rules: [{ pattern: 'file:///a', seconds: ' 5 s ' }] })?.message).toBe(
      'Rule 1 max age: “5 s” is not a number (plain decimal digits, such as 1.5 or 0.5); a number of seconds from 0.001 to 2,592,000 (30 days)',
    );
    expect(draftProblem({ ...base(), maxMiB: '1,024' })?.message).toMatch(/^Max size: “1,024” is not a number/);
    // An empty field is just out of range; a number with spaces round it is a number.
    expect(draftProblem({ ...base(), defaultSeconds: '' })?.message).toBe('Default max age: a number of seconds from 1 to 2,592,000');
    expect(draftProblem({ ...base(), defaultSeconds: ' 1.5 ' })).toBeUndefined();
  });


  it('keeps one URI list for the rule notes while the URIs in view stay the same (a live snapshot is a new list each time)', () => {
    const a = sameUris(undefined, ['file:///b', 'file:///a', 'file:///a']);
    expect(a).toEqual(['file:///a', 'file:///b']);
    // The same URIs in another order (rows sorted by status), or read by another client: the same list.
    expect(sameUris(a, ['file:///a', 'file:///b'])).toBe(a);
    expect(sameUris(a, ['file:///b', 'file:///a', 'file:///b'])).toBe(a);
    const b = sameUris(a, ['file:///a', 'file:///b', 'file:///c']);
    expect(b).not.toBe(a);
    expect(b).toEqual(['file:///a', 'file:///b', 'file:///c']);
    expect(sameUris(b, ['file:///a'])).toEqual(['file:///a']);
  });
});
