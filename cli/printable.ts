// Text from a trace file reaches the terminal: a URL, a URI or a session id holding an escape sequence could clear the
// screen or forge a line of the report. Control characters are shown as escapes instead (`\u001b`, `\n`), and so are
// the bidirectional overrides and isolates, which would show a URI reversed in a CI log.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_AND_NEWLINES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function escape(c: string): string {
  return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : unicodeEscape(c);
}

/** JSON text with the control characters JSON.stringify leaves raw (DEL, C1, U+2028/9) as \u escapes: still valid JSON. */
export function printableJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, unicodeEscape);
}

/** `s` with control characters escaped; `keepNewlines` for whole reports, whose own line breaks are layout. */
export function printable(s: string, keepNewlines = false): string {
  return s.replace(keepNewlines ? CONTROL : CONTROL_AND_NEWLINES, escape);
}
