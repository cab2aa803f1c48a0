// Reading a trace file: validate everything before anything is used, and say precisely what is wrong and where
// (`frames[12].seq: missing`). Never throws; a bad file changes nothing.
import { frameProblem } from '../frame-shape.ts';
import type { Frame } from '../frames.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceFileV1 } from './format.ts';

export type TraceResult = { ok: true; trace: TraceFileV1 } | { ok: false; error: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown): string => (v === undefined ? 'missing' : `${JSON.stringify(v)?.slice(0, 60) ?? String(v)}`);

/** An ISO 8601 date or date-time (`2026-12-02`, `2026-12-02T10:00:00Z`, with an offset or milliseconds) as epoch ms. */
export function parseIsoTime(s: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

function fail(error: string): TraceResult {
  return { ok: false, error };
}

/** `field "seq" is missing` (frame-shape.ts) → `frames[12].seq: missing`. */
function framePath(i: number, problem: string): string {
  const m = /^field "([^"]+)" is (missing|malformed)$/.exec(problem);
  if (m) return `frames[${i}].${m[1]}: ${m[2] === 'missing' ? 'missing' : 'malformed'}`;
  return `frames[${i}]: ${problem}`;
}

function headerProblem(v: Obj): string | undefined {
  if (v.format !== TRACE_FORMAT) return `format: expected "${TRACE_FORMAT}", got ${describe(v.format)}`;
  if (v.version !== TRACE_VERSION) {
    if (typeof v.version === 'number' && v.version > TRACE_VERSION) return `version: ${v.version} is newer than this tool reads (${TRACE_VERSION})`;
    return `version: expected ${TRACE_VERSION}, got ${describe(v.version)}`;
  }
  if (!isObj(v.tool) || typeof v.tool.name !== 'string' || typeof v.tool.version !== 'string') return 'tool: expected {name, version} strings';
  if (typeof v.createdAt !== 'string' || parseIsoTime(v.createdAt) === undefined) return `createdAt: expected an ISO 8601 time, got ${describe(v.createdAt)}`;
  if (!isObj(v.page) || typeof v.page.url !== 'string') return 'page.url: missing';
  if (v.page.title !== undefined && typeof v.page.title !== 'string') return 'page.title: malformed';
  if (!isObj(v.redaction) || typeof v.redaction.enabled !== 'boolean') return 'redaction.enabled: missing';
  for (const k of ['bodyCapBytes', 'redactedValues'] as const) {
    const x = v.redaction[k];
    if (x !== undefined && !Number.isSafeInteger(x)) return `redaction.${k}: malformed`;
  }
  if (!isObj(v.dropped) || !Number.isSafeInteger(v.dropped.frames)) return 'dropped.frames: missing';
  if (v.dropped.rejected !== undefined && !Number.isSafeInteger(v.dropped.rejected)) return 'dropped.rejected: malformed';
  if (!Array.isArray(v.frames)) return v.frames === undefined ? 'frames: missing' : 'frames: expected an array';
  return undefined;
}

/** Validate an already-parsed value as a trace v1. */
export function validateTrace(v: unknown): TraceResult {
  if (!isObj(v)) return fail(Array.isArray(v) ? 'expected a trace object, got an array (a bare frame list is not a trace file)' : 'expected a trace object');
  const h = headerProblem(v);
  if (h) return fail(h);
  const frames = v.frames as unknown[];
  let prev: number | undefined;
  for (let i = 0; i < frames.length; i++) {
    const problem = frameProblem(frames[i]);
    if (problem) return fail(framePath(i, problem));
    const seq = (frames[i] as Frame).seq;
    if (prev !== undefined && seq <= prev) return fail(`frames[${i}].seq: ${seq} is not greater than frames[${i - 1}].seq (${prev})`);
    prev = seq;
  }
  return { ok: true, trace: v as unknown as TraceFileV1 };
}

/** Parse and validate trace text. */
export function parseTrace(text: string): TraceResult {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return fail(`not JSON: ${(e as Error).message}`);
  }
  return validateTrace(v);
}
