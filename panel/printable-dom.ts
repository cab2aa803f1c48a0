// Every text the panel renders passes through printableText (shared/printable-text.ts): a URI, a page URL, a session
// id, a method or a body holding a bidirectional override (U+202E), an isolate or an invisible mark shows it as a
// visible escape (`\u202e`) rather than displaying as another string. Done once, where preact turns a string into a
// text node (options.vnode sees every text vnode: type null, props the text) and for the tooltip and accessible name of
// every element, so no view can forget it. A text node is escaped whole, line feeds and tabs too: most text sits in a
// one-line `white-space: nowrap` cell, where `file:///docs/a\tb.md` would read as `file:///docs/a b.md`. The few
// multi-line places (the drawer's Raw/Body <pre>, the facts' Held and Streams, a metric of one session a line, a
// chart node's <title>) render multiLine(text): escaped here keeping its line breaks, as a String object, which preact
// renders as text too and the hook leaves alone. Tooltips and accessible names keep their line breaks (a tooltip's
// lines). What is filtered, matched, copied by a Copy button or exported is the real text: only what is displayed
// changes.
import { options, type VNode } from 'preact';
import { printableText } from '../shared/printable-text.ts';

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
  if (s.length < LONG_TEXT) return printableText(s);
  const known = longTexts.get(s);
  if (known !== undefined) return known;
  const out = printableText(s);
  if (longTexts.size >= LONG_KEPT) longTexts.delete(longTexts.keys().next().value!);
  longTexts.set(s, out);
  return out;
}

/** The multi-line texts under LONG_TEXT, as last marked: the same text gives the same object (no DOM text rewritten). */
const MULTI_KEPT = 64;
const multiLines = new Map<string, string | String>();

/**
 * Text whose line breaks are layout (a body in a <pre>, one span or session a line), escaped keeping line feeds, tabs
 * and CRLF, and marked so the text-node hook, which escapes them in every other text, leaves it as it is: a String
 * object, which preact renders as text. Its lines' own page-controlled parts must be one-line already (join lines
 * escaped with printableText). Text with no line break or tab is returned as a plain string (escaped by the hook).
 */
export function multiLine(s: string): string | String {
  if (!/[\n\t]/.test(s)) return s;
  const known = multiLines.get(s);
  if (known !== undefined) return known;
  const out = new String(printableText(s, true));
  if (s.length < LONG_TEXT) {
    if (multiLines.size >= MULTI_KEPT) multiLines.delete(multiLines.keys().next().value!);
    multiLines.set(s, out);
  }
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
    if (typeof s === 'string') props[k] = printableText(s, true);
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
