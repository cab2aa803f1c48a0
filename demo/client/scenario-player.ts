// Plays a scenario (demo/scenarios.ts) in the page: resets the server, applies the faults and switches, runs the steps
// against the real KbClient and server, and checks each `expect` against the server's actual content. The result is
// data (for the DOM and the tests); the player never decides what the devtools findings are.
import type { Scenario, ScenarioStep } from '../scenarios.ts';
import { DEFAULT_FAULTS } from '../server/faults.ts';
import type { AdminApi } from './admin-api.ts';
import type { KbClient } from './kb-client.ts';

export interface CheckResult {
  step: number;
  description: string;
  pass: boolean;
  detail: string;
}

export interface ScenarioResult {
  name: string;
  pass: boolean;
  checks: CheckResult[];
  error?: string;
  durationMs: number;
}

export type PlayerLog = (text: string) => void;

/** How long an `expect … fresh` waits for the client to catch up. */
export const FRESH_WITHIN_MS = 3000;

export function describeStep(s: ScenarioStep): string {
  switch (s.do) {
    case 'open':
    case 'refresh':
      return `${s.do} ${s.uri}`;
    case 'show':
      return `show ${s.uri}${s.fromCache === undefined ? '' : s.fromCache ? ' (expect: from cache)' : ' (expect: fresh read)'}`;
    case 'edit':
      return `edit ${s.uri}${s.times && s.times > 1 ? ` ×${s.times}, ${s.gapMs ?? 0} ms apart` : ''}`;
    case 'faults':
      return `faults ${JSON.stringify(s.set)}`;
    case 'wait':
      return `wait ${s.ms} ms`;
    case 'wait-for-reconnect':
      return 'wait for the client to re-initialize';
    case 'wait-for-session-expired':
      return 'wait for the client to see its session expire';
    case 'wait-for-held-read':
      return `wait until the server holds a read of ${s.uri}`;
    case 'settle':
      return 'settle (no reads in flight, quiet)';
    case 'expect':
      return `expect ${s.uri} cache ${s.cache}`;
    case 'reconnect':
    case 'restart':
    case 'drop-streams':
      return s.do;
  }
}

/** Prepares the server and client for `scenario` (before connecting). */
export async function prepareScenario(scenario: Scenario, admin: AdminApi): Promise<void> {
  await admin.reset();
  await admin.setTimer(0);
  if (Object.keys(scenario.faults).length) await admin.setFaults(scenario.faults);
}

/**
 * After `scenario` (played, or failed on the way): its faults off and the edit timer back to what the server was
 * started with — the page's free play and the README's steps expect the server as `npm start` began it.
 */
export async function endScenario(admin: AdminApi): Promise<void> {
  const state = await admin.state();
  await admin.setFaults({ ...DEFAULT_FAULTS });
  await admin.setTimer(state.configuredEditTimerMs);
}

/** Runs the steps; the client must already be connected with the scenario's settings. */
export async function playScenario(scenario: Scenario, client: KbClient, admin: AdminApi, log: PlayerLog = () => undefined): Promise<ScenarioResult> {
  const started = Date.now();
  const checks: CheckResult[] = [];
  try {
    for (const [i, step] of scenario.steps.entries()) {
      log(`▶ ${i + 1}. ${describeStep(step)}`);
      const check = await runStep(step, client, admin);
      if (check) {
        checks.push({ step: i + 1, description: describeStep(step), ...check });
        log(`${check.pass ? '✔' : '✘'} ${check.detail}`);
      }
    }
    return { name: scenario.name, pass: checks.every((c) => c.pass), checks, durationMs: Date.now() - started };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    log(`✘ ${error}`);
    return { name: scenario.name, pass: false, checks, error, durationMs: Date.now() - started };
  }
}

async function runStep(step: ScenarioStep, client: KbClient, admin: AdminApi): Promise<Omit<CheckResult, 'step' | 'description'> | undefined> {
  switch (step.do) {
    case 'open':
      await client.open(step.uri);
      return undefined;
    case 'refresh':
      await client.read(step.uri);
      return undefined;
    case 'show': {
      const r = await client.show(step.uri);
      if (step.fromCache === undefined) return undefined;
      const pass = r.fromCache === step.fromCache;
      return { pass, detail: `served ${r.fromCache ? 'from cache' : 'by a new read'}${r.expired ? ' although past ttlMs' : ''}` };
    }
    case 'edit':
      await admin.edit(step.uri, { ...(step.times ? { times: step.times } : {}), ...(step.gapMs !== undefined ? { gapMs: step.gapMs } : {}) });
      return undefined;
    case 'reconnect':
      await client.reconnect();
      return undefined;
    case 'restart':
      await admin.restart();
      return undefined;
    case 'drop-streams':
      await admin.dropStreams();
      return undefined;
    case 'faults':
      await admin.setFaults(step.set);
      return undefined;
    case 'wait':
      await new Promise((r) => setTimeout(r, step.ms));
      return undefined;
    case 'wait-for-reconnect': {
      const before = client.metrics.initializations;
      const until = Date.now() + (step.timeoutMs ?? 6000);
      while (client.metrics.initializations === before || !client.conn) {
        if (Date.now() > until) throw new Error('the client did not re-initialize in time');
        await new Promise((r) => setTimeout(r, 25));
      }
      return undefined;
    }
    case 'wait-for-session-expired': {
      const until = Date.now() + (step.timeoutMs ?? 6000);
      while (!client.sessionExpired) {
        if (Date.now() > until) throw new Error('the client never saw its session expire');
        await new Promise((r) => setTimeout(r, 25));
      }
      return undefined;
    }
    case 'wait-for-held-read': {
      const until = Date.now() + (step.timeoutMs ?? 4000);
      while (!(await admin.state()).heldReads.includes(step.uri)) {
        if (Date.now() > until) throw new Error(`the server never held a read of ${step.uri}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return undefined;
    }
    case 'settle':
      if (!(await client.whenSettled(step.quietMs ?? 300))) throw new Error('the client did not settle (reads still in flight)');
      return undefined;
    case 'expect': {
      // 'fresh' may take a notification and a read to become true: poll for it (a healthy client gets there quickly,
      // however loaded the machine). 'stale' is checked once, after the settle before it.
      const until = Date.now() + (step.cache === 'fresh' ? FRESH_WITHIN_MS : 0);
      for (;;) {
        const state = await admin.state();
        const server = state.documents.find((d) => d.uri === step.uri);
        const cached = client.cache.get(step.uri);
        const actual = !cached ? 'missing' : cached.text === server?.text ? 'fresh' : 'stale';
        if (actual !== step.cache && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        const revision = server ? `server at revision ${server.revision}` : 'server has no such document';
        return { pass: actual === step.cache, detail: `cache is ${actual} (${revision}; cache written ${cached?.writes ?? 0}×, read #${cached?.readSeq ?? '-'})` };
      }
    }
  }
}
