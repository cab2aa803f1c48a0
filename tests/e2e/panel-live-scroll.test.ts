// The URI table while live, in real Chromium with the built extension: the user selected a row, then scrolled away
// from it to read others. What an audit found (2026-12): a new URI sorting above the selection snapped the grid back
// to the selected row (scrollTop 4000 → 66), because the list revealed its selection whenever the selection's index
// changed, though the user had not moved it. Now the rows in view stay where they are (the grid scrolls by the rows
// inserted above them), the selection stays, and the keyboard still brings the newly selected row into view. The
// Messages view (the same list) still follows its tail. The panel is opened without a tab and fed frames through its
// store, as the background would while live.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';
import { startBrowser, waitFor, type Browser } from '../support/extension.ts';

const ROW_HEIGHT = 22;
const GRID = '.uri-grid';

let browser: Browser;
let p: Page;
const log = new FrameLog('live-doc', Date.now() - 5000);
const client = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');

/** The frames the script emits in `script`, stamped as arriving now. */
function framesOf(script: () => void) {
  const from = log.frames.length;
  log.t = Math.max(log.t, Date.now());
  script();
  return log.frames.slice(from);
}

const add = (frames: unknown[]) => p.evaluate((fs) => (globalThis as any).mcpPanel.add(fs), frames);
const rowCount = () => p.getAttribute(GRID, 'aria-rowcount').then(Number);
/** Where the grid is: its scrollTop, the URIs of the rows fully in sight below the column heads, the selection. */
const view = () =>
  p.evaluate((grid) => {
    const g = document.querySelector<HTMLElement>(grid)!;
    const box = g.getBoundingClientRect();
    const head = g.querySelector<HTMLElement>('.vlist-head')!.getBoundingClientRect().bottom;
    const inSight = [...g.querySelectorAll<HTMLElement>('.uri-row[data-uri]')]
      .filter((r) => r.getBoundingClientRect().top >= head - 1 && r.getBoundingClientRect().bottom <= box.bottom + 1)
      .map((r) => r.getAttribute('data-uri'));
    return { scrollTop: g.scrollTop, inSight, selected: (globalThis as any).mcpPanel.selected.value as string | null };
  }, GRID);
const uriOf = (n: number | string) => `file:///docs/${n}.md`;

beforeAll(async () => {
  log.pageStart('http://localhost:8080/kb');
  client.initialize({ sessionId: 'S0' });
  client.openGet();
  for (let i = 100; i < 400; i++) {
    client.subscribe(uriOf(i));
    client.read(uriOf(i), 'x');
  }
  browser = await startBrowser();
  p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 800 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  await add(log.frames);
  await waitFor(async () => (await rowCount()) === 301, 20_000, '300 URI rows');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

it('keeps the rows in view and the selection when a URI arrives above them while the user reads further down', async () => {
  await p.click(`.uri-row[data-uri="${uriOf(102)}"]`);
  const key = await waitFor(() => p.evaluate(() => (globalThis as any).mcpPanel.selected.value as string | null), 5_000, 'a selection');
  await p.$eval(GRID, (g) => (g.scrollTop = 4000));
  await waitFor(async () => (await view()).inSight.includes(uriOf(100 + Math.ceil(4000 / ROW_HEIGHT))), 5_000, 'the rows at 4000 px');
  const before = await view();
  expect(before.scrollTop).toBe(4000);
  expect(before.inSight.length).toBeGreaterThan(5);

  // A URI that sorts first (all rows are OK: by first seen… and it is named to sort first either way), while live.
  await add(framesOf(() => client.read('file:///docs/0-new.md', 'y')));
  await waitFor(async () => (await rowCount()) === 302, 10_000, 'the new row');
  // A few frames for any late scroll (a reveal, a scroll event) to land.
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))));
  const after = await view();
  // Not snapped back to the selected row (it was at 66 px), and the same rows in sight: one row further down.
  expect(after.inSight).toEqual(before.inSight);
  expect(after.scrollTop).toBe(before.scrollTop + ROW_HEIGHT);
  expect(after.selected).toBe(key);

  // The keyboard moves the selection, and the newly selected row (now the 4th) is brought into view.
  await p.focus(GRID);
  await p.keyboard.press('ArrowDown');
  await waitFor(async () => (await view()).inSight.includes(uriOf(103)), 5_000, 'docs/103.md in sight after ArrowDown');
  expect(await p.$eval(`.uri-row[data-uri="${uriOf(103)}"]`, (r) => r.getAttribute('aria-selected'))).toBe('true');
});

it('stays on the rows in view when one of them turns into a problem and sorts to the top', async () => {
  await p.$eval(GRID, (g) => (g.scrollTop = 3000));
  await waitFor(async () => (await view()).inSight.length > 5, 5_000, 'the rows at 3000 px');
  const before = await view();
  const moving = before.inSight[3]!;
  // The client unsubscribes from a row in sight and keeps its cache: a problem after the grace, among the first rows
  // now (problems first), and above the selection (docs/103.md) too.
  await add(framesOf(() => client.unsubscribe(moving)));
  const status = await waitFor(
    () => p.evaluate((u) => ((globalThis as any).mcpPanel.snapshot.value.uris as { uri: string; status: string }[]).slice(0, 2).find((r) => r.uri === u)?.status, moving),
    20_000,
    'the row among the first',
  );
  expect(['warning', 'error']).toContain(status);
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))));
  const after = await view();
  // Most rows in sight (those below the moved one) did not move: neither did the view. The three above it closed the
  // gap, and the row that was just above the view came into sight at the top; nothing was taken along to the top.
  expect(after.scrollTop).toBe(before.scrollTop);
  expect(after.inSight.slice(1)).toEqual(before.inSight.filter((u) => u !== moving));
  expect(after.selected).toBe(before.selected);
});

it('the Messages view still follows the tail at the bottom, and stays put scrolled up with a row selected', async () => {
  await p.click('[role="tab"][data-view="messages"]');
  await p.waitForSelector('.frame-row[data-seq]');
  const grid = () => p.$eval('.frame-grid', (g) => ({ scrollTop: g.scrollTop, atEnd: g.scrollTop + g.clientHeight >= g.scrollHeight - 1, rows: Number(g.getAttribute('aria-rowcount')) }));
  const settle = () => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200)))));
  await waitFor(async () => (await grid()).atEnd, 5_000, 'the Messages view at its end');
  const start = await grid();
  await add(framesOf(() => client.read(uriOf(150), 'x')));
  await waitFor(async () => (await grid()).rows > start.rows, 10_000, 'the new messages');
  await settle();
  expect((await grid()).atEnd).toBe(true);

  // Scrolled up, a row selected: new messages (at the end) move nothing.
  await p.$eval('.frame-grid', (g) => (g.scrollTop = 2000));
  await waitFor(() => p.$eval('.frame-row[data-seq]', (r) => r.getBoundingClientRect().height > 0), 5_000, 'rows at 2000 px');
  await settle();
  const seq = await p.evaluate(() => {
    const g = document.querySelector('.frame-grid')!.getBoundingClientRect();
    const row = [...document.querySelectorAll<HTMLElement>('.frame-row[data-seq]')].find((r) => r.getBoundingClientRect().top > g.top + 40)!;
    return row.getAttribute('data-seq')!;
  });
  await p.click(`.frame-row[data-seq="${seq}"]`);
  await p.keyboard.press('Escape');
  await p.waitForSelector('[data-drawer]', { state: 'detached' });
  const before = await grid();
  await add(framesOf(() => client.read(uriOf(151), 'x')));
  await waitFor(async () => (await grid()).rows > before.rows, 10_000, 'more new messages');
  await settle();
  const after = await grid();
  expect(after.scrollTop).toBe(before.scrollTop);
  expect(after.atEnd).toBe(false);
  expect(await p.getAttribute('.frame-row.selected', 'data-seq')).toBe(seq);
});

it('a filtered Messages view takes in the new messages that match, and only those (the filter is kept incrementally)', async () => {
  await p.click('[role="tab"][data-view="messages"]');
  const shown = () => p.$$eval('.frame-grid .frame-row[data-seq]', (rs) => rs.map((r) => r.getAttribute('data-seq')));
  // The rows the list holds (its row count, less the column heads').
  const rows = () => p.$eval('.frame-grid', (g) => Number(g.getAttribute('aria-rowcount')) - 1);
  await p.fill('input[aria-label="Filter"]', `uri:${uriOf('fresh-a')}`);
  await waitFor(async () => ((await shown()).length === 0 ? true : undefined), 5_000, 'nothing read fresh-a yet');
  await add(framesOf(() => client.read(uriOf('fresh-a'), 'x')));
  // The read and its answer (which names the request's URI).
  await waitFor(async () => ((await shown()).length === 2 ? true : undefined), 10_000, 'the read of fresh-a');
  await add(framesOf(() => client.read(uriOf('fresh-b'), 'x')));
  await add(framesOf(() => client.read(uriOf('fresh-a'), 'y')));
  await waitFor(async () => ((await shown()).length === 4 ? true : undefined), 10_000, 'the second read of fresh-a');
  expect(await rows()).toBe(4);
  // Another filter, then none: every row again.
  await p.fill('input[aria-label="Filter"]', `uri:${uriOf('fresh-b')}`);
  await waitFor(async () => ((await shown()).length === 2 ? true : undefined), 5_000, 'the read of fresh-b');
  const all = await p.evaluate(() => (globalThis as any).mcpPanel.messageRows().length as number);
  await p.fill('input[aria-label="Filter"]', '');
  await waitFor(async () => ((await rows()) === all ? true : undefined), 5_000, 'every row');
});
