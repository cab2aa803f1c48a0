// Where a JSON text goes wrong, said as a line and a column. JSON.parse's messages differ between engines and
// versions (V8 since Node 20 names no position for "Unexpected token" at all, and quotes a snippet with its line
// breaks), so the place is found by a scan of our own, run only once JSON.parse has refused the text.

/** The offset of the first character that is not valid JSON, `text.length` when it ends too early, undefined when valid. */
export function jsonErrorOffset(text: string): number | undefined {
  const n = text.length;
  /** Open containers: 0 object, 1 array. An explicit stack: a hand-made file may nest deeper than a call stack. */
  const stack: number[] = [];
  // 0 a value; 1 a value or ']'; 2 a key or '}'; 3 a key; 4 ':'; 5 ',' or the container's close; 6 nothing more.
  let expect = 0;
  let i = 0;
  const closed = (): void => {
    expect = stack.length > 0 ? 5 : 6;
  };
  for (;;) {
    let c = text.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
    if (i >= n) return expect === 6 ? undefined : n;
    switch (expect) {
      case 6:
        return i;
      case 4:
        if (c !== 58) return i;
        i++;
        expect = 0;
        continue;
      case 5: {
        const top = stack[stack.length - 1];
        if (c === 44) {
          i++;
          expect = top === 0 ? 3 : 0;
        } else if ((c === 125 && top === 0) || (c === 93 && top === 1)) {
          stack.pop();
          i++;
          closed();
        } else return i;
        continue;
      }
      case 2:
      case 3: {
        if (c === 125 && expect === 2) {
          stack.pop();
          i++;
          closed();
          continue;
        }
        if (c !== 34) return i;
        const end = stringEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        expect = 4;
        continue;
      }
      default: {
        if (c === 93 && expect === 1) {
          stack.pop();
          i++;
          closed();
          continue;
        }
        if (c === 123 || c === 91) {
          stack.push(c === 123 ? 0 : 1);
          i++;
          expect = c === 123 ? 2 : 1;
          continue;
        }
        const end = c === 34 ? stringEnd(text, i) : scalarEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        closed();
      }
    }
  }
}

const HEX = /^[0-9a-fA-F]{4}$/;

/** After the closing quote of the string that opens at `i`, or -(offset of the fault) - 1. */
function stringEnd(text: string, i: number): number {
  for (let k = i + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 34) return k + 1;
    if (c < 32) return -k - 1;
    if (c === 92) {
      const e = text[k + 1];
      if (e === 'u') {
        const hex = text.slice(k + 2, k + 6);
        if (!HEX.test(hex)) return hex.length < 4 && /^[0-9a-fA-F]*$/.test(hex) ? -text.length - 1 : -k - 1;
        k += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) k++;
      else return e === undefined ? -text.length - 1 : -k - 1;
    }
  }
  return -text.length - 1;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** After the number or literal at `i`, or -(offset of the fault) - 1. */
function scalarEnd(text: string, i: number): number {
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, i)) return i + word.length;
    // A literal cut by the end of the file: the file ends too early.
    if (i + word.length > text.length && word.startsWith(text.slice(i))) return -text.length - 1;
  }
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(text);
  if (!m) return -i - 1;
  return i + m[0].length;
}

/** `not JSON: <the parser's message> (line L, column C…)`: one line, the place found by jsonErrorOffset. */
export function jsonSyntaxError(text: string, error: unknown): string {
  // Newer V8 (Chromium's; not Node 20's) ends its message with its own `(line N column M)`: the place is said once, ours,
  // in the same words in the panel and the CLI.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\(line \d+ column \d+\)$/, '').replace(/\r\n|\r|\n/g, '⏎');
  const at = jsonErrorOffset(text);
  if (at === undefined) return `not JSON: ${message}`;
  let line = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < at; k = text.indexOf('\n', k + 1)) line++;
  const where = `line ${line}, column ${at - text.lastIndexOf('\n', at - 1)}`;
  return `not JSON: ${message} (${where}${at >= text.length ? ': the file ends too early — cut short?' : ''})`;
}
