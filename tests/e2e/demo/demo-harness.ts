// Reusable pieces for driving the demo in a real browser: build the page into a directory, serve it, and play one
// scenario in a tab against its own knowledge-base server. The scenario tests use it without the extension; the
// findings tests can use the same calls with launchChromium() loading dist/.
import type { BrowserContext, Page } from 'playwright-core';
import type { ScenarioResult } from '../../../demo/client/scenario-player.ts';
import { createPageServer, type PageServer } from '../../../demo/page-server.ts';
import { createKbServer, type KbServer } from '../../../demo/server/http.ts';

export async function buildDemoPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: 'demo/client/vite.config.ts', logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
}

/** The page server; each scenario passes its own MCP server with ?server=, so one page server serves them all. */
export function servePage(dir: string): Promise<PageServer> {
  return createPageServer({ dir, serverUrl: 'http://127.0.0.1:1' });
}

export interface PlayedScenario {
  name: string;
  page: Page;
  kb: KbServer;
  status: string | undefined;
  result: ScenarioResult | undefined;
  pageErrors: string[];
}

/** Opens `?scenario=name` in a new tab against a fresh server and waits until the page marks it done or failed. */
export async function playInPage(context: BrowserContext, pageUrl: string, name: string, timeoutMs = 20_000, server: { editIntervalMs?: number } = {}): Promise<PlayedScenario> {
  const kb = await createKbServer(server);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(`${pageUrl}?scenario=${encodeURIComponent(name)}&server=${encodeURIComponent(kb.url)}`);
  await page
    .waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.scenario ?? ''), null, { timeout: timeoutMs })
    .catch(() => undefined);
  const { status, json } = await page.evaluate(() => ({
    status: document.body.dataset.scenario,
    json: document.getElementById('scenario-result')?.textContent ?? '',
  }));
  return { name, page, kb, status, result: json ? (JSON.parse(json) as ScenarioResult) : undefined, pageErrors };
}

/** Runs `fn` over `items` with at most `limit` at a time. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
