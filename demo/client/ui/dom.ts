// A tiny hyperscript helper for the demo page's plain-DOM views. Children may be nodes, strings or falsy (skipped).
export type Child = Node | string | number | false | null | undefined;
export type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, '').toLowerCase(), v);
    else if (k === 'class') el.className = String(v);
    else if (k.startsWith('data-')) el.setAttribute(k, String(v));
    else if (v === true) el.setAttribute(k, '');
    else if (k in el) (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    el.append(typeof c === 'number' ? String(c) : c);
  }
  return el;
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string | number => c !== false && c !== null && c !== undefined).map((c) => (typeof c === 'number' ? String(c) : c)));
}

/**
 * Puts `next` into `container` unless it renders exactly like what is there: panes are rebuilt on every tick, and
 * replacing identical markup would detach the element under the user's pointer (a click between mousedown and mouseup
 * would be lost).
 */
export function replaceIfChanged(container: Element, next: Element): void {
  const current = container.firstElementChild;
  if (current && container.childElementCount === 1 && current.outerHTML === next.outerHTML) return;
  container.replaceChildren(next);
}
