// resume-gap per URI (findings/gap.ts): a delivery stream came back without resuming while the session held a URI
// whose cache was read before the gap — an update sent in the gap is lost, and nothing else on the URI shows it (its
// subscription never lapsed). Open until a read sent after the gap began is answered; history when that came late or
// never came before the page went.
import { describe, expect, it } from 'vitest';
import { RESUME_REASONS } from '../../../shared/findings/catalogue.ts';
import { findingSessions } from '../../../panel/model/uri-table.ts';
import { brief, run } from '../../support/analyze.ts';
import { cutWithPerRequestStream, subscribedWithIds } from '../../support/gap-sessions.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { ModernClient, StreamableClient, result, type SseStream } from '../../support/mcp-clients.ts';

const URL = 'http://127.0.0.1:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';
const GRACE = 2000;

/** A session that read and subscribed `uris`, its GET stream carrying event ids, dropped and reopened without Last-Event-ID. */
function droppedWithoutResume(log: FrameLog, uris = [POLICY]): { c: StreamableClient; get: SseStream; dropSeq: number; backSeq: number } {
  const { c, first } = subscribedWithIds(log, uris);
  first.close('failed');
  const dropSeq = log.frames.at(-1)!.seq;
  log.wait(1000);
  const get = c.openGet({ ids: 'ev2' });
  // Delivery is back when the new stream opens (its response head), not at a GET the server could still refuse.
  const backSeq = log.frames.find((f) => f.seq > dropSeq && f.kind === 'http-response')!.seq;
  return { c, get, dropSeq, backSeq };
}

const uriGaps = (log: FrameLog, now: number) =>
  run(log)
    .findings(now)
    .filter((f) => f.id === 'resume-gap' && f.uri !== undefined);

/**
 * A 2025-11-25 client that read and subscribed POLICY, unsubscribed it (the seq of its last frame then: `unsubSeq`),
 * and 3 s later subscribed it again, unread since; `log` may hold a page-start already.
 */
function resubscribedAfterLapse(log = new FrameLog()): { log: FrameLog; c: StreamableClient; unsubSeq: number } {
  const c = new StreamableClient(log, URL, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  c.unsubscribe(POLICY);
  const unsubSeq = log.frames.at(-1)!.seq;
  log.wait(3000);
  c.subscribe(POLICY);
  return { log, c, unsubSeq };
}

describe('a URI cached before a delivery gap no stream resumed', () => {
  it('is a warning, open from the drop, while the client does not read it again', () => {
    const log = new FrameLog();
    const { dropSeq, backSeq } = droppedWithoutResume(log, [POLICY, FAQ]);
    const dropT = log.frames.find((f) => f.seq === dropSeq)!.t;
    // Within the grace after the stream came back the client may still be re-reading: nothing yet.
    expect(uriGaps(log, log.t + GRACE - 100)).toEqual([]);
    const open = uriGaps(log, log.t + GRACE + 500);
    expect(open.map((f) => [f.uri, f.session, f.reason, f.severity, f.open]).sort()).toEqual([
      [FAQ, 'S1', 'no-last-event-id', 'warning', true],
      [POLICY, 'S1', 'no-last-event-id', 'warning', true],
    ]);
    expect(open[0]!.firstT).toBe(dropT);
    expect(open[0]!.evidence).toEqual([dropSeq, backSeq]);
    expect(open[0]!.detail).toBe(
      `S1's delivery stream came back without Last-Event-ID (dropped at seq ${dropSeq}, back at seq ${backSeq}); cached before the gap: an update sent in it is lost; not read successfully in the 2.5 s since the stream came back`,
    );
    // The table marks the rows.
    const rows = run(log).snapshot(log.t + GRACE + 500).uris;
    expect(rows.filter((r) => r.findings.includes('resume-gap')).map((r) => r.uri).sort()).toEqual([FAQ, POLICY]);
  });

  it('is nothing when the client reads it again within the grace after the stream came back', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    log.wait(300);
    c.read(POLICY, 'v2');
    expect(brief(uriGaps(log, log.t + 60_000), 'info')).toEqual([]);
  });

  it('stays as history when the client read it again only later', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    log.wait(5000);
    c.read(POLICY, 'v2');
    const [f, ...rest] = uriGaps(log, log.t + 60_000);
    expect(rest).toEqual([]);
    expect([f!.open, f!.severity]).toEqual([false, 'warning']);
    expect(log.t - f!.lastT).toBeLessThan(5); // the read's answer
    expect(f!.detail).toMatch(/; read again only 5\.\d s after the stream came back$/);
  });

  it('is not in doubt when the client read it during the gap (the catch-up came first)', () => {
    const log = new FrameLog();
    const { c, first } = subscribedWithIds(log);
    first.close('failed');
    log.wait(200);
    c.read(POLICY, 'v2');
    log.wait(800);
    c.openGet({ ids: 'ev2' });
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
  });

  it('is not said of a URI the session did not hold, or did not cache', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const first = c.openGet({ ids: 'ev' });
    first.priming();
    c.read(POLICY, 'v1'); // cached, never subscribed: cached-not-subscribed says it
    c.subscribe(FAQ); // subscribed, never read: nothing cached to be stale
    first.close('failed');
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
  });

  it('a stream that kept dropping counts its gaps; a note (no event ids) becomes a warning once a gap is the client\'s', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    const first = c.openGet(); // no ids: nothing can resume it
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    first.close('failed');
    log.wait(500);
    const second = c.openGet({ ids: 'ev' });
    expect(uriGaps(log, log.t + GRACE + 100).map((f) => [f.reason, f.severity])).toEqual([['no-event-ids', 'info']]);
    second.priming();
    second.close('failed');
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    const [f, ...rest] = uriGaps(log, log.t + GRACE + 100);
    expect(rest).toEqual([]);
    expect([f!.reason, f!.severity]).toEqual(['no-last-event-id', 'warning']);
    expect(f!.detail).toMatch(/^S1's delivery stream came back without Last-Event-ID \(dropped at seq \d+, back at seq \d+\) \(2 gaps since it was last read, the first at seq \d+\); cached before the gap/);
  });

  it('is history when the page unloads without reading it again; nothing when it unloads within the grace', () => {
    for (const [wait, expected] of [
      [5000, [[false, 'warning']]],
      [500, []],
    ] as const) {
      const log = new FrameLog();
      droppedWithoutResume(log);
      log.wait(wait);
      log.pageEnd('http://localhost:8080/');
      expect(uriGaps(log, log.t + 60_000).map((f) => [f.open, f.severity]), `unload after ${wait} ms`).toEqual(expected);
    }
  });

  it('ends when the resource is gone (nothing left to be stale)', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    log.wait(300);
    c.beginRead(POLICY).fail(-32002, 'Resource not found');
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
  });

  it('a fork (the scrubber\'s saved engines) carries the doubt on, apart from the engine it came from', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log, [POLICY, FAQ]);
    log.wait(4000);
    c.read(FAQ, 'v2');
    const whole = run(log);
    const seen = log.frames.length;
    expect(brief(whole.findings(log.t + 10_000)).filter((s) => s.startsWith('resume-gap'))).toEqual([
      'resume-gap - no-last-event-id warning',
      `resume-gap ${FAQ} no-last-event-id warning`,
      `resume-gap ${POLICY} no-last-event-id warning`,
    ]);
    const fork = whole.fork();
    c.read(POLICY, 'v2');
    fork.applyAll(log.frames.slice(seen));
    expect(fork.findings(log.t + 10_000).filter((f) => f.id === 'resume-gap' && f.open)).toEqual([]);
    expect(whole.findings(log.t + 10_000).filter((f) => f.id === 'resume-gap' && f.open).map((f) => f.uri)).toEqual([POLICY]);
  });
});

describe('a URI subscribed again after the server lost its subscription, not read since', () => {
  const lapses = (log: FrameLog, now: number) => brief(uriGaps(log, now), 'info');

  /** A 2025 client whose session S1 read and subscribed the policy, then re-initialized as S2 and subscribed again. */
  function resubscribed(log: FrameLog, readFirst: boolean): StreamableClient {
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(1000);
    c.initialize({ sessionId: 'S2' });
    log.wait(800);
    if (readFirst) c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    return c;
  }

  it('2025-11-25: a note, open once the grace after the subscribe passed, naming the new session', () => {
    const log = new FrameLog();
    resubscribed(log, false);
    expect(lapses(log, log.t + GRACE - 100)).toEqual([]);
    const [f, ...rest] = uriGaps(log, log.t + GRACE + 100);
    expect(rest).toEqual([]);
    expect([f!.reason, f!.severity, f!.session, f!.open]).toEqual(['subscription-lapsed', 'info', 'S2', true]);
    expect(f!.detail).toMatch(/^subscribed again in S2 \(seq \d+\) after its subscription was lost at seq \d+: any update in between was announced to nobody; not read successfully in the 2\.1 s since it was subscribed again$/);
    expect(f!.title).toBe('Subscribed again, but not read again');
    // Its reason's own words and fix (read again after subscribing again), the stream's advice after them.
    expect(f!.explanation.startsWith(RESUME_REASONS['subscription-lapsed'].explanation)).toBe(true);
    expect(f!.fix).toBe(RESUME_REASONS['subscription-lapsed'].fix);
  });

  it('2025-11-25: nothing when the client reads it again after subscribing, or read it before subscribing again', () => {
    const after = new FrameLog();
    const c = resubscribed(after, false);
    c.read(POLICY, 'v1');
    expect(lapses(after, after.t + 60_000)).toEqual([]);
    const before = new FrameLog();
    resubscribed(before, true);
    expect(lapses(before, before.t + 60_000)).toEqual([]);
  });

  // An audit with real SDK clients (2026-12-05, unsub_edit_resub / v2_unlisten_edit_relisten): the client unsubscribed,
  // the resource changed, the client subscribed again and never read it: nothing was shown (cached-not-subscribed
  // cleared on the subscribe, and only a lapse the server caused was marked). Every break in holding it is a lapse.
  it('2025-11-25: the client\'s own unsubscribe, then a subscribe again without a read, is a lapse too', () => {
    for (const reread of [false, true]) {
      const { log, c, unsubSeq } = resubscribedAfterLapse();
      if (reread) c.read(POLICY, 'v1');
      const found = uriGaps(log, log.t + 60_000);
      expect(brief(found, 'info'), `re-read: ${reread}`).toEqual(reread ? [] : [`resume-gap ${POLICY} subscription-lapsed info`]);
      if (!reread) expect(found[0]!.detail).toMatch(new RegExp(`^subscribed again in S1 \\(seq \\d+\\) after it was unsubscribed at seq ${unsubSeq - 1}: `));
    }
  });

  it('2026-07-28: a listen the client closed, then a new listen with the URI and no read, is a lapse', () => {
    for (const reread of [false, true]) {
      const log = new FrameLog();
      const c = new ModernClient(log, URL);
      c.discover();
      c.read(POLICY, 'v1');
      const l = c.listen([POLICY]);
      log.wait(500);
      c.cancel(l);
      log.wait(1500);
      c.listen([POLICY]);
      if (reread) c.read(POLICY, 'v1');
      const found = uriGaps(log, log.t + 60_000);
      expect(brief(found, 'info'), `re-read: ${reread}`).toEqual(reread ? [] : [`resume-gap ${POLICY} subscription-lapsed info`]);
      if (!reread) expect(found[0]!.detail).toMatch(/ after its listen was closed at seq \d+: /);
    }
  });

  it('2026-07-28: a URI left out of a new listen, and asked for by a later one, is a lapse from the drop', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'v1');
    c.read(FAQ, 'f1');
    c.listen([POLICY, FAQ]).drop();
    const dropSeq = log.frames.at(-1)!.seq;
    log.wait(500);
    c.listen([FAQ]);
    c.read(FAQ, 'f1');
    log.wait(1500);
    c.listen([POLICY]);
    const found = uriGaps(log, log.t + 60_000);
    expect(brief(found, 'info')).toEqual([`resume-gap ${POLICY} subscription-lapsed info`]);
    expect(found[0]!.evidence[0]).toBe(dropSeq);
  });

  it('2025-11-25: a subscribe again that failed once and was retried names both', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    log.wait(1000);
    c.initialize({ sessionId: 'S2' });
    c.begin('resources/subscribe', { uri: POLICY }).fail(-32603, 'busy');
    const failSeq = log.frames.at(-1)!.seq - 1;
    log.wait(1000);
    c.subscribe(POLICY);
    const [f, ...rest] = uriGaps(log, log.t + 60_000);
    expect(rest).toEqual([]);
    expect([f!.reason, f!.severity]).toEqual(['subscription-lapsed', 'info']);
    expect(f!.detail).toMatch(new RegExp(`after its subscription was lost at seq \\d+, then subscribe failed at seq ${failSeq}: `));
  });

  it('a catch-up read that finds the content changed says so in the lapse\'s history (no missed-update: nothing held it)', () => {
    const { log, c } = resubscribedAfterLapse();
    log.wait(100);
    c.read(POLICY, 'v2');
    const reqSeq = log.frames.at(-4)!.seq;
    const all = run(log).findings(log.t + 60_000);
    expect(all.filter((f) => f.id === 'missed-update')).toEqual([]);
    const found = all.filter((f) => f.id === 'resume-gap' && f.uri !== undefined);
    // Read again promptly: the catch-up worked. Its own reason, title and words (not "subscribed again, not read again").
    expect(brief(found, 'info')).toEqual([`resume-gap ${POLICY} lapse-caught-up info`]);
    expect([found[0]!.open, found[0]!.severity]).toEqual([false, 'info']);
    expect(found[0]!.detail).toMatch(new RegExp(`; the read sent at seq ${reqSeq} found it changed \\(\\w{8}, 2 B → \\w{8}, 2 B\\): an update made while it was not subscribed was missed, and this read caught it up$`));
    expect(found[0]!.title).toBe(RESUME_REASONS['lapse-caught-up'].title);
    expect(found[0]!.explanation).toBe(RESUME_REASONS['lapse-caught-up'].explanation);
    expect(found[0]!.fix).toBe(RESUME_REASONS['lapse-caught-up'].fix);
    expect(found[0]!.title + found[0]!.explanation).not.toMatch(/not read again|has not read/);
  });

  it('a catch-up read sent past the grace that finds the content changed is lapse-reread-late: late, and the change missed', () => {
    const { log, c } = resubscribedAfterLapse();
    log.wait(5000);
    c.read(POLICY, 'v2');
    const found = run(log).findings(log.t + 60_000).filter((f) => f.id === 'resume-gap' && f.uri !== undefined);
    expect(brief(found, 'info')).toEqual([`resume-gap ${POLICY} lapse-reread-late info`]);
    expect(found[0]!.detail).toMatch(/; read again only [\d.]+ (?:ms|s) after it was subscribed again; the read sent at seq \d+ found it changed \(\w{8}, 2 B → \w{8}, 2 B\): an update made while it was not subscribed was missed$/);
    expect(found[0]!.title).toBe(RESUME_REASONS['lapse-reread-late'].title);
  });

  it('a lapse read again past the grace is lapse-reread-late, whose words say it was read again, late (not "not read again")', () => {
    // Found unchanged, or sent and not answered before the page went: read again either way, only late.
    for (const answered of [true, false]) {
      const start = new FrameLog();
      start.pageStart('http://localhost:8080/');
      const { log, c } = resubscribedAfterLapse(start);
      log.wait(5000);
      if (answered) c.read(POLICY, 'v1');
      else c.begin('resources/read', { uri: POLICY });
      log.wait(100);
      if (!answered) log.pageEnd('http://localhost:8080/');
      const found = run(log).findings(log.t + 60_000).filter((f) => f.id === 'resume-gap' && f.uri !== undefined);
      expect(brief(found, 'info'), `answered: ${answered}`).toEqual([`resume-gap ${POLICY} lapse-reread-late info`]);
      const f = found[0]!;
      expect(f.detail).toMatch(answered ? /; read again only 5\.\d s after it was subscribed again$/ : /; read again only 5\.\d s after it was subscribed again, not answered /);
      expect([f.title, f.explanation, f.fix]).toEqual([RESUME_REASONS['lapse-reread-late'].title, RESUME_REASONS['lapse-reread-late'].explanation, RESUME_REASONS['lapse-reread-late'].fix]);
      expect(f.title + f.explanation).not.toMatch(/not read again|has not read/);
    }
  });

  it('2026-07-28: a listen that dropped and was opened again', () => {
    for (const reread of [false, true]) {
      const log = new FrameLog();
      const c = new ModernClient(log, URL);
      c.discover();
      c.read(POLICY, 'v1');
      c.listen([POLICY]).drop();
      log.wait(1500);
      c.listen([POLICY]);
      if (reread) c.read(POLICY, 'v1');
      expect(lapses(log, log.t + 60_000), `re-read: ${reread}`).toEqual(reread ? [] : [`resume-gap ${POLICY} subscription-lapsed info`]);
    }
  });

  it('2026-07-28: the detail names the listen as the views do, `listen <request id>` (it said `in 4`, a bare number)', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'v1');
    c.listen([POLICY], { id: 3 }).drop();
    log.wait(1500);
    c.listen([POLICY], { id: 4 });
    const [f] = uriGaps(log, log.t + 60_000);
    expect([f!.reason, f!.session]).toEqual(['subscription-lapsed', '4']);
    expect(f!.detail).toMatch(/^subscribed again in listen 4 \(seq \d+\) after its subscription was lost at seq \d+: /);
    // `session:` still finds it by the listen's id.
    expect(findingSessions(f!, run(log).snapshot(log.t).sessions)).toContain('4');
  });
});

// Cases from a false-positive audit on real SDK traffic (2026-12-05): a client doing its part is not told it did not.
describe('a client catching up is not late', () => {
  it('a re-read sent at once and answered slowly is no late re-read (in flight, it holds the doubt off)', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    const p = c.beginRead(POLICY);
    expect(uriGaps(log, log.t + GRACE + 500)).toEqual([]);
    log.wait(3000);
    p.respond({ contents: [{ uri: POLICY, text: 'v2' }] });
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
  });

  it('a failed re-read lets the doubt wait again', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    c.beginRead(POLICY).fail(-32603, 'internal error');
    expect(uriGaps(log, log.t + GRACE + 500).map((f) => f.open)).toEqual([true]);
  });

  it('60 URIs read again one at a time from the moment the stream came back: none is late', () => {
    const uris = Array.from({ length: 60 }, (_, i) => `file:///docs/${i}.md`);
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log, uris);
    for (const u of uris) {
      log.wait(50);
      c.read(u, 'v1');
    }
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
    // One the loop leaves out is said, once the loop is over.
    const left = new FrameLog();
    const { c: c2 } = droppedWithoutResume(left, uris);
    for (const u of uris.slice(1)) {
      left.wait(50);
      c2.read(u, 'v1');
    }
    expect(uriGaps(left, left.t + 60_000).map((f) => f.uri)).toEqual([uris[0]]);
  });

  it('40 URIs subscribed again after a re-initialize, then read again in series: no note', () => {
    const uris = Array.from({ length: 40 }, (_, i) => `file:///docs/${i}.md`);
    const log = new FrameLog();
    const c = new StreamableClient(log, URL, '2025-11-25');
    c.initialize({ sessionId: 'S1' });
    for (const u of uris) {
      c.read(u, 'v1');
      c.subscribe(u);
    }
    log.wait(1000);
    c.initialize({ sessionId: 'S2' });
    for (const u of uris) {
      log.wait(20);
      c.subscribe(u);
    }
    for (const u of uris) {
      const p = c.beginRead(u);
      log.wait(60);
      p.respond({ contents: [{ uri: u, text: 'v1' }] });
    }
    expect(brief(uriGaps(log, log.t + 60_000), 'info')).toEqual([]);
  });

  it('resources/list with the cached lastModified answers a lapse (the version check the fix suggests); a changed one does not', () => {
    for (const [listed, expected] of [
      ['2026-01-01T00:00:00Z', []],
      ['2026-02-01T00:00:00Z', [`resume-gap ${POLICY} subscription-lapsed info`]],
    ] as const) {
      const log = new FrameLog();
      const c = new StreamableClient(log, URL, '2025-11-25');
      c.initialize({ sessionId: 'S1' });
      c.beginRead(POLICY).respond({ contents: [{ uri: POLICY, text: 'v1', annotations: { lastModified: '2026-01-01T00:00:00Z' } }] });
      c.subscribe(POLICY);
      log.wait(1000);
      c.initialize({ sessionId: 'S2' });
      c.subscribe(POLICY);
      c.list([{ uri: POLICY, name: 'policy', annotations: { lastModified: listed } }]);
      expect(brief(uriGaps(log, log.t + 60_000), 'info'), listed).toEqual(expected);
    }
  });
});

describe('which gap, and when delivery came back', () => {
  it('a resumed stream that drops again before a new event: the gap is the second drop, not the first (resumed) one', () => {
    const log = new FrameLog();
    const { c, first } = subscribedWithIds(log);
    first.close('failed');
    log.wait(500);
    const resumed = c.openGet({ lastEventId: first.lastId, ids: 'ev2' });
    c.read(POLICY, 'v2'); // read after the first gap: it was caught up then
    log.wait(500);
    resumed.close('failed');
    const secondDrop = log.frames.at(-1)!;
    log.wait(500);
    c.openGet({ ids: 'ev3' });
    const [f, ...rest] = uriGaps(log, log.t + GRACE + 500);
    expect(rest).toEqual([]);
    expect([f!.reason, f!.firstT, f!.evidence[0]]).toEqual(['no-last-event-id', secondDrop.t, secondDrop.seq]);
    // The session's finding credits the id to the stream that delivered it, not to the resumed one that delivered
    // nothing (a real-SDK audit, 2026-12-05, get_double_drop: "the stream that ended at seq 32 had delivered up to…").
    const firstDrop = log.frames.find((x) => x.kind === 'http-end' && x.outcome === 'failed')!;
    const [s] = run(log).findings(log.t + GRACE + 500).filter((x) => x.id === 'resume-gap' && x.uri === undefined);
    expect(s!.detail).toBe(
      `the stream that ended at seq ${secondDrop.seq} resumed from event id ${first.lastId} (delivered by the stream that ended at seq ${firstDrop.seq}) and delivered no event of its own; the new GET sent no Last-Event-ID`,
    );
  });

  it('a resumed stream that delivered an event of its own before it dropped is credited with it', () => {
    const log = new FrameLog();
    const { c, first } = subscribedWithIds(log);
    first.close('failed');
    log.wait(500);
    const resumed = c.openGet({ lastEventId: first.lastId, ids: 'ev2' });
    resumed.updated(POLICY);
    c.read(POLICY, 'v2');
    resumed.close('failed');
    const secondDrop = log.frames.at(-1)!;
    log.wait(500);
    c.openGet({ ids: 'ev3' });
    const [s] = run(log).findings(log.t + GRACE + 500).filter((x) => x.id === 'resume-gap' && x.uri === undefined);
    expect(s!.detail).toBe(`the stream that ended at seq ${secondDrop.seq} had delivered up to event id ${resumed.lastId}; the new GET sent no Last-Event-ID`);
  });

  it('a per-request stream cut with the GET stream is not taken for the delivery stream (whichever reconnect comes first)', () => {
    const log = new FrameLog();
    const { c, p } = cutWithPerRequestStream(log);
    // The plain GET reconnect first, then the read's stream resumed.
    c.openGet();
    const resumed = c.openGet({ lastEventId: 'p-1', ids: 'q' });
    resumed.send(result(p.id, { contents: [{ uri: FAQ, text: 'v1' }] }));
    // The policy's doubt is the GET stream's (no ids: a note), not a warning about the read's stream.
    expect(brief(uriGaps(log, log.t + GRACE + 500), 'info')).toEqual([`resume-gap ${POLICY} no-event-ids info`]);
  });

  it('a GET answered 503 is no return: the retries that fail are not gaps of their own', () => {
    const log = new FrameLog();
    const { c, first } = subscribedWithIds(log);
    first.close('failed');
    log.wait(500);
    c.openGet({ status: 503 });
    log.wait(500);
    c.openGet({ status: 503 });
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
    log.wait(500);
    c.openGet({ ids: 'ev2' });
    const [f] = uriGaps(log, log.t + GRACE + 500);
    expect(f!.detail).not.toMatch(/gaps since/);
  });

  it('a GET that resumes correctly after one that was refused clears the doubt it would have raised', () => {
    const log = new FrameLog();
    const { c, first } = subscribedWithIds(log);
    first.close('failed');
    c.openGet({ status: 503 });
    log.wait(500);
    c.openGet({ lastEventId: first.lastId, ids: 'ev2' });
    expect(uriGaps(log, log.t + 60_000)).toEqual([]);
  });
});

describe('a catch-up read that finds the content changed', () => {
  it('is a missed-update whose detail points at the gap (where the notification most likely went); the doubt is settled', () => {
    const log = new FrameLog();
    const { c, dropSeq, backSeq } = droppedWithoutResume(log);
    log.wait(300);
    c.read(POLICY, 'v2');
    const found = run(log).findings(log.t + 60_000);
    expect(found.filter((f) => f.id === 'resume-gap' && f.uri !== undefined)).toEqual([]);
    const missed = found.find((f) => f.id === 'missed-update')!;
    expect(missed.detail).toContain(`; a delivery gap of S1 no stream resumed lies between them (seq ${dropSeq} to ${backSeq}): it was most likely lost there`);
  });
});

describe('the sessions a URI\'s doubt concerns', () => {
  it('one finding across a gap in S1 and a lapse in S2 names the latest (S2), and session:S1 still finds it', () => {
    const log = new FrameLog();
    const { c } = droppedWithoutResume(log);
    log.wait(3000); // the S1 doubt held past the grace
    c.begin('ping').httpStatus(404);
    c.initialize({ sessionId: 'S2' });
    c.subscribe(POLICY);
    const snap = run(log).snapshot(log.t + GRACE + 500);
    const [f, ...rest] = snap.findings.filter((x) => x.id === 'resume-gap' && x.uri === POLICY);
    expect(rest).toEqual([]);
    expect([f!.session, f!.reason, f!.count]).toEqual(['S2', 'subscription-lapsed', 2]);
    expect(findingSessions(f!, snap.sessions).sort()).toEqual(['S1', 'S2']);
  });
});
