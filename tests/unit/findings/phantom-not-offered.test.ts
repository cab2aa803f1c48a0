// phantom-subscription when the current server does not advertise resources.subscribe (a first-use UX audit,
// 2026-12-05: a client subscribed in an earlier session, then re-initialized onto a server without the capability;
// the same URI showed phantom-subscription as an ERROR, "send resources/subscribe …", beside cached-not-subscribed
// downgraded to info, "polling is all it allows"). Both are info now, and the phantom says the client must poll.
import { describe, expect, it } from 'vitest';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, SERVER_CAPS, StreamableClient } from '../../support/mcp-clients.ts';
import { PHANTOM_REASONS } from '../../../shared/findings/catalogue.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const NO_SUBSCRIBE = { resources: { listChanged: true }, tools: {} };

/** S1 (with resources.subscribe): read + subscribe; S2 on a server with `caps`, no resubscribe. */
function reinitOnto(caps: Record<string, unknown>) {
  const log = new FrameLog();
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'policy v1');
  c.subscribe(POLICY);
  log.wait(1000);
  get.close('aborted');
  c.initialize({ sessionId: 'S2', capabilities: caps });
  c.openGet();
  return { log, c };
}

describe('phantom-subscription when the server no longer offers subscriptions', () => {
  it('re-initialized onto a server without resources.subscribe: phantom and cached-not-subscribed are both info', () => {
    const { log } = reinitOnto(NO_SUBSCRIBE);
    const e = run(log);
    const f = findingsAfter(e, 3000);
    expect(brief(f, 'info')).toEqual([
      `cached-not-subscribed ${POLICY} lost-on-reinit info`,
      `phantom-subscription ${POLICY} subscribe-not-offered info`,
    ]);
    const ph = f.find((x) => x.id === 'phantom-subscription')!;
    expect(ph).toMatchObject({ session: 'S2', open: true });
    expect(ph.detail).toMatch(/^S1 ended \(re-initialize\) at seq \d+ — left behind when the page initialized another session: [^;]*; the current server does not advertise resources\.subscribe: it no longer offers subscriptions, so the client must poll/);
    // The advice is to poll, not to "send resources/subscribe".
    expect(ph.fix).toBe(PHANTOM_REASONS['subscribe-not-offered'].fix);
    expect(ph.fix).toMatch(/poll/);
    expect(ph.explanation.startsWith(PHANTOM_REASONS['subscribe-not-offered'].explanation)).toBe(true);
    // So is cached-not-subscribed's, at info for the same reason (it said "Subscribe to every URI you cache").
    expect(f.find((x) => x.id === 'cached-not-subscribed')!.fix).toBe(PHANTOM_REASONS['subscribe-not-offered'].fix);
    // Nothing for the badge: no open error or warning.
    expect(f.filter((x) => x.open && x.severity !== 'info')).toEqual([]);
    expect(e.snapshot(log.t + 3000).uris[0]!.status).not.toBe('error');
  });

  it('re-initialized onto a server that still offers it: the phantom stays an error with the usual advice', () => {
    const { log } = reinitOnto(SERVER_CAPS);
    const f = findingsAfter(run(log), 3000);
    expect(brief(f, 'info')).toEqual([`cached-not-subscribed ${POLICY} lost-on-reinit error`, `phantom-subscription ${POLICY} - error`]);
    expect(f.find((x) => x.id === 'phantom-subscription')!.detail).toMatch(/^S1 ended \(re-initialize\) at seq \d+ — left behind when the page initialized another session: [^;]*nothing sent there reaches the page$/);
    expect(f.find((x) => x.id === 'cached-not-subscribed')!.fix).toMatch(/^Subscribe to every URI you cache/);
  });

  it('back on a server with the capability and still no resubscribe: an error again, one finding', () => {
    const { log, c } = reinitOnto(NO_SUBSCRIBE);
    log.wait(5000);
    c.initialize({ sessionId: 'S3' });
    c.openGet();
    const f = findingsAfter(run(log), 3000);
    expect(brief(f, 'info')).toEqual([`cached-not-subscribed ${POLICY} lost-on-reinit error`, `phantom-subscription ${POLICY} - error`]);
    expect(f.find((x) => x.id === 'phantom-subscription')).toMatchObject({ session: 'S3', open: true });
  });

  it('2026-07-28: the listen dropped and a discover shows a server without the capability: both info', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'policy v1');
    const l = c.listen([POLICY]);
    log.wait(1000);
    l.drop('failed');
    log.wait(5000);
    c.discover(NO_SUBSCRIBE);
    const f = findingsAfter(run(log), 3000);
    expect(brief(f, 'info')).toEqual([
      `cached-not-subscribed ${POLICY} lost-with-stream info`,
      `phantom-subscription ${POLICY} subscribe-not-offered info`,
    ]);
  });
});
