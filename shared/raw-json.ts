// Raw JSON as captured, made readable: indented by its tokens, never parsed and written again. A parse and a
// stringify changed what the drawer called "Raw": an id past 2^53 lost its last digits, `1.0` became `1`, a
// duplicate key vanished and integer-like keys moved to the front (a drawer audit, 2026-12-05).

const SPACE = new Set([' ', '\n', '\r', '\t']);
const END_OF_LITERAL = new Set([',', ':', ']', '}', ' ', '\n', '\r', '\t']);

/** The end (exclusive) of the string token that starts at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return j + 1;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Deeper than this the text comes back as it is: indenting grows with the square of the depth (a hostile message). */
const MAX_INDENT_DEPTH = 64;

/** `text` indented two spaces a level, every token kept as it is; text that is not JSON comes back unchanged. */
export function indentJson(text: string): string {
  if (!isJson(text)) return text;
  const out: string[] = [];
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    if (c === '"') {
      const j = stringEnd(text, i);
      out.push(text.slice(i, j));
      i = j;
    } else if (SPACE.has(c)) i++;
    else if (c === '{' || c === '[') {
      let j = i + 1;
      while (j < text.length && SPACE.has(text[j]!)) j++;
      if (text[j] === (c === '{' ? '}' : ']')) {
        out.push(c, text[j]!);
        i = j + 1;
      } else {
        if (++depth > MAX_INDENT_DEPTH) return text;
        out.push(c, newline());
        i++;
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out.push(newline(), c);
      i++;
    } else if (c === ',') {
      out.push(',', newline());
      i++;
    } else if (c === ':') {
      out.push(': ');
      i++;
    } else {
      let j = i;
      while (j < text.length && !END_OF_LITERAL.has(text[j]!)) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out.join('');
}

/**
 * Walks the top level of the JSON array or object `text` (which must open with `opener`): the text of each value as
 * captured, with its position and, in an object, its key as written. Returns the first value `wanted` accepts.
 */
function findTopLevel(text: string, opener: '[' | '{', wanted: (index: number, key: string | undefined) => boolean): string | undefined {
  let i = 0;
  while (i < text.length && SPACE.has(text[i]!)) i++;
  if (text[i] !== opener) return undefined;
  const closer = opener === '[' ? ']' : '}';
  let depth = 0;
  let index = 0;
  let key: string | undefined;
  let start = -1;
  for (i++; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      if (depth === 0 && opener === '{' && key === undefined) key = text.slice(i, end);
      else if (start < 0) start = i;
      i = end - 1;
    } else if (SPACE.has(c) || (depth === 0 && c === ':')) continue;
    else if (depth === 0 && (c === ',' || c === closer)) {
      if (start >= 0 && wanted(index, key)) return text.slice(start, i).trimEnd();
      if (c === closer) return undefined;
      index++;
      key = undefined;
      start = -1;
    } else {
      if (start < 0) start = i;
      if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') depth--;
    }
  }
  return undefined;
}

/** The text of element `index` of the JSON array `text` (a JSON-RPC batch), as captured; undefined if there is none. */
export function arrayElementText(text: string, index: number): string | undefined {
  return findTopLevel(text, '[', (i) => i === index);
}

/** The text of member `key` of the JSON object `text` (top level only), as captured; undefined if it has none. */
export function objectMemberText(text: string, key: string): string | undefined {
  const written = JSON.stringify(key);
  return findTopLevel(text, '{', (_, k) => k === written);
}
