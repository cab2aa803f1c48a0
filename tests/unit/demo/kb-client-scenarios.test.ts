// Every scenario played by the real KbClient (the page's logic, with the real SDK clients) against a real server, in
// Node: fast feedback that each client switch and fault behaves as the scenario says. The same table runs in Chromium
// in tests/e2e/demo/scenarios-in-chromium.test.ts.
import { describe, expect, it } from 'vitest';
import { AdminApi } from '../../../demo/client/admin-api.ts';
import { KbClient } from '../../../demo/client/kb-client.ts';
import { playScenario, prepareScenario } from '../../../demo/client/scenario-player.ts';
import { HEALTHY_SWITCHES } from '../../../demo/client/switches.ts';
import { SCENARIOS, type Scenario } from '../../../demo/scenarios.ts';
import { createKbServer } from '../../../demo/server/http.ts';

async function play(s: Scenario) {
  const kb = await createKbServer();
  const admin = new AdminApi(kb.url);
  const client = new KbClient({ serverUrl: kb.url, connection: s.connection, switches: { ...HEALTHY_SWITCHES, ...s.client } });
  const log: string[] = [];
  client.on((e) => log.push(`[${e.kind}] ${e.uri ?? ''} ${e.text}`));
  try {
    await prepareScenario(s, admin);
    await client.connect();
    const result = await playScenario(s, client, admin, (t) => log.push(t));
    return { result, log, metrics: kb.state().metrics };
  } finally {
    await client.close();
    await kb.close();
  }
}

describe('scenarios played by the KbClient in Node', () => {
  // Concurrently (each has its own server): the scenarios mostly wait on timers.
  const runs = new Map(SCENARIOS.map((s) => [s.name, undefined as ReturnType<typeof play> | undefined]));
  const run = (s: Scenario) => {
    let p = runs.get(s.name);
    if (!p) {
      p = play(s);
      runs.set(s.name, p);
    }
    return p;
  };

  it.concurrent.each(SCENARIOS.map((s) => [s.name, s] as const))('%s behaves as described', async (_name, s) => {
    const { result, log } = await run(s);
    expect(result.error, log.join('\n')).toBeUndefined();
    expect(result.checks.filter((c) => !c.pass), log.join('\n')).toEqual([]);
  }, 20_000);

  it('the server-side counters tell the same story', async () => {
    const by = async (n: string) => (await run(SCENARIOS.find((s) => s.name === n) as Scenario)).metrics;
    expect(await by('reconnect-without-resubscribe')).toMatchObject({ droppedNoSubscriber: 1 });
    expect(await by('parent-only')).toMatchObject({ droppedNoSubscriber: 1 });
    expect(await by('no-get-stream')).toMatchObject({ lostNoChannel: 1 });
    expect(await by('resume-gap')).toMatchObject({ lostNoChannel: 1 });
    expect(await by('dropped-notifications')).toMatchObject({ droppedByFault: 1 });
    expect(await by('unsolicited-update')).toMatchObject({ unsolicitedSent: 1 });
    expect(await by('healthy')).toMatchObject({ droppedNoSubscriber: 0, lostNoChannel: 0, droppedByFault: 0 });
  }, 20_000);
});
