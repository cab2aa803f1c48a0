// Shape checks for frames that arrive from untrusted places: page scripts can forge anything the hook sends, and a trace
// file can hold anything. Returns a precise problem description instead of throwing. Never trusts, never coerces.
import { FRAME_KINDS, type FrameKind, type PageFrame, type Frame } from './frames.ts';

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const int: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const opt =
  (c: Check): Check =>
  (v) =>
    v === undefined || c(v);
const UPPER = /[A-Z]/;
/** Why a header map is not one as page JS sees it (string values, lower-case names), or null. */
function headersProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  const names = Object.keys(v);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (typeof v[name] !== 'string') return `the value of ${describeValue(name)} is not a string`;
    if (UPPER.test(name)) return `header names are lower-case, as page JS sees them; got ${describeValue(name)}`;
  }
  return null;
}
const headers: Check = (v) => headersProblem(v) === null;
const strings: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
/** Which part of a payload is wrong, and what it holds, or null. */
function payloadProblem(v: unknown): string | null {
  if (!isObject(v)) return `expected {text, truncated?, opaque?}, got ${describeValue(v)}`;
  if (!str(v.text)) return `"text" is not a string (got ${describeValue(v.text)})`;
  if (!opt(bool)(v.opaque)) return `"opaque" is not true or false (got ${describeValue(v.opaque)})`;
  if (v.truncated === undefined) return null;
  if (!isObject(v.truncated)) return `"truncated" is not {bytes, hash} (got ${describeValue(v.truncated)})`;
  if (!int(v.truncated.bytes)) return `"truncated.bytes" is not a whole number ≥ 0 (got ${describeValue(v.truncated.bytes)})`;
  if (!str(v.truncated.hash)) return `"truncated.hash" is not a string (got ${describeValue(v.truncated.hash)})`;
  return null;
}
const payload: Check = (v) => payloadProblem(v) === null;
function errorInfoProblem(v: unknown): string | null {
  if (!isObject(v)) return `expected {name, message}, got ${describeValue(v)}`;
  if (!str(v.name)) return `"name" is not a string (got ${describeValue(v.name)})`;
  if (!str(v.message)) return `"message" is not a string (got ${describeValue(v.message)})`;
  return null;
}
const errorInfo: Check = (v) => errorInfoProblem(v) === null;
const optPayload = opt(payload);
const optErrorInfo = opt(errorInfo);
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);

const FIELDS: Record<FrameKind, Record<string, Check>> = {
  'page-start': { url: str, top: bool },
  'page-end': { url: str, persisted: bool },
  'http-request': { conn: str, method: str, url: str, headers, body: optPayload },
  'http-response': { conn: str, status: int, statusText: str, url: str, redirected: bool, headers },
  'http-body': { conn: str, body: payload },
  'sse-event': { conn: str, id: opt(str), event: opt(str), data: payload, retry: opt(int) },
  'sse-comment': { conn: str, text: str },
  'http-end': {
    conn: str,
    outcome: oneOf('complete', 'aborted', 'failed'),
    phase: oneOf('request', 'body'),
    error: optErrorInfo,
    bytes: int,
  },
  'es-connect': { conn: str, url: str, withCredentials: bool },
  'es-open': { conn: str },
  'es-error': { conn: str, readyState: int },
  'es-close': { conn: str },
  'ws-connect': { conn: str, url: str, protocols: strings },
  'ws-open': { conn: str, protocol: str },
  'ws-message': { conn: str, dir: oneOf('out', 'in'), data: payload },
  'ws-close': { conn: str, code: int, reason: str, wasClean: bool },
  'ws-error': { conn: str },
  'capture-error': { where: str, message: str, conn: opt(str) },
};

/** A time in epoch ms that a Date can hold (±8.64e15): `t: 1e20` is finite but no time anyone can show. */
const time: Check = (v) => num(v) && Math.abs(v as number) <= 8.64e15;
const COMMON: Record<string, Check> = { doc: str, n: int, t: time };
const STAMP: Record<string, Check> = { seq: int, frameId: int, segment: int };

/** A short description of a bad value for an error message (never throws: a value nested 100,000 deep is "an array"). */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (typeof v !== 'object' || v === null) return String(v);
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  const kind = Array.isArray(v) ? 'an array' : 'an object';
  return s !== undefined && s.length <= 60 ? s : kind;
}
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What is wrong with a value a check refused: the part and what it holds. */
function detailOf(check: Check, v: unknown): string {
  if (check === headers) return headersProblem(v)!;
  if (check === payload || check === optPayload) return payloadProblem(v)!;
  if (check === errorInfo || check === optErrorInfo) return errorInfoProblem(v)!;
  return `got ${describeValue(v)}`;
}

type FieldList = ReadonlyArray<readonly [string, Check]>;
// Entries computed once: this runs for every frame the background accepts.
const FIELD_LISTS = Object.fromEntries(Object.entries(FIELDS).map(([k, f]) => [k, Object.entries(f)])) as unknown as Record<FrameKind, FieldList>;
const COMMON_LIST: FieldList = Object.entries(COMMON);
const STAMP_LIST: FieldList = Object.entries(STAMP);

function checkFields(o: Record<string, unknown>, fields: FieldList): string | null {
  for (const [name, check] of fields) {
    if (check(o[name])) continue;
    if (o[name] === undefined) return `field "${name}" is missing`;
    return `field "${name}" is malformed (${detailOf(check, o[name])})`;
  }
  return null;
}

/** Why `v` is not a valid PageFrame, or null when it is. */
export function pageFrameProblem(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  const kind = v.kind;
  if (typeof kind !== 'string' || !(FRAME_KINDS as readonly string[]).includes(kind)) return `unknown kind ${typeof kind === 'string' || typeof kind === 'number' ? describeValue(kind) : `(${describeValue(kind)})`}`;
  return checkFields(v, COMMON_LIST) ?? checkFields(v, FIELD_LISTS[kind as FrameKind]);
}

/** Why `v` is not a valid stamped Frame (as stored and exported), or null when it is. */
export function frameProblem(v: unknown): string | null {
  return pageFrameProblem(v) ?? checkFields(v as Record<string, unknown>, STAMP_LIST);
}

export function isPageFrame(v: unknown): v is PageFrame {
  return pageFrameProblem(v) === null;
}

export function isFrame(v: unknown): v is Frame {
  return frameProblem(v) === null;
}

function knownPayload(p: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { text: p.text };
  if (p.truncated !== undefined) {
    const t = p.truncated as Record<string, unknown>;
    out.truncated = { bytes: t.bytes, hash: t.hash };
  }
  if (p.opaque !== undefined) out.opaque = p.opaque;
  return out;
}

/**
 * A valid frame with only the fields this version knows (extra properties are allowed in a trace, for forward
 * compatibility, and can hold anything: an array nested 100,000 deep that JSON.stringify cannot write). Nested payloads
 * and error infos are copied the same way; headers and protocol lists are already only strings.
 */
export function knownFields<F extends PageFrame>(f: F): F {
  const o = f as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { kind: o.kind };
  for (const list of [COMMON_LIST, STAMP_LIST, FIELD_LISTS[f.kind]]) {
    for (const [name, check] of list) {
      const v = o[name];
      if (v === undefined) continue;
      if (check === payload || check === optPayload) out[name] = knownPayload(v as Record<string, unknown>);
      else if (check === errorInfo || check === optErrorInfo) out[name] = { name: (v as Record<string, unknown>).name, message: (v as Record<string, unknown>).message };
      else if (check === headers) out[name] = { ...(v as Record<string, unknown>) };
      else if (check === strings) out[name] = [...(v as unknown[])];
      else out[name] = v;
    }
  }
  return out as unknown as F;
}

/** A frame as JSON: as it is, or, when its extra properties cannot be written, its known fields only. */
export function frameJson(f: PageFrame): string {
  try {
    return JSON.stringify(f);
  } catch {
    return JSON.stringify(knownFields(f));
  }
}
