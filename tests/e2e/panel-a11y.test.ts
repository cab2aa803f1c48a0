// The panel for a keyboard or screen-reader user, in real Chromium with the built extension, on a real recorded trace
// with problem rows (SDK v1 over WebSocket: errors and a warning). What an accessibility audit (2026-12-05) found:
// texts under WCAG AA, a status line that re-announced every batch of frames, an alert at every keystroke of a filter
// term, Escape closing the drawer behind the Settings dialog, focus lost to the page, zero counts coloured as alarms.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { belowAA, textContrast } from '../support/contrast.ts';
import { startBrowser, type Browser } from '../support/extension.ts';

let browser: Browser;
let dir: string;
let trace: string;

beforeAll(async () => {
  browser = await startBrowser();
  dir = mkdtempSync(join(tmpdir(), 'panel-a11y-'));
  // The recording as exported a minute after its last frame: its findings have settled (the panel judges an imported
  // trace as of its export).
  const t = JSON.parse(readFileSync(resolve('tests/fixtures/sdk-v1-websocket.trace.json'), 'utf8')) as { createdAt: string; frames: Array<{ t: number }> };
  t.createdAt = new Date(t.frames.at(-1)!.t + 60_000).toISOString();
  trace = join(dir, 'sdk-v1-websocket.trace.json');
  writeFileSync(trace, JSON.stringify(t));
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** The panel with no tab, the fixture imported, its first problem row selected (selected and problem colours both shown). */
async function imported(theme: 'light' | 'dark'): Promise<Page> {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 900 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html?theme=${theme}`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  await p.setInputFiles('input[type="file"]', trace);
  await p.waitForSelector('.uri-row.problem[data-uri]');
  return p;
}

const focused = (p: Page) => p.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName);
/** Focus moves in an effect after the render that the awaited selector shows: wait for it rather than read it once. */
const focusReaches = (p: Page, label: string) =>
  p.waitForFunction((l) => document.activeElement?.getAttribute('aria-label') === l, label, { timeout: 5000 }).then(() => focused(p));

for (const theme of ['light', 'dark'] as const) {
  it(`${theme}: every text on screen is at WCAG AA, a selected problem row and the flow chart included`, async () => {
    const p = await imported(theme);
    await p.click('.uri-row.problem[data-uri]');
    await p.waitForSelector('.uri-row.problem.selected');
    const all = await textContrast(p);
    // The timeline legend's marks are graphics, not text: 3:1 (WCAG 1.4.11); the stale swatch by its solid edge.
    const marks = all.filter((x) => x.sel.startsWith('span.lg-'));
    const items = all.filter((x) => !x.sel.startsWith('span.lg-'));
    expect(items.length).toBeGreaterThan(50);
    expect(items.some((x) => x.sel.includes('sev-error'))).toBe(true);
    expect(belowAA(items)).toEqual([]);
    expect(marks.filter((x) => x.sel !== 'span.lg-stale' && x.ratio < 3)).toEqual([]);
    const edge = await p.$eval('.lg-stale', (e) => getComputedStyle(e).boxShadow);
    expect(edge).toMatch(/inset/);
    // The selected view tab under the pointer: its accent text on the hover fill (4.13:1 in the light theme before).
    await p.hover(".tabs [role='tab'][aria-selected='true']");
    const hovered = (await textContrast(p)).filter((x) => !x.sel.startsWith('span.lg-'));
    expect(belowAA(hovered)).toEqual([]);
    await p.close();
  });
}

it('finding counts: a zero is grey like other muted text, a count above zero in its colour (the past pill too, unless it counts only notes); a pressed filter says so', async () => {
  const p = await imported('light');
  const colours = await p.$$eval('.finding-counts .count', (bs) => bs.map((b) => ({ n: b.getAttribute('data-n'), some: b.classList.contains('some') || (b.classList.contains('past') && !b.classList.contains('notes-only')), color: getComputedStyle(b).color })));
  const muted = await p.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--muted').trim());
  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  expect(colours.some((c) => !c.some)).toBe(true);
  for (const c of colours) {
    if (c.some) expect(c.color).not.toBe(rgb(muted));
    else expect(c.color).toBe(rgb(muted));
  }
  const error = p.locator('.finding-counts .count[data-severity="error"]');
  expect(await error.getAttribute('aria-pressed')).toBe('false');
  await error.click();
  expect(await error.getAttribute('aria-pressed')).toBe('true');
  await error.click();
  expect(await error.getAttribute('aria-pressed')).toBe('false');
  await p.close();
});

it('the status line is read out as its state, not as a ticking frame counter; a half-typed filter term is no alert', async () => {
  const p = await imported('light');
  expect(await p.$$eval('.status-bar', (s) => s.map((e) => e.getAttribute('role')))).toEqual(['group']);
  expect(await p.$$eval('.status-bar [role="status"]', (s) => s.map((e) => e.textContent))).toEqual(['Imported']);
  await p.click('input[aria-label="Filter"]');
  await p.keyboard.type('is:st');
  await p.waitForSelector('#filter-errors');
  expect(await p.locator('[role="alert"]').count()).toBe(0);
  expect(await p.getAttribute('input[aria-label="Filter"]', 'aria-invalid')).toBe('true');
  expect(await p.getAttribute('input[aria-label="Filter"]', 'aria-describedby')).toBe('filter-errors');
  await p.close();
});

it('Escape closes the Settings dialog in front, not the drawer behind it; a second Escape then closes the drawer', async () => {
  const p = await imported('light');
  await p.click('.uri-row.problem[data-uri]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('.drawer');
  await p.click('button[aria-label="Settings"]');
  await p.waitForSelector('dialog.settings[open]');
  await p.keyboard.press('Escape');
  await p.waitForFunction(() => !document.querySelector('dialog.settings[open]'));
  expect(await p.locator('.drawer').count()).toBe(1);
  await p.keyboard.press('Escape');
  await p.waitForSelector('.drawer', { state: 'detached' });
  await p.close();
});

it('focus stays in the panel: Clear of an imported trace with no tab, and dismissing an error, go to Import', async () => {
  const p = await imported('light');
  await p.focus('button[aria-label^="Clear"]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('.status-bar[data-status="offline"]');
  expect(await focusReaches(p, 'Import trace')).toBe('Import trace');

  const bad = join(dir, 'not-a-trace.json');
  writeFileSync(bad, 'this is not JSON');
  await p.setInputFiles('input[type="file"]', bad);
  await p.waitForSelector('[data-import-error]');
  await p.focus('[data-import-error] button[aria-label="Dismiss"]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('[data-import-error]', { state: 'detached' });
  expect(await focusReaches(p, 'Import trace')).toBe('Import trace');
  await p.close();
});

it('a panel opened on a tab that is gone: Clear of an imported trace keeps focus in the panel too', async () => {
  const p = await browser.context.newPage();
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=987654&theme=light`);
  await p.setInputFiles('input[type="file"]', trace);
  await p.waitForSelector('.uri-row[data-uri]');
  await p.focus('button[aria-label^="Clear"]');
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Import trace', undefined, { timeout: 5000 });
  await p.close();
});

it('timeline lane names: one Tab stop, the arrows move among them; each name says its state (session ended, stale cache)', async () => {
  const p = await imported('light');
  await p.waitForSelector('.lane-label[data-lane="session"]');
  const stops = () => p.$$eval('.lane-label', (ls) => ls.filter((l) => (l as HTMLElement).tabIndex === 0).map((l) => l.getAttribute('data-lane-id')));
  const all = await p.$$eval('.lane-label', (ls) => ls.map((l) => ({ id: l.getAttribute('data-lane-id'), kind: l.getAttribute('data-lane'), name: l.getAttribute('aria-label'), stale: l.getAttribute('data-stale'), end: l.getAttribute('data-end-cause') })));
  expect(all.length).toBeGreaterThanOrEqual(2);
  expect(await stops()).toEqual([all[0]!.id]);
  // Session lanes: open or how it ended, in the name (it was only in the tooltip).
  for (const s of all.filter((l) => l.kind === 'session')) expect(s.name).toMatch(s.end ? new RegExp(`ended: ${s.end}$`) : / — open$/);
  // A stale lane (red) says so.
  const stale = all.filter((l) => l.stale === 'true');
  expect(stale.length).toBeGreaterThan(0);
  for (const s of stale) expect(s.name).toMatch(/, stale cache \((error|warning|info)\)$/);
  for (const s of all.filter((l) => l.kind === 'uri' && l.stale !== 'true')) expect(s.name).not.toMatch(/stale/);
  // ↓ moves the focus and the Tab stop to the next lane, End to the last, Home back; Tab leaves the list.
  await p.focus(`.lane-label[data-lane-id="${all[0]!.id}"]`);
  await p.keyboard.press('ArrowDown');
  await p.waitForFunction((id) => document.activeElement?.getAttribute('data-lane-id') === id, all[1]!.id, { timeout: 5000 });
  expect(await stops()).toEqual([all[1]!.id]);
  await p.keyboard.press('End');
  await p.waitForFunction((id) => document.activeElement?.getAttribute('data-lane-id') === id, all.at(-1)!.id, { timeout: 5000 });
  await p.keyboard.press('Home');
  await p.waitForFunction((id) => document.activeElement?.getAttribute('data-lane-id') === id, all[0]!.id, { timeout: 5000 });
  await p.keyboard.press('Tab');
  expect(await p.evaluate(() => document.activeElement?.classList.contains('lane-label'))).toBe(false);
  await p.close();
});

it('replay stops are never alike: one that is no message says what it is, in the value text and beside the slider', async () => {
  const p = await imported('light');
  const slider = 'input[aria-label="Replay up to"]';
  await p.waitForSelector(`${slider}:not([disabled])`);
  const max = Number(await p.getAttribute(slider, 'max'));
  await p.focus(slider);
  await p.keyboard.press('Home');
  const texts: string[] = [];
  const labels: string[] = [];
  for (let k = 0; k < max; k++) {
    await p.waitForFunction(([s, v]) => new RegExp(`, stop ${(v as number) + 1} of \\d+$`).test(document.querySelector(s as string)!.getAttribute('aria-valuetext') ?? ''), [slider, k], { timeout: 10_000 });
    texts.push((await p.getAttribute(slider, 'aria-valuetext'))!);
    labels.push((await p.textContent('.scrub-time'))!);
    await p.keyboard.press('ArrowRight');
  }
  expect(new Set(texts).size, texts.join("\n")).toBe(texts.length);
  // The recording's socket closes with no message: that stop is named.
  const turns = texts.filter((t) => /, after \d+ of/.test(t));
  expect(turns.length).toBeGreaterThan(0);
  for (const t of turns) expect(t).toMatch(/^\d\d:\d\d:\d\d\.\d{3}, (?!state changed)[^,]+, after/);
  expect(labels.filter((l) => l.includes(' · ')).length).toBe(turns.length);
  await p.close();
});

it('the status group says its state once; in forced colours a selected row stays marked after its list loses focus', async () => {
  const p = await imported('light');
  // "Imported" once (the visible text and the status region both read it: "Live Live").
  const tree = await p.locator('.status-bar').ariaSnapshot();
  expect(tree.match(/Imported/g)?.length, tree).toBe(1);
  await p.emulateMedia({ forcedColors: 'active' });
  await p.click('.uri-row.problem[data-uri]');
  await p.waitForSelector('.uri-row.selected');
  await p.focus('input[aria-label="Filter"]');
  const outline = await p.$eval('.uri-row.selected', (e) => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth);
  expect(outline).toBe('solid 2px');
  await p.close();
});
