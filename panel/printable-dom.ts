// Every text the panel renders passes through printableText (shared/printable-text.ts): a URI, a page URL, a session
// id, a method or a body holding a bidirectional override (U+202E), an isolate or an invisible mark shows it as a
// visible escape (`\u202e`) rather than displaying as another string. Done once, where preact turns a string into a
// text node (options.vnode sees every text vnode: type null, props the text) and for the tooltip and accessible name of
// every element, so no view can forget it. Line feeds and tabs are kept here (a tooltip's lines, a body in a <pre>);
// one-line labels that must not break (URIs) escape them too, before rendering (UriText). What is filtered, matched,
// copied by a Copy button or exported is the real text: only what is displayed changes.
import { options, type VNode } from 'preact';
import { hasUnprintable, printableText } from '../shared/printable-text.ts';

const LABEL_PROPS = ['title', 'aria-label'] as const;

/**
 * Texts at least this long (a drawer's Raw or Body, up to 200 KB) are escaped once: the drawer re-renders several times
 * a second live, and scanning such a body on each render cost up to 28 ms. The last few, input → output; the same
 * text again (the component's useMemo keeps it) is one map look-up.
 */
const LONG_TEXT = 4096;
const LONG_KEPT = 4;
const longTexts = new Map<string, string>();

function escapeText(s: string): string {
  if (s.length < LONG_TEXT) return hasUnprintable(s, true) ? printableText(s, true) : s;
  const known = longTexts.get(s);
  if (known !== undefined) return known;
  const out = printableText(s, true);
  if (longTexts.size >= LONG_KEPT) longTexts.delete(longTexts.keys().next().value!);
  longTexts.set(s, out);
  return out;
}

/** A vnode's text (a text vnode) or its tooltip and accessible name (an element), escaped. */
export function escapeVNode(vnode: VNode): void {
  const v = vnode as unknown as { type: unknown; props: unknown };
  if (v.type === null) {
    if (typeof v.props === 'string') v.props = escapeText(v.props);
    return;
  }
  if (typeof v.type !== 'string' || v.props === null || typeof v.props !== 'object') return;
  const props = v.props as Record<string, unknown>;
  for (const k of LABEL_PROPS) {
    const s = props[k];
    if (typeof s === 'string' && hasUnprintable(s, true)) props[k] = printableText(s, true);
  }
}

let installed = false;

/** Installs escapeVNode ahead of the hooks already there (signals'); once. */
export function installPrintableText(): void {
  if (installed) return;
  installed = true;
  const previous = options.vnode;
  options.vnode = (vnode) => {
    escapeVNode(vnode);
    previous?.(vnode);
  };
}
