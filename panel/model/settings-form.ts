// The settings dialog's form: settings as the fields show them (seconds, MiB, KiB, a comma-separated header list), back
// again, and the check that runs before anything is sent — in the words and units of the fields, naming the field, so
// it can be marked and focused. The background validates again (shared/settings.ts): its limits are the same.
import { globToRegExp, type FreshnessRule } from '../../shared/engine/index.ts';
import { DEFAULT_SETTINGS, LIMITS, isHeaderName, type Settings } from '../../shared/settings.ts';

export interface DraftRule {
  pattern: string;
  seconds: string;
  /** Put there by "+ Add rule" and not edited since (editRule clears it). */
  fresh?: true;
  /** Identifies the rule's row while rules move (its fields keep what was typed in them): not saved. */
  key?: number;
}

let nextRuleKey = 1;

export interface Draft {
  rules: DraftRule[];
  defaultSeconds: string;
  maxFrames: string;
  maxMiB: string;
  bodyCapKiB: string;
  extraHeaders: string;
}

/** A field of the form: `rule-<i>-pattern`, `rule-<i>-seconds`, or a Draft key. */
export type FieldId = `rule-${number}-pattern` | `rule-${number}-seconds` | 'defaultSeconds' | 'maxFrames' | 'maxMiB' | 'bodyCapKiB' | 'extraHeaders';

export interface DraftProblem {
  field: FieldId;
  message: string;
}

export function toDraft(s: Settings): Draft {
  return {
    rules: s.freshnessRules.map((r) => ({ pattern: r.pattern, seconds: String(r.maxAgeMs / 1000), key: nextRuleKey++ })),
    defaultSeconds: String(s.defaultMaxAgeMs / 1000),
    maxFrames: String(s.maxFrames),
    maxMiB: String(s.maxBytes / 1024 / 1024),
    bodyCapKiB: String(s.capture.bodyCapBytes / 1024),
    extraHeaders: s.capture.extraSecretHeaders.join(', '),
  };
}

/** "Restore defaults": the form as the defaults fill it (no rules). Saved only with Save, as any edit. */
export function defaultsDraft(): Draft {
  return toDraft(DEFAULT_SETTINGS);
}

/** The numeric fields outside the rules. */
export type NumberField = 'defaultSeconds' | 'maxFrames' | 'maxMiB' | 'bodyCapKiB';

/** Each numeric field's unit, as shown beside it and said in its description. */
export const UNITS: Record<NumberField, string> = { defaultSeconds: 's', maxFrames: 'frames', maxMiB: 'MiB', bodyCapKiB: 'KiB' };

/** What a field holds by default, in its unit: "default 600 s", "default 250,000 frames". */
export function defaultText(field: NumberField): string {
  const v = Number(defaultsDraft()[field]);
  return `default ${v.toLocaleString('en-US', { maximumFractionDigits: 3 })} ${UNITS[field]}`;
}

/** The rules with rule `i` moved one place up (-1) or down (+1); the same draft when it cannot move. */
export function moveRule(d: Draft, i: number, by: -1 | 1): Draft {
  const j = i + by;
  if (i < 0 || i >= d.rules.length || j < 0 || j >= d.rules.length) return d;
  const rules = [...d.rules];
  [rules[i], rules[j]] = [rules[j]!, rules[i]!];
  return { ...d, rules };
}

/** What "+ Add rule" puts in a new rule's max age. */
export const NEW_RULE_SECONDS = '60';

/** The rule "+ Add rule" adds. */
export function newRule(): DraftRule {
  return { pattern: '', seconds: NEW_RULE_SECONDS, fresh: true, key: nextRuleKey++ };
}

/** A rule as the user edited it: no longer one just added. */
export function editRule(r: DraftRule, patch: Partial<Pick<DraftRule, 'pattern' | 'seconds'>>): DraftRule {
  const { fresh: _, ...rest } = r;
  return { ...rest, ...patch };
}

/**
 * Rules without a pattern are dropped, not errors, when their max age is empty or the rule was added and never edited
 * (its filled-in max age blocked Save with "enter a URI pattern": an audit, 2026-12-05). A rule whose pattern the user
 * cleared, or a max age typed without a pattern, is still named: it is not dropped without a word.
 */
function filledRules(d: Draft): Draft['rules'] {
  return d.rules.filter((r) => r.pattern.trim() !== '' || (r.seconds.trim() !== '' && !r.fresh));
}

/** The extra secret header names, each once: header names are case-insensitive (`x-a, X-A` is one; the first spelling is kept here; validateSettings stores it lower-cased). */
function headerNames(d: Draft): string[] {
  const seen = new Set<string>();
  return d.extraHeaders
    .split(',')
    .map((h) => h.trim())
    .filter((h) => {
      if (h === '' || seen.has(h.toLowerCase())) return false;
      seen.add(h.toLowerCase());
      return true;
    });
}

export function fromDraft(d: Draft): Settings {
  const rules: FreshnessRule[] = filledRules(d).map((r) => ({ pattern: r.pattern.trim(), maxAgeMs: decimal(r.seconds) * 1000 }));
  return {
    freshnessRules: rules,
    defaultMaxAgeMs: decimal(d.defaultSeconds) * 1000,
    maxFrames: decimal(d.maxFrames),
    maxBytes: decimal(d.maxMiB) * 1024 * 1024,
    capture: { bodyCapBytes: decimal(d.bodyCapKiB) * 1024, extraSecretHeaders: headerNames(d) },
  };
}

/** A shell word: left bare when it is plain, else in single quotes. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_\-./:=@%+,]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** The freshness settings as `npm run analyze` options (they replace the settings a trace records; the CLI takes milliseconds). */
export function cliOptions(s: Pick<Settings, 'freshnessRules' | 'defaultMaxAgeMs'>): string {
  return [...s.freshnessRules.map((r) => `--rule ${shellWord(`${r.pattern}=${r.maxAgeMs}`)}`), `--default-max-age ${s.defaultMaxAgeMs}`].join(' ');
}

const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 3 });

/**
 * A number field's text as a number: plain decimal digits with a fraction if any (`600`, `1.5`, spaces round it
 * trimmed), as the CLI reads its milliseconds (cli/analyze.ts): not what Number() also takes, `0x10` (saved as 16 s
 * without a word), `0b11`, `1e3`, `Infinity`; nor `.5` or `5.` (the CLI refuses them too: 0.5). NaN otherwise.
 */
function decimal(text: string): number {
  const t = text.trim();
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
}

function outside(text: string, scale: number, [lo, hi]: readonly [number, number]): boolean {
  if (text.trim() === '') return true;
  const v = decimal(text) * scale;
  return !Number.isFinite(v) || v < lo || v > hi;
}

/**
 * A number field's text that is no number at all (`1,5`, `1.5s`): said with the range. The fields are text fields
 * (inputmode decimal) read by the panel: a number input let Chrome judge first — its "Please enter a number." bubble
 * for `1e400`, and `1,5` read as 15 in an English locale (the comma a thousands separator), without a word.
 */
function notANumber(text: string): string {
  const t = text.trim();
  return t !== '' && Number.isNaN(decimal(t)) ? `“${t}” is not a number (plain decimal digits, such as 1.5 or 0.5); ` : '';
}

/** The first problem of the form, in its own words; undefined when it can be saved. */
export function draftProblem(d: Draft): DraftProblem | undefined {
  const rules = filledRules(d);
  for (let i = 0; i < d.rules.length; i++) {
    const r = d.rules[i]!;
    if (!rules.includes(r)) continue;
    if (r.pattern.trim() === '') return { field: `rule-${i}-pattern`, message: `Rule ${i + 1}: enter a URI pattern (a glob such as file:///docs/**)` };
    const [lo, hi] = LIMITS.ruleMaxAgeMs;
    if (outside(r.seconds, 1000, LIMITS.ruleMaxAgeMs)) return { field: `rule-${i}-seconds`, message: `Rule ${i + 1} max age: ${notANumber(r.seconds)}a number of seconds from ${fmt(lo / 1000)} to ${fmt(hi / 1000)} (30 days)` };
  }
  const checks: Array<[FieldId, string, number, readonly [number, number], string, number]> = [
    ['defaultSeconds', 'Default max age', 1000, LIMITS.defaultMaxAgeMs, 'seconds', 1000],
    ['maxFrames', 'Max frames', 1, LIMITS.maxFrames, 'frames', 1],
    ['maxMiB', 'Max size', 1024 * 1024, LIMITS.maxBytes, 'MiB', 1024 * 1024],
    ['bodyCapKiB', 'Body cap', 1024, LIMITS.bodyCapBytes, 'KiB', 1024],
  ];
  for (const [field, label, scale, range, unit, unitScale] of checks) {
    if (outside(d[field as keyof Draft] as string, scale, range)) {
      return { field, message: `${label}: ${notANumber(d[field as keyof Draft] as string)}a number of ${unit} from ${fmt(range[0] / unitScale)} to ${fmt(range[1] / unitScale)}` };
    }
  }
  // A frame count is whole: 1000.5 is refused rather than rounded behind the user's back.
  if (!Number.isInteger(decimal(d.maxFrames))) return { field: 'maxFrames', message: 'Max frames: a whole number of frames' };
  for (const h of headerNames(d)) {
    if (!isHeaderName(h)) return { field: 'extraHeaders', message: `Extra secret headers: “${h}” is not a header name (separate names with commas)` };
  }
  return undefined;
}

/**
 * What may surprise about each rule of the draft, keyed by its index, said under it without blocking Save (as the
 * filter box's notes): a pattern with no scheme (a glob covers the whole URI, and `*` stays within a segment, so `*.md`
 * matches no file:///docs/a.md; the filter box says the same of `uri:*.md`), a rule an earlier one shadows (the engine
 * applies the first matching rule: shared/engine/freshness.ts), a rule that matches none of the URIs in view.
 * `inView`: the URIs in view (none: nothing is said about them).
 */
/**
 * The URIs in view for ruleNotes, as a set in a stable order: `prev` itself when they are the same URIs (a live
 * snapshot is a new list each time, in order of status: ruleNotes ran rules × URIs at every one while the dialog was
 * open, a review), so a memo on it holds.
 */
export function sameUris(prev: readonly string[] | undefined, uris: readonly string[]): readonly string[] {
  const next = [...new Set(uris)].sort();
  return prev && prev.length === next.length && prev.every((u, i) => u === next[i]) ? prev : next;
}

export function ruleNotes(d: Draft, inView: readonly string[]): Map<number, string> {
  const notes = new Map<number, string>();
  // A URI several clients read is one URI.
  const uris = [...new Set(inView)];
  const rules = d.rules.map((r) => {
    const pattern = r.pattern.trim();
    return pattern === '' ? undefined : { pattern, re: globToRegExp(pattern) };
  });
  rules.forEach((r, i) => {
    if (!r) return;
    const { pattern, re } = r;
    const name = `Rule ${i + 1}`;
    if (!pattern.includes(':') && !pattern.includes('**')) {
      const fix = pattern.startsWith('*') ? `**${pattern.replace(/^\*+/, '')}` : pattern.startsWith('/') ? `**${pattern}` : `**/${pattern}`;
      notes.set(i, `${name}: ${pattern} has no scheme (file://, postgres://): a pattern is a glob over the whole URI, and * stays within one segment: try ${fix}`);
      return;
    }
    const earlier = rules.slice(0, i).map((e, k) => (e ? { ...e, k } : undefined)).filter((e) => e !== undefined);
    // Shadowed whatever the URIs: the same pattern, or a literal URI an earlier rule matches.
    const literal = !/[*?]/.test(pattern);
    const over = earlier.find((e) => e.pattern === pattern || e.pattern === '**' || (literal && e.re.test(pattern)));
    if (over?.pattern === pattern) {
      notes.set(i, `${name} never applies: rule ${over.k + 1} has the same pattern and matches first (the first matching rule wins)`);
      return;
    }
    if (over) {
      notes.set(i, `${name} never applies: rule ${over.k + 1} (${over.pattern}) matches first (the first matching rule wins): move it above rule ${over.k + 1}`);
      return;
    }
    if (uris.length === 0) return;
    const matched = uris.filter((u) => re.test(u));
    if (matched.length === 0) {
      notes.set(i, `${name} matches none of the ${uris.length.toLocaleString('en-US')} URIs in view`);
      return;
    }
    const first = matched.map((u) => earlier.find((e) => e.re.test(u)));
    if (first.every((e) => e !== undefined)) {
      const by = [...new Set(first.map((e) => e!.k))].sort((a, b) => a - b).map((k) => `rule ${k + 1} (${rules[k]!.pattern})`);
      const its = matched.length === 1 ? 'its one URI is' : `its ${matched.length.toLocaleString('en-US')} URIs are`;
      notes.set(i, `${name} applies to no URI in view: ${its} matched first by ${by.join(' and ')}: the first matching rule wins`);
    }
  });
  return notes;
}

/** Said when Save is pressed while the panel's port to the background is down (it reconnects by itself). */
export const NOT_SAVED_RECONNECTING = 'Not saved: the panel is reconnecting to the extension. Your changes are still in the form: save again once the status line says Live.';

/**
 * Where a Save goes: to the background (which stores and applies it, then answers), applied in this panel only (no tab:
 * an offline panel on an imported trace has no background to keep it), or nowhere yet — a panel of a tab whose port
 * is reconnecting. Applying locally then was undone without a word when the port came back with the stored settings
 * (an audit, 2026-12-05).
 */
export function saveRoute(tabPanel: boolean, sent: () => boolean): 'sent' | 'local' | 'reconnecting' {
  if (!tabPanel) return 'local';
  return sent() ? 'sent' : 'reconnecting';
}

/**
 * Said under the caps while the draft's are below what this tab's log holds: Save drops the oldest frames at once, in
 * every tab over the new caps, with a tenth of the cap more so the log does not trim again at its next frame
 * (background/tab-log.ts). Undefined when nothing would go, or the draft's caps are not ones Save takes.
 */
export function capDropNote(d: Draft, log: { frames: number; bytes: number } | null | undefined): string | undefined {
  if (!log) return undefined;
  // Only caps Save would take: one it refuses drops nothing (its problem is named at Save).
  const overFrames = !outside(d.maxFrames, 1, LIMITS.maxFrames) && Number.isInteger(decimal(d.maxFrames)) && log.frames > decimal(d.maxFrames);
  const overBytes = !outside(d.maxMiB, 1024 * 1024, LIMITS.maxBytes) && log.bytes > decimal(d.maxMiB) * 1024 * 1024;
  if (!overFrames && !overBytes) return undefined;
  const what = [
    overFrames ? `${log.frames.toLocaleString('en-US')} frames` : '',
    overBytes ? `${(log.bytes / 1024 / 1024).toFixed(1)} MiB` : '',
  ].filter(Boolean).join(' and ');
  return `This tab's log holds ${what}: Save drops its oldest frames now (a tenth of the cap more than the excess), and those of every other tab over the new caps. They cannot be brought back: export the trace first to keep them.`;
}
