// Every seed scenario (demo/scenarios.ts, both generations, healthy included), played by the demo page against its own
// knowledge-base server in Chromium with the built extension, as the MCP panel shows it (opened as a tab on that
// page): the findings are the scenario's (expected ⊆ shown ⊆ expected ∪ allowed; healthy: nothing at warning or
// error), the URI rows carry exactly the findings an independent engine replay of the background's log gives, the flow
// chart takes the policy URI where the scenario says (Q for reconnect-without-resubscribe), and the timeline shows the
// session boundary of every scenario that reconnects or restarts. One browser for the file; four scenarios at a time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageServer } from '../../demo/page-server.ts';
import { POLICY, SCENARIOS, type Scenario } from '../../demo/scenarios.ts';
import { Engine } from '../../shared/engine/index.ts';
import type { Frame } from '../../shared/frames.ts';
import { exportTrace, serializeTrace } from '../../shared/trace/index.ts';
import { loggedFrames, openPanel, startBrowser, tabIdOf, waitFor, type Browser } from '../support/extension.ts';
import { buildDemoPage, playInPage, pool } from './demo/demo-harness.ts';
import { servePage } from './demo/demo-harness.ts';

/** The engine's grace for timing-dependent findings is 2 s; judge the panel well past it (as the CLI test does). */
const PAST_GRACE_MS = 5000;


interface Seen {
  status: string | undefined;
  pass: boolean | undefined;
  /** Findings view: id/severity/open. */
  findings: Array<{ id: string; severity: string; open: boolean; uri: string }>;
  /** URI table: uri → finding ids (sorted), and status. */
  rows: Record<string, { findings: string[]; status: string }>;
  /** What an engine replay of the background's log says at the panel's `now`. */
  reference: Record<string, string[]>;
  flow: { uri: string; reached: string[]; current: string; jumps: string[]; jumpReasons: string[] } | undefined;
  boundaries: number;
  sessionEnds: string[];
  /**
   * For traced(): the background's log of the panel's segment when the panel was read (frames up to `lastSeq` are what
   * the panel and the reference judged; any after it came later), the panel's `now`, and the page.
   */
  frames: Frame[];
  lastSeq: number;
  now: number;
  pageUrl: string;
}

let dir: string;
let pageServer: PageServer;
let browser: Browser;
const seen = new Map<string, Seen>();

async function observe(panel: Page, s: Scenario, tabId: number): Promise<Seen> {
  // Wait until the panel's clock is past the grace after the last frame, and its snapshot has caught up with it.
  await waitFor(
    () =>
      panel.evaluate((ms) => {
        const p = (globalThis as any).mcpPanel;
        const snap = p.snapshot.value;
        const last = p.frames.at(-1);
        return Boolean(snap && last && snap.lastSeq === last.seq && snap.now >= last.t + ms);
      }, PAST_GRACE_MS),
    20_000,
    `${s.name}: panel settled`,
  );
  // And the table drawn from that snapshot: the rows render after it (under the load of four scenarios at a time, a
  // read right after the snapshot once found no row at all).
  await waitFor(
    () => panel.evaluate(() => document.querySelectorAll('.uri-row[data-uri]').length === (globalThis as any).mcpPanel.snapshot.value.uris.length),
    10_000,
    `${s.name}: table drawn`,
  );
  const rows = Object.fromEntries(
    await panel.$$eval('.uri-row[data-uri]', (rs) =>
      rs.map((r) => [r.getAttribute('data-uri')!, { findings: (r.getAttribute('data-findings') ?? '').split(' ').filter(Boolean).sort(), status: r.getAttribute('data-status') ?? '' }] as const),
    ),
  );
  const { now, lastSeq } = await panel.evaluate(() => {
    const snap = (globalThis as any).mcpPanel.snapshot.value;
    return { now: snap.now as number, lastSeq: snap.lastSeq as number };
  });
  const logged = await loggedFrames(browser, tabId);
  const frames = logged.filter((f) => f.seq <= lastSeq);
  const engine = new Engine();
  // The panel shows the current page segment (preserve log is off): so does the reference.
  const segment = frames.at(-1)?.segment;
  engine.applyAll(frames.filter((f) => f.segment === segment));
  const reference = Object.fromEntries(engine.snapshot(now).uris.map((u) => [u.uri, [...u.findings].sort()]));

  let flow: Seen['flow'];
  const flowUri = s.flow?.uri ?? POLICY;
  const row = await panel.$(`.uri-row[data-uri="${flowUri}"]`);
  if (row) {
    await row.click();
    await panel.waitForSelector(`.flow-svg[aria-label*="${flowUri}"]`);
    flow = {
      uri: flowUri,
      reached: await panel.$$eval('.flow [data-node][data-reached="true"]', (ns) => ns.map((n) => n.getAttribute('data-node')!).sort()),
      current: (await panel.getAttribute('.flow-svg', 'data-current')) ?? '',
      jumps: await panel.$$eval('.flow [data-jump]', (js) => js.map((j) => j.getAttribute('data-jump')!).sort()),
      jumpReasons: await panel.$$eval('.flow [data-jump-reason]', (js) => js.flatMap((j) => j.getAttribute('data-jump-reason')!.split(' ')).sort()),
    };
  }
  const boundaries = Number(await panel.getAttribute('.timeline-canvas', 'data-session-boundaries'));
  const sessionEnds = await panel.$$eval('.lane-label[data-lane="session"]', (ls) => ls.map((l) => l.getAttribute('data-end-cause') ?? ''));

  await panel.click('[role="tab"][data-view="findings"]');
  await panel.waitForSelector('.findings-table');
  // Its rows drawn (they render after the table: under load a read found none).
  await waitFor(
    () => panel.evaluate(() => document.querySelectorAll('.finding-row').length === Number(document.querySelector('.findings-table')?.getAttribute('data-count'))),
    10_000,
    `${s.name}: findings drawn`,
  );
  const findings = await panel.$$eval('.finding-row', (rs) =>
    rs.map((r) => ({ id: r.getAttribute('data-finding-id')!, severity: r.getAttribute('data-severity')!, open: r.getAttribute('data-open') === 'true', uri: r.getAttribute('data-uri') ?? '' })),
  );
  return { status: undefined, pass: undefined, findings, rows, reference, flow, boundaries, sessionEnds, frames: logged.filter((f) => f.segment === segment), lastSeq, now, pageUrl: '' };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-demo-page-'));
  await buildDemoPage(dir);
  pageServer = await servePage(dir);
  browser = await startBrowser();
  await pool(SCENARIOS, 4, async (s) => {
    const played = await playInPage(browser.context, pageServer.url, s.name);
    try {
      const tabId = await tabIdOf(browser, played.page);
      const panel = await openPanel(browser.context, browser.extensionId!, tabId);
      try {
        await panel.waitForSelector('.status-bar[data-status="live"]');
        const o = await observe(panel, s, tabId);
        seen.set(s.name, { ...o, status: played.status, pass: played.result?.pass, pageUrl: played.page.url() });
      } finally {
        await panel.close();
      }
    } finally {
      await played.page.close();
      await played.kb.close();
    }
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await pageServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * A scenario's check that leaves evidence when it fails (the scenarios are timing-dependent, and a CI failure is rare):
 * the background's log of the scenario's page, written as a trace under test-results/ and named in the failure, to
 * replay with `npm run analyze` (its createdAt is the panel's `now`, the CLI's default `now`). The failure also says
 * how many frames reached the log only after the panel was judged (none, unless the capture lagged).
 */
function traced(name: string, check: () => void): () => void {
  return () => {
    try {
      check();
    } catch (err) {
      const v = seen.get(name);
      if (v && v.frames.length > 0 && err instanceof Error) {
        const path = resolve('test-results', 'panel-scenarios', `${name}.trace.json`);
        mkdirSync(resolve(path, '..'), { recursive: true });
        writeFileSync(path, serializeTrace(exportTrace({ frames: v.frames, createdAt: v.now, pageUrl: v.pageUrl, redaction: { enabled: false } })));
        const late = v.frames.filter((f) => f.seq > v.lastSeq).length;
        err.message += `\n${name}: the background's log (${v.frames.length} frames, ${late} after the panel's last, seq ${v.lastSeq}; judged at ${new Date(v.now).toISOString()}) is in ${path} — npm run analyze -- ${path}`;
      }
      throw err;
    }
  };
}

describe.each(SCENARIOS.map((s) => [s.name, s] as const))('%s in the panel', (name, s) => {
  const get = (): Seen => {
    const v = seen.get(name);
    if (!v) throw new Error(`${name} was not observed`);
    return v;
  };

  it('the page played the scenario', traced(name, () => {
    expect(get().status).toBe('done');
    expect(get().pass).toBe(true);
  }));

  it('shows the scenario’s findings', traced(name, () => {
    const v = get();
    const findings = v.findings;
    const ids = [...new Set(findings.map((f) => f.id))].sort();
    const allowed = new Set<string>([...s.findings.expected, ...(s.findings.allowed ?? [])]);
    const detail = JSON.stringify(findings);
    expect({ missing: s.findings.expected.filter((e) => !ids.includes(e)), unexpected: ids.filter((i) => !allowed.has(i)) }, detail).toEqual({ missing: [], unexpected: [] });
    if (s.findings.expected.length === 0) {
      expect(findings.filter((f) => f.severity !== 'info'), detail).toEqual([]);
      expect(Object.values(v.rows).filter((r) => r.status === 'warning' || r.status === 'error')).toEqual([]);
    }
  }));

  it('the URI rows carry exactly the findings of an engine replay of the captured log', traced(name, () => {
    const v = get();
    const shown = Object.fromEntries(Object.entries(v.rows).map(([uri, r]) => [uri, r.findings]));
    expect(shown).toEqual(v.reference);
    // Each open finding about a URI is on that URI's row.
    for (const f of v.findings.filter((x) => x.open && x.uri)) expect(v.rows[f.uri]?.findings, `${f.id} on ${f.uri}`).toContain(f.id);
  }));

  // The stream came back without Last-Event-ID and the update sent in the gap is lost: the URI whose cache it left
  // stale is marked, not only the session (its subscription never lapsed, so nothing else would mark it).
  if (name === 'resume-gap') it('marks the URI whose cache the gap left stale', traced(name, () => {
    const row = get().rows[POLICY];
    expect(row?.findings).toContain('resume-gap');
    expect(row?.status).toBe('warning');
  }));

  // Only scenarios whose traffic says where the URI must go have a flow expectation (no test is generated otherwise).
  if (s.flow !== undefined) it('the flow chart takes the URI where the scenario says', traced(name, () => {
    const v = get();
    expect(v.flow, 'the flow URI has a row').toBeDefined();
    const reached = v.flow!.reached;
    expect(s.flow!.reaches.filter((n) => !reached.includes(n)), `reached ${reached.join('')}`).toEqual([]);
    expect((s.flow!.never ?? []).filter((n) => reached.includes(n)), `reached ${reached.join('')}`).toEqual([]);
    // A failure node on the path is reached along a drawn arrow: the chart's own, or a dashed jump the scenario names.
    expect(v.flow!.jumps).toEqual([...(s.flow!.jumps ?? [])].sort());
    // And why, where the chart has an arrow the jump does not take (dropped-notifications: the stream stayed open).
    if (s.flow!.jumpReasons !== undefined) expect(v.flow!.jumpReasons).toEqual([...s.flow!.jumpReasons].sort());
  }));

  // A and B are the session's steps (no URI path holds them): reached when its initialize was answered, B when the
  // answer offered resources.subscribe. They were "not reached" in every scenario.
  if (s.connection.generation === '2025-11-25') it('the flow chart shows the session initialized (A), and B when the server offered subscribe', traced(name, () => {
    const v = get();
    expect(v.flow, 'the flow URI has a row').toBeDefined();
    expect(v.flow!.reached.includes('A'), `reached ${v.flow!.reached.join('')}`).toBe(true);
    expect(v.flow!.reached.includes('B'), `reached ${v.flow!.reached.join('')}`).toBe(!s.faults?.noSubscribeCapability);
  }));

  if (s.steps.some((st) => st.do === 'reconnect' || st.do === 'restart')) it('the timeline shows the session boundary', traced(name, () => {
    const v = get();
    expect(v.boundaries).toBeGreaterThanOrEqual(1);
    expect(v.sessionEnds.filter((c) => c !== '').length).toBeGreaterThanOrEqual(1);
  }));
});
