// A trace that is not JSON is said with the line and column where it goes wrong, whatever JSON.parse's message names
// (V8 names no position for "Unexpected token" since Node 20) — in the CLI and the panel alike (both use
// jsonSyntaxError). The scan that finds the place agrees with JSON.parse on what is JSON.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, jsonSyntaxError, parseTrace } from '../../../shared/trace/index.ts';

/** jsonSyntaxError for what JSON.parse says of `text`. */
function said(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return jsonSyntaxError(text, e);
  }
  throw new Error('valid JSON');
}

describe('where a JSON text goes wrong', () => {
  it.each([
    ['a doubled comma between frames', '{"frames":[\n{"a":1},,\n{"b":2}]}', 2, 9],
    ['a trailing comma before ]', '{"frames":[\n{"a":1},\n]}', 3, 1],
    ['a trailing comma before }', '{"a":1,\n}', 2, 1],
    ['NaN', '{"t":\nNaN}', 2, 1],
    ['a comment', '// trace\n{}', 1, 1],
    ['single quotes', "{\n'a':1}", 2, 1],
    ['a raw line break in a string', '{"a":"x\ny"}', 1, 8],
    ['a bad escape', '{"a":"\\q"}', 1, 7],
    ['text after the value', '{}\n{}', 2, 1],
    ['a missing colon', '{"a" 1}', 1, 6],
  ])('%s', (_, text, line, column) => {
    const m = said(text);
    expect(m).toMatch(new RegExp(`^not JSON: .* \\(line ${line}, column ${column}\\)$`));
    expect(m).not.toMatch(/\n/);
  });

  it('a file cut short says so, at its end', () => {
    for (const text of ['{"frames":[\n{"a":"xy', '{"frames":[\n{"a":1}', '{"a":tr', '{"a":"\\u12']) {
      const lines = text.split('\n');
      expect(said(text)).toMatch(new RegExp(`\\(line ${lines.length}, column ${lines.at(-1)!.length + 1}: the file ends too early — cut short\\?\\)$`));
    }
  });

  it('agrees with JSON.parse on what is JSON (valid texts, and random cuts and edits of them)', () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, Math.random() < 0.5 ? 1 : undefined));
    fc.assert(
      fc.property(json, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\\', 'x', '\n', '-'), (text, at, insert) => {
        expect(jsonErrorOffset(text)).toBeUndefined();
        const p = at % (text.length + 1);
        for (const t of [text.slice(0, p), text.slice(0, p) + insert + text.slice(p)]) {
          let valid = true;
          try {
            JSON.parse(t);
          } catch {
            valid = false;
          }
          expect(jsonErrorOffset(t) === undefined).toBe(valid);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the place once: the engine\'s own "(line N column M)" (Chromium\'s V8 adds it, Node 20\'s does not) is left out', () => {
    const text = '{"a": "unterminated';
    const chromium = new SyntaxError(`Unterminated string in JSON at position ${text.length} (line 1 column ${text.length + 1})`);
    expect(jsonSyntaxError(text, chromium)).toBe(`not JSON: Unterminated string in JSON at position ${text.length} (line 1, column ${text.length + 1}: the file ends too early — cut short?)`);
    // Node 20's message, without it: the same words.
    expect(jsonSyntaxError(text, new SyntaxError(`Unterminated string in JSON at position ${text.length}`))).toBe(jsonSyntaxError(text, chromium));
  });

  it('nests deeper than a call stack without trouble', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000) + ',';
    expect(jsonErrorOffset(deep)).toBe(deep.length - 1);
  });

  it('parseTrace names the place', () => {
    expect(parseTrace('{"format":"mcp-devtools-trace",\n"frames":[,]}')).toEqual({ ok: false, error: expect.stringMatching(/\(line 2, column 11\)$/) });
  });
});
