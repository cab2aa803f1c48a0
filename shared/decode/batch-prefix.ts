// A JSON-RPC batch cut at capture (the body cap keeps a prefix): the elements it holds whole can still be read, and
// paired, instead of the whole array standing for one cut message (a 300 KB batch answer to three reads and three
// subscribes failed all six: the subscribes read as refused).

/** Where the text's first character that is not whitespace is (its length when there is none). */
export function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  return i;
}

/** Does the text start (after whitespace) a JSON array? */
export function startsArray(text: string): boolean {
  return text.charCodeAt(firstNonSpace(text)) === 91;
}

/**
 * The complete top-level elements of a JSON array's prefix, each as its own text, and the text of the element the cut
 * falls in ('' when it fell between two); undefined when the text is not an array. Elements are not checked: each is
 * parsed on its own (a malformed one is an invalid message, as in a whole batch).
 */
export function splitArrayPrefix(text: string): { elements: string[]; rest: string } | undefined {
  let i = firstNonSpace(text);
  if (text.charCodeAt(i) !== 91) return undefined;
  const elements: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (i++; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === 92) escaped = true;
      else if (ch === 34) inString = false;
      continue;
    }
    if (ch <= 32) continue;
    if (start < 0 && ch !== 44 && ch !== 93) start = i;
    if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) depth++;
    else if (ch === 125 || ch === 93) {
      if (depth === 0) {
        // The array's own end: the prefix was whole after all.
        if (start >= 0) elements.push(text.slice(start, i).trim());
        return { elements, rest: '' };
      }
      depth--;
    } else if (ch === 44 && depth === 0) {
      if (start >= 0) elements.push(text.slice(start, i).trim());
      start = -1;
    }
  }
  return { elements, rest: start >= 0 ? text.slice(start) : '' };
}
