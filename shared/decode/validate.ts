// Per-method shape checks. The methods the engine reasons about (and the hot ones: reads and update notifications make
// up almost all traffic) are checked by hand — only the fields the engine reads, leniently, as the wire does it; every
// other known method goes through the SDK's zod schema for that method (sdk-schemas.ts). Measured: zod on a 1.5 KB
// read result costs ~0.9 µs next to ~2.2 µs for its JSON.parse, which alone would eat half the 2× replay budget.
import { M, SUBSCRIPTION_ID_META_KEY } from './protocol.ts';
import type { Generation } from './types.ts';
import { sdkSchemas, zodProblem } from './sdk-schemas.ts';

export interface Verdict {
  known: boolean;
  problem?: string;
}

type Obj = Record<string, unknown>;
const KNOWN: Verdict = { known: true };

/** A Map, not an object: a lookup by the page's method string needs no own-property check (Object.hasOwn was slower). */
function table<T>(entries: Record<string, T>): ReadonlyMap<string, T> {
  return new Map(Object.entries(entries));
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function bad(problem: string): Verdict {
  return { known: true, problem };
}
function needString(o: unknown, field: string, where: string): Verdict {
  if (!isObj(o)) return bad(`${where} is missing`);
  return typeof o[field] === 'string' ? KNOWN : bad(`${where}.${field} is not a string`);
}
function stringArray(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

function filterProblem(n: unknown, where: string): Verdict {
  if (!isObj(n)) return bad(`${where} is not an object`);
  if (n.resourceSubscriptions !== undefined && !stringArray(n.resourceSubscriptions)) {
    return bad(`${where}.resourceSubscriptions is not an array of strings`);
  }
  return KNOWN;
}

const REQUESTS = table<(p: unknown) => Verdict>({
  [M.initialize]: (p) => {
    if (!isObj(p)) return bad('params is missing');
    if (typeof p.protocolVersion !== 'string') return bad('params.protocolVersion is not a string');
    if (!isObj(p.capabilities)) return bad('params.capabilities is not an object');
    return needString(p.clientInfo, 'name', 'params.clientInfo');
  },
  [M.discover]: () => KNOWN,
  [M.read]: (p) => needString(p, 'uri', 'params'),
  [M.subscribe]: (p) => needString(p, 'uri', 'params'),
  [M.unsubscribe]: (p) => needString(p, 'uri', 'params'),
  [M.list]: () => KNOWN,
  [M.listen]: (p) => (isObj(p) ? filterProblem(p.notifications, 'params.notifications') : bad('params is missing')),
});

const NOTIFICATIONS = table<(p: unknown) => Verdict>({
  [M.updated]: (p) => needString(p, 'uri', 'params'),
  [M.listChanged]: () => KNOWN,
  [M.initialized]: () => KNOWN,
  [M.acknowledged]: (p) => {
    if (!isObj(p)) return bad('params is missing');
    const meta = p._meta;
    const sid = isObj(meta) ? meta[SUBSCRIPTION_ID_META_KEY] : undefined;
    if (typeof sid !== 'string' && typeof sid !== 'number') return bad(`params._meta["${SUBSCRIPTION_ID_META_KEY}"] is missing`);
    return filterProblem(p.notifications, 'params.notifications');
  },
  [M.cancelled]: (p) => {
    if (p === undefined) return KNOWN;
    if (!isObj(p)) return bad('params is not an object');
    const id = p.requestId;
    return id === undefined || typeof id === 'string' || typeof id === 'number' ? KNOWN : bad('params.requestId is not an id');
  },
});

/**
 * The one problem of a 2025 read result the SDK's clients do not refuse (they fall back to their default ttl): the
 * engine still caches such an answer. Every other problem of a read result means readResource fails; on a 2026-07-28
 * connection a bad ttlMs does too (read2026).
 */
export const READ_TTL_PROBLEM = 'result.ttlMs is not a non-negative number';

/** As the SDK's Base64Schema checks a blob: whatever `atob` takes. */
function isBase64(s: string): boolean {
  try {
    atob(s);
    return true;
  } catch {
    return false;
  }
}

/** Why the SDK's clients would refuse a read result's content (readResource then fails), or undefined. */
function readContentsProblem(r: unknown): string | undefined {
  if (!isObj(r)) return 'result is not an object';
  const contents = r.contents;
  if (!Array.isArray(contents)) return 'result.contents is not an array';
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i] as unknown;
    if (!isObj(c) || typeof c.uri !== 'string') return `result.contents[${i}].uri is not a string`;
    if (typeof c.text !== 'string' && typeof c.blob !== 'string') return `result.contents[${i}] has neither text nor blob`;
    if (typeof c.text !== 'string' && !isBase64(c.blob as string)) return `result.contents[${i}].blob is not base64`;
  }
  return undefined;
}

/**
 * A 2026-07-28 read result as the SDK client's codec checks it (client dist: decodeResult, then the wire schema of
 * resources/read): `resultType` is required and must be `complete` (or `input_required`), `ttlMs` a non-negative
 * integer and `cacheScope` public or private. Anything else fails readResource: the content is never the client's.
 */
function read2026(r: unknown): Verdict {
  if (!isObj(r)) return bad('result is not an object');
  if (r.resultType === 'input_required') return KNOWN;
  if (r.resultType === undefined) return bad('result.resultType is missing (a 2026-07-28 server must send it)');
  if (r.resultType !== 'complete') return bad('result.resultType is not "complete"');
  const problem = readContentsProblem(r);
  if (problem !== undefined) return bad(problem);
  if (!(typeof r.ttlMs === 'number' && Number.isInteger(r.ttlMs) && r.ttlMs >= 0)) return bad('result.ttlMs is not a non-negative integer (required in 2026-07-28)');
  if (r.cacheScope !== 'public' && r.cacheScope !== 'private') return bad('result.cacheScope is not "public" or "private" (required in 2026-07-28)');
  return KNOWN;
}

const RESULTS = table<(r: unknown) => Verdict>({
  [M.initialize]: (r) => {
    if (!isObj(r)) return bad('result is not an object');
    if (typeof r.protocolVersion !== 'string') return bad('result.protocolVersion is not a string');
    if (!isObj(r.capabilities)) return bad('result.capabilities is not an object');
    return needString(r.serverInfo, 'name', 'result.serverInfo');
  },
  [M.discover]: (r) => {
    if (!isObj(r)) return bad('result is not an object');
    if (!stringArray(r.supportedVersions)) return bad('result.supportedVersions is not an array of strings');
    return isObj(r.capabilities) ? KNOWN : bad('result.capabilities is not an object');
  },
  [M.read]: (r) => {
    if (!isObj(r)) return bad('result is not an object');
    // 2026-07-28: the server needs input first (elicitation etc.); the client retries with inputResponses.
    if (r.resultType === 'input_required') return KNOWN;
    const problem = readContentsProblem(r);
    if (problem !== undefined) return bad(problem);
    if (r.ttlMs !== undefined && !(typeof r.ttlMs === 'number' && r.ttlMs >= 0)) return bad(READ_TTL_PROBLEM);
    return KNOWN;
  },
  [M.list]: (r) => {
    if (!isObj(r) || !Array.isArray(r.resources)) return bad('result.resources is not an array');
    for (let i = 0; i < r.resources.length; i++) {
      const v = needString(r.resources[i], 'uri', `result.resources[${i}]`);
      if (v.problem) return v;
    }
    return KNOWN;
  },
  [M.subscribe]: (r) => (isObj(r) ? KNOWN : bad('result is not an object')),
  [M.unsubscribe]: (r) => (isObj(r) ? KNOWN : bad('result is not an object')),
  [M.listen]: (r) => (isObj(r) ? KNOWN : bad('result is not an object')),
});

/** A table's entry: a method is the page's string (`__proto__`, `valueOf`… must not find Object.prototype). */
function entry<T>(table: ReadonlyMap<string, T>, method: string): T | undefined {
  return table.get(method);
}

/** Check a request or notification by its method. `msg` is the whole JSON-RPC object. */
export function checkCall(kind: 'request' | 'notification', method: string, msg: Obj): Verdict {
  const own = entry(kind === 'request' ? REQUESTS : NOTIFICATIONS, method);
  if (own) return own(msg.params);
  const t = sdkSchemas();
  const schema = (kind === 'request' ? t.requests : t.notifications).get(method);
  if (!schema) return { known: false };
  const problem = zodProblem(schema, { method, params: msg.params });
  return problem ? { known: true, problem } : KNOWN;
}

/** Check a successful response against the method of its request (unknown when unpaired). */
export function checkResult(method: string | undefined, msg: Obj, generation: Generation = '2025'): Verdict {
  if (method === undefined) return { known: false };
  if (generation === '2026' && method === M.read) return read2026(msg.result);
  const own = entry(RESULTS, method);
  if (own) return own(msg.result);
  const schema = sdkSchemas().results.get(method);
  if (!schema) return { known: entry(REQUESTS, method) !== undefined || sdkSchemas().requests.has(method) };
  const problem = zodProblem(schema, msg.result);
  return problem ? { known: true, problem: `result: ${problem}` } : KNOWN;
}
