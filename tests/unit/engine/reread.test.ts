// When a notification counts as re-read (found by an audit against the real server-everything, 2026-12-04): only a
// read that succeeds answers it (a failed re-read leaves the cache as stale as before), an update that crosses the
// client's own unsubscribe asks for no re-read, and a late re-read names the session the notification came on.
import { describe, expect, it } from 'vitest';
import { brief, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const A = 'file:///docs/a.md';

function subscribed(session = 'S1') {
  const log = new FrameLog();
  const c = new StreamableClient(log, URL, '2025-06-18');
  c.initialize({ sessionId: session });
  const get = c.openGet();
  c.read(A, 'v1');
  c.subscribe(A);
  return { log, c, get };
}

const rereadFindings = (log: FrameLog) => run(log).findings(log.t + 10_000).filter((f) => f.id === 'notified-not-reread');

describe('a re-read that fails', () => {
  for (const how of ['error', 'network'] as const) {
    it(`does not answer the notification (${how}): the finding comes, the re-read share says so`, () => {
      const { log, c, get } = subscribed();
      get.updated(A);
      const read = c.beginRead(A);
      if (how === 'error') read.fail(-32603, 'Internal error');
      else read.networkError();
      const e = run(log);
      expect(brief(e.findings(log.t + 10_000))).toEqual([`notified-not-reread ${A} - warning`]);
      expect(e.snapshot(log.t + 10_000).metrics.rereadShare).toBe(0);
    });
  }

  it('a retry that succeeds answers it, late if past the grace', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    c.beginRead(A).fail(-32603, 'Internal error');
    log.wait(3000);
    c.read(A, 'v2');
    const e = run(log);
    expect(rereadFindings(log).map((f) => [f.open, f.detail])).toEqual([[false, expect.stringMatching(/^re-read only after 30\d\d ms$/)]]);
    expect(e.snapshot(log.t + 10_000).metrics.rereadShare).toBe(1);
  });

  it('a notification that comes while a re-read is in flight needs a read sent after it', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    const first = c.beginRead(A);
    get.updated(A);
    first.respond({ contents: [{ uri: A, text: 'v2' }] });
    expect(rereadFindings(log).map((f) => f.open)).toEqual([true]);
    c.read(A, 'v3');
    expect(rereadFindings(log)).toEqual([]);
  });

  it('a read sent before the notification neither answers it nor keeps it waiting when the re-read fails', () => {
    const { log, c, get } = subscribed();
    const before = c.beginRead(A);
    get.updated(A);
    c.beginRead(A).fail(-32603, 'Internal error');
    before.respond({ contents: [{ uri: A, text: 'v2' }] });
    expect(rereadFindings(log).map((f) => f.open)).toEqual([true]);
  });

  it('a re-read sent late stays a late re-read when a newer notification overtakes it', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    log.wait(5000);
    const late = c.beginRead(A);
    get.updated(A);
    late.respond({ contents: [{ uri: A, text: 'v2' }] });
    c.read(A, 'v3');
    expect(rereadFindings(log).map((f) => [f.open, f.detail])).toEqual([[false, expect.stringMatching(/^re-read only after 50\d\d ms$/)]]);
  });

  it('a prompt re-read still in flight when the page goes is no finding', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    log.wait(100);
    c.beginRead(A);
    log.wait(3000);
    log.pageEnd('http://localhost:8080/');
    expect(rereadFindings(log)).toEqual([]);
  });

  it('a re-read still in flight past the grace is no finding yet', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    c.beginRead(A);
    expect(rereadFindings(log)).toEqual([]);
  });
});

describe('an update that crosses the client unsubscribe', () => {
  it('asks for no re-read (the server sent it before it handled the unsubscribe)', () => {
    const { log, c, get } = subscribed();
    const unsub = c.begin('resources/unsubscribe', { uri: A });
    get.updated(A);
    unsub.respond({});
    expect(rereadFindings(log)).toEqual([]);
    expect(run(log).snapshot(log.t + 10_000).metrics.notificationsForCached).toBe(0);
  });

  it('one that comes long after the unsubscribe was answered is still an update of a cached URI', () => {
    const { log, c, get } = subscribed();
    c.unsubscribe(A);
    log.wait(5000);
    get.updated(A);
    expect(run(log).snapshot(log.t + 10_000).metrics.notificationsForCached).toBe(1);
  });
});

describe('a late re-read after a re-initialize', () => {
  it('names the session the notification came on', () => {
    const { log, c, get } = subscribed('S1');
    get.updated(A);
    c.delete();
    c.initialize({ sessionId: 'S2' });
    c.openGet();
    c.subscribe(A);
    log.wait(3000);
    c.read(A, 'v2');
    expect(rereadFindings(log).map((f) => f.session)).toEqual(['S1']);
  });
});

// A real-SDK audit (2026-12-05, parallel_ooo): a notification, its re-read sent, a second notification while that read
// was in flight, no read after it: the finding said "after 2 notification(s)", counting the one already re-read.
describe('a notification while the re-read of one before it is in flight', () => {
  it('counts only the notifications no read followed; the earlier one counts as re-read once its read succeeds', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    const read = c.beginRead(A);
    get.updated(A);
    read.respond({ contents: [{ uri: A, text: 'v2' }] });
    const e = run(log);
    const [f, ...rest] = e.findings(log.t + 10_000).filter((x) => x.id === 'notified-not-reread');
    expect(rest).toEqual([]);
    expect(f!.detail).toMatch(/^no resources\/read in \d+ ms after 1 notification\(s\)$/);
    expect(e.snapshot(log.t + 10_000).metrics).toMatchObject({ notificationsReread: 1, notificationsForCached: 2 });
  });

  it('when that re-read fails, the earlier notification waits with the later one again', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    const read = c.beginRead(A);
    get.updated(A);
    read.fail(-32603, 'Internal error');
    const [f] = rereadFindings(log);
    expect(f!.detail).toMatch(/after 2 notification\(s\)$/);
  });

  it('a read after both answers both', () => {
    const { log, c, get } = subscribed();
    get.updated(A);
    const read = c.beginRead(A);
    get.updated(A);
    read.respond({ contents: [{ uri: A, text: 'v2' }] });
    c.read(A, 'v3');
    const e = run(log);
    expect(rereadFindings(log)).toEqual([]);
    expect(e.snapshot(log.t + 10_000).metrics).toMatchObject({ notificationsReread: 2, notificationsForCached: 2 });
  });
});
