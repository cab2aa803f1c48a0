// The imported trace's note on its analysis settings: the trace's own or the panel's, and when they differ.
import { describe, expect, it } from 'vitest';
import { importAnalysisNote, importSettingsLine } from '../../../panel/model/import-analysis.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';

const RULE = { pattern: 'file:///docs/**', maxAgeMs: 1000 };
const recorded = { freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000 };

describe('importAnalysisNote', () => {
  it("the trace's own settings, differing from the panel's: said, with both, and how to apply the panel's", () => {
    expect(importAnalysisNote(recorded, 'trace', DEFAULT_SETTINGS)).toEqual({
      text: "analysed with the trace's own settings (1 freshness rule, default max age 10 min 00 s), not yours (no freshness rule, default max age 10 min 00 s): saving settings applies yours",
      detail: "the trace's settings: --rule 'file:///docs/**=1000' --default-max-age 600000; yours: --default-max-age 600000",
      differs: true,
    });
  });

  it('nothing to say when the trace\'s settings are the panel\'s (a missing grace is the default one)', () => {
    expect(importAnalysisNote({ freshnessRules: [RULE], defaultMaxAgeMs: 600_000 }, 'trace', { ...DEFAULT_SETTINGS, freshnessRules: [RULE] })).toBeNull();
    expect(importAnalysisNote({ freshnessRules: [], defaultMaxAgeMs: 600_000 }, 'trace', null)).toBeNull();
  });

  it("the panel's settings: whether they differ from the trace's, or that the trace records none", () => {
    expect(importAnalysisNote(recorded, 'panel', DEFAULT_SETTINGS)).toMatchObject({ text: "analysed with your settings, which differ from the trace's own (1 freshness rule, default max age 10 min 00 s): findings may differ from what was exported", differs: true });
    expect(importAnalysisNote({ ...recorded, graceMs: 0 }, 'panel', { ...DEFAULT_SETTINGS, freshnessRules: [RULE] })).toMatchObject({ differs: true, text: expect.stringContaining('grace 0 ms') });
    expect(importAnalysisNote(recorded, 'panel', { ...DEFAULT_SETTINGS, freshnessRules: [RULE] })).toMatchObject({ text: "analysed with your settings, the same as the trace's own", differs: false });
    expect(importAnalysisNote(undefined, 'panel', null)).toMatchObject({ text: 'analysed with your settings: the trace does not record the ones it was exported with', differs: false });
  });

  it('compares the settings field by field: the order of a rule\'s properties, or ones a newer writer adds, differ in nothing', () => {
    const reordered = { freshnessRules: [{ maxAgeMs: 1000, pattern: 'file:///docs/**', note: 'x' } as typeof RULE], defaultMaxAgeMs: 600_000, graceMs: 2000, extra: 1 };
    const panel = { ...DEFAULT_SETTINGS, freshnessRules: [RULE] };
    expect(importAnalysisNote({ ...reordered, graceMs: undefined }, 'trace', panel)).toBeNull();
    expect(importAnalysisNote({ ...reordered, graceMs: undefined }, 'panel', panel)).toMatchObject({ differs: false });
    // A real difference still is one: the max age, the order of the rules, the grace.
    expect(importAnalysisNote({ ...reordered, freshnessRules: [{ ...RULE, maxAgeMs: 2000 }] }, 'panel', panel)).toMatchObject({ differs: true });
    const two = [RULE, { pattern: 'file:///**', maxAgeMs: 5 }];
    expect(importAnalysisNote({ freshnessRules: two, defaultMaxAgeMs: 600_000 }, 'panel', { ...DEFAULT_SETTINGS, freshnessRules: [...two].reverse() })).toMatchObject({ differs: true });
    expect(importAnalysisNote({ ...recorded, graceMs: 500 }, 'panel', panel)).toMatchObject({ differs: true });
  });
});

describe('importSettingsLine', () => {
  it("says in the Settings dialog that the view uses the trace's own settings, and what Save does", () => {
    expect(importSettingsLine(recorded, 'trace', DEFAULT_SETTINGS)).toBe(
      'The imported trace in view is analysed with the settings it records (1 freshness rule, default max age 10 min 00 s), not with these: saving a change to the freshness rules or the default max age analyses it again with yours; saving without one keeps its own.',
    );
    expect(importSettingsLine({ freshnessRules: [], defaultMaxAgeMs: 600_000 }, 'trace', null)).toContain('(no freshness rule, default max age 10 min 00 s, the same as these)');
    // Analysed with the panel's (the dialog's are the view's), or no trace's settings at all: nothing to say.
    expect(importSettingsLine(recorded, 'panel', DEFAULT_SETTINGS)).toBeNull();
    expect(importSettingsLine(undefined, 'panel', DEFAULT_SETTINGS)).toBeNull();
  });
});
