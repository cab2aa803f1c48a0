// The drawer's Raw is the captured text, indented by its tokens (panel/model/raw-json.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayElementText, indentJson, objectMemberText } from '../../../shared/raw-json.ts';

describe('raw JSON', () => {
  it('keeps every token as captured: a large id, 1.0, a duplicate key, key order, escapes', () => {
    const text = '{"jsonrpc":"2.0","id":9007199254740993,"result":{"b":1.0,"a":[],"1":{},"b":"x\\"y, z:"}}';
    expect(indentJson(text)).toBe(
      ['{', '  "jsonrpc": "2.0",', '  "id": 9007199254740993,', '  "result": {', '    "b": 1.0,', '    "a": [],', '    "1": {},', '    "b": "x\\"y, z:"', '  }', '}'].join('\n'),
    );
  });

  it('reads like JSON.stringify(…, null, 2) wherever that keeps the text; not JSON comes back unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const compact = JSON.stringify(v);
        expect(indentJson(compact)).toBe(JSON.stringify(v, null, 2));
        expect(JSON.parse(indentJson(compact))).toEqual(JSON.parse(compact));
      }),
      { numRuns: 300 },
    );
    expect(indentJson('{"a": 1')).toBe('{"a": 1');
    expect(indentJson('event: x')).toBe('event: x');
  });

  it('deeper than 64 levels comes back as captured (indenting grows with the square of the depth)', () => {
    const deep = '['.repeat(20_000) + '1' + ']'.repeat(20_000);
    expect(indentJson(deep)).toBe(deep);
    const ok = '['.repeat(64) + '1' + ']'.repeat(64);
    expect(indentJson(ok).split('\n')).toHaveLength(129);
  });

  it('finds a batch element as captured', () => {
    const batch = ' [ {"id":1,"s":"a,]"} , [1,[2]], "x" ,{"id":9007199254740993} ] ';
    expect([0, 1, 2, 3, 4].map((i) => arrayElementText(batch, i))).toEqual(['{"id":1,"s":"a,]"}', '[1,[2]]', '"x"', '{"id":9007199254740993}', undefined]);
    expect(arrayElementText('{"id":1}', 0)).toBeUndefined();
    expect(arrayElementText('[]', 0)).toBeUndefined();
  });

  it('finds a top-level member as captured, not one nested', () => {
    const text = '{"result":{"id":1,"x":"\\"id\\":2"},"id" : 9007199254740993 ,"e":{}}';
    expect(objectMemberText(text, 'id')).toBe('9007199254740993');
    expect(objectMemberText(text, 'result')).toBe('{"id":1,"x":"\\"id\\":2"}');
    expect(objectMemberText(text, 'e')).toBe('{}');
    expect(objectMemberText(text, 'none')).toBeUndefined();
    expect(objectMemberText('[1]', 'id')).toBeUndefined();
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (o) => {
        const text = JSON.stringify(o);
        for (const k of Object.keys(o)) expect(JSON.parse(objectMemberText(text, k)!)).toEqual(JSON.parse(JSON.stringify(o[k])));
      }),
      { numRuns: 300 },
    );
  });
});
