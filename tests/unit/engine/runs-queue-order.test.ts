// From a second review of the work runs (2026-12-05): see docs/engine.md, Runs of work.
// Was a false positive: the original "60 notified URIs re-read through a queue 50 ms apart" case comes back as soon as the queue's order
// is not the notifications' order: (a run mark that jumped to the newest notification read and every older one not yet reached
// was "passed over"). A keyed run now counts each URI once instead.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const TICK = 'file:///status.json';
const uris = Array.from({ length: 60 }, (_, i) => `file:///docs/d${i}.md`);

function setup() {
  const log = new FrameLog();
  const c = new StreamableClient(log, ENDPOINT);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (const u of [TICK, ...uris]) { c.read(u, `${u} v1`); c.subscribe(u); }
  for (const u of uris) get.updated(u);
  return { log, c, get };
}

describe('60-URI serial re-read queue at 50 ms', () => {
  it('control: in notification order: nothing', () => {
    const { log, c } = setup();
    for (const u of uris) { log.wait(50); c.read(u, `${u} v2`); }
    expect(brief(findingsAfter(run(log), 3000))).toEqual([]);
  });
  it('LIFO (reverse order): nothing expected', () => {
    const { log, c } = setup();
    for (const u of [...uris].reverse()) { log.wait(50); c.read(u, `${u} v2`); }
    expect(brief(findingsAfter(run(log), 3000))).toEqual([]); // before the fix: 24 late notified-not-reread (d0..d23)
  });
  it('in order, with a ticking status resource re-read promptly alongside (every 1 s): nothing expected', () => {
    const { log, c, get } = setup();
    let next = log.t + 1000;
    for (const u of uris) {
      log.wait(50); c.read(u, `${u} v2`);
      if (log.t >= next) { get.updated(TICK); log.wait(20); c.read(TICK, `tick ${next}`); next += 1000; }
    }
    expect(brief(findingsAfter(run(log), 3000))).toEqual([]); // before the fix: 24 late notified-not-reread (d36..d59)
  });
});
