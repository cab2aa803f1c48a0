// From a second review of the work runs (2026-12-05): see docs/engine.md, Runs of work.
import { expect, it } from 'vitest';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { Engine } from '../../../shared/engine/index.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const uris = Array.from({ length: 12 }, (_, i) => `file:///docs/d${i}.md`);
const TICK = 'file:///status.json';

function trace() {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  let get = c.openGet();
  for (const u of [TICK, ...uris]) { c.read(u, `${u} v1`); c.subscribe(u); }
  // queue (reverse) + ticker + failing retry
  for (const u of uris) get.updated(u);
  get.updated(TICK);
  for (const u of [...uris].reverse()) { log.wait(300); if (u !== uris[3]) c.read(u, `${u} v2`); }
  for (let i = 0; i < 4; i++) { log.wait(900); c.beginRead(TICK).fail(-32603, 'busy'); }
  c.read(TICK, 'ok');
  // blip
  log.wait(200); get.close('failed');
  log.wait(1000); c.openGet({ status: 503 });
  log.wait(1500); get = c.openGet();
  // reconnect, serial resubscribe skipping one
  log.wait(500); get.close('aborted');
  c.initialize({ sessionId: 'S2' }); get = c.openGet();
  for (const u of [TICK, ...uris]) { log.wait(400); if (u !== uris[5]) c.subscribe(u); }
  log.wait(3000);
  get.updated(uris[1]!);
  return log;
}

it('live engine queried at many `now`s == fresh replay of prefix; forks == straight replay', () => {
  const log = trace();
  const live = new Engine();
  const dts = [0, 1000, 2500, 31_000];
  let mismatches = 0; let forkMismatch = 0;
  for (let k = 0; k < log.frames.length; k++) {
    live.apply(log.frames[k]!);
    const t = log.frames[k]!.t;
    // query live at several times (including far future, then back)
    const liveSnaps = dts.map((dt) => JSON.stringify(live.snapshot(t + dt)));
    const liveAgain = dts.map((dt) => JSON.stringify(live.snapshot(t + dt)));
    if (k % 7 === 0 || k === log.frames.length - 1) {
      const fresh = new Engine(); fresh.applyAll(log.frames.slice(0, k + 1));
      dts.forEach((dt, i) => { const s = JSON.stringify(fresh.snapshot(t + dt)); if (s !== liveSnaps[i] || s !== liveAgain[i]) mismatches++; });
    }
  }
  for (const cut of [0.15, 0.3, 0.45, 0.6, 0.75, 0.9].map((x) => Math.floor(x * log.frames.length))) {
    const a = new Engine(); a.applyAll(log.frames.slice(0, cut));
    a.snapshot(log.frames[cut - 1]!.t + 40_000);
    const f = a.fork(); f.applyAll(log.frames.slice(cut));
    const full = new Engine(); full.applyAll(log.frames);
    for (const dt of [0, 1500, 3000, 40_000]) if (JSON.stringify(f.snapshot(log.t + dt)) !== JSON.stringify(full.snapshot(log.t + dt))) forkMismatch++;
    // original unaffected by fork's continuation
    const a2 = new Engine(); a2.applyAll(log.frames.slice(0, cut));
    for (const dt of [0, 3000]) if (JSON.stringify(a.snapshot(log.frames[cut - 1]!.t + dt)) !== JSON.stringify(a2.snapshot(log.frames[cut - 1]!.t + dt))) forkMismatch++;
  }
  console.log('frames', log.frames.length, 'mismatch', mismatches, 'forkMismatch', forkMismatch);
  expect(mismatches).toBe(0);
  expect(forkMismatch).toBe(0);
});
