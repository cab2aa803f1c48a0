// Page-controlled text shown by the panel: controls, bidirectional overrides/isolates and invisible marks escaped.
import { describe, expect, it } from 'vitest';
import type { VNode } from 'preact';
import { hasUnprintable, printableText } from '../../../shared/printable-text.ts';
import { escapeVNode, multiLine } from '../../../panel/printable-dom.ts';

describe('printableText', () => {
  it('escapes bidi overrides and isolates, invisible marks and controls; leaves other text as is', () => {
    expect(printableText('file:///docs/\u202edm.ycilop')).toBe('file:///docs/\\u202edm.ycilop');
    expect(printableText('a\u2066b\u2069c\u200bd\u200fe\ufeff\u061c')).toBe('a\\u2066b\\u2069c\\u200bd\\u200fe\\ufeff\\u061c');
    expect(printableText('x\u001b[31m\u0085\u2028')).toBe('x\\u001b[31m\\u0085\\u2028');
    expect(printableText('a\nb\tc\rd')).toBe('a\\nb\\tc\\rd');
    expect(printableText('a\nb\tc\rd', true)).toBe('a\nb\tc\\rd');
    // A CRLF body (an nginx 502 page) keeps its line ends in a <pre>; only a lone CR shows as \r.
    expect(printableText('<html>\r\n<body>\r\n</html>\r\n', true)).toBe('<html>\r\n<body>\r\n</html>\r\n');
    expect(printableText('a\r\nb\rc\r', true)).toBe('a\r\nb\\rc\\r');
    expect(hasUnprintable('a\r\nb', true)).toBe(false);
    expect(printableText('a\r\nb')).toBe('a\\r\\nb');
    // Every format character, the tag characters (hidden ASCII) among them: an astral one as \u{…}.
    expect(printableText('file:///a\u{E0041}.md')).toBe('file:///a\\u{e0041}.md');
    expect(printableText('a\u{E0001}\u{E007F}\u180e\u206f\ufffb\u{1D17A}', true)).toBe('a\\u{e0001}\\u{e007f}\\u180e\\u206f\\ufffb\\u{1d17a}');
        const plain = 'file:///docs/politique-é.md 文档 😀';
    expect(printableText(plain)).toBe(plain);
    expect(hasUnprintable(plain)).toBe(false);
    expect(hasUnprintable('a\nb', true)).toBe(false);
  });
});

describe('escapeVNode (every text node and tooltip the panel renders)', () => {
  it('escapes a text vnode and an element\'s title and aria-label, keeping line breaks; leaves other props', () => {
    const text = { type: null, props: 'file:///docs/\u202edm.ycilop' } as unknown as VNode;
    escapeVNode(text);
    expect(text.props).toBe('file:///docs/\\u202edm.ycilop');
    const tagged = { type: null, props: 'file:///a\u{E0041}.md' } as unknown as VNode;
    escapeVNode(tagged);
    expect(tagged.props).toBe('file:///a\\u{e0041}.md');
    const el = { type: 'span', props: { title: 'a\u202e\nb', 'aria-label': '\u2067x', 'data-uri': 'a\u202e', children: 'c' } } as unknown as VNode;
    escapeVNode(el);
    expect(el.props).toEqual({ title: 'a\\u202e\nb', 'aria-label': '\\u2067x', 'data-uri': 'a\u202e', children: 'c' });
  });
});

describe('one-line text and multi-line text', () => {
  it('a text node escapes tabs and line feeds (one-line nowrap cells); multiLine text keeps its lines, and the hook leaves it', () => {
    // A review (2026-12-06): `file:///docs/a\tb.md` read as `file:///docs/a b.md` in the Messages view's URI cell.
    const cell = { type: null, props: 'file:///docs/a\tb.md\nx' } as unknown as VNode;
    escapeVNode(cell);
    expect(cell.props).toBe('file:///docs/a\\tb.md\\nx');
    // A body in a <pre>, the facts' Held spans: line breaks (CRLF too) and tabs kept, other characters escaped.
    const body = multiLine('{\r\n\t"uri": "a\u202e"\n}');
    expect(typeof body).toBe('object');
    expect(String(body)).toBe('{\r\n\t"uri": "a\\u202e"\n}');
    const pre = { type: null, props: body } as unknown as VNode;
    escapeVNode(pre);
    expect(pre.props).toBe(body);
    // The same text gives the same object (a re-render does not rewrite the DOM text); one line is a plain string.
    expect(multiLine('{\r\n\t"uri": "a\u202e"\n}')).toBe(body);
    expect(multiLine('09:00:01.000 – now')).toBe('09:00:01.000 – now');
    // A tooltip keeps its lines.
    const el = { type: 'span', props: { title: 'file:///a\tb\nnote' } } as unknown as VNode;
    escapeVNode(el);
    expect((el.props as unknown as { title: string }).title).toBe('file:///a\tb\nnote');
  });
});
