// A scenario's end leaves the demo server as `npm start` began it, whether the scenario played or failed on the way:
// its faults off, the edit timer back at the interval the server was started with (the page's finishScenario calls
// endScenario; tests/e2e/demo/scenarios-in-chromium.test.ts checks a played one in Chromium).
import { afterEach, expect, it } from 'vitest';
import { AdminApi } from '../../../demo/client/admin-api.ts';
import { endScenario, prepareScenario } from '../../../demo/client/scenario-player.ts';
import { SCENARIOS } from '../../../demo/scenarios.ts';
import { DEFAULT_FAULTS } from '../../../demo/server/faults.ts';
import { createKbServer } from '../../../demo/server/http.ts';

let kb: Awaited<ReturnType<typeof createKbServer>> | undefined;
afterEach(async () => {
  await kb?.close();
  kb = undefined;
});

it('turns the faults off and the timer back on after a scenario that failed half-way (faults still set by a step)', async () => {
  kb = await createKbServer({ editIntervalMs: 600_000 });
  const admin = new AdminApi(kb.url);
  await prepareScenario(SCENARIOS.find((s) => s.name === 'dropped-notifications')!, admin);
  // A step set another fault, then the scenario failed (nothing else restores them).
  await admin.setFaults({ refuseGetStream: true });
  expect(kb.state()).toMatchObject({ editTimerMs: 0, faults: { dropNotifications: true, refuseGetStream: true } });
  await endScenario(admin);
  expect(kb.state()).toMatchObject({ editTimerMs: 600_000, configuredEditTimerMs: 600_000, faults: DEFAULT_FAULTS });
});

it('leaves the timer off for a server started without one', async () => {
  kb = await createKbServer();
  const admin = new AdminApi(kb.url);
  await prepareScenario(SCENARIOS.find((s) => s.name === 'no-get-stream')!, admin);
  await endScenario(admin);
  expect(kb.state()).toMatchObject({ editTimerMs: 0, configuredEditTimerMs: 0, faults: DEFAULT_FAULTS });
});
