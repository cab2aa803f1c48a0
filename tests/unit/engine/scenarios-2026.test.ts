// Failure modes of the 2026-07-28 generation (no sessions; subscriptions/listen), and of the legacy transports.
// Shapes follow @modelcontextprotocol/client|server 2.4 (see sdk-wire.test.ts for what they really send).
import { describe, expect, it } from 'vitest';
import { decodeMcpName } from '../../../shared/findings/protocol-checks.ts';
import { Engine } from '../../../shared/engine/index.ts';
import { brief, findingsAfter, run } from '../../support/analyze.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';
const FAQ = 'file:///docs/faq.md';

function modern(log: FrameLog) {
  const c = new ModernClient(log, URL);
  c.discover();
  c.read(POLICY, 'policy v1');
  c.read(FAQ, 'faq v1');
  return c;
}

/**
 * Two SDK clients of one page, each with its own listen:1; the capture begins between them (Clear, a trimmed log), and
 * the first client's listen then delivers an update that it re-reads. `skip`: the frames before the capture.
 */
function twoClientsCapturedBetween() {
  const log = new FrameLog();
  const a = new ModernClient(log, URL);
  a.discover();
  const la = a.listen([POLICY]);
  a.read(POLICY, 'a1');
  const skip = log.frames.length;
  const b = new ModernClient(log, URL);
  b.discover();
  const lb = b.listen([FAQ]);
  b.read(FAQ, 'b1');
  log.wait(500);
  la.updated(POLICY);
  a.read(POLICY, 'a2');
  return { log, skip, b, lb };
}

describe('2026-07-28 listen', () => {
  it('a URI refused in the acknowledgement', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY, FAQ], { accepted: [POLICY] });
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([`cached-not-subscribed ${FAQ} refused-in-ack warning`]);
    const s = e.snapshot(log.t).sessions.find((x) => x.kind === 'listen')!;
    expect(s).toMatchObject({ key: `doc-1 ${URL}|slisten:1`, open: true, subscriptions: [POLICY], requested: [POLICY, FAQ], deliveryChannelOpen: true });
  });

  it('a new client that reuses an ended listen\'s id opens another stream: its own key and label', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY]).complete();
    // A fresh SDK client on the page numbers its requests from the start again.
    const again = new ModernClient(log, URL);
    again.listen([POLICY]);
    const listens = run(log).snapshot(log.t).sessions.filter((x) => x.kind === 'listen');
    expect(listens.map((x) => [x.key, x.label, x.open])).toEqual([
      [`doc-1 ${URL}|slisten:1`, 'listen:1', false],
      [`doc-1 ${URL}|slisten:1 #2`, 'listen:1 #2', true],
    ]);
  });

  it('a client that closes its listen to reconnect and listens again for everything it caches counts as resubscribed', () => {
    const metrics = (relisten: string[]) => {
      const log = new FrameLog();
      const c = modern(log);
      c.cancel(c.listen([POLICY, FAQ]));
      c.discover();
      c.listen(relisten);
      return run(log).snapshot(log.t + 5000).metrics;
    };
    expect(metrics([POLICY, FAQ])).toMatchObject({ reconnects: 1, reconnectsResubscribed: 1, resubscribeShare: 1 });
    expect(metrics([POLICY])).toMatchObject({ reconnects: 1, reconnectsResubscribed: 0, resubscribeShare: 0 });
  });

  it('a client with two listens that re-opens both after a reconnect: one reconnect, fully resubscribed', () => {
    const log = new FrameLog();
    const c = modern(log);
    const a = c.listen([POLICY]);
    const b = c.listen([POLICY, FAQ]);
    c.cancel(a);
    c.cancel(b);
    log.wait(500);
    c.discover();
    c.listen([POLICY]);
    c.listen([POLICY, FAQ]);
    expect(run(log).snapshot(log.t + 5000).metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 1, resubscribeShare: 1 });
  });

  it('what two listens asked for counts, whichever closed last: a re-listen that leaves one URI out is not a full resubscribe', () => {
    for (const order of ['a-first', 'b-first']) {
      const log = new FrameLog();
      const c = modern(log);
      const a = c.listen([POLICY]);
      const b = c.listen([POLICY, FAQ]);
      for (const l of order === 'a-first' ? [a, b] : [b, a]) c.cancel(l);
      log.wait(500);
      c.listen([POLICY]);
      expect([order, run(log).snapshot(log.t + 5000).metrics]).toMatchObject([order, { reconnects: 1, reconnectsResubscribed: 0, resubscribeShare: 0 }]);
    }
  });

  it('two clients of one page whose listens share an id: both streams end when the page goes', () => {
    const log = new FrameLog();
    log.pageStart('http://localhost:8080/');
    const c = modern(log);
    c.listen([POLICY]);
    new ModernClient(log, URL).listen([FAQ]);
    expect(run(log).snapshot(log.t).metrics.activeListenStreams).toBe(2);
    log.pageEnd('http://localhost:8080/');
    const snap = run(log).snapshot(log.t);
    expect(snap.metrics.activeListenStreams).toBe(0);
    expect(snap.sessions.filter((x) => x.kind === 'listen').map((x) => [x.label, x.open])).toEqual([
      ['listen:1', false],
      ['listen:1 #2', false],
    ]);
  });

  it('two clients of one page whose listens share an id: what arrives on each stream is that stream\'s', () => {
    const log = new FrameLog();
    const c = modern(log);
    const other = new ModernClient(log, URL);
    const first = c.listen([POLICY], { ack: false });
    const second = other.listen([FAQ], { ack: false });
    // The first stream's acknowledgement and update come after the second listen was sent; then the second drops.
    first.ack([POLICY]);
    second.ack([FAQ]);
    first.updated(POLICY);
    c.read(POLICY, 'policy v2');
    second.drop();
    const e = run(log);
    const listens = e.snapshot(log.t).sessions.filter((x) => x.kind === 'listen');
    expect(listens.map((x) => [x.label, x.open, x.subscriptions, x.endCause ?? null])).toEqual([
      ['listen:1', true, [POLICY], null],
      ['listen:1 #2', false, [FAQ], 'dropped'],
    ]);
    // The update on the first stream is that stream's (not unsolicited on the second).
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([`cached-not-subscribed ${FAQ} lost-with-stream error`, `phantom-subscription ${FAQ} - error`]);
  });

  it('two clients of one page whose listens share an id: the first stream\'s drop, failure or server cancel ends the first', () => {
    const ends = (how: 'drop' | 'fail' | 'cancel') => {
      const log = new FrameLog();
      const c = modern(log);
      const first = c.listen([POLICY]);
      new ModernClient(log, URL).listen([FAQ]);
      if (how === 'drop') first.drop();
      else if (how === 'fail') log.httpEnd(first.conn, 'failed', 'body');
      else first.notify('notifications/cancelled', { requestId: first.id });
      return run(log)
        .snapshot(log.t)
        .sessions.filter((x) => x.kind === 'listen')
        .map((x) => [x.label, x.open]);
    };
    for (const how of ['drop', 'fail', 'cancel'] as const) {
      expect(ends(how)).toEqual([
        ['listen:1', false],
        ['listen:1 #2', true],
      ]);
    }
  });

  it('an abrupt listen close (no resultType: complete): phantom + lost with the stream', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY]);
    l.updated(POLICY);
    c.read(POLICY, 'policy v2');
    l.drop('failed');
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([
      `cached-not-subscribed ${FAQ} never-subscribed warning`,
      `cached-not-subscribed ${POLICY} lost-with-stream error`,
      `phantom-subscription ${POLICY} - error`,
    ]);
    expect(e.snapshot(log.t).sessions.at(-1)).toMatchObject({ open: false, endCause: 'dropped' });
  });

  it('a graceful end the client does not act on is the same blind spot', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY, FAQ]).complete();
    const e = run(log);
    expect(brief(findingsAfter(e, 3000)).filter((x) => x.includes(POLICY))).toEqual([
      `cached-not-subscribed ${POLICY} lost-with-stream error`,
      `phantom-subscription ${POLICY} - error`,
    ]);
    expect(e.snapshot(log.t).sessions.at(-1)).toMatchObject({ endCause: 'graceful-close' });
  });

  it('the SDK\'s own list-changed listen after a reconnect is no re-listen: the dropped subscription stays an error', () => {
    const log = new FrameLog();
    const c = modern(log);
    const auto = c.listenListChanged();
    const l = c.listen([POLICY, FAQ]);
    l.drop();
    auto.drop();
    log.wait(500);
    c.discover();
    // ClientOptions.listChanged: connect() opens it again by itself; the app never listens for its resources again.
    c.listenListChanged();
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([
      `cached-not-subscribed ${FAQ} lost-with-stream error`,
      `cached-not-subscribed ${POLICY} lost-with-stream error`,
      `phantom-subscription ${FAQ} - error`,
      `phantom-subscription ${POLICY} - error`,
    ]);
    const snap = e.snapshot(log.t + 3000);
    expect(snap.metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 0 });
    expect(snap.uris.find((u) => u.uri === POLICY)).toMatchObject({ clientBelievesSubscribed: true });
    expect(snap.sessions.filter((x) => x.kind === 'listen').map((x) => x.requested)).toEqual([undefined, [POLICY, FAQ], undefined]);
  });

  it('the SDK\'s list-changed listen, then the app\'s re-listen after the grace: one reconnect, fully resubscribed', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listenListChanged();
    c.listen([POLICY, FAQ]).drop();
    log.wait(500);
    c.listenListChanged();
    log.wait(5000);
    c.listen([POLICY, FAQ]);
    const e = run(log);
    // Five seconds without a subscription were a real loss: said, and resolved by the re-listen. What the cache holds
    // may have changed then, announced to nobody: a note on each URI until it is read again (uri-gap-doubt.test.ts).
    expect(brief(findingsAfter(e, 3000).filter((f) => f.open), 'info')).toEqual([
      `resume-gap ${FAQ} subscription-lapsed info`,
      `resume-gap ${POLICY} subscription-lapsed info`,
    ]);
    expect(e.snapshot(log.t).metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 1 });
    expect(e.snapshot(log.t).uris.find((u) => u.uri === POLICY)).toMatchObject({ clientBelievesSubscribed: true, serverHasSubscription: true });
  });

  it('a list-changed listen that drops alone while the resource listen stays open is no reconnect', () => {
    const log = new FrameLog();
    const c = modern(log);
    const auto = c.listenListChanged();
    c.listen([POLICY, FAQ]);
    auto.drop();
    log.wait(500);
    c.listenListChanged();
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([]);
    expect(e.snapshot(log.t).metrics).toMatchObject({ reconnects: 0 });
  });

  it('a re-listen that drops a cached URI', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY, FAQ]).drop();
    log.wait(500);
    c.listen([POLICY]);
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual([`cached-not-subscribed ${FAQ} dropped-on-relisten warning`]);
    expect(e.snapshot(log.t).metrics).toMatchObject({ reconnects: 1, reconnectsResubscribed: 0 });
  });

  it('the page closes its listen (abort + notifications/cancelled) but keeps the cache: unsubscribed', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY, FAQ]);
    c.cancel(l);
    expect(brief(findingsAfter(run(log), 3000))).toEqual([
      `cached-not-subscribed ${FAQ} unsubscribed warning`,
      `cached-not-subscribed ${POLICY} unsubscribed warning`,
    ]);
  });

  it('ttlMs exceeded', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'v1', { ttlMs: 30_000, cacheScope: 'public' });
    c.listen([POLICY]);
    const e = run(log);
    expect(brief(findingsAfter(e, 20_000), 'info')).toEqual([]);
    // Listening, with the stream open: the server would have notified a change, so past its ttlMs the entry is only
    // worth a look (info) — an idle, healthy subscribed client is not serving stale content (the false-positive guard).
    const f = findingsAfter(e, 40_000);
    expect(brief(f, 'info')).toEqual([`cache-age-exceeded ${POLICY} ttl info`]);
    expect(f[0]!.detail).toBe('cached 40 s ago; expected at most 30 s (ttl); subscribed with a channel open, so a change would have been notified');
    const row = e.snapshot(e.lastT! + 40_000).uris[0]!;
    expect(row).toMatchObject({ ttlMs: 30_000, cacheScope: 'public', expectedMaxAgeMs: 30_000, expectedMaxAgeSource: 'ttl', status: 'info' });
  });

  it('ttlMs exceeded with no listen to tell of a change: a warning, kept as history once re-read', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    c.read(POLICY, 'v1', { ttlMs: 30_000, cacheScope: 'public' });
    const listen = c.listen([POLICY]);
    listen.drop();
    expect(brief(findingsAfter(run(log), 40_000))).toEqual([
      `cache-age-exceeded ${POLICY} ttl warning`,
      `cached-not-subscribed ${POLICY} lost-with-stream error`,
      `phantom-subscription ${POLICY} - error`,
    ]);
    // The re-read ends it: the 10 s it spent past the ttl stay (the timeline shades them; the CLI's --fail-on counts them).
    log.wait(40_000);
    c.read(POLICY, 'v1', { ttlMs: 30_000, cacheScope: 'public' });
    const f = findingsAfter(run(log), 1000).filter((x) => x.id === 'cache-age-exceeded');
    expect(f.map((x) => [x.severity, x.open, Math.round((x.lastT - x.firstT) / 1000)])).toEqual([['warning', false, 10]]);
  });

  it('a ttlMs long exceeded while listening, then a drop and a re-read: history only from the drop, not a warning for it all', () => {
    /** Listening 29 min past a 30 s ttlMs, then the listen drops and the client re-reads `after` ms later. */
    const dropThenReread = (after: number) => {
      const log = new FrameLog();
      const c = new ModernClient(log, URL);
      c.discover();
      c.read(POLICY, 'v1', { ttlMs: 30_000, cacheScope: 'public' });
      const listen = c.listen([POLICY]);
      log.wait(29 * 60_000);
      listen.drop();
      log.wait(after);
      c.read(POLICY, 'v1', { ttlMs: 30_000, cacheScope: 'public' });
      return findingsAfter(run(log), 1000).filter((x) => x.id === 'cache-age-exceeded' && x.severity === 'warning');
    };
    // 29 healthy minutes were info; a second without a listen is within the grace: no warning recorded.
    expect(dropThenReread(1000)).toEqual([]);
    // Three seconds without one are.
    expect(dropThenReread(3000).map((x) => [x.open, Math.round((x.lastT - x.firstT) / 1000)])).toEqual([[false, 3]]);
  });

  it('ttlMs 0 (the SDK default when the server sets none) is not a freshness bound', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY, FAQ]);
    const e = run(log);
    expect(brief(findingsAfter(e, 60_000))).toEqual([]);
    expect(e.snapshot(e.lastT! + 60_000).uris[0]!.expectedMaxAgeSource).toBe('default');
  });

  it('listen without the server capability', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover({ resources: {} });
    c.listen([POLICY], { accepted: [] });
    expect(brief(findingsAfter(run(log), 3000))).toEqual([`subscribe-unsupported ${POLICY} not-advertised warning`]);
  });

  it('missing Mcp-Method / MCP-Protocol-Version on a 2026 request', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.sendHeaders = false;
    c.discover();
    const f = findingsAfter(run(log), 3000);
    expect(brief(f)).toEqual(['protocol-header-missing - missing warning']);
    expect(f[0]!.detail).toMatch(/MCP-Protocol-Version and Mcp-Method/);
    c.read(POLICY, 'v1');
    expect(findingsAfter(run(log), 3000).map((x) => x.detail)).toContain('resources/read sent without MCP-Protocol-Version, Mcp-Method and Mcp-Name');
  });

  it('a 2026 request whose MCP-Protocol-Version differs from its body\'s _meta version', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.versionHeader = '2025-11-25';
    c.discover();
    const f = findingsAfter(run(log), 3000).filter((x) => x.id === 'protocol-header-missing');
    expect(f.map((x) => `${x.reason} ${x.detail}`)).toEqual(['mismatch header says 2025-11-25, _meta says 2026-07-28']);
  });

  it('Mcp-Name on a 2026 read: missing or not mirroring params.uri is said; a base64 sentinel or a redacted value is not', () => {
    const verdict = (mcpNameOf: (v: string) => string | undefined, uri = POLICY) => {
      const log = new FrameLog();
      const c = new ModernClient(log, URL);
      c.discover();
      c.mcpNameOf = mcpNameOf;
      c.read(uri, 'v1');
      return findingsAfter(run(log), 3000)
        .filter((f) => f.id === 'protocol-header-missing')
        .map((f) => `${f.reason} ${f.detail}`);
    };
    expect(verdict(() => undefined)).toEqual([`missing resources/read sent without Mcp-Name`]);
    expect(verdict(() => FAQ)).toEqual([`mismatch Mcp-Name says ${FAQ}, params.uri is ${POLICY}`]);
    expect(verdict(() => '=?base64?!!?=')).toEqual(['mismatch Mcp-Name =?base64?!!?= is not valid base64']);
    const odd = 'file:///docs/café menu.md';
    expect(verdict(() => `=?base64?${Buffer.from(odd).toString('base64')}?=`, odd)).toEqual([]);
    expect(verdict((v) => ` ${v}\t`)).toEqual([]);
    expect(verdict(() => '[redacted:0123abcd]')).toEqual([]);
    // As the SDK server decodes: an empty sentinel is the empty string.
    expect([decodeMcpName('=?base64?='), decodeMcpName('=?base64?YQ==?='), decodeMcpName('=?base64?YQ?=')]).toEqual(['', 'a', undefined]);
  });

  it('an update whose subscriptionId names a listen that did not ask for it', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY]);
    l.updated(FAQ);
    expect(brief(findingsAfter(run(log), 3000), 'info')).toContain(`unsolicited-update ${FAQ} - info`);
  });

  it('falling back from 2026 to a 2025 session on the same endpoint is a version regression', () => {
    const log = new FrameLog();
    new ModernClient(log, URL).discover();
    new StreamableClient(log, URL, '2025-11-25').initialize({ sessionId: 'S1' });
    expect(brief(findingsAfter(run(log), 0))).toEqual(['version-regression - - warning']);
  });

  it('a listen waiting for its acknowledgement is a subscribe in flight: neither phantom nor missing, at any point', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY], { ack: false });
    log.wait(3000);
    // Nothing is said while the SDK's listen() still waits (it gives the server 60 s), and nothing afterwards either.
    expect(brief(findingsAfter(run(log), 0)).filter((x) => x.includes(POLICY))).toEqual([]);
    l.ack([POLICY]);
    expect(brief(findingsAfter(run(log), 3000)).filter((x) => x.includes(POLICY))).toEqual([]);
  });

  it('a listen that ends before any acknowledgement failed: the client was told, so no phantom and not "never subscribed"', () => {
    const end = (how: (l: ReturnType<ModernClient['listen']>) => void) => {
      const log = new FrameLog();
      const c = modern(log);
      const l = c.listen([POLICY], { ack: false });
      log.wait(100);
      how(l);
      const e = run(log);
      return { findings: brief(findingsAfter(e, 3000)).filter((x) => x.includes(POLICY)), metrics: e.snapshot(log.t).metrics };
    };
    for (const how of [(l: ReturnType<ModernClient['listen']>) => l.drop('failed'), (l: ReturnType<ModernClient['listen']>) => l.drop('complete'), (l: ReturnType<ModernClient['listen']>) => l.complete()]) {
      const { findings, metrics } = end(how);
      expect(findings).toEqual([`cached-not-subscribed ${POLICY} subscribe-failed warning`]);
      expect(metrics).toMatchObject({ subscribeFailed: 1, subscribeSucceeded: 0 });
    }
  });

  it('a listen the client gives up on before any acknowledgement (the SDK\'s ack timeout) failed: not "unsubscribed"', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY], { ack: false });
    log.wait(60_000);
    const abort = log.frames.length;
    c.cancel(l);
    const e = run(log);
    // 60 s with no acknowledgement is past the 30 s a listen in flight is excused for (docs/engine.md, A request in
    // flight): the belief it held without a subscription is history from the send to the give-up (until 2026-12-05 an
    // unanswered request was excused however long it went unanswered).
    const f = findingsAfter(e, 3000).filter((x) => x.uri === POLICY);
    expect(brief(f)).toEqual([`cached-not-subscribed ${POLICY} subscribe-failed warning`, `phantom-subscription ${POLICY} - error`]);
    expect(f.find((x) => x.id === 'phantom-subscription')).toMatchObject({ open: false, lastT: log.frames[abort]!.t });
    expect(e.snapshot(log.t).metrics).toMatchObject({ subscribeFailed: 1, subscribeSucceeded: 0 });
  });

  it('a re-listen and a catch-up read after the listen dropped: the change came while nothing held it, no missed update (the lapse\'s note says it)', () => {
    const log = new FrameLog();
    const c = modern(log);
    const l = c.listen([POLICY]);
    log.wait(60_000);
    l.updated(POLICY);
    log.wait(10);
    c.read(POLICY, 'policy v2');
    log.wait(300);
    l.drop('failed');
    log.wait(1000);
    c.discover();
    c.listen([POLICY]);
    c.read(POLICY, 'policy v3');
    const e = run(log);
    // Not a missed-update; the lapse the catch-up read settled is history, saying the read found the change.
    const found = findingsAfter(e, 3000).filter((f) => f.uri === POLICY);
    expect(brief(found, 'info')).toEqual([`resume-gap ${POLICY} lapse-caught-up info`]);
    expect(found[0]!.detail).toMatch(/; the read sent at seq \d+ found it changed \(\w{8}, 9 B → \w{8}, 9 B\): an update made while it was not subscribed was missed, and this read caught it up$/);
    expect(e.snapshot(log.t).metrics).toMatchObject({ updatesDroppedInferred: 1 });
  });

  it('read then listen: the order counts when the listen was sent within the grace after the read, however late it was acknowledged', () => {
    // As resources/subscribe on 2025-11-25 (scenarios-2025): judged by the acknowledgement, one that came past the
    // grace left the later changed read with no finding at all.
    const changedRead = (ackAfter: number) => {
      const log = new FrameLog();
      const c = modern(log);
      const l = c.listen([POLICY], { ack: false });
      log.wait(ackAfter);
      l.ack([POLICY]);
      log.wait(5000);
      c.read(POLICY, 'policy v2');
      return brief(findingsAfter(run(log), 2500), 'info').filter((f) => f.startsWith('missed-update'));
    };
    expect(changedRead(100)).toEqual([`missed-update ${POLICY} - warning`]);
    expect(changedRead(3000)).toEqual([`missed-update ${POLICY} - warning`]);
  });

  it('a change read on a subscription that held all along is still a missed update', () => {
    const log = new FrameLog();
    const c = modern(log);
    c.listen([POLICY]);
    log.wait(1000);
    c.read(POLICY, 'policy v2');
    expect(brief(findingsAfter(run(log), 3000)).filter((x) => x.includes(POLICY))).toEqual([`missed-update ${POLICY} - warning`]);
  });

  it('a discover that does not offer the version asked for, then initialize on 2025-11-25, is ordinary negotiation', () => {
    const log = new FrameLog();
    new ModernClient(log, URL).begin('server/discover', {}).respond({ supportedVersions: ['2027-03-01', '2025-11-25'], capabilities: { resources: { subscribe: true } } });
    new StreamableClient(log, URL, '2025-11-25').initialize({ sessionId: 'S1' });
    expect(brief(findingsAfter(run(log), 0), 'info')).toEqual([]);
  });

  it('a capture that begins after the listen (Clear, a trimmed log): the stream is the client\'s listen, picked up mid-way, and what it delivers is held', () => {
    const log = new FrameLog();
    const c = new ModernClient(log, URL);
    c.discover();
    const l = c.listen([POLICY]);
    const skip = log.frames.length;
    c.read(POLICY, 'policy v1');
    log.wait(1000);
    l.updated(POLICY);
    log.wait(10);
    c.read(POLICY, 'policy v2');
    log.wait(5000);
    c.read(POLICY, 'policy v2');
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([]);
    const snap = e.snapshot(log.t + 3000);
    expect(snap.uris.map((u) => [u.endpoint, u.uri, u.serverHasSubscription, u.notifications])).toEqual([[URL, POLICY, true, 1]]);
    expect(snap.sessions.map((s) => [s.kind, s.label, s.open, s.observedFromStart, s.subscriptions])).toEqual([['listen', 'listen:1', true, false, [POLICY]]]);
    expect(snap.streams.map((s) => [s.kind, s.endpoint, s.open])).toEqual([['listen', URL, true]]);
    // A URI it caches and no update came for yet: maybe asked for, not seen: a note, not "never subscribed".
    c.read(FAQ, 'faq v1');
    const noted = new Engine();
    noted.applyAll(log.frames.slice(skip));
    expect(brief(findingsAfter(noted, 3000), 'info')).toEqual([`cached-not-subscribed ${FAQ} not-seen-subscribing info`]);
    // The stream drops later: what it held is lost with it, as for a listen seen from its start.
    l.drop('failed');
    const after = new Engine();
    after.applyAll(log.frames.slice(skip));
    expect(brief(findingsAfter(after, 3000)).filter((x) => x.includes(POLICY))).toEqual([`cached-not-subscribed ${POLICY} lost-with-stream error`]);
  });

  it('two clients of one page whose listens share an id, the capture begun between them: the first\'s stream is adopted as its own', () => {
    const { log, skip } = twoClientsCapturedBetween();
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(brief(findingsAfter(e, 3000), 'info')).toEqual([]);
    expect(e.snapshot(log.t).sessions.map((x) => [x.label, x.open, x.observedFromStart, x.subscriptions])).toEqual([
      ['listen:1', true, true, [FAQ]],
      ['listen:1 #2', true, false, [POLICY]],
    ]);
  });

  it('the first client\'s adopted listen keeps out of the second\'s way: the second cancelling its listen:1 ends its own', () => {
    const { log, skip, b, lb } = twoClientsCapturedBetween();
    log.wait(100);
    b.cancel(lb);
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(e.snapshot(log.t).sessions.map((x) => [x.label, x.open])).toEqual([
      ['listen:1', false],
      ['listen:1 #2', true],
    ]);
    expect(brief(findingsAfter(e, 3000)).filter((x) => x.includes(POLICY))).toEqual([]);
  });

  it('a page speaking both generations: a kept stream whose events read as 2026 is not taken for the 2025 GET stream', () => {
    const log = new FrameLog();
    const m = new ModernClient(log, 'http://localhost:3001/mcp');
    m.discover();
    const call = m.begin('tools/call', { name: 'slow' });
    log.httpResponse(call.conn, 200, m.url, { 'content-type': 'text/event-stream' });
    const skip = log.frames.length;
    const s2 = new StreamableClient(log, URL, '2025-11-25');
    s2.initialize({ sessionId: 'S1' });
    s2.read(POLICY, 'v1');
    m.discover();
    log.sseEvent(call.conn, JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { resultType: 'complete', content: [] } }), { event: 'message' });
    const e = new Engine();
    e.applyAll(log.frames.slice(skip));
    expect(e.snapshot(log.t).streams.filter((x) => x.kind === 'get')).toEqual([]);
  });

  it('a probe the server does not understand, then initialize, is ordinary negotiation', () => {
    const log = new FrameLog();
    new ModernClient(log, URL).begin('server/discover', {}).fail(-32601, 'Method not found');
    new StreamableClient(log, URL, '2025-11-25').initialize({ sessionId: 'S1' });
    expect(brief(findingsAfter(run(log), 0), 'info')).toEqual([]);
  });
});

describe('legacy transports', () => {
  /** What a session's end leaves for demo://1 when nothing subscribes it again. */
  const LOST_ON_REINIT = ['cached-not-subscribed demo://1 lost-on-reinit error', 'phantom-subscription demo://1 - error'];

  /** A legacy client that initialized, cached and subscribed demo://1 on session `a`; then its stream dropped. */
  function subscribedThenDropped(via: 'fetch' | 'eventsource'): { log: FrameLog; c: LegacySseClient } {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse', via);
    c.connect('a');
    c.initialize();
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    c.call('resources/subscribe', { uri: 'demo://1' });
    c.drop();
    return { log, c };
  }

  it('HTTP+SSE: the stream drops, the client reconnects and re-initializes without resubscribing', () => {
    const { log, c } = subscribedThenDropped('fetch');
    c.connect('b');
    c.initialize();
    expect(brief(findingsAfter(run(log), 3000))).toEqual(LOST_ON_REINIT);
  });

  /** An EventSource client subscribed on `a` whose stream drops and, 3 s later, reconnects by itself to `b`. */
  function reconnectedBySelf(): { log: FrameLog; c: LegacySseClient } {
    const { log, c } = subscribedThenDropped('eventsource');
    log.wait(3000);
    c.connect('b');
    return { log, c };
  }

  it('HTTP+SSE: the EventSource reconnects by itself to a new session and the client posts there without initializing', () => {
    // What the SDK's SSEClientTransport does: it follows the new endpoint event silently.
    const { log, c } = reconnectedBySelf();
    log.wait(1000);
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'y' }] });
    const e = run(log);
    const found = findingsAfter(e, 5000);
    expect(brief(found)).toEqual([
      ...LOST_ON_REINIT,
      'session-expired-not-reinitialized - stream-reconnected error',
    ]);
    const expired = found.find((f) => f.id === 'session-expired-not-reinitialized')!;
    expect(expired.detail).toBe('session a ended (transport-closed) and its stream reconnected to the new session b; 1 request(s) used that session, no initialize followed');
    // Evidence: the old stream's end, the new endpoint event, the read posted to the new session.
    const endpoint = log.frames.filter((f) => f.kind === 'sse-event' && f.event === 'endpoint').at(-1)!.seq;
    const read = log.frames.filter((f) => f.kind === 'http-request').at(-1)!.seq;
    expect(expired.evidence.slice(1)).toEqual([endpoint, read]);
    const snap = e.snapshot(log.t + 5000);
    expect(snap.sessions.map((s) => [s.key, s.endCause ?? 'open', s.notInitialized ?? false])).toEqual([
      ['a', 'transport-closed', false],
      ['b', 'open', true],
    ]);
    expect([snap.metrics.reconnects, snap.metrics.reconnectsResubscribed, snap.metrics.resubscribeShare]).toEqual([1, 0, 0]);
    // The changed read while nothing was subscribed: an update the server had nobody to send to.
    expect(snap.metrics.updatesDroppedInferred).toBe(1);
    const row = snap.uris.find((r) => r.uri === 'demo://1')!;
    expect(snap.flow.perUri[row.key]!.path.map((x) => x.node).join('')).toMatch(/NOP.*QM$/);
  });

  it('HTTP+SSE: reconnected by itself, then nothing: the finding waits out the grace', () => {
    const { log } = reconnectedBySelf();
    const e = run(log);
    expect(brief(e.findings(log.t + 100)).filter((x) => x.startsWith('session-expired'))).toEqual([]);
    expect(brief(findingsAfter(e, 5000)).filter((x) => x.startsWith('session-expired'))).toEqual(['session-expired-not-reinitialized - stream-reconnected error']);
  });

  it('HTTP+SSE: reconnected by itself and initialized only after the grace: said, and then healthy', () => {
    const { log, c } = reconnectedBySelf();
    log.wait(5000);
    c.initialize();
    c.call('resources/subscribe', { uri: 'demo://1' });
    const e = run(log);
    const found = findingsAfter(e, 5000);
    // True for those 5 s: kept as history, as every finding that resolved.
    expect(brief(found)).toEqual([
      ...LOST_ON_REINIT,
      'session-expired-not-reinitialized - stream-reconnected error',
    ]);
    expect(found.filter((f) => f.uri !== undefined && f.severity !== 'info').map((f) => f.open)).toEqual([false, false]);
    // Subscribed again, not read since: a note that an update in those 5 s was announced to nobody.
    expect(brief(found.filter((f) => f.severity === 'info'), 'info')).toEqual(['resume-gap demo://1 subscription-lapsed info']);
    expect(found.find((f) => f.id === 'session-expired-not-reinitialized')!.detail).toMatch(/^re-initialized only after 5\.\d s$/);
    const snap = e.snapshot(log.t + 5000);
    expect(snap.sessions.map((s) => [s.key, s.notInitialized ?? false])).toEqual([
      ['a', false],
      ['b', false],
    ]);
    expect([snap.metrics.reconnects, snap.metrics.reconnectsResubscribed]).toEqual([1, 1]);
  });

  it('HTTP+SSE: reconnected by itself and closed: at once and unused, nothing to say; used, it is history', () => {
    const quiet = reconnectedBySelf();
    quiet.log.wait(100);
    quiet.log.emit({ kind: 'es-close', conn: quiet.c.conn });
    expect(brief(findingsAfter(run(quiet.log), 5000)).filter((x) => x.startsWith('session-expired'))).toEqual([]);
    const used = reconnectedBySelf();
    used.c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    used.log.wait(100);
    used.log.emit({ kind: 'es-close', conn: used.c.conn });
    const found = findingsAfter(run(used.log), 5000).filter((f) => f.id === 'session-expired-not-reinitialized');
    expect(found.map((f) => [f.reason, f.open])).toEqual([['stream-reconnected', false]]);
    expect(found[0]!.detail).toMatch(/^session a ended \(transport-closed\) and its stream reconnected to the new session b; 1 request\(s\) used that session, and it closed [\d.]+ (?:ms|s) later, never initialized$/);
  });

  it('HTTP+SSE: a reconnected session that drops again before any initialize: the finding still names the first', () => {
    const { log, c } = reconnectedBySelf();
    log.wait(500);
    c.drop();
    log.wait(1000);
    c.connect('c');
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    const found = findingsAfter(run(log), 5000).filter((f) => f.id === 'session-expired-not-reinitialized');
    expect(found.map((f) => [f.session, f.open])).toEqual([['a', true]]);
    expect(found[0]!.detail).toBe('session a ended (transport-closed) and its stream reconnected to the new session c; 1 request(s) used that session, no initialize followed');
  });

  it('HTTP+SSE: a second stream while the first is open is not a reconnect', () => {
    const log = new FrameLog();
    const first = new LegacySseClient(log, 'http://localhost:3001/sse', 'fetch');
    first.connect('a');
    first.initialize();
    first.call('resources/subscribe', { uri: 'demo://1' });
    const second = new LegacySseClient(log, 'http://localhost:3001/sse', 'fetch');
    second.connect('b');
    const e = run(log);
    const snap = e.snapshot(log.t + 5000);
    expect(snap.metrics.reconnects).toBe(0);
    expect(snap.sessions.map((s) => s.key)).toEqual(['a']);
    expect(brief(findingsAfter(e, 5000))).toEqual([]);
  });

  it('WebSocket: closed and reopened without resubscribing', () => {
    const log = new FrameLog();
    const c = new WsClient(log, 'ws://localhost:3002/');
    c.connect();
    c.initialize();
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    c.call('resources/subscribe', { uri: 'demo://1' });
    c.close(false);
    c.connect();
    c.initialize();
    const e = run(log);
    expect(brief(findingsAfter(e, 3000))).toEqual(LOST_ON_REINIT);
    expect(e.snapshot(log.t).sessions.map((s) => s.endCause ?? 'open')).toEqual(['transport-closed', 'open']);
  });

  it('page unload ends everything and clears the cache: no lingering findings', () => {
    const log = new FrameLog();
    const c = new WsClient(log, 'ws://localhost:3002/');
    c.connect();
    c.initialize();
    c.call('resources/read', { uri: 'demo://1' }, { contents: [{ uri: 'demo://1', text: 'x' }] });
    log.wait(10_000);
    log.pageEnd('http://localhost:8080/');
    const e = run(log);
    const f = findingsAfter(e, 3000);
    // It was uncovered for 10 s before the unload: history, not open.
    expect(brief(f)).toEqual(['cached-not-subscribed demo://1 never-subscribed warning']);
    expect(f[0]!.open).toBe(false);
    expect(e.snapshot(log.t).uris).toEqual([]);
  });
});
