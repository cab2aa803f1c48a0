// Text a page controls (a URI, a URL, a session id, a method, a body) shown as a label must read as what it is. Control
// characters would forge a line or clear a terminal; the bidirectional overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) display `file:///docs/\u202edm.ycilop` as `file:///docs/policy.md`; and the invisible marks and
// joiners (U+061C, U+200B–U+200F, U+2060–U+2064, U+FEFF) make two different URIs look the same. Each is shown as a
// visible escape instead (`\u202e`, `\n`). The CLI's printable (cli/printable.ts) escapes the same controls and bidi
// characters for a terminal; the panel (panel/printable-dom.ts) uses this for every text node and tooltip it renders.

/** Every character shown escaped, newlines included. */
const ALL = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/**
 * The same, less line feed, tab and the CR of a CRLF: text whose own line breaks are layout (a tooltip's lines, a body
 * in a <pre>; an nginx error page ends its lines CRLF). A lone CR is still escaped: it would overwrite a line.
 */
const KEEP_NEWLINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\r(?!\n)/;
const KEEP_NEWLINES_G = new RegExp(KEEP_NEWLINES.source, 'g');
const ANY = new RegExp(ALL.source);

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function escape(c: string): string {
  return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : unicodeEscape(c);
}

/** Whether `s` holds a character printableText would escape (newlines and tabs count unless `keepNewlines`). */
export function hasUnprintable(s: string, keepNewlines = false): boolean {
  return (keepNewlines ? KEEP_NEWLINES : ANY).test(s);
}

/**
 * `s` with control, bidirectional and invisible formatting characters shown as escapes (`\u202e`, `\n`);
 * `keepNewlines` keeps line feeds, tabs and CRLF line ends as they are (multi-line text); a lone CR is escaped. Text without any is returned as is.
 */
export function printableText(s: string, keepNewlines = false): string {
  if (!hasUnprintable(s, keepNewlines)) return s;
  return s.replace(keepNewlines ? KEEP_NEWLINES_G : ALL, escape);
}
