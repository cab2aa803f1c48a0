// Every seed scenario played by the demo page itself in real Chromium (?scenario=<name>), each against its own server:
// the page must reach `done` with every check passing — the client really behaves as the scenario says. Runs without
// the extension for now; the findings each scenario must produce (scenario.findings) are wired in once capture and the
// engine land.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, type LaunchedChromium } from '../../../demo/launch-chromium.ts';
import type { PageServer } from '../../../demo/page-server.ts';
import { SCENARIOS } from '../../../demo/scenarios.ts';
import { DEFAULT_FAULTS } from '../../../demo/server/faults.ts';
import { buildDemoPage, playInPage, pool, servePage, type PlayedScenario } from './demo-harness.ts';

let dir: string;
let pageServer: PageServer;
let browser: LaunchedChromium;
const played = new Map<string, PlayedScenario>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-demo-page-'));
  await buildDemoPage(dir);
  pageServer = await servePage(dir);
  browser = await launchChromium({ extensionDir: null, headless: true });
  await pool(SCENARIOS, 4, async (s) => void played.set(s.name, await playInPage(browser.context, pageServer.url, s.name)));
}, 60_000);

afterAll(async () => {
  for (const p of played.values()) await p.kb.close();
  await browser?.close();
  await pageServer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('scenarios in Chromium', () => {
  it.each(SCENARIOS.map((s) => [s.name]))('%s runs to done and behaves as described', (name) => {
    const p = played.get(name);
    expect(p?.pageErrors).toEqual([]);
    expect(p?.status, JSON.stringify(p?.result)).toBe('done');
    expect(p?.result?.checks.filter((c) => !c.pass)).toEqual([]);
    expect(p?.result?.pass).toBe(true);
  });

  it('healthy re-reads after the notification: the page shows the new revision', async () => {
    const p = played.get('healthy');
    if (!p) throw new Error('not played');
    await p.page.click('li[data-uri="file:///docs/policy.md"]');
    await p.page.waitForSelector('#freshness[data-fresh="true"]');
    expect(await p.page.textContent('#content')).toContain('Revision 2');
  });

  it('reconnect-without-resubscribe really shows stale content after the edit', async () => {
    const p = played.get('reconnect-without-resubscribe');
    if (!p) throw new Error('not played');
    await p.page.waitForSelector('#freshness[data-fresh="false"]');
    expect(await p.page.textContent('#content')).not.toContain('Revision 2');
    expect(await p.page.textContent('#freshness')).toMatch(/STALE — the server is at revision 2/);
    // The cache table shows the gap: the client believes it is subscribed, the server holds nothing for this session.
    expect(await p.page.textContent('#cache-table tr.gap')).toMatch(/docs\/policy\.md/);
  });

  it('a played scenario leaves the server as it began: faults off, the edit timer back at the interval it was started with', async () => {
    // Every scenario's faults are off once it is done (dropped-notifications had dropped every later edit's notification).
    for (const [name, p] of played) expect(p.kb.state().faults, name).toEqual(DEFAULT_FAULTS);
    // A server started with an edit interval (npm start's 20 s) has it back after the scenario (it was left at 0).
    const p = await playInPage(browser.context, pageServer.url, 'dropped-notifications', 20_000, { editIntervalMs: 600_000 });
    try {
      expect(p.status).toBe('done');
      expect(p.kb.state()).toMatchObject({ editTimerMs: 600_000, configuredEditTimerMs: 600_000, faults: DEFAULT_FAULTS });
    } finally {
      await p.page.close();
      await p.kb.close();
    }
  });
});
