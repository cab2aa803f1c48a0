// Reading a trace file: validate everything before anything is used, and say precisely what is wrong and where
// (`frames[12].seq: missing`). Never throws; a bad file changes nothing.
import { describeValue, frameProblem } from '../frame-shape.ts';
import type { Frame } from '../frames.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceFileV1 } from './format.ts';
import { TOOL } from './export.ts';
import { LIMITS } from '../settings.ts';
import { jsonSyntaxError } from './json-error.ts';

export type TraceResult = { ok: true; trace: TraceFileV1 } | { ok: false; error: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = describeValue;

/**
 * An ISO 8601 date (`2026-12-02`, read as UTC) or date-time with `Z` or an offset (`2026-12-02T10:00:00Z`,
 * `…T11:00+01:00`, milliseconds allowed) as epoch ms. A time without an offset is refused: it would mean the local
 * time of whatever machine reads it. So is a date that does not exist (`2026-02-30`).
 */
export function parseIsoTime(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(s);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(0);
  day.setUTCFullYear(y, mo - 1, d); // (Date.UTC reads years 0–99 as 1900–1999)
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return undefined;
  if (m[4] !== undefined && (Number(m[5]) > 23 || Number(m[6]) > 59 || Number(m[8] ?? 0) > 59)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

function fail(error: string): TraceResult {
  return { ok: false, error };
}

/** `field "seq" is missing` (frame-shape.ts) → `frames[12].seq: missing`. */
function framePath(i: number, problem: string): string {
  const m = /^field "([^"]+)" is (missing|malformed)( \([\s\S]*\))?$/.exec(problem);
  if (m) return `frames[${i}].${m[1]}: ${m[2] === 'missing' ? 'missing' : 'malformed'}${m[3] ?? ''}`;
  return `frames[${i}]: ${problem}`;
}

/** `page.url: missing`, or what was there instead: `page.url: expected a string, got 5`. */
function wrong(path: string, expected: string, value: unknown): string {
  return value === undefined ? `${path}: missing` : `${path}: expected ${expected}, got ${describe(value)}`;
}

function headerProblem(v: Obj): string | undefined {
  if (v.format !== TRACE_FORMAT) return `format: expected "${TRACE_FORMAT}", got ${describe(v.format)}`;
  if (v.version !== TRACE_VERSION) {
    if (Number.isSafeInteger(v.version) && (v.version as number) > TRACE_VERSION) return `version: ${v.version} is newer than this tool reads (${TRACE_VERSION}): a newer mcp-devtools reads it`;
    return `version: expected ${TRACE_VERSION}, got ${describe(v.version)}`;
  }
  if (!isObj(v.tool)) return wrong('tool', 'an object with name and version', v.tool);
  if (typeof v.tool.name !== 'string') return wrong('tool.name', 'a string', v.tool.name);
  if (typeof v.tool.version !== 'string') return wrong('tool.version', 'a string', v.tool.version);
  if (typeof v.createdAt !== 'string' || parseIsoTime(v.createdAt) === undefined) return `createdAt: expected an ISO 8601 time, got ${describe(v.createdAt)}`;
  if (!isObj(v.page)) return wrong('page', 'an object with a url', v.page);
  if (typeof v.page.url !== 'string') return wrong('page.url', 'a string', v.page.url);
  if (v.page.title !== undefined && typeof v.page.title !== 'string') return wrong('page.title', 'a string', v.page.title);
  if (!isObj(v.redaction)) return wrong('redaction', 'an object', v.redaction);
  if (typeof v.redaction.enabled !== 'boolean') return wrong('redaction.enabled', 'true or false', v.redaction.enabled);
  for (const k of ['bodyCapBytes', 'redactedValues'] as const) {
    const x = v.redaction[k];
    if (x !== undefined && !(Number.isSafeInteger(x) && (x as number) >= 0)) return `redaction.${k}: expected a non-negative integer, got ${describe(x)}`;
  }
  if (!isObj(v.dropped)) return wrong('dropped', 'an object', v.dropped);
  if (v.dropped.frames === undefined) return 'dropped.frames: missing';
  if (!(Number.isSafeInteger(v.dropped.frames) && (v.dropped.frames as number) >= 0)) return `dropped.frames: expected a non-negative integer, got ${describe(v.dropped.frames)}`;
  if (v.dropped.rejected !== undefined && !(Number.isSafeInteger(v.dropped.rejected) && (v.dropped.rejected as number) >= 0)) return `dropped.rejected: expected a non-negative integer, got ${describe(v.dropped.rejected)}`;
  if (v.analysis !== undefined) {
    const a = analysisProblem(v.analysis);
    if (a) return a;
  }
  if (!Array.isArray(v.frames)) return wrong('frames', 'an array', v.frames);
  return undefined;
}

/** A number of milliseconds in the range the panel's settings allow (shared/settings.ts LIMITS). */
function msProblem(path: string, x: unknown, [lo, hi]: readonly [number, number]): string | undefined {
  if (typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi) return undefined;
  return x === undefined ? `${path}: missing` : `${path}: expected milliseconds from ${lo} to ${hi}, got ${describe(x)}`;
}

/** The `analysis` header (optional): the settings the exporting view was analysed with. */
function analysisProblem(a: unknown): string | undefined {
  if (!isObj(a)) return wrong('analysis', 'an object', a);
  if (!Array.isArray(a.freshnessRules)) return wrong('analysis.freshnessRules', 'an array', a.freshnessRules);
  for (const [i, r] of a.freshnessRules.entries()) {
    const path = `analysis.freshnessRules[${i}]`;
    if (!isObj(r)) return wrong(path, 'an object with pattern and maxAgeMs', r);
    if (typeof r.pattern !== 'string' || r.pattern.trim() === '') return wrong(`${path}.pattern`, 'a non-empty glob', r.pattern);
    const m = msProblem(`${path}.maxAgeMs`, r.maxAgeMs, LIMITS.ruleMaxAgeMs);
    if (m) return m;
  }
  return msProblem('analysis.defaultMaxAgeMs', a.defaultMaxAgeMs, LIMITS.defaultMaxAgeMs) ?? (a.graceMs === undefined ? undefined : msProblem('analysis.graceMs', a.graceMs, [0, LIMITS.ruleMaxAgeMs[1]]));
}

/** `0.10.2` > `0.9`: dotted numbers compared as numbers; anything else (a `-beta` suffix's own part) as 0. */
function versionAfter(a: string, b: string): boolean {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  }
  return false;
}

/**
 * What to add to a frame's problem when it is what a newer writer would put there: a kind, or a value of an enumerated
 * field (`outcome`, `phase`, `dir`), that format v1 does not have. The versioning policy (docs/trace-format.md) makes a
 * writer that adds one raise `version`, so the file is refused as a whole, never shown in part: the message says a
 * newer tool is needed when the file says a newer one wrote it, and that it is not v1 otherwise.
 */
function newerValueHint(file: Obj, frame: unknown, problem: string): string {
  const f = frame as Obj;
  const unknownKind = /^unknown kind "/.test(problem);
  const m = /^field "(outcome|phase|dir)" is malformed/.exec(problem);
  if (!unknownKind && !(m && typeof f[m[1]!] === 'string')) return '';
  const tool = file.tool as { name: string; version: string };
  if (tool.name === TOOL.name && versionAfter(tool.version, TOOL.version)) {
    return ` (not in trace format v1: the file was written by ${tool.name} ${tool.version}, newer than this one, ${TOOL.version}; a newer mcp-devtools reads it)`;
  }
  return ' (not in trace format v1, and a writer that adds one must raise the format version: the file was edited, or written by another tool)';
}

/** Validate an already-parsed value as a trace v1. */
export function validateTrace(v: unknown): TraceResult {
  const steps = validateTraceSteps(v);
  if ('error' in steps) return fail(steps.error);
  const error = steps.check(steps.count);
  return error === undefined ? { ok: true, trace: v as unknown as TraceFileV1 } : fail(error);
}

/**
 * validateTrace in steps, for a caller that yields in between (the panel's import, so that Cancel lands): the header
 * first (an error, or `count` frames to check); then `check(to)` checks the frames up to index `to` not checked yet and
 * says the first problem. Once it checked them all without one, the value is a valid trace, as validateTrace says.
 */
export function validateTraceSteps(v: unknown): { error: string } | { count: number; check(to: number): string | undefined } {
  if (!isObj(v)) return { error: Array.isArray(v) ? 'expected a trace object, got an array (a bare frame list is not a trace file)' : 'expected a trace object' };
  const h = headerProblem(v);
  if (h) return { error: h };
  const frames = v.frames as unknown[];
  let prev: number | undefined;
  let i = 0;
  return {
    count: frames.length,
    check(to) {
      for (const end = Math.min(to, frames.length); i < end; i++) {
        const problem = frameProblem(frames[i]);
        if (problem) return framePath(i, problem) + newerValueHint(v, frames[i], problem);
        const seq = (frames[i] as Frame).seq;
        if (prev !== undefined && seq <= prev) return `frames[${i}].seq: ${seq} is not greater than frames[${i - 1}].seq (${prev})`;
        prev = seq;
      }
      return undefined;
    },
  };
}

/**
 * The JSON text of a trace file as read (decoded as UTF-8): a byte-order mark is dropped (editors on Windows write one);
 * a UTF-16 file, which decodes to replacement characters or NULs, is named as such instead of "unexpected token".
 */
export function traceJsonText(text: string): { text: string } | { error: string } {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim().length === 0) return { error: 'the file is empty; a trace is a JSON file' };
  const head = text.slice(0, 64);
  // Byte-order marks decode to two replacement characters (FF FE, FE FF); UTF-32 has two NULs beside them.
  if (/^(\ufffd\ufffd\0\0|\0\0\ufffd\ufffd|[^\0]\0\0\0|\0\0\0[^\0])/.test(head)) {
    return { error: 'the file is UTF-32 encoded; a trace is UTF-8 JSON (save it as UTF-8)' };
  }
  // UTF-16: every other code unit is NUL (after the mark; a first letter outside ASCII decodes to U+FFFD).
  if (/^(\ufffd\ufffd)?([\s\S]\0){4}/.test(head) || /^(\ufffd\ufffd)?(\0[\s\S]){4}/.test(head) || head === '\ufffd\ufffd') {
    return { error: 'the file is UTF-16 encoded; a trace is UTF-8 JSON (save it as UTF-8)' };
  }
  // JSON text never holds a raw control character other than tab and line breaks: a compressed or binary file.
  if (/^\ufffd|[\0-\u0008\u000b\u000c\u000e-\u001f]/.test(head)) {
    return { error: 'the file is not UTF-8 text (it starts with binary data: compressed?); a trace is a JSON file' };
  }
  return { text };
}

/**
 * What to add to the error for a file that is not a trace: a hint when it is a HAR (the other file we export), whatever
 * the order of its keys (`{"$schema":…,"log":{…}}`).
 */
export function notATraceHint(text: string): string {
  const head = text.slice(0, 64 * 1024);
  const har = /^\uFEFF?\s*\{\s*"log"\s*:/.test(head) || (/"log"\s*:\s*\{/.test(head) && /"entries"\s*:\s*\[/.test(head) && !/"format"\s*:\s*"mcp-devtools-trace"/.test(head));
  return har ? ' (this looks like a HAR file; a trace is the .json of Export ▾ → Trace)' : '';
}

/** Parse and validate trace text. */
export function parseTrace(text: string): TraceResult {
  const t = traceJsonText(text);
  if ('error' in t) return fail(t.error);
  let v: unknown;
  try {
    v = JSON.parse(t.text);
  } catch (e) {
    return fail(jsonSyntaxError(t.text, e));
  }
  return validateTrace(v);
}

