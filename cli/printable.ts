// Text from a trace file reaches the terminal: a URL, a URI or a session id holding an escape sequence could clear the
// screen or forge a line of the report. Control characters are shown as escapes instead (`\u001b`, `\n`), and so are
// the bidirectional overrides and isolates, which would show a URI reversed in a CI log, and the invisible marks that
// make two URIs look the same: the panel's rule (shared/printable-text.ts), so both show a URI alike.
import { printableText, UNPRINTABLE_CLASS } from '../shared/printable-text.ts';

/** The panel's set less C0, which JSON.stringify escapes itself (and whose \n is the JSON's own layout). */
const JSON_UNPRINTABLE = new RegExp(`(?![\\u0000-\\u001f])[${UNPRINTABLE_CLASS}]`, 'gu');

/** A character as JSON \u escapes: an astral one (a tag character) as its surrogate pair, `\ud834\udd73`. */
function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/** JSON text with the characters JSON.stringify leaves raw (DEL, C1, U+2028/9, bidi, invisible marks, tag characters: the panel's set) as \u escapes: still valid JSON, the same values. */
export function printableJson(json: string): string {
  return json.replace(JSON_UNPRINTABLE, jsonEscape);
}

/** `s` with control characters escaped; `keepNewlines` for whole reports, whose own line breaks are layout. */
export function printable(s: string, keepNewlines = false): string {
  return printableText(s, keepNewlines);
}
