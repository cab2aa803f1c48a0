// A review of the work runs (2026-12-05): two SDK clients on one endpoint; A's SEP-1699 polling GET reopening every
// second kept B's dropped GET stream (back only 19 s later) from ever being reported. GET attempts now excuse only
// their own session's channel.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const UA = 'file:///a.md';
const UB = 'file:///b.md';

function scenario(polling: boolean) {
  const log = new FrameLog();
  const a = new StreamableClient(log, ENDPOINT);
  a.initialize({ sessionId: 'SA' });
  a.read(UA, 'v1');
  a.subscribe(UA);
  let ga = a.openGet({ ids: 'a' });
  const b = new StreamableClient(log, ENDPOINT);
  b.initialize({ sessionId: 'SB' });
  b.read(UB, 'v1');
  b.subscribe(UB);
  const gb = b.openGet();
  log.wait(300);
  gb.close('failed'); // B's channel gone…
  let mid: string[] = [];
  for (let i = 0; i < 20; i++) {
    log.wait(950);
    if (polling) {
      log.sseEvent(ga.conn, '', { id: `a-p${i}`, retry: 500 });
      ga.close('complete');
      ga = a.openGet({ ids: 'a', lastEventId: `a-p${i}` });
    }
    if (i === 12) mid = brief(run(log).findings(log.t)).filter((x) => x.includes(UB));
  }
  b.openGet(); // …back only ~19 s later
  return { mid, e: run(log) };
}

describe('per-client reopening run', () => {
  it('A idle: B reported (open mid-way, history after)', () => {
    const { mid, e } = scenario(false);
    expect(mid).toEqual([`no-delivery-channel ${UB} closed error`]);
    expect(brief(findingsAfter(e, 3000)).filter((x) => x.includes(UB))).toEqual([`no-delivery-channel ${UB} closed error`]);
  });
  it('A polling its own session\'s GET: B is reported all the same (the run is the session\'s)', () => {
    const { mid, e } = scenario(true);
    expect(mid).toEqual([`no-delivery-channel ${UB} closed error`]);
    expect(brief(findingsAfter(e, 3000)).filter((x) => x.includes(UB))).toEqual([`no-delivery-channel ${UB} closed error`]);
  });
});
