// Small panel problems an audit noted, by the DOM of the built panel with imported traces (no tab), one browser for
// the file: the timeline legend's stale swatch said "red" while bands are drawn in their finding's severity colour; the
// Sessions grid scrolled sideways at 1,400 px; after frames were dropped at the log's cap, rows of a connection
// whose opening frames went had a blank transport; and the Findings view showed two clients' findings about one URI as
// identical rows, naming a WebSocket's session by its connection id; the Messages, Resources and Findings views named
// a 2026 listen by its bare request id (`3`, where the Sessions view said `listen 3`); the URI table's Findings column
// titled a finding by its id, not its reason (a lapsed subscription's "Stream reconnected without resuming").
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { openImported, startBrowser, type Browser } from '../support/extension.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient, WsClient } from '../support/mcp-clients.ts';
import { twoEndpointLog } from '../support/two-clients.ts';
import { lapsedLog } from '../support/gap-sessions.ts';
import { HELD, LISTENED, listenLog, PLAIN, reusedListenLog } from '../support/listen-log.ts';

const FIXTURE = resolve('tests/fixtures/sdk-v1-streamable.trace.json');
const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'panel-polish-'));
  browser = await startBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `log` written as a trace file of the test's folder, exported when the log ends. */
function traceFile(log: FrameLog, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t, pageUrl: 'http://localhost:8080/kb' })));
  return path;
}

/** The trace of twoEndpointLog (an HTTP server and a WebSocket one whose socket reconnects), written once. */
let twoEndpointPath: string | undefined;
function twoEndpointTrace(): string {
  twoEndpointPath ??= traceFile(twoEndpointLog(), 'two-endpoints.trace.json');
  return twoEndpointPath;
}

/** The Messages view's rows in view: transport, session id, and the session cell's text, tooltip and whether it shows whole. */
function messageSessionCells(p: Page) {
  return p.$$eval('.frame-row[data-seq]', (rs) =>
    rs.map((r) => {
      const cells = r.querySelectorAll<HTMLElement>('[role="gridcell"]');
      const c = cells[4]!;
      return { transport: cells[3]!.textContent, id: r.getAttribute('data-session'), text: c.textContent, title: c.title, whole: c.scrollWidth <= c.clientWidth };
    }),
  );
}

it('the timeline legend shows a stale swatch per severity, in the colours the bands are drawn in (light and dark)', async () => {
  for (const theme of ['light', 'dark'] as const) {
    const p = await openImported(browser, FIXTURE, { width: 1400, height: 900 }, theme);
    await p.waitForSelector('.timeline-legend');
    const seen = await p.evaluate(() => {
      // A variable's colour as the browser computes it (the canvas reads the same variables: timeline-draw.ts palette).
      const probe = document.createElement('div');
      document.body.append(probe);
      const colour = (v: string) => {
        probe.style.backgroundColor = `var(${v})`;
        return getComputedStyle(probe).backgroundColor;
      };
      const want = {
        error: [colour('--stale-fill'), colour('--error')],
        warning: [colour('--stale-fill-warning'), colour('--warn')],
        info: [colour('--stale-fill-info'), colour('--info')],
      };
      const swatches = [...document.querySelectorAll<HTMLElement>('.timeline-legend .lg-stale')].map((s) => {
        const cs = getComputedStyle(s);
        // "rgb(…) 0px -2px 0px 0px inset": the solid edge under the shading, as the canvas draws it.
        return { severity: s.dataset.severity, fill: cs.backgroundColor, edge: /^(rgba?\([^)]*\))/.exec(cs.boxShadow)?.[1] ?? cs.boxShadow, title: s.closest('[title]')?.getAttribute('title') ?? '' };
      });
      probe.remove();
      const line = document.querySelector<HTMLElement>('.timeline-legend')!;
      return { want, swatches, text: line.textContent ?? '', whole: line.scrollWidth <= line.clientWidth };
    });
    expect(seen.swatches.map((s) => s.severity), theme).toEqual(['error', 'warning', 'info']);
    for (const s of seen.swatches) {
      expect([s.fill, s.edge], `${theme} ${s.severity}`).toEqual(seen.want[s.severity as 'error' | 'warning' | 'info']);
      // Each says what it means on hover.
      expect(s.title, `${theme} ${s.severity}`).toMatch(new RegExp(`stale.*${s.severity}`, 'i'));
    }
    // Three distinct colours, named for assistive technology; the line still whole at 1,400 px (the words beside each
    // swatch cut its end off).
    expect(new Set(seen.swatches.map((s) => s.fill)).size).toBe(3);
    expect(seen.text).toMatch(/stale cache \(red error, amber warning, blue info\)/);
    expect(seen.whole, theme).toBe(true);
    await p.close();
  }
});

it('the Sessions grid fits beside the metrics at 1,400 px (room for a classic scrollbar too) and at 1,440 px as before', async () => {
  const seen: Record<number, unknown> = {};
  for (const width of [1400, 1440]) {
    const p = await openImported(browser, FIXTURE, { width, height: 900 });
    await p.click('[role="tab"][data-view="sessions"]');
    await p.waitForSelector('.session-row');
    seen[width] = await p.evaluate(() => {
      const grid = document.querySelector<HTMLElement>('.session-grid')!;
      // The columns' least widths (the head's min-width), and 15 px for a scrollbar that takes room (headless has none).
      const least = parseFloat(getComputedStyle(document.querySelector('.session-head')!).minWidth);
      return {
        sideways: grid.scrollWidth > grid.clientWidth,
        roomForScrollbar: grid.clientWidth >= least + 15,
        metricsInside: document.querySelector('.metrics')!.getBoundingClientRect().right <= document.documentElement.clientWidth,
      };
    });
    if (width === 1440) expect(await p.$eval('.metrics', (m) => m.getBoundingClientRect().width)).toBe(290);
    await p.close();
  }
  const fits = { sideways: false, roomForScrollbar: true, metricsInside: true };
  expect(seen).toEqual({ 1400: fits, 1440: fits });
});

it('after frames were dropped at the cap, rows of a connection whose opening frames went show the transport inferred from the frame kind, and say why', async () => {
  const log = new FrameLog();
  const ws = new WsClient(log, 'ws://localhost:3000/ws');
  ws.connect();
  ws.initialize();
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  // The log's cap drops everything so far: the WebSocket's connect and the GET stream's request and response.
  const cut = log.frames.length;
  get.updated(POLICY);
  ws.call('ping', undefined);
  c.read(POLICY, 'v2');
  get.close();
  const frames = log.frames.slice(cut);
  const path = join(dir, 'capped.trace.json');
  writeFileSync(path, serializeTrace(exportTrace({ frames, createdAt: frames.at(-1)!.t + 60_000, pageUrl: 'http://localhost:8080/kb', dropped: { frames: cut } })));
  const p = await openImported(browser, path, { width: 1400, height: 900 });
  await p.click('[role="tab"][data-view="messages"]');
  await p.waitForSelector('.frame-row[data-seq]');
  const rows = await p.$$eval('.frame-row[data-seq]', (rs) =>
    rs.map((r) => {
      const cell = r.querySelectorAll<HTMLElement>('[role="gridcell"]')[3]!;
      return { method: r.getAttribute('data-method'), note: r.querySelectorAll('[role="gridcell"]')[8]!.textContent, transport: cell.textContent, inferred: cell.dataset.inferred === 'true', title: cell.getAttribute('title') ?? '' };
    }),
  );
  const pick = (r: (typeof rows)[number]) => `${r.transport}${r.inferred ? ' (inferred)' : ''}`;
  // The GET stream's notification and end, the WebSocket's ping and answer: inferred; the read sent after the cut: known.
  expect(rows.map((r) => `${r.method || r.note} | ${pick(r)}`)).toEqual([
    `notifications/resources/updated | SSE ? (inferred)`,
    `ping | WebSocket (inferred)`,
    `ping (result) | WebSocket (inferred)`,
    `resources/read | HTTP POST`,
    `HTTP 200 application/json | HTTP POST`,
    `resources/read (result) | HTTP POST`,
    `end complete | HTTP POST`,
    `end complete | HTTP ? (inferred)`,
  ]);
  for (const r of rows.filter((x) => x.inferred)) expect(r.title).toMatch(/opening frames.*dropped at the log's frame cap/i);
  for (const r of rows.filter((x) => !x.inferred)) expect(r.title).toBe('');
  await p.close();
});

it('the Messages view names a WebSocket\'s rows WebSocket #n, as the other views, and session: finds them by that name', async () => {
  const p = await openImported(browser, twoEndpointTrace(), { width: 1400, height: 1400 });
  await p.click('[role="tab"][data-view="messages"]');
  await p.waitForSelector('.frame-row[data-seq]');
  const sessionCells = () => messageSessionCells(p);
  const all = await sessionCells();
  expect(all).toHaveLength(30);
  const ws = all.filter((c) => c.transport === 'WebSocket');
  // Named as in the Sessions view, whole, the id in the tooltip (the cell said the connection id, `doc-1…s5`).
  expect([...new Set(ws.map((c) => c.text))]).toEqual(['WebSocket #1', 'WebSocket #2']);
  for (const c of ws) expect(c.title).toMatch(new RegExp(`^${c.text} \\(ws:\\S+\\)$`));
  expect(ws.filter((c) => !c.whole)).toEqual([]);
  // An HTTP session as it is.
  expect(new Set(all.filter((c) => c.transport !== 'WebSocket' && c.text).map((c) => `${c.text} ${c.title}`))).toEqual(new Set(['S1 S1']));
  // What the Sessions view calls the first socket finds its rows, and only those (it found nothing).
  await p.fill('input[type="search"]', 'session:"websocket #1"');
  await p.waitForFunction(() => document.querySelectorAll('.frame-row[data-seq]').length === 10);
  expect(new Set((await sessionCells()).map((c) => c.text))).toEqual(new Set(['WebSocket #1']));
  await p.fill('input[type="search"]', 'session:"websocket #2"');
  await p.waitForFunction(() => document.querySelectorAll('.frame-row[data-seq]').length === 5);
  expect(new Set((await sessionCells()).map((c) => c.text))).toEqual(new Set(['WebSocket #2']));
  await p.close();
});

it('a 2026 listen is `listen <request id>` in the Messages view, the URI table and the Findings view too, and session: finds it by that name there', async () => {
  const p = await openImported(browser, traceFile(listenLog(), 'listens.trace.json'), { width: 1400, height: 1400 });
  await p.click('[role="tab"][data-view="messages"]');
  await p.waitForSelector('.frame-row[data-seq]');
  const sessionCells = () => messageSessionCells(p);
  const listens = (await sessionCells()).filter((c) => c.id);
  // As the Sessions view names them, whole, the SDK's id too (the cells said `3`, `31`, `listen:12`); the tooltip is the name.
  expect([...new Set(listens.map((c) => `${c.id} | ${c.text} | ${c.title}`))]).toEqual(['3 | listen 3 | listen 3', '31 | listen 31 | listen 31', 'listen:12 | listen:12 | listen:12']);
  expect(listens.filter((c) => !c.whole)).toEqual([]);
  // What the Sessions view calls listen 3 finds its rows, and only those (it found nothing); 31 is not 3.
  await p.fill('input[type="search"]', 'session:"listen 3"');
  await p.waitForFunction(() => document.querySelectorAll('.frame-row[data-seq]').length === 5);
  expect(new Set((await sessionCells()).map((c) => c.text))).toEqual(new Set(['listen 3']));
  await p.fill('input[type="search"]', 'session:"listen 31"');
  await p.waitForFunction(() => document.querySelectorAll('.frame-row[data-seq]').length === 3);
  expect(new Set((await sessionCells()).map((c) => c.text))).toEqual(new Set(['listen 31']));
  // The URI table: by the name, as by the id (it found no row): what listen 31 holds, and LISTENED, whose findings
  // follow it across the client's listens (listen 31 was open while it was lost); then listen 3's.
  await p.click('[role="tab"][data-view="resources"]');
  const uris = (want: string) => p.waitForFunction((w) => [...document.querySelectorAll('.uri-row[data-uri]')].map((r) => r.getAttribute('data-uri')).join() === w, want);
  await uris([LISTENED, HELD].join());
  await p.fill('input[type="search"]', 'session:"listen 3"');
  await uris(LISTENED);
  // The Findings view: the Session column and the drawer say `listen 3` (they said `3`, and `session 3`); session: finds them.
  await p.click('[role="tab"][data-view="findings"]');
  await p.waitForFunction(() => document.querySelector('.findings-view')?.getAttribute('data-count') === '3');
  const cell = '.finding-row[data-finding-id="notified-not-reread"] [role="gridcell"]:nth-child(4)';
  expect(await p.textContent(cell)).toBe('listen 3');
  expect(await p.getAttribute(cell, 'title')).toBe('listen 3');
  // The details name it so too (the engine wrote `3 ended (dropped) …`).
  expect(await p.textContent('.finding-row[data-finding-id="phantom-subscription"] [role="gridcell"]:nth-child(5)')).toMatch(/^listen 3 ended \(dropped\) at seq \d+$/);
  await p.click('.finding-row[data-finding-id="notified-not-reread"]');
  await p.waitForSelector('[data-drawer="finding"]');
  expect(await p.textContent('[data-drawer="finding"] .finding-id')).toBe('notified-not-reread · listen 3');
  await p.close();
});

it('a listen that reuses a request id is `listen:1 #2` in the Messages view and the message drawer, as in the Sessions grid; a plain 2026 message has no session, said so', async () => {
  const p = await openImported(browser, traceFile(reusedListenLog().log, 'reused-listen.trace.json'), { width: 1400, height: 1400 });
  await p.click('[role="tab"][data-view="messages"]');
  await p.waitForSelector('.frame-row[data-seq]');
  const sessionCells = () => messageSessionCells(p);
  // Both clients sent `listen:1`: the second's rows are named as its Sessions row (they said `listen:1`, and
  // session:"listen:1 #2" found nothing here).
  const listens = (await sessionCells()).filter((c) => c.id);
  expect([...new Set(listens.map((c) => `${c.id} | ${c.text} | ${c.title}`))]).toEqual(['listen:1 | listen:1 | listen:1', 'listen:1 #2 | listen:1 #2 | listen:1 #2']);
  expect(listens.filter((c) => !c.whole)).toEqual([]);
  await p.fill('input[type="search"]', 'session:"listen:1 #2"');
  // Its request, response head, acknowledgement and update.
  await p.waitForFunction(() => document.querySelectorAll('.frame-row[data-seq]').length === 4);
  expect(new Set((await sessionCells()).map((c) => c.text))).toEqual(new Set(['listen:1 #2']));
  // The acknowledgement's frame, then its message: the drawer names the listen (it said `—`).
  await p.click('.frame-row[data-method="notifications/subscriptions/acknowledged"]');
  await p.waitForSelector('.drawer[data-drawer="frame"]');
  await p.click('.drawer button.link:text("notifications/subscriptions/acknowledged")');
  await p.waitForSelector('.drawer[data-drawer="message"]');
  const session = () => p.$eval('.drawer .facts dt:text-is("Session") + dd', (d) => d.textContent);
  expect(await session()).toBe('listen:1 #2');
  // The Sessions grid calls it so.
  await p.keyboard.press('Escape');
  await p.click('[role="tab"][data-view="sessions"]');
  await p.waitForSelector('.session-row[data-kind="listen"]');
  expect(await p.$$eval('.session-row[data-kind="listen"]', (rs) => rs.map((r) => r.textContent ?? '').filter((t) => t.includes('listen:1 #2')).length)).toBe(1);
  // A plain read, on its own POST: no session, and the drawer says why.
  const read = await p.evaluate((uri) => {
    const e = (globalThis as any).mcpPanel.engineNow();
    for (let i = 0; i < e.messageCount; i++) if (e.message(i).kind === 'request' && e.message(i).uri === uri) return i;
    return -1;
  }, PLAIN);
  expect(read).toBeGreaterThanOrEqual(0);
  await p.evaluate((i) => ((globalThis as any).mcpPanel.drawer.value = { kind: 'message', index: i }), read);
  await p.waitForSelector('.drawer[data-drawer="message"]');
  expect(await session()).toBe('none (2026-07-28 has no sessions)');
  await p.close();
});

it("the Findings view tells two endpoints' findings about one URI apart by the client's tag, and names WebSockets WebSocket #n", async () => {
  const p = await openImported(browser, twoEndpointTrace(), { width: 1400, height: 900 });
  await p.click('[role="tab"][data-view="findings"]');
  await p.waitForSelector('.finding-row[data-finding-id]');
  const rowsOf = () =>
    p.$$eval('.finding-row[data-finding-id]', (rs) =>
      rs.map((r) => {
        const cells = r.querySelectorAll<HTMLElement>('[role="gridcell"]');
        // The client and the session whole (a WebSocket's number was cut off: `WebSocket …`).
        const whole = (c: HTMLElement) => (c.scrollWidth > c.clientWidth ? `${c.textContent} (cut)` : c.textContent);
        return [r.getAttribute('data-finding-id'), r.getAttribute('data-uri'), whole(cells[3]!), whole(cells[4]!), cells[5]!.textContent!.includes('ws:') ? 'ws: in detail' : ''].join(' | ');
      }),
    );
  expect(await rowsOf()).toEqual([
    `cached-not-subscribed | ${POLICY} | localhost:3002/ws | WebSocket #2 | `,
    `phantom-subscription | ${POLICY} | localhost:3002/ws | WebSocket #2 | `,
    `cached-not-subscribed | ${POLICY} | localhost:3000/mcp | S1 | `,
  ]);
  expect(await p.$$eval('.finding-grid [role="columnheader"]', (hs) => hs.map((h) => h.textContent))).toEqual(['Severity', 'Finding', 'URI', 'Client', 'Session', 'Detail', 'First', 'Last', 'Count', 'State']);
  // The detail names the first socket as the view does.
  expect(await p.textContent('.finding-row[data-finding-id="phantom-subscription"] [role="gridcell"]:nth-child(6)')).toMatch(/^WebSocket #1 ended \(transport-closed\)/);
  // session: finds a WebSocket by the name shown.
  await p.fill('input[type="search"]', 'session:"websocket #2"');
  await p.waitForFunction(() => document.querySelector('.findings-view')?.getAttribute('data-count') === '2');
  await p.fill('input[type="search"]', '');
  // The Sessions view and the drawer name it so too.
  await p.click('[role="tab"][data-view="sessions"]');
  await p.waitForSelector('.session-row');
  expect((await p.$$eval('.session-row [role="gridcell"]:first-child', (cs) => cs.map((c) => c.textContent!.replace(/^\W+/, '')))).sort()).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
  await p.click('.session-row[data-end-cause="transport-closed"]');
  await p.waitForSelector('[data-drawer="session"]');
  expect(await p.textContent('[data-drawer="session"] .drawer-title')).toBe('Session WebSocket #1');
  await p.keyboard.press('Escape');
  await p.click('[role="tab"][data-view="findings"]');
  await p.click('.finding-row[data-finding-id="phantom-subscription"]');
  await p.waitForSelector('[data-drawer="finding"]');
  expect(await p.textContent('[data-drawer="finding"] .finding-id')).toBe('phantom-subscription · session WebSocket #2 · localhost:3002/ws');
  // Hovering the name says the id it stands for, in one text (sessionIdTitle): the row's Session cell and the drawer's
  // (the drawer's said the connection id alone).
  const cellTitle = await p.getAttribute('.finding-row[data-finding-id="phantom-subscription"] [role="gridcell"]:nth-child(5)', 'title');
  expect(cellTitle).toMatch(/^WebSocket #2 \(ws:\S+\)$/);
  expect(await p.getAttribute('[data-drawer="finding"] .finding-id > span[title]:not(.finding-client)', 'title')).toBe(cellTitle);
  // With the drawer open (the table narrower) the client is still whole.
  expect(await p.$$eval('.finding-row [role="gridcell"].client', (cs) => cs.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent))).toEqual([]);
  if (process.env.SHOT) await p.screenshot({ path: process.env.SHOT });
  await p.close();

  // One client: no tag.
  const one = new FrameLog('doc-one');
  one.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(one, URL);
  c.initialize({ sessionId: 'S1' });
  c.read(POLICY, 'v1');
  one.wait(5000);
  const q = await openImported(browser, traceFile(one, 'one-client.trace.json'), { width: 1400, height: 900 });
  await q.click('[role="tab"][data-view="findings"]');
  await q.waitForSelector('.finding-row[data-finding-id]');
  expect(await q.$$eval('.finding-row[data-client]', (xs) => xs.length)).toBe(0);
  expect(await q.$$eval('.finding-grid [role="columnheader"]', (hs) => hs.map((h) => h.textContent))).toEqual(['Severity', 'Finding', 'URI', 'Session', 'Detail', 'First', 'Last', 'Count', 'State']);
  await q.close();
});

it("the URI table's Findings column titles a finding as the Findings view does: a lapsed subscription's resume-gap by its reason's own title", async () => {
  // S1 read and subscribed the policy; the client re-initialized as S2 and subscribed again, and never read it again.
  const log = new FrameLog();
  lapsedLog(log, URL, POLICY);
  log.wait(10_000);
  const p = await openImported(browser, traceFile(log, 'lapsed.trace.json'), { width: 1400, height: 900 });
  await p.click('[role="tab"][data-view="resources"]');
  const row = `.uri-row[data-uri="${POLICY}"]`;
  await p.waitForSelector(`${row}[data-findings="resume-gap"]`);
  // It said "Stream reconnected without resuming", resume-gap's title, where the Findings view and the CLI say this.
  expect([await p.textContent(`${row} .finding-cell`), await p.getAttribute(`${row} .finding-cell`, 'title')]).toEqual(['Subscribed again, but not read again', 'Subscribed again, but not read again']);
  await p.fill('input[type="search"]', 'not read again');
  await p.waitForFunction(() => document.querySelectorAll('.uri-row[data-uri]').length === 1);
  await p.close();
});
