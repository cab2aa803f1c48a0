// Each scenario, played by the demo page in Chromium with the built extension, produces the findings it is meant to
// produce (scenario.findings.expected ⊆ found ⊆ expected ∪ allowed) — `healthy*` none — when the captured frames are
// replayed through the engine. Opt-in for now (DEMO_FINDINGS=1): it runs green once the engine stops reporting
// resume-gap for POST response streams that completed (see demo/README.md, "Known gaps").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageServer } from '../../../demo/page-server.ts';
import { SCENARIOS } from '../../../demo/scenarios.ts';
import { Engine } from '../../../shared/engine/index.ts';
import { loggedFrames, startBrowser, tabIdOf, type Browser } from '../../support/extension.ts';
import { buildDemoPage, playInPage, pool, servePage, type PlayedScenario } from './demo-harness.ts';

/** Lets the relay flush the last frames to the background. */
const SETTLE_MS = 1000;
/** Findings are evaluated this long after the last frame: past the engine's grace for timing-dependent findings. */
const EVALUATE_AFTER_MS = 5000;

let dir: string;
let pageServer: PageServer;
let browser: Browser;
const found = new Map<string, { played: PlayedScenario; ids: string[]; details: string[] }>();

describe.runIf(process.env.DEMO_FINDINGS === '1')('scenario findings through the extension and the engine', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-demo-page-'));
    await buildDemoPage(dir);
    pageServer = await servePage(dir);
    browser = await startBrowser();
    await pool(SCENARIOS, Number(process.env.POOL ?? 4), async (s) => {
      const played = await playInPage(browser.context, pageServer.url, s.name);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const frames = await loggedFrames(browser, await tabIdOf(browser, played.page));
      const engine = new Engine();
      engine.applyAll(frames);
      const findings = engine.findings((frames.at(-1)?.t ?? Date.now()) + EVALUATE_AFTER_MS);
      found.set(s.name, {
        played,
        ids: [...new Set(findings.map((f) => f.id))].sort(),
        details: findings.map((f) => `${f.id} ${f.uri ?? ''} ${f.reason ?? ''}: ${f.detail ?? ''}`),
      });
    });
  }, 120_000);

  afterAll(async () => {
    for (const f of found.values()) await f.played.kb.close();
    await browser?.close();
    await pageServer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))('%s', (_name, s) => {
    const r = found.get(s.name);
    expect(r?.played.result?.pass, JSON.stringify(r?.played.result)).toBe(true);
    const ids = r?.ids ?? [];
    const allowed = new Set<string>([...s.findings.expected, ...(s.findings.allowed ?? [])]);
    expect({ missing: s.findings.expected.filter((e) => !ids.includes(e)), unexpected: ids.filter((i) => !allowed.has(i)) }, r?.details.join('\n')).toEqual({ missing: [], unexpected: [] });
  });
});
