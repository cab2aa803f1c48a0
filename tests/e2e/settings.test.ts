// Settings travel panel → background (validated, persisted) → every relay → the hook: a new body cap and an extra
// header to redact take effect on the next requests; invalid settings are refused with a clear error and change nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { CAPTURE_CONFIG_EVENT } from '../../shared/messages.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { installProbeRoutes } from '../support/probe-routes.ts';
import { html, startStaticServer, type StaticServer } from '../support/static-server.ts';
import { buildHar } from '../../shared/har.ts';
import type { Page } from 'playwright-core';

/** Saves the settings with this frame cap through a port of the panel's own, and waits for them to be applied. */
const setCapsFrom = (panel: Page, maxFrames: number) =>
  panel.evaluate(
    ({ max, defaults }) =>
      new Promise<void>((ok) => {
        const port = chrome.runtime.connect({ name: 'mcp-devtools/panel' });
        port.onMessage.addListener((x: { type: string; settings?: { maxFrames: number } }) => {
          if (x.type === 'settings' && x.settings?.maxFrames === max) {
            port.disconnect();
            ok();
          }
        });
        port.postMessage({ type: 'hello', tabId: 0, since: 0 });
        setTimeout(() => port.postMessage({ type: 'settings-set', settings: { ...defaults, maxFrames: max } }), 100);
      }),
    { max: maxFrames, defaults: DEFAULT_SETTINGS },
  );

let browser: Browser;
let site: StaticServer;

beforeAll(async () => {
  [browser, site] = await Promise.all([startBrowser(), startStaticServer()]);
  installProbeRoutes(site);
  site.routes.set('/', html('<h1>settings</h1>'));
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('applies capture settings to the page and refuses invalid ones', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  const send = (extra: Record<string, string>) =>
    page.evaluate(async (h) => {
      const r = await fetch('/big?mb=1', { method: 'POST', headers: { 'content-type': 'application/json', ...h }, body: '{"jsonrpc":"2.0","id":1,"method":"resources/read"}' });
      return (await r.text()).length;
    }, extra);
  await send({ 'x-tenant': 'acme-secret' });
  const tabId = await tabIdOf(browser, page);
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');

  const talk = (message: unknown) =>
    panel.evaluate(
      (m) =>
        new Promise<unknown[]>((ok) => {
          const port = chrome.runtime.connect({ name: 'mcp-devtools/panel' });
          const got: unknown[] = [];
          port.onMessage.addListener((x: unknown) => {
            got.push(x);
            if ((x as { type: string }).type === 'settings-error' || got.filter((g) => (g as { type: string }).type === 'settings').length === 2) {
              port.disconnect();
              ok(got);
            }
          });
          port.postMessage({ type: 'hello', tabId: 0, since: 0 });
          setTimeout(() => port.postMessage(m), 100);
          setTimeout(() => ok(got), 3000);
        }),
      message,
    );
  const bad = await talk({ type: 'settings-set', settings: { ...DEFAULT_SETTINGS, maxFrames: 5 } });
  expect(bad).toContainEqual({ type: 'settings-error', error: 'maxFrames must be between 1,000 and 5,000,000' });
  const stored = await (await browser.serviceWorker()).evaluate(() => (globalThis as any).mcpDevtools.settings.get());
  expect(stored).toEqual(DEFAULT_SETTINGS);

  const next = { ...DEFAULT_SETTINGS, capture: { bodyCapBytes: 4096, extraSecretHeaders: ['X-Tenant'] } };
  const ok = await talk({ type: 'settings-set', settings: next });
  expect(ok).toContainEqual({ type: 'settings', settings: { ...next, capture: { bodyCapBytes: 4096, extraSecretHeaders: ['x-tenant'] } } });

  // The next request in the page is captured with the new settings (the relay forwards them to the hook).
  const length = await waitFor(async () => {
    const before = (await loggedFrames(browser, tabId)).length;
    const len = await send({ 'x-tenant': 'acme-secret' });
    const frames = (await loggedFrames(browser, tabId)).slice(before);
    const body = frames.find((f) => f.kind === 'http-body');
    return body?.kind === 'http-body' && body.body.text.length === 4096 ? len : undefined;
  }, 10_000, 'new body cap applied');
  expect(length).toBeGreaterThan(1024 * 1024);
  const frames = await loggedFrames(browser, tabId);
  const requests = frames.filter((f) => f.kind === 'http-request');
  expect(requests[0]!.kind === 'http-request' && requests[0]!.headers['x-tenant']).toBe('acme-secret');
  expect(requests.at(-1)!.kind === 'http-request' && requests.at(-1)!.headers['x-tenant']).toMatch(/^\[redacted:/);
  await panel.close();
  await page.close();

  // A new page's very first MCP request already gets them: a document's first frames wait for the settings, which the
  // relay asks for when the document first speaks MCP (before that the page costs the worker nothing).
  const fresh = await browser.context.newPage();
  // What the page's DOM is told: the body cap, never the extra header names (every site would learn them).
  await fresh.addInitScript((event) => {
    (window as any).configsSeen = [];
    document.addEventListener(event, (e) => (window as any).configsSeen.push((e as CustomEvent).detail));
  }, CAPTURE_CONFIG_EVENT);
  await fresh.goto(site.url + '/');
  const freshLength = await fresh.evaluate(async () => {
    const r = await fetch('/big?mb=1', { method: 'POST', headers: { 'content-type': 'application/json', 'x-tenant': 'acme-secret' }, body: '{"jsonrpc":"2.0","id":1,"method":"resources/read"}' });
    return (await r.text()).length;
  });
  expect(freshLength).toBeGreaterThan(1024 * 1024);
  const freshTab = await tabIdOf(browser, fresh);
  const first = await waitFor(async () => {
    const fs = await loggedFrames(browser, freshTab);
    return fs.some((f) => f.kind === 'http-body') ? fs : undefined;
  }, 10_000, 'the fresh page logged');
  const req = first.find((f) => f.kind === 'http-request');
  expect(req?.kind === 'http-request' && req.headers['x-tenant']).toMatch(/^\[redacted:/);
  // The worker keys these markers with its own salt, kept in its database: the same value, the same marker on every
  // page (unlike the page's markers, keyed per document).
  expect(req?.kind === 'http-request' && req.headers['x-tenant']).toBe(requests.at(-1)!.kind === 'http-request' && requests.at(-1)!.headers['x-tenant']);
  const body = first.find((f) => f.kind === 'http-body');
  expect(body?.kind === 'http-body' && body.body.text.length).toBe(4096);
  expect(body?.kind === 'http-body' && body.body.truncated?.bytes).toBeGreaterThan(1024 * 1024);
  const seen: string[] = await fresh.evaluate(() => (window as any).configsSeen);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.join('\n')).toContain('"bodyCapBytes":4096');
  expect(seen.join('\n')).not.toMatch(/tenant/i);
  await fresh.close();
});

it('lowered caps trim a stored log at once, without waiting for its tab to send more', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  // 700 JSON-RPC round trips: some 2,800 frames, over the lowest frame cap by more than the panel's slack (it follows).
  await page.evaluate(async () => {
    for (let i = 0; i < 700; i++) await (await fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":${i},"method":"ping"}` })).text();
  });
  const tabId = await tabIdOf(browser, page);
  await waitFor(async () => ((await loggedFrames(browser, tabId)).length >= 2800 ? true : undefined), 15_000, 'frames logged');
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  const setCaps = (maxFrames: number) => setCapsFrom(panel, maxFrames);
  await setCaps(1000);
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.length <= 1000 ? fs : undefined;
  }, 10_000, 'log trimmed to the new cap');
  expect(frames.at(-1)!.seq).toBeGreaterThanOrEqual(2800);
  // The open panel is told: its status line counts what the log dropped.
  await expect.poll(() => panel.$eval('.status-bar [data-count="dropped"]', (el) => el.textContent ?? ''), { timeout: 10_000 }).toMatch(/^[1-9]\d* dropped$/);
  // It follows the trim, rebuilt from what the log holds: the findings counts and the Findings view say their
  // analysis lost those frames (model/cap-note.ts).
  await expect.poll(() => panel.$eval('.finding-counts [data-cap-partial]', (el) => el.textContent ?? '').catch(() => ''), { timeout: 10_000 }).toMatch(/^⚠ partial: [\d,]+ frames dropped$/);
  await panel.click('[role="tab"][data-view="findings"]');
  expect(await panel.textContent('.findings-view .cap-note')).toMatch(/^The log's cap dropped the oldest [\d,]+ frames of this view; findings that rested on them .* raise Max frames in ⚙, or export before the cap\.$/);
  await setCaps(DEFAULT_SETTINGS.maxFrames);
  await panel.close();
  await page.close();
});

it("the cap's trim keeps what opened a stream still open and the page-start: a HAR of the log has the stream's method and URL and the page", async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  // A POST answered with an event stream that never ends (read by the page), then 400 round trips past the cap.
  await page.evaluate(async () => {
    const res = await fetch('/rpc-sse-forever', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: '{"jsonrpc":"2.0","id":0,"method":"tools/call"}' });
    const reader = res.body!.getReader();
    void (async () => {
      while (!(await reader.read()).done);
    })();
    for (let i = 1; i <= 400; i++) await (await fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":${i},"method":"ping"}` })).text();
  });
  const tabId = await tabIdOf(browser, page);
  await waitFor(async () => ((await loggedFrames(browser, tabId)).length >= 1600 ? true : undefined), 15_000, 'frames logged');
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  await setCapsFrom(panel, 1000);
  const frames = await waitFor(async () => {
    const fs = await loggedFrames(browser, tabId);
    return fs.length <= 1000 ? fs : undefined;
  }, 10_000, 'log trimmed to the new cap');
  const stream = frames.find((f) => f.kind === 'http-request' && f.url.endsWith('/rpc-sse-forever'));
  expect(frames[0]).toMatchObject({ kind: 'page-start', url: site.url + '/' });
  expect(stream).toBeDefined();
  expect(frames.find((f) => f.kind === 'http-response' && 'conn' in stream! && f.conn === stream.conn)).toBeDefined();
  const har = buildHar(frames);
  expect(har.log.pages.map((p) => p.title)).toEqual([site.url + '/']);
  expect(har.log.entries.filter((e) => e._mcp.partial)).toEqual([]);
  const entry = har.log.entries.find((e) => 'conn' in stream! && e._mcp.conn === stream.conn)!;
  expect([entry.request.method, entry.request.url, entry._mcp.outcome]).toEqual(['POST', site.url + '/rpc-sse-forever', 'open']);
  await setCapsFrom(panel, DEFAULT_SETTINGS.maxFrames);
  await panel.close();
  await page.close();
});

it('an open settings dialog shows settings saved from another panel, or, once edited, keeps the edits and says so', async () => {
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  await page.evaluate(async () => (await fetch('/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' })).text());
  const tabId = await tabIdOf(browser, page);
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  await panel.click('button[aria-label="Settings"]');
  await panel.waitForSelector('dialog.settings[open]');
  const maxAge = 'input[aria-label="Default max age in seconds"]';
  expect(await panel.inputValue(maxAge)).toBe('600');
  // Another panel (a port of its own) saves.
  const saveElsewhere = (ms: number) =>
    panel.evaluate(
      ({ ms, defaults }) =>
        new Promise<void>((ok) => {
          const port = chrome.runtime.connect({ name: 'mcp-devtools/panel' });
          port.onMessage.addListener((x: { type: string; settings?: { defaultMaxAgeMs: number } }) => {
            if (x.type === 'settings' && x.settings?.defaultMaxAgeMs === ms) {
              port.disconnect();
              ok();
            }
          });
          port.postMessage({ type: 'hello', tabId: 0, since: 0 });
          setTimeout(() => port.postMessage({ type: 'settings-set', settings: { ...defaults, defaultMaxAgeMs: ms } }), 100);
        }),
      { ms, defaults: DEFAULT_SETTINGS },
    );
  await saveElsewhere(42_000);
  await expect.poll(() => panel.inputValue(maxAge), { timeout: 5000 }).toBe('42');
  expect(await panel.$('[data-settings-changed="true"]')).toBeNull();
  // Edited here, then saved elsewhere: the edit stays, and the dialog says Save would replace the other save.
  await panel.fill('input[aria-label="Body cap in KiB"]', '64');
  await saveElsewhere(43_000);
  await panel.waitForSelector('[data-settings-changed="true"]');
  expect(await panel.inputValue(maxAge)).toBe('42');
  expect(await panel.inputValue('input[aria-label="Body cap in KiB"]')).toBe('64');
  await panel.click('dialog.settings button:text("Cancel")');
  await saveElsewhere(DEFAULT_SETTINGS.defaultMaxAgeMs);
  await panel.close();
  await page.close();
});

it('a panel without a tab analyses with the saved settings and saves them as any panel does; the caps say they are for tabs\' logs', async () => {
  const sw = await browser.serviceWorker();
  const saved = { ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: 'file:**', maxAgeMs: 5000 }], defaultMaxAgeMs: 42_000 };
  await sw.evaluate((s) => (globalThis as any).mcpDevtools.settings.set(s), saved);
  const panel = await browser.context.newPage();
  await panel.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await panel.waitForSelector('.status-bar[data-status="offline"]');
  // Before, it kept the defaults (and the dialog called them "the saved rules").
  await waitFor(() => panel.evaluate((ms) => (globalThis as any).mcpPanel.settings.value?.defaultMaxAgeMs === ms, saved.defaultMaxAgeMs), 5000, 'the saved settings');
  await panel.click('button[aria-label="Settings"]');
  await panel.waitForSelector('dialog.settings[open]');
  expect(await panel.inputValue('input[aria-label="Default max age in seconds"]')).toBe('42');
  expect(await panel.textContent('[data-cli-options]')).toContain('file:**');
  expect(await panel.textContent('dialog.settings')).toContain('The saved rules for');
  expect(await panel.textContent('[data-caps-scope]')).toBe('They apply to the logs of the tabs the extension captures, not to an imported trace.');
  expect(await panel.$('text=apply to this view only')).toBeNull();
  // Saved from here: the extension's settings change.
  await panel.fill('input[aria-label="Default max age in seconds"]', '43');
  await panel.click('dialog.settings button:text("Save")');
  await panel.waitForSelector('dialog.settings', { state: 'detached' });
  await expect.poll(() => sw.evaluate(() => (globalThis as any).mcpDevtools.settings.get().then((s: { defaultMaxAgeMs: number }) => s.defaultMaxAgeMs)), { timeout: 5000 }).toBe(43_000);
  await sw.evaluate((s) => (globalThis as any).mcpDevtools.settings.set(s), DEFAULT_SETTINGS);
  await panel.close();
});

it('the dialog: fields say their unit and default, bad numbers get the panel\'s own message, rules warn, reorder and restore', async () => {
  const sw = await browser.serviceWorker();
  const page = await browser.context.newPage();
  await page.goto(site.url + '/');
  // One URI in view: file:///docs/policy.md, read.
  await page.evaluate(async () => (await fetch('/echo-headers', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///docs/policy.md"}}' })).text());
  const tabId = await tabIdOf(browser, page);
  const panel = await openPanel(browser.context, browser.extensionId!, tabId);
  await panel.waitForSelector('.status-bar[data-status="live"]');
  const row = '.uri-row[data-uri="file:///docs/policy.md"]';
  await panel.waitForSelector(row);
  await panel.click('button[aria-label="Settings"]');
  await panel.waitForSelector('dialog.settings[open]');
  const dialog = panel.locator('dialog.settings');
  const described = (name: string) =>
    panel.evaluate((n) => {
      const el = [...document.querySelectorAll('dialog.settings input')].find((i) => i.getAttribute('aria-label') === n)!;
      return (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' | ');
    }, name);
  // Each number field: its unit in its name or description, and its default shown (a review: names were bare, defaults nowhere).
  expect(await dialog.locator('input[inputmode="decimal"]:not([data-field^="rule-"])').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['Default max age in seconds', 'Max frames', 'Max size in MiB', 'Body cap in KiB']);
  expect(await described('Default max age in seconds')).toBe('s (default 600 s)');
  expect(await described('Max frames')).toBe('frames (default 250,000 frames)');
  expect(await described('Max size in MiB')).toBe('MiB (default 128 MiB)');
  expect(await described('Body cap in KiB')).toMatch(/^KiB \(default 256 KiB; larger bodies/);

  // Text that is no number: the panel's own message, mark and focus, never the browser's: a number input showed
  // Chrome's "Please enter a number." bubble for 1e400 (the form was not submitted at all) and read 1,5 as 15.
  const maxAge = 'input[aria-label="Default max age in seconds"]';
  expect(await panel.$eval('dialog.settings form', (f) => (f as HTMLFormElement).noValidate)).toBe(true);
  for (const typed of ['1,5', '1e400', '0x10']) {
    await panel.fill(maxAge, typed);
    await panel.click('dialog.settings button[type="submit"]');
    const said = `“${typed}” is not a number (plain decimal digits, such as 1.5 or 0.5); `;
    expect(await (await panel.waitForSelector('[data-settings-error="true"]')).textContent()).toBe(`Default max age: ${said}a number of seconds from 1 to 2,592,000`);
    expect(await panel.getAttribute(maxAge, 'aria-invalid')).toBe('true');
    expect(await described('Default max age in seconds')).toContain('a number of seconds from 1');
    expect(await panel.inputValue(maxAge)).toBe(typed);
    expect(await panel.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Default max age in seconds');
    expect(await panel.$('dialog.settings[open]')).not.toBeNull();
  }
  await panel.fill(maxAge, '600');
  await panel.waitForSelector('[data-settings-error="true"]', { state: 'detached' });

  // Rules: a later rule an earlier one shadows (first match wins) is said under it; move it up with the keyboard.
  const addRule = async (pattern: string, seconds: string) => {
    await panel.click('dialog button:has-text("+ Add rule")');
    const n = await panel.locator('dialog .rule').count();
    await panel.fill(`dialog input[aria-label="Rule ${n} URI pattern"]`, pattern);
    await panel.fill(`dialog input[aria-label="Rule ${n} max age in seconds"]`, seconds);
  };
  await addRule('file:///docs/**', '60');
  await addRule('file:///docs/policy.md', '5');
  expect(await panel.textContent('[data-rule-note="1"]')).toBe('Rule 2 never applies: rule 1 (file:///docs/**) matches first (the first matching rule wins): move it above rule 1');
  expect(await described('Rule 2 URI pattern')).toContain('Rule 2 never applies');
  expect(await panel.getAttribute('button[aria-label="Move rule 1 up"]', 'disabled')).not.toBeNull();
  await panel.focus('button[aria-label="Move rule 2 up"]');
  await panel.keyboard.press('Enter');
  // Now rule 2 is not shadowed by pattern; in view, the one URI it matches is rule 1's.
  await expect.poll(() => panel.textContent('[data-rule-note="1"]'), { timeout: 5000 }).toBe('Rule 2 applies to no URI in view: its one URI is matched first by rule 1 (file:///docs/policy.md): the first matching rule wins');
  expect(await panel.inputValue('input[aria-label="Rule 1 URI pattern"]')).toBe('file:///docs/policy.md');
  expect(await panel.inputValue('input[aria-label="Rule 1 max age in seconds"]')).toBe('5');
  expect(await panel.inputValue('input[aria-label="Rule 2 URI pattern"]')).toBe('file:///docs/**');
  // Focus stays with the moved rule: at the top its "up" is disabled, so its "down".
  await panel.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move rule 1 down', undefined, { timeout: 5000 });
  // A pattern with no scheme: the filter box's uri:*.md note, here too; it does not block Save.
  await addRule('*.md', '1');
  expect(await panel.textContent('[data-rule-note="2"]')).toMatch(/^Rule 3: \*\.md has no scheme .*try \*\*\.md$/);
  await panel.click('dialog button[aria-label="Remove rule 3"]');
  // A rule that matches none of the URIs in view is said too.
  await addRule('file:///src/**', '1');
  expect(await panel.textContent('[data-rule-note="2"]')).toBe('Rule 3 matches none of the 1 URIs in view');
  await panel.click('dialog button[aria-label="Remove rule 3"]');
  await panel.click('dialog.settings button[type="submit"]');
  await panel.waitForSelector('dialog.settings', { state: 'detached' });
  await expect.poll(() => sw.evaluate(() => (globalThis as any).mcpDevtools.settings.get().then((s: any) => s.freshnessRules)), { timeout: 5000 }).toEqual([
    { pattern: 'file:///docs/policy.md', maxAgeMs: 5000 },
    { pattern: 'file:///docs/**', maxAgeMs: 60_000 },
  ]);
  // The URI's age tooltip names the rule that applies (it said "(rule)").
  await expect.poll(() => panel.getAttribute(`${row} [title^="expected at most"]`, 'title'), { timeout: 5000 }).toBe('expected at most 5.0 s (rule file:///docs/policy.md)');

  // Restore defaults fills the form; nothing is saved until Save (Cancel keeps the settings).
  await panel.click('button[aria-label="Settings"]');
  await panel.waitForSelector('dialog.settings[open]');
  await panel.fill('input[aria-label="Body cap in KiB"]', '64');
  await panel.click('dialog button:has-text("Restore defaults")');
  await panel.waitForSelector('[data-settings-restored="true"]');
  expect(await panel.locator('dialog .rule').count()).toBe(0);
  expect(await panel.inputValue('input[aria-label="Body cap in KiB"]')).toBe('256');
  expect(await panel.inputValue(maxAge)).toBe('600');
  await panel.click('dialog button:has-text("Cancel")');
  await panel.waitForSelector('dialog.settings', { state: 'detached' });
  expect((await sw.evaluate(() => (globalThis as any).mcpDevtools.settings.get())).freshnessRules).toHaveLength(2);
  await panel.click('button[aria-label="Settings"]');
  await panel.waitForSelector('dialog.settings[open]');
  await panel.click('dialog button:has-text("Restore defaults")');
  await panel.click('dialog.settings button[type="submit"]');
  await panel.waitForSelector('dialog.settings', { state: 'detached' });
  await expect.poll(() => sw.evaluate(() => (globalThis as any).mcpDevtools.settings.get()), { timeout: 5000 }).toEqual(DEFAULT_SETTINGS);
  await panel.close();
  await page.close();
});
