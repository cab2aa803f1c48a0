// Forking an engine's state: a deep copy, so the panel's scrubber can keep engines saved along a trace and continue a
// replay from any of them without the saved one changing. The state is data only — plain objects, arrays, Maps, Sets,
// typed arrays and class instances — so the copy is generic: each object keeps its prototype, and an object reached
// twice is copied once (a client model referenced from a ledger and from the clients map stays one object). A function
// is refused: a closure in the state would still point at the original after a copy (hence methods, not closures, in
// Decoder and Engine). Strings, RegExps and frozen objects are immutable and shared.

/** Thrown when the state holds something a copy cannot carry over. */
export class ForkError extends Error {}

/** The size of a copy, in objects; a typed array counts one per BYTES_PER_OBJECT of its bytes. */
export interface CopyStats {
  objects: number;
}
/** What an object of the engine's state weighs on average (measured on the bench traces: 330–410 bytes). */
const BYTES_PER_OBJECT = 400;

/** `memo` maps originals to their copies; pre-set an entry to share an object rather than copy it. */
export function deepCopy<T>(root: T, memo: Map<object, unknown> = new Map(), stats?: CopyStats): T {
  const before = memo.size;
  const bytes = { n: 0 };
  const out = copy(root, memo, bytes) as T;
  if (stats) stats.objects = memo.size - before + Math.ceil(bytes.n / BYTES_PER_OBJECT);
  return out;
}

function copy(v: unknown, memo: Map<object, unknown>, bytes: { n: number }): unknown {
  if (typeof v !== 'object' || v === null) {
    if (typeof v === 'function') throw new ForkError(`the state holds a function (${v.name || 'anonymous'})`);
    return v;
  }
  const seen = memo.get(v);
  if (seen !== undefined) return seen;
  if (Object.isFrozen(v) || v instanceof RegExp) return v;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    memo.set(v, out);
    for (let i = 0; i < v.length; i++) out[i] = copy(v[i], memo, bytes);
    return out;
  }
  if (ArrayBuffer.isView(v)) {
    if (v instanceof DataView) throw new ForkError('the state holds a DataView');
    // Two views of one buffer would be copied apart: refused, like a function.
    if (memo.has(v.buffer)) throw new ForkError('the state holds two views of one buffer');
    const out = (v as unknown as Uint8Array).slice();
    bytes.n += out.byteLength;
    memo.set(v.buffer, out.buffer);
    memo.set(v, out);
    return out;
  }
  if (v instanceof Map) {
    const out = new Map();
    memo.set(v, out);
    for (const [k, x] of v) out.set(copy(k, memo, bytes), copy(x, memo, bytes));
    return sameShape(v, out, memo, bytes);
  }
  if (v instanceof Set) {
    const out = new Set();
    memo.set(v, out);
    for (const x of v) out.add(copy(x, memo, bytes));
    return sameShape(v, out, memo, bytes);
  }
  if (v instanceof Date) {
    const out = new Date(v.getTime());
    memo.set(v, out);
    return out;
  }
  if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet || v instanceof ArrayBuffer) {
    throw new ForkError(`the state holds a ${Object.prototype.toString.call(v).slice(8, -1)}`);
  }
  const out = Object.create(Object.getPrototypeOf(v) as object | null) as Record<string, unknown>;
  memo.set(v, out);
  const src = v as Record<string, unknown>;
  for (const k of Object.keys(src)) out[k] = copy(src[k], memo, bytes);
  return out;
}

/** A Map or Set with its own prototype or own properties (none in the engine today) keeps them. */
function sameShape<C extends Map<unknown, unknown> | Set<unknown>>(v: C, out: C, memo: Map<object, unknown>, bytes: { n: number }): C {
  const proto = Object.getPrototypeOf(v) as object;
  if (proto !== Map.prototype && proto !== Set.prototype) Object.setPrototypeOf(out, proto);
  const src = v as unknown as Record<string, unknown>;
  const keys = Object.keys(src);
  for (const k of keys) (out as unknown as Record<string, unknown>)[k] = copy(src[k], memo, bytes);
  return out;
}
