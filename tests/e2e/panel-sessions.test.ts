// The Sessions view at scale, in real Chromium with the built extension: a trace of a client that re-initialized every
// half second (4,000 sessions, ~44k frames) and a 2026-07-28 client with two listens, imported into the panel with no
// tab. What an audit found (2026-12-05): every session was a table row (5,000 sessions: 6.6 s to open the view, seconds
// per filter keystroke), every row its own Tab stop with no name and arrows that did nothing, no row marked while its
// drawer was open, and `session:` matched a listen by its internal key (its page and endpoint). No timings asserted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { startBrowser, type Browser } from '../support/extension.ts';
import { MANY_SESSIONS_PAGE, manySessionsTrace } from '../support/many-sessions-trace.ts';

const N = 4000;
const LISTENS = 2;
const ROW_HEIGHT = 22;
const COLUMNS = ['Session / listen', 'Endpoint', 'Transport', 'Version', 'Capabilities', 'Started', 'Ended', 'Lived', 'Subscriptions', 'Channel', 'Streams'];

let browser: Browser;
let dir: string;
let panel: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'panel-sessions-'));
  const frames = manySessionsTrace(N);
  const path = join(dir, 'many-sessions.trace.json');
  writeFileSync(path, serializeTrace(exportTrace({ frames, createdAt: frames.at(-1)!.t + 60_000, pageUrl: MANY_SESSIONS_PAGE })));
  browser = await startBrowser();
  panel = await browser.context.newPage();
  await panel.setViewportSize({ width: 1400, height: 900 });
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?theme=light`);
  await panel.waitForSelector('.status-bar[data-status="offline"]');
  await panel.setInputFiles('input[type="file"]', path);
  await panel.waitForSelector('.status-bar[data-status="imported"]', { timeout: 60_000 });
  await panel.click('[role="tab"][data-view="sessions"]');
  await panel.waitForSelector('.session-row', { timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sessionRows = () => panel.$$eval('.session-row', (rs) => rs.map((r) => r.getAttribute('data-session')!));
const selectedRows = () => panel.$$eval('.session-row[aria-selected="true"]', (rs) => rs.map((r) => r.getAttribute('data-session')!));
/** The most rows a screenful can hold: the rows in sight and the list's overscan (8) either side. */
const screenful = () => panel.$eval('.session-grid', (g, h) => Math.ceil(g.clientHeight / h) + 2 * 8 + 1, ROW_HEIGHT);
const setFilter = async (text: string) => {
  await panel.fill('input[aria-label="Filter"]', text);
};

it('puts a screenful of rows in the page, not one per session, under the column heads', async () => {
  const rows = await sessionRows();
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.length).toBeLessThan(80);
  const most = await screenful();
  expect(rows.length).toBeLessThanOrEqual(most);
  // Every session is in the grid for assistive technology, counted (with the heads' row) though not in the page.
  expect(await panel.getAttribute('.session-grid', 'aria-rowcount')).toBe(String(N + LISTENS + 1));
  // Newest first, as before.
  expect(rows[0]).toBe(`S${N - 1}`);
  expect(await panel.$$eval('.session-grid [role="columnheader"]', (hs) => hs.map((h) => h.textContent))).toEqual(COLUMNS);
  // Every column a row showed is still shown, one cell each.
  const cells = await panel.$$eval(`.session-row[data-session="S${N - 2}"] [role="gridcell"]`, (cs) => cs.map((c) => c.textContent));
  expect(cells).toEqual([
    `◆ S${N - 2}`,
    'http://localhost:3000/mcp',
    'streamable-http 2025',
    '2025-11-25',
    'resources.subscribe, resources.listChanged, tools',
    expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}$/),
    expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} · re-initialize$/),
    expect.stringMatching(/ms$/),
    '0',
    // Ended (re-initialized): no channel to have, a muted dash, not "none" in red.
    '—',
    'get (aborted)',
  ]);
  // Scrolled to the end, still a screenful: the oldest rows, the two listens, are there.
  await panel.$eval('.session-grid', (g) => (g.scrollTop = g.scrollHeight));
  await panel.waitForSelector('.session-row[data-kind="listen"]');
  expect((await sessionRows()).length).toBeLessThanOrEqual(most);
  await panel.$eval('.session-grid', (g) => (g.scrollTop = 0));
  await panel.waitForSelector(`.session-row[data-session="S${N - 1}"]`);
});

it('is one Tab stop: the arrows, Home, End and the page keys move the selection, Enter opens that session', async () => {
  // One focusable element in the sessions section: the grid (every row was a Tab stop: 4,000 Tabs to get past).
  expect(await panel.$$eval('.sessions *', (es) => es.filter((e) => (e as HTMLElement).tabIndex >= 0).map((e) => e.className))).toEqual(['vlist session-grid']);
  await panel.focus('.session-grid');
  await panel.keyboard.press('Home');
  expect(await selectedRows()).toEqual([`S${N - 1}`]);
  expect(await panel.getAttribute('.session-grid', 'aria-activedescendant')).toBe(await panel.getAttribute(`.session-row[data-session="S${N - 1}"]`, 'id'));
  await panel.keyboard.press('ArrowDown');
  await panel.keyboard.press('ArrowDown');
  expect(await selectedRows()).toEqual([`S${N - 3}`]);
  await panel.keyboard.press('ArrowUp');
  expect(await selectedRows()).toEqual([`S${N - 2}`]);
  // PageDown moves by the rows in sight, and the row is brought into view.
  await panel.keyboard.press('PageDown');
  const paged = await selectedRows();
  expect(paged).toHaveLength(1);
  const pagedBy = N - 2 - Number(paged[0]!.slice(1));
  expect(pagedBy).toBeGreaterThan(10);
  await panel.keyboard.press('PageUp');
  expect(await selectedRows()).toEqual([`S${N - 2}`]);
  // End: the oldest row (a listen), scrolled into view; Home back at the top.
  await panel.keyboard.press('End');
  expect(await panel.$$eval('.session-row[aria-selected="true"]', (rs) => rs.map((r) => r.getAttribute('data-kind')))).toEqual(['listen']);
  expect((await sessionRows()).length).toBeLessThanOrEqual(await screenful());
  await panel.keyboard.press('Home');
  await panel.keyboard.press('ArrowDown');
  expect(await selectedRows()).toEqual([`S${N - 2}`]);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('.drawer[data-drawer="session"]');
  expect(await panel.textContent('.drawer .drawer-title')).toBe(`Session S${N - 2}`);
  // The row whose drawer is open is the selected one (class and aria-selected).
  expect(await panel.$$eval('.session-row.selected', (rs) => rs.map((r) => r.getAttribute('data-session')))).toEqual([`S${N - 2}`]);
  expect(await selectedRows()).toEqual([`S${N - 2}`]);
  // With the drawer open the arrows still walk the grid, and the drawer follows the selection.
  await panel.focus('.session-grid');
  await panel.keyboard.press('ArrowDown');
  await panel.waitForFunction((t) => document.querySelector('.drawer .drawer-title')?.textContent === t, `Session S${N - 3}`);
  expect(await selectedRows()).toEqual([`S${N - 3}`]);
  // Esc closes it; focus is back on the grid, the selection stays.
  await panel.keyboard.press('Escape');
  await panel.waitForSelector('.drawer', { state: 'detached' });
  await panel.waitForFunction(() => document.activeElement?.classList.contains('session-grid') === true, undefined, { timeout: 5000 });
  expect(await selectedRows()).toEqual([`S${N - 3}`]);
  // A click opens a row's drawer and selects it.
  await panel.click(`.session-row[data-session="S${N - 6}"]`);
  await panel.waitForFunction((t) => document.querySelector('.drawer .drawer-title')?.textContent === t, `Session S${N - 6}`);
  expect(await selectedRows()).toEqual([`S${N - 6}`]);
  await panel.keyboard.press('Escape');
  await panel.waitForSelector('.drawer', { state: 'detached' });
});

it('names every row: kind and id, open or how it ended, version', async () => {
  expect(await panel.getByRole('row', { name: `Session S${N - 1}, open, 2025-11-25`, exact: true }).count()).toBe(1);
  expect(await panel.getByRole('row', { name: `Session S${N - 2}, ended (re-initialize), 2025-11-25`, exact: true }).count()).toBe(1);
  const names = await panel.$$eval('.session-row', (rs) => rs.map((r) => r.getAttribute('aria-label') ?? ''));
  for (const n of names) expect(n).toMatch(/^(Session|Listen) \S+, (open|ended \(.+\)), \S+/);
  // The listens too, by their request id.
  await setFilter('session:listen');
  await panel.waitForFunction(() => document.querySelectorAll('.session-row').length === 2);
  expect(await panel.$$eval('.session-row', (rs) => rs.map((r) => r.getAttribute('aria-label')).sort())).toEqual([
    'Listen listen:1, ended (dropped), 2026-07-28',
    'Listen listen:2, open, 2026-07-28',
  ]);
  await setFilter('');
});

it('session: matches what a row shows (session id, listen id), never a listen\'s page or endpoint', async () => {
  await setFilter('session:S1234');
  await panel.waitForFunction(() => document.querySelectorAll('.session-row').length === 1);
  expect(await sessionRows()).toEqual(['S1234']);
  expect(await panel.getAttribute('.session-grid', 'aria-rowcount')).toBe('2');
  // The endpoint and page are in every listen's internal key, in no row's id: nothing matches…
  await setFilter('session:localhost');
  await panel.waitForSelector('text=No session matches the filter.');
  // …and hiding them hides nothing.
  await setFilter('-session:mcp');
  await panel.waitForFunction((n) => document.querySelector('.session-grid')?.getAttribute('aria-rowcount') === String(n), N + LISTENS + 1);
  await setFilter('');
  await panel.waitForFunction((n) => document.querySelector('.session-grid')?.getAttribute('aria-rowcount') === String(n), N + LISTENS + 1);
});
