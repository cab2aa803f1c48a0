// The Sessions view's model against the engine: what each cell says agrees with the metrics and the engine's record.
import { describe, expect, it } from 'vitest';
import { coveredLines, sessionEntries, subscriptionsCell } from '../../../panel/model/sessions-view.ts';
import { run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const DOCS = 'file:///docs/';
const POLICY = 'file:///docs/policy.md';

describe('the Subscriptions column', () => {
  // An audit, 2026-12: subscribe to the folder, the server notifies a document in it → the column said 2, the metric 1.
  it('counts what the session subscribed, as the metric does; a sub-resource its parent covers is listed apart', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.subscribe(DOCS);
    c.read(POLICY, 'v1');
    get.updated(POLICY);
    c.read(POLICY, 'v2');
    const snap = run(log).snapshot(log.t);
    const [e] = sessionEntries(snap);
    expect(snap.metrics.subscribedUrisPerSession).toEqual([{ session: 'S1', uris: 1 }]);
    expect(subscriptionsCell(e!.session).count).toBe(snap.metrics.subscribedUrisPerSession[0]!.uris);
    expect(e!.session.subscriptions).toEqual([DOCS]);
    expect(coveredLines(e!.session)).toEqual([`${POLICY} (covered via ${DOCS})`]);
    expect(subscriptionsCell(e!.session).title).toBe(`${DOCS}\n${POLICY} (covered via ${DOCS})`);
  });

  it('a 2026 listen, and once it ended: still only its own subscriptions, the covered one apart', () => {
    const log = new FrameLog('d');
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'v1');
    const l = c.listen([DOCS]);
    l.updated(POLICY);
    c.read(POLICY, 'v2');
    const live = run(log).snapshot(log.t);
    expect(subscriptionsCell(live.sessions[0]!).count).toBe(live.metrics.subscribedUrisPerSession[0]!.uris);
    expect(live.sessions[0]!.coveredViaParent).toEqual([[POLICY, DOCS]]);
    l.complete();
    const ended = run(log).snapshot(log.t).sessions[0]!;
    expect([ended.open, ended.subscriptions, ended.coveredViaParent]).toEqual([false, [DOCS], [[POLICY, DOCS]]]);
  });
});
