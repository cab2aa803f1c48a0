// Page-controlled text shown by the panel: controls, bidirectional overrides/isolates and invisible marks escaped.
import { describe, expect, it } from 'vitest';
import type { VNode } from 'preact';
import { hasUnprintable, printableText } from '../../../shared/printable-text.ts';
import { escapeVNode } from '../../../panel/printable-dom.ts';

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
