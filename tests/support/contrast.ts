// WCAG contrast of every visible text in a page: its colour (with opacity) composited over the backgrounds behind it,
// and the ratio (an accessibility audit's measure, 2026-12-05). Texts of disabled controls are exempt, as WCAG says.
import type { Page } from 'playwright-core';

export interface TextContrast {
  text: string;
  sel: string;
  fg: string;
  bg: string;
  ratio: number;
  size: number;
  bold: boolean;
}

/** Texts under AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). */
export function belowAA(items: TextContrast[]): TextContrast[] {
  return items.filter((x) => x.ratio < (x.size >= 24 || (x.bold && x.size >= 18.66) ? 3 : 4.5));
}

/** Every visible piece of text in the page with its colour, the background behind it and the WCAG ratio. */
export async function textContrast(p: Page): Promise<TextContrast[]> {
  // tsx's esbuild wraps named functions in __name(); the page has none.
  await p.evaluate('globalThis.__name = (f) => f');
  return p.evaluate(() => {
    const parse = (c: string): number[] => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const v = m[1]!.split(/[ ,/]+/).filter(Boolean).map(Number);
      return [v[0]!, v[1]!, v[2]!, v[3] ?? 1];
    };
    const over = (top: number[], bot: number[]) => {
      const a = top[3]!;
      return [0, 1, 2].map((i) => top[i]! * a + bot[i]! * (1 - a)).concat(1);
    };
    const lum = (c: number[]) => {
      const f = (x: number) => ((x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(c[0]!) + 0.7152 * f(c[1]!) + 0.0722 * f(c[2]!);
    };
    const ratio = (a: number[], b: number[]) => {
      const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
      return (x! + 0.05) / (y! + 0.05);
    };
    const bgOf = (el: Element): number[] => {
      const layers: number[][] = [];
      for (let e: Element | null = el; e !== null; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (e instanceof SVGElement && e.tagName !== 'svg') {
          // An SVG node label sits on its node's rect.
          const g: Element | null = e.closest('g.node');
          if (g && e.tagName !== 'rect') {
            const rect = g.querySelector(':scope > rect');
            if (rect) {
              const f = parse(getComputedStyle(rect).fill);
              layers.push(f);
              if (f[3] === 1) break;
            }
            e = g;
            continue;
          }
          continue;
        }
        const b = parse(cs.backgroundColor);
        if (b[3]! > 0) layers.push(b);
        if (b[3] === 1) break;
        if (e.tagName === 'DIALOG' && b[3] === 1) break;
      }
      let c = [255, 255, 255, 1];
      if (layers.length === 0 || layers.at(-1)![3] !== 1) c = parse(getComputedStyle(document.documentElement).backgroundColor);
      for (const l of layers.reverse()) c = over(l, c);
      return c;
    };
    const out: Array<{ text: string; sel: string; fg: string; bg: string; ratio: number; size: number; bold: boolean }> = [];
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent!.trim();
      if (!t) continue;
      const el = n.parentElement!;
      if (seen.has(el)) continue;
      seen.add(el);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) continue;
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden') continue;
      if (el.closest('[inert]') || (document.querySelector('dialog[open]') && !el.closest('dialog'))) continue;
      if (el.closest('button:disabled, input:disabled')) continue; // exempt
      let fg = parse(el instanceof SVGElement ? cs.fill : cs.color);
      let op = 1;
      for (let e: Element | null = el; e; e = e.parentElement) op *= Number(getComputedStyle(e).opacity);
      fg = [fg[0]!, fg[1]!, fg[2]!, fg[3]! * op];
      const bg = bgOf(el);
      const eff = over(fg, bg);
      const size = parseFloat(cs.fontSize);
      const bold = Number(cs.fontWeight) >= 700;
      const cls = typeof el.className === 'string' ? el.className : (el.getAttribute('class') ?? '');
      out.push({ text: t.slice(0, 40), sel: `${el.tagName.toLowerCase()}${cls ? '.' + cls.trim().split(/\s+/).join('.') : ''}`, fg: `rgb(${eff.slice(0, 3).map(Math.round)})`, bg: `rgb(${bg.slice(0, 3).map(Math.round)})`, ratio: Math.round(ratio(eff, bg) * 100) / 100, size, bold });
    }
    return out;
  });
}
