// The Sessions view's model against the engine: what each cell says agrees with the metrics and the engine's record.
import { describe, expect, it } from 'vitest';
import { channelCell, coveredLines, sessionEntries, sessionNotes, sessionStreamsDetail, startMark, streamsSummary, subscriptionsCell, versionText } from '../../../panel/model/sessions-view.ts';
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

describe('a session revived by its GET stream resuming', () => {
  // A review, 2026-12-05: the revive's restore of the via-parent coverage could go without any test failing.
  it('covers its sub-resources via the parent again (not as subscriptions of its own)', () => {
    const log = new FrameLog('d');
    const a = new StreamableClient(log, URL, '2025-11-25');
    a.initialize({ sessionId: 'S1' });
    const g = a.openGet({ ids: 'a' });
    a.read(POLICY, 'v1');
    a.subscribe(DOCS);
    g.updated(POLICY);
    a.read(POLICY, 'v2');
    log.sseEvent(g.conn, '', { id: 'a-9', retry: 300 });
    g.close('complete');
    // Another initialize on the endpoint: S1 ends by inference…
    new StreamableClient(log, URL, '2025-11-25').initialize({ sessionId: 'S2' });
    expect(run(log).snapshot(log.t).sessions.find((s) => s.key === 'S1')!.open).toBe(false);
    // …until its GET stream resumes: it is alive after all.
    log.wait(300);
    a.openGet({ lastEventId: 'a-9', ids: 'c' });
    const s = run(log).snapshot(log.t).sessions.find((x) => x.key === 'S1')!;
    expect(s.open).toBe(true);
    expect(s.subscriptions).toEqual([DOCS]);
    expect(s.coveredViaParent).toEqual([[POLICY, DOCS]]);
  });
});

describe('a session the reloaded page resumed (its stored Mcp-Session-Id, no initialize)', () => {
  function resumed(opts: { getFirst: boolean }) {
    const log1 = new FrameLog('doc-1');
    log1.pageStart('http://localhost:8080/');
    const c1 = new StreamableClient(log1, URL, '2025-06-18');
    c1.initialize({ sessionId: 'S1' });
    c1.openGet();
    c1.subscribe(POLICY);
    c1.read(POLICY, 'v1');
    log1.pageEnd('http://localhost:8080/');
    const log2 = new FrameLog('doc-2', log1.t + 10, log1.lastSeq);
    log2.pageStart('http://localhost:8080/');
    const c2 = new StreamableClient(log2, URL, '2025-06-18');
    c2.sessionId = 'S1';
    c2.negotiated = '2025-06-18';
    // The SDK opens the GET stream first on a resumed session (its start: no other request before it).
    if (opts.getFirst) c2.openGet();
    c2.read(POLICY, 'v2');
    log2.wait(100);
    const all = new FrameLog('x');
    all.frames.push(...log1.frames, ...log2.frames);
    return { snap: run(all).snapshot(log2.t), t: log2.t };
  }

  it('is told from the session it resumed, says why it has no initialize, and takes its version from the header', () => {
    for (const getFirst of [false, true]) {
      const { snap } = resumed({ getFirst });
      const entries = sessionEntries(snap);
      expect(entries.map((e) => [e.key, e.session.open, e.session.resumedFrom ?? null])).toEqual([
        ['S1 #2', true, 'S1'],
        ['S1', false, null],
      ]);
      // Two entries, two labels (the drawer's title is the same label).
      expect(new Set(entries.map((e) => e.label)).size).toBe(2);
      expect(entries[0]!.label).toBe('S1 (resumed #2)');
      expect(entries[1]!.label).toBe('S1');
      // Not "picked up mid-way, reload the page": the page resumed on purpose.
      const notes = sessionNotes(entries);
      expect(notes.map((n) => n.kind)).toEqual(['resumed']);
      expect(notes[0]!.text).toContain('resumed session S1 (no initialize: the page reused the stored id');
      expect(notes.map((n) => n.text).join(' ')).not.toMatch(/Reload/);
      expect(startMark(entries[0]!.session)).not.toBe(' *');
      // The version its requests carry in MCP-Protocol-Version, said to be from the header.
      expect(versionText(entries[0]!.session)).toBe('2025-06-18 (from header)');
      expect(versionText(entries[0]!.session, true)).toMatch(/^2025-06-18 \(from the MCP-Protocol-Version request header/);
      expect(versionText(entries[1]!.session)).toBe('2025-06-18');
      expect(entries[1]!.session.versionFromHeader).toBeUndefined();
    }
  });

  it('a session picked up mid-way (no earlier one with its id) keeps the mid-way note', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL, '2025-06-18');
    c.sessionId = 'S9';
    c.negotiated = '2025-06-18';
    c.read(POLICY, 'v1');
    const entries = sessionEntries(run(log).snapshot(log.t));
    expect(entries.map((e) => [e.label, e.session.resumedFrom ?? null])).toEqual([['S9', null]]);
    expect(sessionNotes(entries).map((n) => n.kind)).toEqual(['mid-way']);
    expect(sessionNotes(entries)[0]!.text).toMatch(/Reload the page/);
    expect(startMark(entries[0]!.session)).toBe(' *');
  });
});

describe('the Streams cell', () => {
  // An audit, 2026-12: SEP-1699 polling gave one session "get (complete), get (complete), …" 31 times (a 274 px row).
  it('sums a polling session up by kind and outcome; the drawer has the full list', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    for (let i = 0; i < 30; i++) {
      c.openGet().close('complete');
      log.wait(1000);
    }
    c.openGet();
    const snap = run(log).snapshot(log.t);
    const [e] = sessionEntries(snap);
    expect(e!.streams).toHaveLength(31);
    expect(e!.streamsText).toBe('get ×31 (1 open, 30 complete)');
    const lines = sessionStreamsDetail(snap, e!.session).split('\n');
    expect(lines).toHaveLength(31);
    expect(lines[0]).toMatch(/^get .* → .* \(complete\)$/);
    expect(lines.at(-1)).toMatch(/^get .* → open$/);
  });

  it('says so for a session whose closed streams the engine no longer keeps (not "—")', () => {
    const log = new FrameLog('d');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet().close('failed');
    c.openGet().close('aborted');
    log.wait(1000);
    c.initialize({ sessionId: 'S2' });
    // More closed streams than the engine keeps (STREAM_HISTORY): S1's are dropped.
    for (let i = 0; i < 450; i++) c.openGet().close('complete');
    const snap = run(log).snapshot(log.t);
    expect(snap.streamsKnownFrom).toBeDefined();
    const [s2, s1] = sessionEntries(snap);
    expect(s1!.key).toBe('S1');
    expect(s1!.streams).toEqual([]);
    expect(s1!.streamsText).toBe('earlier streams not kept');
    expect(sessionStreamsDetail(snap, s1!.session)).toBe('(earlier streams not kept: the engine keeps the latest closed streams only)');
    // S2 began before the oldest kept too: what is kept is summed, and the rest said to be gone.
    expect(s2!.streamsText).toMatch(/^earlier streams not kept; get ×\d+ \(\d+ complete\)$/);
    // A session with no long-lived stream at all, all of it kept, has none.
    const log2 = new FrameLog('d');
    new StreamableClient(log2, URL).initialize({ sessionId: 'S3' });
    expect(sessionEntries(run(log2).snapshot(log2.t))[0]!.streamsText).toBe('—');
  });

  it('groups by kind, a single stream as before', () => {
    const base = { endpoint: URL, openT: 0, openSeq: 0 };
    expect(streamsSummary([{ ...base, stream: 'a', kind: 'get', open: true }])).toBe('get');
    expect(streamsSummary([{ ...base, stream: 'a', kind: 'listen', open: false, outcome: 'failed' }])).toBe('listen (failed)');
    expect(
      streamsSummary([
        { ...base, stream: 'a', kind: 'get', open: false, outcome: 'failed' },
        { ...base, stream: 'b', kind: 'get', open: false, outcome: 'complete' },
        { ...base, stream: 'c', kind: 'get', open: false, outcome: 'complete' },
        { ...base, stream: 'd', kind: 'sse', open: true },
      ]),
    ).toBe('get ×3 (2 complete, 1 failed), sse');
  });
});

describe('the Channel column', () => {
  // A live review, 2026-12: an ended session read "none" in red, the look of a live session without a delivery
  // channel (a real problem).
  it('an ended session: a muted "—" titled "session ended"; a live one without a channel: "none" in red', () => {
    expect(channelCell({ open: false, deliveryChannelOpen: false })).toEqual({ text: '—', cls: 'muted', title: 'session ended' });
    expect(channelCell({ open: true, deliveryChannelOpen: false })).toMatchObject({ text: 'none', cls: 'no' });
    expect(channelCell({ open: true, deliveryChannelOpen: true })).toMatchObject({ text: 'open', cls: 'yes' });
  });
});
