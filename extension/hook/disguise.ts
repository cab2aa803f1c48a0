// Makes our wrappers indistinguishable from the natives they replace where page code commonly looks:
// Function.prototype.toString of a wrapper answers with the native's text ("function fetch() { [native code] }").
// Installed lazily, once, by the first disguise() call.
//
// Every wrapper is a Proxy of its native (wrapMethod): name, length, own keys, "no prototype, not a constructor" are
// the native's own, and a Function.prototype.toString that does not know it (another realm's) answers
// "function () { [native code] }", never our source. Same-origin frames share one map of wrappers (asked of the parent
// frame's hook when this one installs): an iframe's toString, the usual way to get an untouched one, knows the top
// document's wrappers and the top's knows the iframe's.
import { hideOwnFrames, natives as captured } from './natives.ts';

/** Asked on the parent frame's document when installing: a hook there answers with its map of wrappers. */
const SHARE_EVENT = 'mcp-devtools:disguise-share';

let natives: WeakMap<object, object> | undefined;
// WeakMap's methods as they were at document_start: a page that patches them sees nothing of ours (and a forged map
// answered from the parent document is refused by the native check).
const mapGet = WeakMap.prototype.get as (this: WeakMap<object, object>, k: object) => object | undefined;
const mapSet = WeakMap.prototype.set as (this: WeakMap<object, object>, k: object, v: object) => WeakMap<object, object>;
const mapHas = WeakMap.prototype.has as (this: WeakMap<object, object>, k: object) => boolean;

/** The parent frame's map (same origin, hook installed), or undefined. Never throws. */
function parentMap(): WeakMap<object, object> | undefined {
  try {
    if (window.parent === window) return undefined;
    const doc = window.parent.document;
    const ask = new captured.CustomEvent<{ map: unknown }>(SHARE_EVENT, { detail: { map: undefined } });
    captured.dispatchEvent.call(doc, ask);
    const map = ask.detail.map as WeakMap<object, object>;
    mapHas.call(map, doc); // Throws for anything but a real WeakMap (of any realm).
    return map;
  } catch {
    return undefined; // Cross-origin parent, or no hook there.
  }
}

function install(): WeakMap<object, object> {
  const map = parentMap() ?? new WeakMap<object, object>();
  natives = map;
  try {
    captured.addEventListener.call(document, SHARE_EVENT, (e: Event) => {
      try {
        const detail: unknown = (e as CustomEvent).detail;
        // Only a question shaped as ours, asked by a hook (our realm's frames' hooks reach this through their parent).
        if (detail !== null && typeof detail === 'object' && 'map' in detail && (detail as { map: unknown }).map === undefined) (detail as { map: unknown }).map = map;
      } catch {
        // A frozen or hostile detail: no answer.
      }
    });
  } catch {
    // No document to answer on: this frame's children keep their own maps.
  }
  const nativeToString = Function.prototype.toString;
  const toString = new Proxy(nativeToString, {
    apply(target, thisArg, args) {
      try {
        return captured.apply(target, (thisArg !== null && (typeof thisArg === 'object' || typeof thisArg === 'function') && mapGet.call(map, thisArg)) || thisArg, args);
      } catch (e) {
        // ("requires that 'this' be a Function": thrown as the native would, without our frame in its stack.)
        hideOwnFrames(e);
        throw e;
      }
    },
  });
  mapSet.call(map, toString, nativeToString);
  Object.defineProperty(Function.prototype, 'toString', { value: toString, writable: true, configurable: true, enumerable: false });
  return map;
}

/** Returns `wrapper`, now reporting `native`'s source text. Also copies name and length for plain functions. */
export function disguise<T extends object>(wrapper: T, native: object): T {
  mapSet.call(natives ?? install(), wrapper, native);
  if (typeof wrapper === 'function' && typeof native === 'function') {
    for (const key of ['name', 'length'] as const) {
      const d = Object.getOwnPropertyDescriptor(native, key);
      if (d) Object.defineProperty(wrapper, key, d);
    }
  }
  return wrapper;
}

/**
 * A disguised Proxy of the native method `native` whose calls go to `apply` (with the page's `this` and its very
 * arguments): like the native, it has no prototype and is no constructor, whatever realm looks at it.
 */
export function wrapMethod<F extends (...args: never[]) => unknown>(native: F, apply: (thisArg: unknown, args: unknown[]) => unknown): F {
  const proxy = new Proxy(native, {
    apply: (_target, thisArg, args: unknown[]) => apply(thisArg, args),
  });
  mapSet.call(natives ?? install(), proxy, native);
  return proxy;
}
