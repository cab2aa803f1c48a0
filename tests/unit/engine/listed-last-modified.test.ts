// The cache's lastModified is its read's answer's: a resources/list gives the server's version when it answered, which
// is not the cached content's (answered before the read it is an older version's; after it, maybe a newer one's — a
// stale cache's sign, not its version). An audit of the demo (2026-12-05): reads without annotations took the latest
// list's value, an older revision's, shown in the URI drawer and compared by the resume-gap version check.
import { describe, expect, it } from 'vitest';
import { brief, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const L1 = '2026-01-01T00:00:00Z';
const L2 = '2026-02-01T00:00:00Z';

const listed = (lastModified: string) => [{ uri: POLICY, name: 'policy', annotations: { lastModified } }];
const rowOf = (log: FrameLog) => run(log).snapshot(log.t).uris.find((r) => r.uri === POLICY)!;
const gaps = (log: FrameLog) => brief(run(log).findings(log.t + 60_000).filter((f) => f.id === 'resume-gap' && f.uri !== undefined), 'info');

describe('lastModified of the cache and of the list', () => {
  it('a read whose answer has none leaves the cache without one; the list’s value is kept as the listed one, with its time', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.list(listed(L1));
    const listT = log.t;
    log.wait(500);
    c.read(POLICY, 'v2'); // the server changed it since the list: the read has a newer version than L1
    const before = rowOf(log);
    expect(before.lastModified).toBeUndefined();
    expect(before.listedLastModified).toBe(L1);
    expect(listT - before.listedAt!).toBeLessThan(5); // the list's answer
    log.wait(500);
    c.list(listed(L2));
    const after = rowOf(log);
    expect(after.lastModified).toBeUndefined();
    expect(after.listedLastModified).toBe(L2);
    expect(log.t - after.listedAt!).toBeLessThan(5);
  });

  it('a read whose answer has one keeps it, whatever a list says later', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.beginRead(POLICY).respond({ contents: [{ uri: POLICY, text: 'v1', annotations: { lastModified: L1 } }] });
    c.list(listed(L2));
    const r = rowOf(log);
    expect([r.lastModified, r.listedLastModified]).toEqual([L1, L2]);
  });

  it('a URI only listed shows the list’s as its lastModified', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.list(listed(L1));
    const r = rowOf(log);
    expect([r.cached, r.lastModified, r.listedLastModified]).toEqual([false, L1, L1]);
  });
});

describe('the resume-gap version check by resources/list, for a read whose answer has no lastModified', () => {
  /** Read (no lastModified), subscribed, the session lost and subscribed again (a lapse: a doubt), then `after`. */
  function lapsed(beforeRead: (c: StreamableClient) => void, after: (c: StreamableClient) => void): FrameLog {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    beforeRead(c);
    c.subscribe(POLICY);
    log.wait(1000);
    c.initialize({ sessionId: 'S2' });
    c.subscribe(POLICY);
    after(c);
    return log;
  }

  it('a list answered before the read was sent and one after the gap giving the same value: nothing changed, the doubt is answered', () => {
    const log = lapsed(
      (c) => {
        c.list(listed(L1));
        c.beginRead(POLICY).respond({ contents: [{ uri: POLICY, text: 'v1' }] });
      },
      (c) => c.list(listed(L1)),
    );
    expect(gaps(log)).toEqual([]);
  });

  it('a list answered while the read was out gives no version of the read’s content: the same value later answers nothing', () => {
    // The server changed the resource after it answered the read and before it answered the list: the cache holds the
    // older content, the list (and the one after the gap) the newer version.
    const log = lapsed(
      (c) => {
        const p = c.beginRead(POLICY);
        c.list(listed(L2));
        p.respond({ contents: [{ uri: POLICY, text: 'v1' }] });
      },
      (c) => c.list(listed(L2)),
    );
    expect(gaps(log)).toEqual([`resume-gap ${POLICY} subscription-lapsed info`]);
  });

  it('a changed value answers nothing', () => {
    const log = lapsed(
      (c) => {
        c.list(listed(L1));
        c.beginRead(POLICY).respond({ contents: [{ uri: POLICY, text: 'v1' }] });
      },
      (c) => c.list(listed(L2)),
    );
    expect(gaps(log)).toEqual([`resume-gap ${POLICY} subscription-lapsed info`]);
  });
});
