// `npm run analyze -- <trace.json> [--json] [--fail-on error|warning|info] [--fail-on-partial] [--now <ISO time>]
// [--rule <glob>=<ms>]… [--default-max-age <ms>] [--grace <ms>]`: replay a trace through the engine, print sessions,
// the URI table and the findings (or JSON), and exit 0 when nothing is at or above the --fail-on level (default:
// error), 1 when something is, 2 when the input or an option is unusable or the tool failed (frames it could not
// analyse included; a partial trace with --fail-on-partial). `main` takes its I/O as arguments so the tests run it
// in-process.
import { isUtf8 } from 'node:buffer';
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { printable, printableJson } from './printable.ts';
import { fileURLToPath } from 'node:url';
import { DEFAULT_GRACE_MS, DEFAULT_MAX_AGE_MS, Engine, type EngineOptions, type FreshnessRule, type Severity } from '../shared/engine/index.ts';
import { notATraceHint, notUtf8Problem, parseIsoTime, parseTrace, type TraceFileV1 } from '../shared/trace/index.ts';
import { renderReport } from './report.ts';
import { LIMITS } from '../shared/settings.ts';
import { isTraffic } from '../shared/frames.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The file's bytes (checked to be UTF-8), or its text. */
  readFile(path: string): Uint8Array | string;
}

const USAGE = 'usage: analyze <trace.json> [--json] [--fail-on warning|error|info] [--fail-on-partial] [--now <ISO time>] [--rule <glob>=<ms>] [--default-max-age <ms>] [--grace <ms>] [--ignore-trace-settings]';
const OPTIONS = `
Reads a trace exported by the MCP devtools panel (Export ▾ → Trace) and prints its sessions, URI table and findings.

  --json                  the report as JSON instead of text
  --fail-on <level>       exit 1 when an open or resolved finding is at or above error (default), warning or info
  --fail-on-partial       exit 2 when the trace is partial (the capture dropped frames of what it covers: its
                          header's dropped.frames is not 0; dropped.rejected, messages the page sent malformed,
                          does not count), the report still printed. Without it a
                          partial trace is analysed as it is, with a warning on stderr (and "partial": true in --json)
  --now <ISO time>        judge the trace as of that moment (e.g. 2026-12-02T10:00:00Z, or a time as the report
                          prints it: 2026-12-02 10:00:00.000 UTC; a zone is needed); later frames are left out.
                          Default: when the trace was exported (never before its last frame). Conditions younger
                          than the grace are not findings yet.
  --rule <glob>=<ms>      expected freshness for URIs matching the glob, repeatable, the first match wins: * any
                          run of characters within a path segment, ** across segments (file:** = every file: URI),
                          ? one character other than /; 1 ms to 30 days. Replaces the trace's rules (all of them)
  --default-max-age <ms>  expected freshness when nothing else says (1000 to 30 days); replaces the trace's
  --grace <ms>            how long a condition must hold before it is a finding (0 to 30 days); replaces the trace's
  --ignore-trace-settings judge with the defaults (no rule, default max age ${DEFAULT_MAX_AGE_MS}, grace ${DEFAULT_GRACE_MS}) and the
                          options above, not with the settings the trace records

Analysis settings: a trace exported since 2026-12-06 records the ones its view was analysed with (the panel's freshness
rules and default max age, the grace: its "analysis" header), and they are used unless an option above replaces one;
an older trace is judged with the defaults. The report says which were used and where each came from.

Milliseconds are plain decimal numbers (1000, 1.5; not 1e3 or 0x3e8); a rule's fraction of a millisecond is rounded to
the nearest, as the panel's saved settings are.

A file name of - reads the trace from stdin. Each option but --rule is given once, as its own argument (--now <time>, not
--now=<time>).

Exit status: 0 nothing at or above the level, 1 findings at or above it, 2 unusable file, bad option, a --now before
the first traffic frame (a page's start does not count), a partial trace with --fail-on-partial, or internal error.
Times are printed in UTC.`;
/** Asked for with --help: printed to stdout, exit 0. */
const HELP = Symbol('help');
const RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

interface Args {
  file: string;
  json: boolean;
  failOn: Severity;
  /** A partial trace (frames dropped before the export: `dropped.frames`) exits 2 instead of being judged as it is. */
  failOnPartial: boolean;
  /** Judge with the defaults, not the settings the trace records (the options still replace them). */
  ignoreTraceSettings: boolean;
  now: number | undefined;
  options: EngineOptions;
}

/**
 * A --now time: ISO 8601 with a time zone (`2026-12-02T10:00:00Z`, `…+01:00`), or as the report prints times
 * (`2026-12-02 10:00:00.000 UTC`, so a time copied from it works): a space for the T, `UTC` for Z, either case. A time
 * without a zone is refused, saying so: read as local time it would judge the trace at an hour that depends on the
 * machine. The number, or what is wrong in words.
 */
export function parseNow(v: string): number | string {
  // As milliseconds(): a time padded with spaces (a CI script's " $NOW") meant something else; say so rather than trim.
  if (v !== v.trim()) return `${JSON.stringify(v)} has spaces around it: give the time alone (e.g. 2026-12-02T10:00:00Z)`;
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?(Z|UTC|[+-]\d{2}:\d{2})?$/i.exec(v);
  const example = '2026-12-02T10:00:00Z, or as the report prints times: 2026-12-02 10:00:00.000 UTC';
  if (m) {
    if (m[3] === undefined) return `${JSON.stringify(v)} has no time zone: add Z (UTC) or an offset (±hh:mm), e.g. ${m[1]}T${m[2]}Z`;
    const t = parseIsoTime(`${m[1]}T${m[2]}${/^[+-]/.test(m[3]) ? m[3] : 'Z'}`);
    if (t !== undefined) return t;
  } else {
    const t = parseIsoTime(v);
    if (t !== undefined) return t;
  }
  return `expected an ISO 8601 time with a time zone (e.g. ${example}), got ${JSON.stringify(v)}`;
}

/** The longest --grace: 30 days, as the longest freshness (a condition held longer than any trace is never a finding). */
const MAX_GRACE_MS = LIMITS.ruleMaxAgeMs[1];

/**
 * A number of milliseconds as an option gives it: plain decimal digits, with a fraction if any (`1000`, `1.5`). Not
 * what Number() also takes (`0x3e8`, `1e3`, `Infinity`, ` 12 `): a CI script that writes those meant something else.
 */
function milliseconds(text: string): number | undefined {
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
}

export function parseArgs(argv: readonly string[]): Args | string | typeof HELP {
  let file: string | undefined;
  let json = false;
  let failOn: Severity = 'error';
  let failOnPartial = false;
  let ignoreTraceSettings = false;
  let now: number | undefined;
  const rules: FreshnessRule[] = [];
  const options: EngineOptions = {};
  let positional = false;
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string | undefined => argv[++i];
    // A CI wrapper appending its own flag must not silently weaken the user's (the last one would win).
    if (!positional && ['--fail-on', '--fail-on-partial', '--ignore-trace-settings', '--now', '--default-max-age', '--grace', '--json'].includes(a)) {
      if (seen.has(a)) return `${a} given twice`;
      seen.add(a);
    }
    if (!positional && a.startsWith('--') && a.includes('=')) return `unknown option ${a} (write ${a.slice(0, a.indexOf('='))} <value>, two arguments)`;
    if (positional || !a.startsWith('-') || a === '-') {
      if (file !== undefined) return `unexpected argument ${a}`;
      file = a;
    } else if (a === '--') positional = true;
    else if (a === '--json') json = true;
    else if (a === '--fail-on-partial') failOnPartial = true;
    else if (a === '--ignore-trace-settings') ignoreTraceSettings = true;
    else if (a === '--fail-on') {
      const v = value();
      if (v !== 'warning' && v !== 'error' && v !== 'info') return `--fail-on: expected warning, error or info, got ${v ?? 'nothing'}`;
      failOn = v;
    } else if (a === '--now') {
      const v = value();
      const t = v === undefined ? 'expected an ISO 8601 time (e.g. 2026-12-02T10:00:00Z), got nothing' : parseNow(v);
      if (typeof t === 'string') return `--now: ${t}`;
      now = t;
    } else if (a === '--rule') {
      const v = value() ?? '';
      const eq = v.lastIndexOf('=');
      const ms = eq > 0 ? milliseconds(v.slice(eq + 1)) : undefined;
      if (ms === undefined) return `--rule: expected <glob>=<milliseconds>, got ${v || 'nothing'}${eq > 0 ? ' (the milliseconds in plain decimal digits, e.g. 60000 or 1.5)' : ''}`;
      // The panel's limits for a rule (1 ms to 30 days), so a rule means the same in both; a fraction of a millisecond
      // is rounded to the nearest, as the panel's saved settings are (shared/settings.ts, validateSettings).
      const [lo, hi] = LIMITS.ruleMaxAgeMs;
      if (ms < lo || ms > hi) return `--rule: the milliseconds must be between ${lo} and ${hi} (30 days), as in the panel's settings; got ${v}`;
      const pattern = v.slice(0, eq).trim();
      if (pattern === '') return `--rule: expected <glob>=<milliseconds>, got ${v}`;
      rules.push({ pattern, maxAgeMs: Math.round(ms) });
    } else if (a === '--default-max-age' || a === '--grace') {
      const raw = value();
      const v = raw === undefined ? undefined : milliseconds(raw);
      if (v === undefined) return `${a}: expected a number of milliseconds ≥ 0, got ${raw === undefined ? 'nothing' : `${JSON.stringify(raw)} (plain decimal digits, e.g. 1000 or 1.5)`}`;
      if (a === '--grace') {
        if (v > MAX_GRACE_MS) return `--grace: must be between 0 and ${MAX_GRACE_MS} milliseconds (30 days); got ${JSON.stringify(raw)}`;
        options.graceMs = v;
      } else {
        // As the panel's settings allow: under a second every cached URI is over age at once.
        const [lo, hi] = LIMITS.defaultMaxAgeMs;
        if (v < lo || v > hi) return `--default-max-age: must be between ${lo} and ${hi} milliseconds (1 s to 30 days), as in the panel's settings; got ${JSON.stringify(raw)}`;
        options.defaultMaxAgeMs = Math.round(v);
      }
    } else if (a === '-h' || a === '--help') return HELP;
    else return `unknown option ${a}`;
  }
  if (file === undefined) return 'no trace file given';
  if (rules.length) options.freshnessRules = rules;
  return { file, json, failOn, failOnPartial, ignoreTraceSettings, now, options };
}

/** Why a file could not be read, in words (the code stays, for searching). */
function readProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    ENOENT: 'no such file',
    EISDIR: 'it is a directory',
    EACCES: 'permission denied',
    ERR_STRING_TOO_LONG: 'the file is too large to read as text (the limit is about 512 MB)',
  };
  const message = e instanceof Error ? e.message : String(e);
  if (code !== undefined) return words[code] ? `${words[code]} (${code})` : message.includes(code) ? message : `${message} (${code})`;
  return message;
}

export function main(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv);
  if (args === HELP) {
    io.stdout(`${USAGE}\n${OPTIONS}\n`);
    return 0;
  }
  if (typeof args === 'string') {
    io.stderr(`analyze: ${printable(args)}\n${USAGE}\n`);
    return 2;
  }
  // `-` is stdin: said so, not as a file named "-".
  const file = args.file === '-' ? 'stdin' : printable(args.file);
  let raw: Uint8Array | string;
  let text: string;
  try {
    raw = io.readFile(args.file);
    text = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  } catch (e) {
    io.stderr(`analyze: cannot read ${file}: ${printable(readProblem(e))}\n`);
    return 2;
  }
  let parsed: ReturnType<typeof parseTrace>;
  try {
    parsed = parseTrace(text);
  } catch (e) {
    io.stderr(`analyze: internal error while reading ${file}: ${printable(e instanceof Error ? e.message : String(e))}\n`);
    return 2;
  }
  if (!parsed.ok) {
    io.stderr(`analyze: ${file} is not a usable trace: ${printable(parsed.error)}${notATraceHint(text)}\n`);
    return 2;
  }
  // Traces are UTF-8: bytes that are not (a file re-saved in Latin-1) would reach the report as U+FFFD, changing URIs
  // and hashes without a word.
  if (typeof raw !== 'string' && !isUtf8(raw)) {
    io.stderr(`analyze: ${file} is not a usable trace: ${notUtf8Problem(raw)}\n`);
    return 2;
  }
  const frames = parsed.trace.frames;
  if (!frames.some(isTraffic)) {
    // An empty recording passing a CI job as clean is the mistake to catch (capture paused, or another tab exported).
    // A page's start and end are no traffic: a trace of them alone is as empty (a first-use review, 2026-12-06, had
    // one page-start pass with "0 error(s)").
    const dropped = parsed.trace.dropped.frames;
    const what = frames.length === 0 ? 'has no frames' : `has no traffic, only the page's start or end (${frames.length} frame${frames.length === 1 ? '' : 's'})`;
    const why = dropped ? ` (the capture dropped ${frames.length === 0 ? 'all ' : ''}${dropped})` : ' (was capture paused, or another tab exported?)';
    io.stderr(`analyze: ${file} ${what}: nothing to analyse${why}\n`);
    return 2;
  }
  try {
    return report(parsed.trace, args, io);
  } catch (e) {
    // Exit 1 means "findings": a failure of this tool must not read as one.
    io.stderr(`analyze: internal error while analysing ${file}: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    return 2;
  }
}

type SettingSource = 'option' | 'trace' | 'default';

/** The analysis settings used: each option given replaces the trace's own (its `analysis`), else the default. */
export function analysisSettings(trace: TraceFileV1, args: Pick<Args, 'options' | 'ignoreTraceSettings'>) {
  const recorded = args.ignoreTraceSettings ? undefined : trace.analysis;
  const pick = <T,>(given: T | undefined, fromTrace: T | undefined, fallback: T): [T, SettingSource] =>
    given !== undefined ? [given, 'option'] : fromTrace !== undefined ? [fromTrace, 'trace'] : [fallback, 'default'];
  const [freshnessRules, rulesFrom] = pick(args.options.freshnessRules, recorded?.freshnessRules, [] as FreshnessRule[]);
  const [defaultMaxAgeMs, maxAgeFrom] = pick(args.options.defaultMaxAgeMs, recorded?.defaultMaxAgeMs, DEFAULT_MAX_AGE_MS);
  const [graceMs, graceFrom] = pick(args.options.graceMs, recorded?.graceMs, DEFAULT_GRACE_MS);
  return { freshnessRules, defaultMaxAgeMs, graceMs, from: { freshnessRules: rulesFrom, defaultMaxAgeMs: maxAgeFrom, graceMs: graceFrom } };
}

/** `analysis: 1 freshness rule file:///docs/**=1000 (the trace's), default max age 600000 ms (the trace's), grace 2000 ms (default)` */
function settingsLine(a: ReturnType<typeof analysisSettings>): string {
  const from = (s: SettingSource): string => (s === 'option' ? 'option' : s === 'trace' ? "the trace's" : 'default');
  const rules = a.freshnessRules.length ? `freshness rules ${a.freshnessRules.map((r) => `${r.pattern}=${r.maxAgeMs}`).join(' ')}` : 'no freshness rule';
  return `analysis settings: ${rules} (${from(a.from.freshnessRules)}), default max age ${a.defaultMaxAgeMs} ms (${from(a.from.defaultMaxAgeMs)}), grace ${a.graceMs} ms (${from(a.from.graceMs)})`;
}

function report(trace: TraceFileV1, args: Args, io: CliIo): number {
  const analysis = analysisSettings(trace, args);
  const options: EngineOptions = { freshnessRules: analysis.freshnessRules, defaultMaxAgeMs: analysis.defaultMaxAgeMs, graceMs: analysis.graceMs };
  // --now judges the trace as of that moment: what came after it has not happened yet.
  const engine = Engine.replay(trace.frames, options, args.now !== undefined ? { t: args.now } : undefined);
  const later = trace.frames.length - engine.frameCount;
  // Nothing left to judge: a typo in the date must not pass as a clean trace. A page's start (stamped when the document
  // began, seconds before its first request) is not traffic.
  if (args.now !== undefined && later > 0 && !trace.frames.slice(0, engine.frameCount).some(isTraffic)) {
    const first = trace.frames.find(isTraffic) ?? trace.frames[0]!;
    // Frame times are sub-millisecond; an ISO time is not. Name the first whole millisecond that reaches the frame, or a
    // --now equal to the printed time would be "before" it.
    const reach = new Date(Math.ceil(first.t)).toISOString();
    io.stderr(`analyze: --now ${new Date(args.now).toISOString()} is before the trace's first traffic frame (the earliest --now that reaches it is ${reach}; the replay stops at the first frame after --now): nothing to analyse\n`);
    return 2;
  }
  if (later > 0) io.stderr(`analyze: note: ${later} of ${trace.frames.length} frames come after --now and are left out\n`);
  // Default: judge the trace as of the moment it was exported (what the user was looking at), never before its last frame.
  const exported = Date.parse(trace.createdAt);
  const now = args.now ?? Math.max(engine.lastT ?? exported, exported);
  const snap = engine.snapshot(now);
  // Partial: frames of what the export covers are missing (`dropped.frames`). `dropped.rejected` counts messages the
  // page sent malformed or forged, which the capture refused: the page controls it, and no frame of the trace is
  // missing for it, so it does not make a trace partial (else any page could fail every --fail-on-partial gate).
  const lost = trace.dropped.frames;
  if (args.json) {
    const { messages, ...rest } = snap;
    const out = {
      // Bumped when a field below changes meaning or goes (README, "Export a trace, analyze it in CI").
      outputVersion: 1,
      // Only the fields the format defines (a file may carry anything else beside them).
      trace: {
        format: trace.format,
        version: trace.version,
        tool: { name: trace.tool.name, version: trace.tool.version },
        createdAt: trace.createdAt,
        page: { url: trace.page.url, ...(trace.page.title !== undefined ? { title: trace.page.title } : {}) },
        redaction: {
          enabled: trace.redaction.enabled,
          ...(trace.redaction.bodyCapBytes !== undefined ? { bodyCapBytes: trace.redaction.bodyCapBytes } : {}),
          ...(trace.redaction.redactedValues !== undefined ? { redactedValues: trace.redaction.redactedValues } : {}),
        },
        dropped: { frames: trace.dropped.frames, ...(trace.dropped.rejected !== undefined ? { rejected: trace.dropped.rejected } : {}) },
        ...(trace.analysis !== undefined ? { analysis: trace.analysis } : {}),
        frames: trace.frames.length,
      },
      // The settings the findings were judged with, and where each came from: "option", "trace" or "default".
      analysis,
      // The capture lost frames before the export (trace.dropped says how many of each): the findings may be missing
      // some or come from a half-seen exchange. Always present, so a script can test it.
      partial: lost > 0,
      lostFrames: lost,
      ...rest,
      messages: messages.count,
      failOn: args.failOn,
    };
    io.stdout(printableJson(JSON.stringify(out, null, 2)) + '\n');
  } else io.stdout(printable(renderReport(trace, snap, args.failOn, settingsLine(analysis)), true));
  if (lost > 0) {
    // On stderr in both modes: a CI log shows it even when stdout goes to a file (--json > r.json).
    io.stderr(
      `analyze: warning: the trace is partial: the capture dropped ${lost} frame(s) at the log's cap (the oldest) before the export; findings may be missing or come from half-seen exchanges${args.failOnPartial ? '' : ' (--fail-on-partial makes this exit 2)'}\n`,
    );
  }
  if (engine.engineErrors) {
    // The report is shown, but a partial analysis must not pass (0) or read as findings (1): an internal error is 2.
    io.stderr(`analyze: internal error: ${engine.engineErrors} frame(s) could not be analysed, the report above is partial; first: ${printable(engine.firstError ?? '')}\n`);
    return 2;
  }
  // Asked for: a partial trace is not usable input (2), whatever its findings: 1 must keep meaning "findings".
  if (lost > 0 && args.failOnPartial) {
    io.stderr('analyze: --fail-on-partial: the trace is partial (see the warning above): exit 2\n');
    return 2;
  }
  return snap.findings.some((f) => RANK[f.severity] >= RANK[args.failOn]) ? 1 : 0;
}

/** Run as a program: by any path to this file (a symlinked checkout, `npm link`, the name without `.ts`). */
function isMain(): boolean {
  const arg = process.argv[1];
  if (!arg) return false;
  const self = realpathSync(fileURLToPath(import.meta.url));
  for (const candidate of [arg, `${arg}.ts`]) {
    try {
      if (realpathSync(candidate) === self) return true;
    } catch {
      // Not a file by that name.
    }
  }
  return false;
}

if (isMain()) {
  // A reader that closed the pipe early (`| head`) wanted no more: not an error, and not "findings" either.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`analyze: cannot write the report: ${e.message}\n`);
    process.exit(2);
  });
  // Nobody reads the messages any more: the status still says what happened (2 stays 2, a note does not make it 1).
  process.stderr.on('error', () => process.exit(process.exitCode ?? 2));
  // `npm run analyze` runs in the package's folder: a relative path is the user's, from where npm was started.
  const base = process.env.npm_lifecycle_event === 'analyze' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  process.exitCode = main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readFile: (p) => readFileSync(p === '-' ? 0 : resolve(base, p)),
  });
}
