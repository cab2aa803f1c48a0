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
    expect(rereadFindings(log).map((f) => [f.open, f.detail])).toEqual([[false, expect.stringMatching(/^re-read only after 3\.\d s$/)]]);
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
    expect(rereadFindings(log).map((f) => [f.open, f.detail])).toEqual([[false, expect.stringMatching(/^re-read only after 5\.\d s$/)]]);
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
    expect(f!.detail).toMatch(/^no resources\/read in [\d.]+ (?:ms|s) after 1 notification\(s\)$/);
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

// A code review (2026-12-06): with three notifications overlapping their re-reads, the older ones were carried as one
// group from the previous notification's seq, so the read sent for the oldest no longer answered it: N1, R1, N2, R2,
// N3, R1 with content, R2 failed said "after 3 notification(s)" and counted none re-read.
describe('notifications overlapping their re-reads, several deep', () => {
  function overlapping(n: number, readLast: boolean) {
    const { log, c, get } = subscribed();
    const reads = [];
    for (let i = 1; i <= n; i++) {
      get.updated(A);
      if (i < n || readLast) reads.push(c.beginRead(A));
    }
    return { log, reads };
  }

  function outcome(log: FrameLog) {
    const e = run(log);
    const details = e.findings(log.t + 10_000).filter((x) => x.id === 'notified-not-reread').map((x) => x.detail);
    const { notificationsReread, notificationsForCached } = e.snapshot(log.t + 10_000).metrics;
    return { details, notificationsReread, notificationsForCached };
  }

  it('a read for the oldest that succeeds answers it, though a newer one carried it since', () => {
    const { log, reads } = overlapping(3, false);
    reads[0]!.respond({ contents: [{ uri: A, text: 'v2' }] });
    reads[1]!.fail(-32603, 'Internal error');
    const o = outcome(log);
    expect(o.details).toHaveLength(1);
    expect(o.details[0]).toMatch(/^no resources\/read in [\d.]+ (?:ms|s) after 2 notification\(s\)$/);
    expect(o).toMatchObject({ notificationsReread: 1, notificationsForCached: 3 });
  });

  function permutations(xs: number[]): number[][] {
    if (xs.length <= 1) return [xs];
    return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
  }

  // Four notifications, each followed by its read (the last one's read optional), every success/failure pattern in
  // every answer order: a notification is re-read iff a read sent after it succeeded, whatever the order they came in.
  for (const readLast of [false, true]) {
    const nReads = readLast ? 4 : 3;
    for (let mask = 0; mask < 1 << nReads; mask++) {
      const ok = (i: number) => ((mask >> i) & 1) === 1;
      let k = 0; // the newest notification a successful read followed
      for (let i = 0; i < nReads; i++) if (ok(i)) k = i + 1;
      const pattern = Array.from({ length: nReads }, (_, i) => (ok(i) ? 'ok' : 'fail')).join(',');
      it(`4 notifications, ${nReads} reads (${pattern}), answered in any order: ${k} re-read`, () => {
        for (const order of permutations([...Array(nReads).keys()])) {
          const { log, reads } = overlapping(4, readLast);
          for (const i of order) {
            if (ok(i)) reads[i]!.respond({ contents: [{ uri: A, text: 'v2' }] });
            else reads[i]!.fail(-32603, 'Internal error');
          }
          const o = outcome(log);
          expect({ order, ...o }).toMatchObject({
            order,
            details: k === 4 ? [] : [expect.stringMatching(new RegExp(`after ${4 - k} notification\\(s\\)$`))],
            notificationsReread: k,
            notificationsForCached: 4,
          });
        }
      });
    }
  }

  it('past the cap of carried groups the oldest merge: still every notification accounted for', () => {
    const { log, reads } = overlapping(12, false);
    for (const r of reads) r.fail(-32603, 'Internal error');
    expect(outcome(log)).toMatchObject({ details: [expect.stringMatching(/after 12 notification\(s\)$/)], notificationsReread: 0, notificationsForCached: 12 });
    const again = overlapping(12, false);
    again.reads.forEach((r, i) => (i === 10 ? r.respond({ contents: [{ uri: A, text: 'v2' }] }) : r.fail(-32603, 'Internal error')));
    expect(outcome(again.log)).toMatchObject({ details: [expect.stringMatching(/after 1 notification\(s\)$/)], notificationsReread: 11, notificationsForCached: 12 });
  });
});
