// A long text (the drawer's Raw or Body, up to 200 KB) re-rendered several times a second is escaped once, not on
// every render: the text-node hook remembers the last few long texts (a code review, 2026-12-06: 28 ms a render).
import { describe, expect, it, vi } from 'vitest';
import type { VNode } from 'preact';

const calls = vi.hoisted(() => ({ scans: 0 }));
vi.mock('../../../shared/printable-text.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../shared/printable-text.ts')>();
  return {
    ...real,
    hasUnprintable: (s: string, keep?: boolean) => (calls.scans++, real.hasUnprintable(s, keep)),
    printableText: (s: string, keep?: boolean) => (calls.scans++, real.printableText(s, keep)),
  };
});
const { escapeVNode, multiLine } = await import('../../../panel/printable-dom.ts');

const text = (props: string) => ({ type: null, props }) as unknown as VNode;

describe('escapeVNode on a long text', () => {
  it('scans a long text once across renders, and gives the same escaped text each time', () => {
    const body = `<html>\u202e${'x'.repeat(200_000)}</html>`;
    const first = text(body);
    escapeVNode(first);
    expect(first.props).toBe(`<html>\\u202e${'x'.repeat(200_000)}</html>`);
    calls.scans = 0;
    for (let i = 0; i < 5; i++) {
      const again = text(body);
      escapeVNode(again);
      expect(again.props).toBe(first.props);
    }
    expect(calls.scans).toBe(0);
    // Short texts in between (the rest of the drawer) do not push it out.
    for (let i = 0; i < 100; i++) escapeVNode(text(`row ${i}`));
    calls.scans = 0;
    escapeVNode(text(body));
    expect(calls.scans).toBe(0);
  });

  it('a long text already escaped is scanned once too', () => {
    const shown = `${'y'.repeat(100_000)}\\u202e`;
    escapeVNode(text(shown));
    calls.scans = 0;
    const again = text(shown);
    escapeVNode(again);
    expect(again.props).toBe(shown);
    expect(calls.scans).toBe(0);
  });

  it("Raw's text (multiLine, escaped in its useMemo) is not scanned by the hook at all", () => {
    const shown = multiLine(`{\n  "text": "${'z'.repeat(200_000)}"\n}`);
    calls.scans = 0;
    const pre = text(shown as string);
    escapeVNode(pre);
    expect(pre.props).toBe(shown);
    expect(calls.scans).toBe(0);
  });
});
