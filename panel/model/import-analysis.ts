// What the imported trace's note says about the analysis settings its view uses (docs/panel.md, Import): the ones the
// trace records (what the exporting view used) or the panel's, and whether they differ from the other. Pure.
import { DEFAULT_GRACE_MS } from '../../shared/engine/index.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/settings.ts';
import type { TraceAnalysis } from '../../shared/trace/index.ts';
import { formatDuration } from './format.ts';
import { cliOptions } from './settings-form.ts';

export interface AnalysisNote {
  /** One line for the note beside the tabs. */
  text: string;
  /** The whole settings, for the tooltip (as the CLI's options). */
  detail: string;
  /** The trace's settings and the panel's differ: findings may differ from one to the other. */
  differs: boolean;
}

/**
 * The same analysis: rule by rule (pattern and max age, in order: the first match wins), the default max age and the
 * grace. Field by field, not as JSON: a trace that lists a rule's maxAgeMs before its pattern, or carries properties a
 * newer writer added, was said to differ (a review).
 */
export function sameAnalysis(a: TraceAnalysis, b: TraceAnalysis): boolean {
  return (
    a.defaultMaxAgeMs === b.defaultMaxAgeMs &&
    (a.graceMs ?? DEFAULT_GRACE_MS) === (b.graceMs ?? DEFAULT_GRACE_MS) &&
    a.freshnessRules.length === b.freshnessRules.length &&
    a.freshnessRules.every((r, i) => r.pattern === b.freshnessRules[i]!.pattern && r.maxAgeMs === b.freshnessRules[i]!.maxAgeMs)
  );
}

function panelAnalysis(settings: Settings | null): TraceAnalysis {
  const s = settings ?? DEFAULT_SETTINGS;
  return { freshnessRules: s.freshnessRules, defaultMaxAgeMs: s.defaultMaxAgeMs, graceMs: DEFAULT_GRACE_MS };
}

/** `2 freshness rules, default max age 1 min`; the grace only when it is not the engine's. */
function summary(a: TraceAnalysis): string {
  const n = a.freshnessRules.length;
  const grace = (a.graceMs ?? DEFAULT_GRACE_MS) !== DEFAULT_GRACE_MS ? `, grace ${formatDuration(a.graceMs!)}` : '';
  return `${n === 0 ? 'no freshness rule' : n === 1 ? '1 freshness rule' : `${n} freshness rules`}, default max age ${formatDuration(a.defaultMaxAgeMs)}${grace}`;
}

function options(a: TraceAnalysis): string {
  return cliOptions(a) + ((a.graceMs ?? DEFAULT_GRACE_MS) !== DEFAULT_GRACE_MS ? ` --grace ${a.graceMs}` : '');
}

/**
 * The note on an imported trace's settings. `analysedWith` is the store's (ImportedTrace): `trace` when the view uses
 * the trace's recorded settings, `panel` when it uses the panel's (`settings`; null before the panel has them: the
 * defaults). Null when there is nothing to say: the trace's settings are used and are the panel's too.
 */
export function importAnalysisNote(recorded: TraceAnalysis | undefined, analysedWith: 'trace' | 'panel', settings: Settings | null): AnalysisNote | null {
  const panel = panelAnalysis(settings);
  if (!recorded) {
    return { text: 'analysed with your settings: the trace does not record the ones it was exported with', detail: `your settings: ${options(panel)}`, differs: false };
  }
  const differs = !sameAnalysis(recorded, panel);
  if (analysedWith === 'trace') {
    if (!differs) return null;
    return {
      text: `analysed with the trace's own settings (${summary(recorded)}), not yours (${summary(panel)}): saving settings applies yours`,
      detail: `the trace's settings: ${options(recorded)}; yours: ${options(panel)}`,
      differs,
    };
  }
  return {
    text: differs ? `analysed with your settings, which differ from the trace's own (${summary(recorded)}): findings may differ from what was exported` : 'analysed with your settings, the same as the trace\'s own',
    detail: `yours: ${options(panel)}; the trace's: ${options(recorded)}`,
    differs,
  };
}

/**
 * What the Settings dialog says while an imported trace is analysed with the settings it records: the view is not
 * analysed with the dialog's (its rules, the npm run analyze options it shows), and what Save does to it (store.ts,
 * the `settings` message: a change to the rules or the default max age analyses it again with the panel's). Null
 * otherwise (a live tab, or an import analysed with the panel's settings: the dialog's are the view's).
 */
export function importSettingsLine(recorded: TraceAnalysis | undefined, analysedWith: 'trace' | 'panel', settings: Settings | null): string | null {
  if (!recorded || analysedWith !== 'trace') return null;
  const alike = sameAnalysis(recorded, panelAnalysis(settings)) ? ', the same as these' : '';
  return (
    `The imported trace in view is analysed with the settings it records (${summary(recorded)}${alike}), not with these: ` +
    'saving a change to the freshness rules or the default max age analyses it again with yours; saving without one keeps its own.'
  );
}
