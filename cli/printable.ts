// Text from a trace file reaches the terminal: a URL, a URI or a session id holding an escape sequence could clear the
// screen or forge a line of the report. Control characters are shown as escapes instead (`\u001b`, `\n`), and so are
// the bidirectional overrides and isolates, which would show a URI reversed in a CI log, and the invisible marks that
// make two URIs look the same: the panel's rule (shared/printable-text.ts), so both show a URI alike.
import { printableText } from '../shared/printable-text.ts';

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** JSON text with the characters JSON.stringify leaves raw (DEL, C1, U+2028/9, bidi and invisible marks) as \u escapes: still valid JSON, the same values. */
export function printableJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, unicodeEscape);
}

/** `s` with control characters escaped; `keepNewlines` for whole reports, whose own line breaks are layout. */
export function printable(s: string, keepNewlines = false): string {
  return printableText(s, keepNewlines);
}
