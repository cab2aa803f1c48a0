// Makes our wrappers indistinguishable from the natives they replace where page code commonly looks:
// Function.prototype.toString of a wrapper answers with the native's text ("function fetch() { [native code] }").
// Installed lazily, once, by the first disguise() call.
const natives = new WeakMap<object, object>();
let installed = false;

function install(): void {
  installed = true;
  const nativeToString = Function.prototype.toString;
  const toString = new Proxy(nativeToString, {
    apply(target, thisArg, args) {
      return Reflect.apply(target, (thisArg !== null && (typeof thisArg === 'object' || typeof thisArg === 'function') && natives.get(thisArg)) || thisArg, args);
    },
  });
  natives.set(toString, nativeToString);
  Object.defineProperty(Function.prototype, 'toString', { value: toString, writable: true, configurable: true, enumerable: false });
}

/** Returns `wrapper`, now reporting `native`'s source text. Also copies name and length for plain functions. */
export function disguise<T extends object>(wrapper: T, native: object): T {
  if (!installed) install();
  natives.set(wrapper, native);
  if (typeof wrapper === 'function' && typeof native === 'function') {
    for (const key of ['name', 'length'] as const) {
      const d = Object.getOwnPropertyDescriptor(native, key);
      if (d) Object.defineProperty(wrapper, key, d);
    }
  }
  return wrapper;
}
