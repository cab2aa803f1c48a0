// An imported trace is analysed with the analysis settings it records (its "analysis" header: what the exporting
// view used), not the panel's: a finding seen before the export is there on import, and the import's note says the
// trace's settings differ from the panel's. Saving settings while it is shown applies the panel's, and the note says
// so. One browser for the file, the built panel offline (no tab).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings.ts';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { openImported, startBrowser, type Browser } from '../support/extension.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';

const POLICY = 'file:///docs/policy.md';
const RULE = { pattern: 'file:///docs/**', maxAgeMs: 1000 };

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'import-analysis-'));
  browser = await startBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A URI read and subscribed, exported 5 s later: over a 1 s rule's age, well within the default 10 min. */
function traceFile(name: string, analysis?: { freshnessRules: (typeof RULE)[]; defaultMaxAgeMs: number; graceMs?: number }): string {
  const log = new FrameLog('doc-analysis');
  log.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  const path = join(dir, name);
  writeFileSync(path, serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/kb', ...(analysis ? { analysis } : {}) })));
  return path;
}

it("shows the finding the trace's own settings give, says they are not the panel's, and applies the panel's once saved", async () => {
  const p = await openImported(browser, traceFile('recorded.json', { freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000 }));
  await p.waitForSelector(`.uri-row[data-uri="${POLICY}"][data-findings~="cache-age-exceeded"]`);
  const note = p.locator('.imported-note');
  expect(await note.getAttribute('data-analysed-with')).toBe('trace');
  expect(await p.textContent('[data-analysis-note]')).toBe(
    " · analysed with the trace's own settings (1 freshness rule, default max age 10 min 00 s), not yours (no freshness rule, default max age 10 min 00 s): saving settings applies yours",
  );
  expect(await p.getAttribute('[data-analysis-note]', 'class')).toBe('warn');
  expect(await note.getAttribute('title')).toContain("(the trace's settings: --rule 'file:///docs/**=1000' --default-max-age 600000; yours: --default-max-age 600000)");
  // The Settings dialog says the view is not analysed with its settings, and what Save would do (a review: its rule
  // notes and npm run analyze options spoke of the panel's rules without a word).
  await p.click('button[aria-label="Settings"]');
  expect(await (await p.waitForSelector('dialog.settings [data-import-settings]')).textContent()).toBe(
    'The imported trace in view is analysed with the settings it records (1 freshness rule, default max age 10 min 00 s), not with these: saving a change to the freshness rules or the default max age analyses it again with yours; saving without one keeps its own.',
  );
  await p.click('dialog.settings button:text("Cancel")');
  await p.waitForSelector('dialog.settings', { state: 'detached' });

  // Settings saved (the defaults, over the background): the panel's apply, the finding goes, the note says so.
  const saved = await p.evaluate(
    (s) =>
      new Promise<boolean>((ok) => {
        const port = chrome.runtime.connect({ name: 'mcp-devtools/panel' });
        port.onMessage.addListener((m: any) => m.type === 'settings' && (port.disconnect(), ok(true)));
        port.postMessage({ type: 'settings-set', settings: { ...s, defaultMaxAgeMs: 3_600_000 } });
      }),
    DEFAULT_SETTINGS,
  );
  expect(saved).toBe(true);
  await p.waitForSelector('.imported-note[data-analysed-with="panel"]');
  await p.waitForSelector(`.uri-row[data-uri="${POLICY}"]:not([data-findings~="cache-age-exceeded"])`);
  expect(await p.textContent('[data-analysis-note]')).toMatch(/^ · analysed with your settings, which differ from the trace's own \(1 freshness rule, default max age 10 min 00 s\): findings may differ from what was exported$/);
  // Back to the defaults for the rest of the file.
  await p.evaluate(
    (s) =>
      new Promise<boolean>((ok) => {
        const port = chrome.runtime.connect({ name: 'mcp-devtools/panel' });
        port.onMessage.addListener((m: any) => m.type === 'settings' && (port.disconnect(), ok(true)));
        port.postMessage({ type: 'settings-set', settings: s });
      }),
    DEFAULT_SETTINGS,
  );
  await p.close();
});

it('a trace that records no settings: analysed with the panel\'s, and the note says it records none', async () => {
  const p = await openImported(browser, traceFile('older.json'));
  await p.waitForSelector(`.uri-row[data-uri="${POLICY}"]`);
  expect(await p.getAttribute(`.uri-row[data-uri="${POLICY}"]`, 'data-findings')).not.toContain('cache-age-exceeded');
  expect(await p.getAttribute('.imported-note', 'data-analysed-with')).toBe('panel');
  expect(await p.textContent('[data-analysis-note]')).toBe(' · analysed with your settings: the trace does not record the ones it was exported with');
  await p.close();
});
