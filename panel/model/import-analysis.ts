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

function same(a: TraceAnalysis, b: TraceAnalysis): boolean {
  return JSON.stringify([a.freshnessRules, a.defaultMaxAgeMs, a.graceMs ?? DEFAULT_GRACE_MS]) === JSON.stringify([b.freshnessRules, b.defaultMaxAgeMs, b.graceMs ?? DEFAULT_GRACE_MS]);
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
  const s = settings ?? DEFAULT_SETTINGS;
  const panel: TraceAnalysis = { freshnessRules: s.freshnessRules, defaultMaxAgeMs: s.defaultMaxAgeMs, graceMs: DEFAULT_GRACE_MS };
  if (!recorded) {
    return { text: 'analysed with your settings: the trace does not record the ones it was exported with', detail: `your settings: ${options(panel)}`, differs: false };
  }
  const differs = !same(recorded, panel);
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
