// Helpers for end-to-end tests with the built extension: a browser with dist/ loaded, the tab id of a page, the frames
// the background persisted for it, and the panel opened as a tab.
import { redactUrl } from '../../shared/redact.ts';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from '../../demo/launch-chromium.ts';
import type { Frame } from '../../shared/frames.ts';
import type { TabStats } from '../../shared/messages.ts';

export type Browser = LaunchedChromium;

export async function startBrowser(opts: Parameters<typeof launchChromium>[0] = {}): Promise<Browser> {
  return launchChromium(opts);
}

/**
 * The extension's service worker, ready for `evaluate` from tsx as well as vitest: tsx (the benchmarks) wraps named
 * functions in esbuild's `__name()`, which the worker does not have (the panel bench died on it, 2026-12-06).
 */
async function workerOf(browser: Browser): Promise<Worker> {
  const sw = await browser.serviceWorker();
  await sw.evaluate('globalThis.__name ??= (f) => f');
  return sw;
}

/** The extension's tab id for a page (matched by its current URL). */
const ANY_MARKER = '[redacted:00000000]';

export async function tabIdOf(browser: Browser, page: Page): Promise<number> {
  const sw = await workerOf(browser);
  // Page frames carry the URL as redacted at capture, with markers keyed by the page's own salt: compared with every
  // marker made the same (the page's are unknown here, and equal within one page).
  const url = redactUrl(page.url(), () => ANY_MARKER);
  for (let i = 0; i < 50; i++) {
    // Without the "tabs" permission tabs.query hides URLs; the log knows each tab's pages from its page-start frames
    // (a page sends its page-start with its first MCP frame: call this after the page spoke MCP).
    const id = await sw.evaluate(async (u) => {
      const g = globalThis as unknown as { mcpDevtools: { tabs: { store: { allTabIds(): Promise<number[]>; readAfter(t: number, a: number, l: number): Promise<Frame[]> } } } };
      const store = g.mcpDevtools.tabs.store;
      let found: number | undefined;
      for (const tab of await store.allTabIds()) {
        const rows = await store.readAfter(tab, 0, 10_000_000);
        if (rows.some((f) => f.kind === 'page-start' && f.frameId === 0 && f.url.replace(/%5Bredacted%3A[0-9a-f]{8}%5D/g, '%5Bredacted%3A00000000%5D') === u)) found = tab;
      }
      return found;
    }, url);
    if (id !== undefined) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no tab found for ${url}`);
}

/** Every frame the background has persisted for the tab, read straight from its IndexedDB store. */
export async function loggedFrames(browser: Browser, tabId: number): Promise<Frame[]> {
  const sw = await workerOf(browser);
  return sw.evaluate(async (id) => {
    const g = globalThis as unknown as { mcpDevtools: { tabs: { store: { readAfter(t: number, a: number, l: number): Promise<Frame[]> } } } };
    return g.mcpDevtools.tabs.store.readAfter(id, 0, 10_000_000);
  }, tabId);
}

export async function tabStats(browser: Browser, tabId: number): Promise<TabStats> {
  const sw = await workerOf(browser);
  return sw.evaluate(async (id) => {
    const g = globalThis as unknown as { mcpDevtools: { tabs: { get(t: number): { ensureLoaded(): Promise<TabStats> } } } };
    return g.mcpDevtools.tabs.get(id).ensureLoaded();
  }, tabId);
}

/**
 * Polls `check` until it gives a value (or throws after timeoutMs): undefined, null and false mean "not yet". (null too: a page-side predicate
 * like `snap && …` gives null while the panel has no snapshot, and returning at once on it made panel-scenarios judge
 * a scenario before its grace had passed, its rare CI failure.)
 */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Frames of the tab whose JSON-RPC `method` (in request/SSE/ws bodies) matches. */
export function framesWithMethod(frames: Frame[], method: string): Frame[] {
  return frames.filter((f) => {
    const text =
      f.kind === 'http-request' ? f.body?.text : f.kind === 'sse-event' ? f.data.text : f.kind === 'ws-message' ? f.data.text : f.kind === 'http-body' ? f.body.text : undefined;
    return text !== undefined && text.includes(`"method":"${method}"`);
  });
}

/** The panel as a tab. `view` picks the first view (the raw frame rows `.frame-row` live in 'messages'). */
export async function openPanel(context: BrowserContext, extensionId: string, tabId: number, opts: { view?: 'resources' | 'findings' | 'sessions' | 'messages'; theme?: 'light' | 'dark' } = {}): Promise<Page> {
  const panel = await context.newPage();
  const q = new URLSearchParams({ tab: String(tabId) });
  if (opts.view) q.set('view', opts.view);
  if (opts.theme) q.set('theme', opts.theme);
  await panel.goto(`chrome-extension://${extensionId}/panel.html?${q}`);
  return panel;
}

/**
 * A panel with no tab (a new page of the browser, `size`, `theme`) that imported the trace file at `path`: resolved
 * once the status line says imported.
 */
export async function openImported(browser: Browser, path: string, size = { width: 1400, height: 900 }, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const p = await browser.context.newPage();
  await p.setViewportSize(size);
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html?theme=${theme}`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  await p.setInputFiles('input[type="file"]', path);
  await p.waitForSelector('.status-bar[data-status="imported"]');
  return p;
}

export async function stopServiceWorkers(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

export type { Worker };
