// Text a page controls (a URI, a URL, a session id, a method, a body) shown as a label must read as what it is. Control
// characters would forge a line or clear a terminal; the bidirectional overrides and isolates (U+202A–U+202E,
// U+2066–U+2069) display `file:///docs/\u202edm.ycilop` as `file:///docs/policy.md`; and the invisible marks and
// joiners (U+061C, U+200B–U+200F, U+2060–U+2064, U+FEFF) make two different URIs look the same, and the tag characters
// (U+E0020–E007F) hide ASCII in plain sight: `file:///a\u{e0041}.md` displays as `file:///a.md`. Every control and
// format character (Unicode categories Cc and Cf) and U+2028/U+2029 is shown as a visible escape instead (`\u202e`,
// `\n`, `\u{e0041}`). The CLI's printable (cli/printable.ts) escapes the same set for a terminal; the panel (panel/printable-dom.ts) uses this for every text node and tooltip it renders.

/**
 * The characters shown escaped, as a regex character class body: every control (Cc: C0, DEL, C1) and format character
 * (Cf: the bidi overrides and isolates, the invisible marks and joiners, the soft hyphen, the interlinear annotation
 * marks U+FFF9–FFFB, the tag characters U+E0001 and U+E0020–E007F that spell hidden ASCII, U+180E, U+206A–206F,
 * U+1D173–1D17A…), and the line and paragraph separators (U+2028, U+2029). Needs the `u` flag. cli/printable.ts builds
 * printableJson's set from it.
 */
export const UNPRINTABLE_CLASS = '\\p{Cc}\\p{Cf}\\u2028\\u2029';
/** Every character shown escaped, newlines included. */
const ALL = new RegExp(`[${UNPRINTABLE_CLASS}]`, 'gu');
/**
 * The same, less line feed, tab and the CR of a CRLF: text whose own line breaks are layout (a tooltip's lines, a body
 * in a <pre>; an nginx error page ends its lines CRLF). A lone CR is still escaped: it would overwrite a line.
 */
const KEEP_NEWLINES = new RegExp(`(?![\\n\\t]|\\r\\n)[${UNPRINTABLE_CLASS}]`, 'u');
const KEEP_NEWLINES_G = new RegExp(KEEP_NEWLINES.source, 'gu');
const ANY = new RegExp(ALL.source, 'u');

/** `\u202e` for a BMP character, `\u{e0041}` for an astral one (a tag character). */
function unicodeEscape(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
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
