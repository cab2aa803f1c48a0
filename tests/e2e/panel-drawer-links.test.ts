// The drawer's links between its own pages, on an imported trace: a session's URIs (held, covered via a parent,
// requested in a listen) each open that URI's drawer, ← Back returns to the session, by mouse and by keyboard; and
// every frame an exchange lists opens that frame. One browser for the file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { FrameLog } from '../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../support/mcp-clients.ts';
import { startBrowser, type Browser } from '../support/extension.ts';

const URL_2025 = 'http://localhost:3000/mcp';
const URL_2026 = 'http://localhost:3001/mcp';
const POLICY = 'file:///docs/policy.md';
const DOCS = 'file:///docs/';
const FAQ = 'file:///docs/faq.md';
const ARTICLE = 'file:///kb/a.md';
const PATTERN = 'file:///kb/*';
const FAQ_LISTED = '2026-12-05T09:00:00.000Z';

let out: string;
let browser: Browser;
let panel: Page;
let log: FrameLog;

const drawerTitle = () => panel.textContent('.drawer .drawer-title');

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'panel-drawer-links-'));
  log = new FrameLog('links-doc');
  log.pageStart('http://localhost:8080/app');
  // A 2025 session holding the policy and the docs listing; the server notifies the FAQ under the listing.
  const c = new StreamableClient(log, URL_2025);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  c.read(DOCS, 'listing');
  c.subscribe(DOCS);
  c.read(FAQ, 'faq v1');
  get.updated(FAQ);
  c.read(FAQ, 'faq v2');
  // The server lists the FAQ's version after that read (the read's answer gave none): the drawer says it apart.
  c.list([{ uri: FAQ, name: 'faq', annotations: { lastModified: FAQ_LISTED } }]);
  // A 2026 client on another endpoint: a listen asking for an article and a pattern.
  const m = new ModernClient(log, URL_2026);
  m.discover();
  m.read(ARTICLE, 'a v1');
  m.listen([ARTICLE, PATTERN]);
  const path = join(out, 'links.trace.json');
  writeFileSync(path, serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 1000, pageUrl: 'http://localhost:8080/app' })));
  browser = await startBrowser();
  panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await panel.waitForSelector('.status-bar[data-status="offline"]');
  await panel.setInputFiles('input[type="file"]', path);
  await panel.waitForSelector('.status-bar[data-status="imported"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** The links in the drawer's fact `label`, by their text. */
const linksIn = (label: string) =>
  panel.$$eval(
    '.drawer .facts dt',
    (dts, l) => {
      const dt = dts.find((d) => d.textContent === l);
      return dt ? [...dt.nextElementSibling!.querySelectorAll('button.link')].map((b) => b.textContent) : null;
    },
    label,
  );

it("a session's URIs open their own drawers; Back returns to the session", async () => {
  await panel.click('[role="tab"][data-view="sessions"]');
  await panel.click('.session-row[data-kind="session"]');
  await panel.waitForSelector('.drawer[data-drawer="session"]');
  expect(await linksIn('Subscriptions held')).toEqual([POLICY, DOCS]);
  // A sub-resource held through its parent: both are links, in the words the tooltip uses.
  expect(await linksIn('Sub-resources')).toEqual([FAQ, DOCS]);
  expect(await panel.$eval('.drawer .facts dt:text-is("Sub-resources") + dd', (d) => d.textContent)).toBe(`${FAQ} (covered via ${DOCS})`);
  // By mouse: the URI's drawer, then Back.
  await panel.getByRole('button', { name: `URI ${POLICY}`, exact: true }).click();
  await panel.waitForSelector('.drawer[data-drawer="uri"]');
  expect(await drawerTitle()).toBe(POLICY);
  // The row of this session's client (endpoint and page), with its facts.
  expect(await panel.textContent('.drawer .facts')).toContain(`Endpoint${URL_2025}`);
  expect(await panel.getAttribute('.drawer-back', 'aria-label')).toBe('Back to the session');
  await panel.click('.drawer-back');
  await panel.waitForSelector('.drawer[data-drawer="session"]');
  // The drawer places the focus after it renders (on ✕: the session has nothing to go back to); focusing the link
  // before that lost it to ✕ under load, and Enter closed the drawer.
  await panel.waitForFunction(() => document.activeElement?.classList.contains('drawer-close') === true, undefined, { timeout: 5000 });
  // By keyboard: Tab to the covered URI's link, Enter; the focus moves to Back, Enter walks back.
  await panel.focus(`.drawer button[aria-label="URI ${FAQ}"]`);
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('.drawer[data-drawer="uri"]');
  expect(await drawerTitle()).toBe(FAQ);
  await panel.waitForFunction(() => document.activeElement?.classList.contains('drawer-back') === true, undefined, { timeout: 5000 });
  await panel.keyboard.press('Enter');
  await panel.waitForSelector('.drawer[data-drawer="session"]');
  await panel.keyboard.press('Escape');
  await panel.waitForSelector('.drawer', { state: 'detached' });
});

it("a cache whose read gave no lastModified says so, and the list's value is a line of its own, dated against the read", async () => {
  await panel.evaluate(() => ((globalThis as any).mcpPanel.drawer.value = null));
  await panel.click('[role="tab"][data-view="resources"]');
  await panel.dblclick(`.uri-row[data-uri="${FAQ}"]`);
  await panel.waitForSelector('.drawer[data-drawer="uri"]');
  const fact = (label: string) => panel.$eval(`.drawer .facts dt:text-is("${label}") + dd`, (d) => d.textContent);
  expect(await fact('lastModified')).toBe('— (the read’s answer has none)');
  expect(await fact('Listed lastModified')).toMatch(new RegExp(`^${FAQ_LISTED}, listed \\d\\d:\\d\\d:\\d\\d\\.\\d{3}, after the read$`));
  await panel.keyboard.press('Escape');
  await panel.waitForSelector('.drawer', { state: 'detached' });
  await panel.click('[role="tab"][data-view="sessions"]');
});

it("a listen's requested URIs are links too, a pattern as well (it has a row of its own)", async () => {
  await panel.evaluate(() => ((globalThis as any).mcpPanel.drawer.value = null));
  await panel.click('.session-row[data-kind="listen"]');
  await panel.waitForSelector('.drawer[data-drawer="session"]');
  expect(await linksIn('Requested in listen')).toEqual([ARTICLE, PATTERN]);
  expect(await panel.$eval('.drawer .facts dt:text-is("Requested in listen") + dd', (d) => d.textContent)).toBe(`${ARTICLE}\n${PATTERN}`);
  await panel.click(`.drawer .facts dt:text-is("Requested in listen") + dd button[aria-label="URI ${ARTICLE}"]`);
  await panel.waitForSelector('.drawer[data-drawer="uri"]');
  expect(await drawerTitle()).toBe(ARTICLE);
  expect(await panel.textContent('.drawer .facts')).toContain(`Endpoint${URL_2026}`);
  await panel.keyboard.press('Escape');
  await panel.waitForSelector('.drawer', { state: 'detached' });
});

it("every frame a message's exchange lists is a link that opens that frame", async () => {
  // The read of the FAQ that followed the notification: its exchange is request, response head, body, end.
  const index = await panel.evaluate((uri) => {
    const e = (globalThis as any).mcpPanel.engineNow();
    for (let i = e.messageCount - 1; i >= 0; i--) if (e.message(i).kind === 'request' && e.message(i).uri === uri) return i;
    return -1;
  }, FAQ);
  await panel.evaluate((i) => ((globalThis as any).mcpPanel.drawer.value = { kind: 'message', index: i }), index);
  await panel.waitForSelector('.drawer[data-drawer="message"]');
  const conn = await panel.evaluate((i) => (globalThis as any).mcpPanel.engineNow().message(i).conn as string, index);
  const seqs = log.frames.filter((f) => 'conn' in f && f.conn === conn).map((f) => f.seq);
  expect(seqs.length).toBeGreaterThan(2);
  // The line lists each frame once, each as a link: no `#seq` in it that is not a button.
  const line = await panel.$eval('.drawer .exchange .evidence', (p) => ({
    text: p.textContent!,
    links: [...p.querySelectorAll('button.link')].map((b) => b.textContent!.trim()),
  }));
  expect(line.links).toEqual(seqs.map((s) => `#${s}`));
  expect(line.text.match(/#\d+/g)).toEqual(line.links);
  for (const seq of seqs) {
    await panel.click(`.drawer .exchange .evidence button[aria-label="Frame ${seq}"]`);
    await panel.waitForFunction((s) => document.querySelector('.drawer[data-drawer="frame"] .drawer-title')?.textContent?.startsWith(`Frame #${s}`) === true, seq);
    expect(await panel.getAttribute('.drawer-back', 'aria-label')).toBe(`Back to the ${seq === seqs[0] ? 'message' : 'frame'}`);
  }
});
