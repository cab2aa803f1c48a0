// Rows that read alike but for their client, and sessions' names: the Findings view tells two clients' findings
// about one URI apart by the client's tag (as the URI table does), and only when there are two clients; a WebSocket's
// session is `WebSocket #n` and a 2026 listen `listen <request id>` wherever a session is named, and `session:` finds
// them by that name.
import { describe, expect, it } from 'vitest';
import { Engine, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { clientTags, findingClientTag, findingClientTags } from '../../../panel/model/client-tags.ts';
import { matchesMessage, matchesSession, matchesSessionView, parseFilter, type MessageContext } from '../../../panel/model/filter.ts';
import type { Frame } from '../../../shared/frames.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { WsClient } from '../../support/mcp-clients.ts';
import { FrameRows, type FrameRow } from '../../../panel/frame-rows.ts';
import { IncrementalMessageFilter } from '../../../panel/model/message-filter.ts';
import { findingDetail, findingMatches } from '../../../panel/model/findings-view.ts';
import { messageSessionName, nameSessionsIn, sessionIdNamer, sessionIdOn, sessionIdTitle, sessionLabel, sessionMention, sessionNames, shortSessionName, type SessionIdName } from '../../../panel/model/session-label.ts';
import { metricRows, sessionEntries } from '../../../panel/model/sessions-view.ts';
import { sessionLanes, sessionLaneTitle } from '../../../panel/model/timeline.ts';
import { filterRows, lastHolders, serverTitle } from '../../../panel/model/uri-table.ts';
import { middleId } from '../../../panel/model/format.ts';
import { oneClientLog, POLICY, reloadedLog, twoEndpointLog } from '../../support/two-clients.ts';
import { HELD, LISTENED, listenLog, PLAIN, REUSED, reusedListenLog, SDK_HELD } from '../../support/listen-log.ts';

function snapshotOf(frames: Parameters<Engine['applyAll']>[0], t: number): EngineSnapshot {
  const e = new Engine();
  e.applyAll(frames);
  return e.snapshot(t);
}

const twoEndpoints = (): EngineSnapshot => {
  const log = twoEndpointLog();
  return snapshotOf(log.frames, log.t);
};

describe('Findings view: the client of a finding', () => {
  it('two endpoints: each finding about the URI says its endpoint', () => {
    const snap = twoEndpoints();
    const tags = findingClientTags(snap);
    const policy = snap.findings.filter((f) => f.uri === POLICY && f.id === 'cached-not-subscribed');
    expect(policy).toHaveLength(2);
    expect(policy.map((f) => findingClientTag(tags, f)).sort()).toEqual(['localhost:3000/mcp', 'localhost:3002/ws']);
    // Once per snapshot's findings.
    expect(findingClientTags(snap)).toBe(tags);
  });

  it('a reload kept in the log: the two documents are told apart by their page', () => {
    const [page1, page2] = reloadedLog();
    const snap = snapshotOf([...page1!.frames, ...page2!.frames], page2!.t);
    const policy = snap.findings.filter((f) => f.uri === POLICY);
    expect(policy.map((f) => f.doc)).toEqual(['doc-1', 'doc-2']);
    const tags = findingClientTags(snap);
    // The first document unloaded: said so, not numbered (the table, which lists the live one only, has no `#1`).
    expect(policy.map((f) => findingClientTag(tags, f))).toEqual(['top page (unloaded)', 'top page']);
  });

  it('one client: no tag at all', () => {
    const log = oneClientLog();
    const snap = snapshotOf(log.frames, log.t);
    expect(snap.findings.length).toBeGreaterThan(0);
    expect(findingClientTags(snap).size).toBe(0);
    expect(snap.findings.map((f) => findingClientTag(findingClientTags(snap), f))).toEqual(snap.findings.map(() => ''));
  });
});

describe('a WebSocket session is named WebSocket #n, never by its connection id', () => {
  it('in the Sessions grid, the lanes, the Server tooltip; session: and free text find it by that name', () => {
    const snap = twoEndpoints();
    expect(sessionEntries(snap).map((e) => e.label).sort()).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
    expect(sessionLanes(snap.sessions, snap.streams, snap.now).map((l) => l.label)).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
    expect([...lastHolders(snap.sessions).values()].map((h) => h.name)).toEqual(['WebSocket #1']);
    const ids = (filter: string) => snap.findings.filter((f) => findingMatches(f, parseFilter(filter), snap.sessions)).map((f) => f.id).sort();
    expect(ids('session:"websocket #2"')).toEqual(['cached-not-subscribed', 'phantom-subscription']);
    expect(ids('"WebSocket #1 ended"')).toEqual(['cached-not-subscribed', 'phantom-subscription']);
    expect(filterRows(snap, parseFilter('session:"websocket #2"')).map((r) => r.endpoint)).toEqual(['ws://localhost:3002/ws']);
  });

  it('numbers the WebSockets in the order they connected; other ids stay as they are', () => {
    const snap = twoEndpoints();
    const ws = snap.sessions.filter((s) => s.transport === 'websocket');
    expect(ws.map((s) => s.label)).toEqual([expect.stringMatching(/^ws:/), expect.stringMatching(/^ws:/)]);
    const name = sessionIdNamer(snap.sessions);
    expect(ws.map((s) => name(s.label))).toEqual(['WebSocket #1', 'WebSocket #2']);
    expect(name('S1')).toBe('S1');
    expect(sessionIdNamer(snap.sessions)).toBe(name);
    expect(ws.map((s) => sessionLabel(s, name))).toEqual(['WebSocket #1', 'WebSocket #2']);
    // The Sessions grid, the timeline's lanes, the URI table's tooltip on who held a URI last, the metrics.
    expect(sessionEntries(snap).map((e) => e.label).sort()).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
    expect(sessionLanes(snap.sessions, snap.streams, snap.now).map((l) => l.label)).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
    expect([...lastHolders(snap.sessions).values()].map((h) => h.name)).toEqual(['WebSocket #1']);
    const perSession = metricRows(snap.metrics, name).find((m) => m.name === 'subscribedUrisPerSession')!;
    expect(perSession.value).toBe('S1: 0\nWebSocket #2: 0');
    // The engine's ids are unchanged.
    expect(ws[0]!.key).toBe(ws[0]!.label);
  });

  it('its tooltip, wherever a session is shown by name, is one text: the name and the id it stands for (sessionIdTitle)', () => {
    const snap = twoEndpoints();
    const name = sessionIdNamer(snap.sessions);
    const second = snap.sessions.filter((s) => s.transport === 'websocket')[1]!.label;
    expect(sessionIdTitle(second, name)).toBe(`WebSocket #2 (${second})`);
    // An id shown as it is: the id alone (no `S1 (S1)`).
    expect(sessionIdTitle('S1', name)).toBe('S1');
    expect(sessionIdTitle(second, (id) => id)).toBe(second);
    // The metrics' tooltip says it so (it built the text itself, as the Findings view's Session column did).
    const perSession = metricRows(snap.metrics, name).find((m) => m.name === 'subscribedUrisPerSession')!;
    expect(perSession.title).toBe(`S1: 0\n${sessionIdTitle(second, name)}: 0`);
  });

  it("a finding's session and the sessions its detail names", () => {
    const snap = twoEndpoints();
    const name = sessionIdNamer(snap.sessions);
    const lost = snap.findings.find((f) => f.id === 'cached-not-subscribed' && f.reason === 'lost-on-reinit')!;
    expect(name(lost.session!)).toBe('WebSocket #2');
    expect(lost.detail).toMatch(/^ws:\S+ ended/);
    expect(findingDetail(lost, name)).toMatch(/: WebSocket #1 ended \(transport-closed\)/);
    expect(findingDetail(lost, name)).not.toContain('ws:');
    expect(nameSessionsIn('held by ws:nobody, see ws://localhost:3002/ws', name)).toBe('held by ws:nobody, see ws://localhost:3002/ws');
  });

  it('session: finds a WebSocket by the name shown, in every view', () => {
    const snap = twoEndpoints();
    const name = sessionIdNamer(snap.sessions);
    const second = parseFilter('session:"websocket #2"');
    const first = parseFilter('session:"websocket #1"');
    // Sessions grid and lanes.
    expect(snap.sessions.filter((s) => matchesSessionView(second, s, name)).map((s) => sessionLabel(s, name))).toEqual(['WebSocket #2']);
    expect(sessionNames(snap.sessions[1]!, name)).toEqual([snap.sessions[1]!.label, 'WebSocket #1']);
    // Findings: by their own session, and by the session their detail names.
    const ids = (filter: ReturnType<typeof parseFilter>) => snap.findings.filter((f) => findingMatches(f, filter, snap.sessions)).map((f) => `${f.id} ${f.uri ?? ''}`).sort();
    expect(ids(second)).toEqual([`cached-not-subscribed ${POLICY}`, `phantom-subscription ${POLICY}`]);
    expect(ids(first)).toEqual([`cached-not-subscribed ${POLICY}`, `phantom-subscription ${POLICY}`]);
    expect(ids(parseFilter('"WebSocket #1 ended"'))).toHaveLength(2);
    // URI table: the WebSocket client's row.
    expect(filterRows(snap, second).map((r) => r.endpoint)).toEqual(['ws://localhost:3002/ws']);
    expect(filterRows(snap, parseFilter('session:s1')).map((r) => r.endpoint)).toEqual(['http://localhost:3000/mcp']);
  });
});

describe("the Messages view names a WebSocket's rows as the other views do", () => {
  const NONE: MessageContext = { staleUris: new Set(), phantomUris: new Set(), problemUris: new Set() };

  it('its rows are filed under the session id the engine gives the socket: shown and found as WebSocket #n', () => {
    const log = twoEndpointLog();
    const snap = snapshotOf(log.frames, log.t);
    const name = sessionIdNamer(snap.sessions);
    const rows = new FrameRows();
    for (const f of log.frames) rows.add(f);
    const ws = rows.rows.filter((r) => r.transport === 'WebSocket');
    // Every socket's row, its connect row too, names its session as the Sessions view does (it was the bare connection id).
    expect([...new Set(ws.map((r) => name(r.session)))]).toEqual(['WebSocket #1', 'WebSocket #2']);
    const [first, second] = snap.sessions.filter((s) => s.transport === 'websocket').map((s) => s.label);
    const ctx = { ...NONE, name };
    const found = (q: string) => rows.rows.filter((r) => matchesMessage(parseFilter(q), r, ctx));
    // What the Sessions view calls it finds its rows, and only its rows.
    expect(found('session:"websocket #1"').map((r) => r.seq)).toEqual(ws.filter((r) => r.session === first).map((r) => r.seq));
    expect(found('session:"websocket #2"').map((r) => r.seq)).toEqual(ws.filter((r) => r.session === second).map((r) => r.seq));
    expect(found('session:"websocket #1"').length).toBeGreaterThan(3);
    // And the engine's id still does; free text finds the name too (as in the Findings view).
    expect(found(`session:${first}`)).toEqual(found('session:"websocket #1"'));
    expect(found('"websocket #2"')).toEqual(found('session:"websocket #2"'));
    // The HTTP session is S1, as before.
    expect(found('session:s1').every((r) => r.transport.startsWith('HTTP'))).toBe(true);
  });

  it('the kept filter result is redone when a name changes (a socket connected), not at every snapshot', () => {
    const log = twoEndpointLog();
    const rows = new FrameRows();
    for (const f of log.frames) rows.add(f);
    // The second socket's connect: before it, the engine knows one socket; after, two.
    const second = log.frames.filter((f) => f.kind === 'ws-connect')[1]!;
    const engine = new Engine();
    engine.applyAll(log.frames.filter((f) => f.seq < second.seq));
    const early = engine.snapshot(second.t);
    // Another snapshot naming the same sockets alike: the very namer (what the kept result is checked against).
    expect(sessionIdNamer(engine.snapshot(second.t + 1).sessions)).toBe(sessionIdNamer(early.sessions));
    engine.applyAll(log.frames.filter((f) => f.seq >= second.seq));
    const late = engine.snapshot(log.t);
    const filter = parseFilter('session:"websocket #2"');
    const kept = new IncrementalMessageFilter<(typeof rows.rows)[number]>();
    // Rows of a socket the snapshot does not know yet go by their id (here: none match).
    expect(kept.apply(rows.rows, filter, { ...NONE, name: sessionIdNamer(early.sessions) })).toEqual([]);
    const full = rows.rows.filter((r) => matchesMessage(filter, r, { ...NONE, name: sessionIdNamer(late.sessions) }));
    expect(full.length).toBeGreaterThan(0);
    expect(kept.apply(rows.rows, filter, { ...NONE, name: sessionIdNamer(late.sessions) })).toEqual(full);
  });
});

describe('session: finds WebSocket #1, not #10–#12, in every view', () => {
  // Twelve sockets, each to its own endpoint (its own client), each reading its URI and never subscribing it (a
  // finding each), with the hook's connection ids (`<document>.<n>`): the engine's ids ws:k3x9q.1 … ws:k3x9q.12.
  function twelveSockets(): { snap: EngineSnapshot; frames: Frame[] } {
    const log = new FrameLog('k3x9q');
    log.pageStart('http://localhost:8080/kb');
    for (let n = 1; n <= 12; n++) {
      const ws = new WsClient(log, `ws://localhost:3002/s${n}`);
      ws.connect();
      ws.initialize();
      ws.call('resources/read', { uri: `file:///docs/${n}.md` }, { contents: [{ uri: `file:///docs/${n}.md`, text: 'v1' }] });
    }
    log.wait(5000);
    const frames = log.frames.map((f) => ('conn' in f && f.conn ? { ...f, conn: `k3x9q.${f.conn.replace(/^.*\D/, '')}` } : f)) as Frame[];
    return { snap: snapshotOf(frames, log.t), frames };
  }

  it('the Sessions grid, the lanes, the URI table, the Findings view and the Messages view', () => {
    const { snap, frames } = twelveSockets();
    const name = sessionIdNamer(snap.sessions);
    expect(snap.sessions.map((s) => name(s.label))).toEqual(Array.from({ length: 12 }, (_, i) => `WebSocket #${i + 1}`));
    const first = snap.sessions.find((s) => name(s.label) === 'WebSocket #1')!;
    expect(first.label).toBe('ws:k3x9q.1');
    for (const q of ['session:"websocket #1"', 'session:"WebSocket #1"', `session:${first.label}`]) {
      const filter = parseFilter(q);
      expect(snap.sessions.filter((s) => matchesSessionView(filter, s, name)).map((s) => name(s.label)), q).toEqual(['WebSocket #1']);
      expect(sessionLanes(snap.sessions, snap.streams, snap.now).filter((l) => matchesSession(filter, l.names)).map((l) => l.label), q).toEqual(['WebSocket #1']);
      expect(filterRows(snap, filter).map((r) => r.uri), q).toEqual(['file:///docs/1.md']);
      const findings = snap.findings.filter((f) => findingMatches(f, filter, snap.sessions));
      expect(findings.length, q).toBeGreaterThan(0);
      expect(new Set(findings.map((f) => f.endpoint)), q).toEqual(new Set(['ws://localhost:3002/s1']));
      const rows = new FrameRows();
      for (const f of frames) rows.add(f);
      const ctx: MessageContext = { staleUris: new Set(), phantomUris: new Set(), problemUris: new Set(), name };
      const found = rows.rows.filter((r) => matchesMessage(filter, r, ctx));
      expect(found.length, q).toBeGreaterThan(3);
      expect(new Set(found.map((r) => name(r.session))), q).toEqual(new Set(['WebSocket #1']));
    }
    // A part of the name still finds them all; negated, #1 alone goes.
    expect(snap.sessions.filter((s) => matchesSessionView(parseFilter('session:websocket'), s, name))).toHaveLength(12);
    expect(snap.sessions.filter((s) => matchesSessionView(parseFilter('-session:"websocket #1"'), s, name))).toHaveLength(11);
    expect(filterRows(snap, parseFilter('-session:"websocket #1"'))).toHaveLength(11);
  });
});

describe('a 2026 listen is `listen <request id>` in every view, and session: finds it by that name', () => {
  const NONE: MessageContext = { staleUris: new Set(), phantomUris: new Set(), problemUris: new Set() };
  const listens = () => {
    const log = listenLog();
    const snap = snapshotOf(log.frames, log.t);
    const rows = new FrameRows();
    for (const f of log.frames) rows.add(f);
    return { snap, rows: rows.rows, name: sessionIdNamer(snap.sessions) };
  };

  it('the views that name it by its id (the Messages rows, a finding, a URI holder, the metrics) say it as the Sessions grid and the lanes do', () => {
    const { snap, rows, name } = listens();
    expect(snap.sessions.map((s) => [s.kind, s.label])).toEqual([['listen', '3'], ['listen', '31'], ['listen', 'listen:12']]);
    // The Sessions grid and the lanes (as before).
    expect(sessionEntries(snap).map((e) => e.label).sort()).toEqual(['listen 3', 'listen 31', 'listen:12']);
    expect(sessionLanes(snap.sessions, snap.streams, snap.now).map((l) => l.label)).toEqual(['listen 3', 'listen 31', 'listen:12']);
    // Every view naming it by its id: the same (each said the bare id: `3`).
    expect(snap.sessions.map((s) => name(s.label))).toEqual(['listen 3', 'listen 31', 'listen:12']);
    expect(snap.sessions.map((s) => name(s.label))).toEqual(snap.sessions.map((s) => sessionLabel(s, name)));
    // The Messages rows (filed under the request id), whole in the column, the SDK's id too; the tooltip is the name (it holds the id).
    const shown = [...new Set(rows.filter((r) => r.session !== '').map((r) => shortSessionName(r.session, name, middleId)))];
    expect(shown).toEqual(['listen 3', 'listen 31', 'listen:12']);
    expect(sessionIdTitle('3', name)).toBe('listen 3');
    // The Findings view's Session column and the drawer's finding (a listen is no session: not `session listen 3`).
    const notified = snap.findings.find((f) => f.id === 'notified-not-reread')!;
    expect(notified.session).toBe('3');
    expect(name(notified.session!)).toBe('listen 3');
    expect(sessionMention(notified.session!, name)).toBe('listen 3');
    expect(sessionMention('S1', name)).toBe('session S1');
    // The URI table's Server tooltip: who holds it, and who held it last.
    const row = (uri: string) => snap.uris.find((r) => r.uri === uri)!;
    expect(serverTitle(row(HELD), lastHolders(snap.sessions), snap.now, name)).toBe('Held by listen 31');
    expect(serverTitle(row(SDK_HELD), lastHolders(snap.sessions), snap.now, name)).toBe('Held by listen:12');
    expect(serverTitle(row(LISTENED), lastHolders(snap.sessions), snap.now, name)).toMatch(/^Not held by any session\. Of the sessions that ended, listen 3 held it last/);
    // The metrics, one listen a line (an SDK id longer than a cell is cut as an id is: `listen:12` is not).
    const perSession = metricRows(snap.metrics, name).find((m) => m.name === 'subscribedUrisPerSession')!;
    expect(perSession.value).toBe('listen 31: 1\nlisten:12: 1');
    expect(perSession.title).toBe('listen 31: 1\nlisten:12: 1');
    // A longer id is cut in the middle, as the column cut it, after the kind; an id that names itself a listen (the
    // SDK's) and an id no listen has, as an id is.
    const long = sessionIdNamer([{ label: '123456789012', kind: 'listen' }, { label: 'listen:123456789', kind: 'listen' }]);
    expect(shortSessionName('123456789012', long, middleId)).toBe(`listen ${middleId('123456789012')}`);
    expect(middleId('123456789012')).not.toBe('123456789012');
    expect(shortSessionName('listen:123456789', long, middleId)).toBe('lis…56789');
    expect(shortSessionName('listen:123456789', name, middleId)).toBe('lis…56789');
  });

  it('session:"listen 3" and session:3 find listen 3 (not 31) in the Sessions grid, the lanes, the URI table, the Findings view and the Messages view', () => {
    const { snap, rows, name } = listens();
    const ctx = { ...NONE, name };
    const views = (q: string) => {
      const filter = parseFilter(q);
      return {
        sessions: snap.sessions.filter((s) => matchesSessionView(filter, s, name)).map((s) => sessionLabel(s, name)),
        lanes: sessionLanes(snap.sessions, snap.streams, snap.now).filter((l) => matchesSession(filter, l.names)).map((l) => l.label),
        uris: filterRows(snap, filter).map((r) => r.uri),
        findings: snap.findings.filter((f) => findingMatches(f, filter, snap.sessions)).map((f) => `${f.id} ${f.uri}`).sort(),
        messages: rows.filter((r) => matchesMessage(filter, r, ctx)).map((r) => r.seq),
      };
    };
    const three = views('session:"listen 3"');
    expect(three.sessions).toEqual(['listen 3']);
    expect(three.lanes).toEqual(['listen 3']);
    expect(three.uris).toEqual([LISTENED]);
    expect(three.findings).toEqual([`cached-not-subscribed ${LISTENED}`, `notified-not-reread ${LISTENED}`, `phantom-subscription ${LISTENED}`]);
    // Its rows, every one (request, response head, acknowledgement, update, end), and only its.
    expect(three.messages).toEqual(rows.filter((r) => r.session === '3').map((r) => r.seq));
    expect(three.messages).toHaveLength(5);
    // By the request id, the same (case ignored too); so for 31 and the SDK's id: the name and the id find one thing.
    expect(views('session:3')).toEqual(three);
    expect(views('session:"LISTEN 3"')).toEqual(three);
    expect(views('session:"listen 31"')).toEqual(views('session:31'));
    expect(views('session:"listen 31"').sessions).toEqual(['listen 31']);
    expect(views('session:"listen 31"').uris).toContain(HELD);
    expect(views('session:"listen 31"').messages).toEqual(rows.filter((r) => r.session === '31').map((r) => r.seq));
    expect(views('session:"listen:12"')).toEqual(views('session:listen:12'));
    expect(views('session:"listen:12"').messages).toEqual(rows.filter((r) => r.session === 'listen:12').map((r) => r.seq));
    // Free text finds the name in the Messages view too (as a WebSocket's).
    expect(rows.filter((r) => matchesMessage(parseFilter('"listen 31"'), r, ctx)).map((r) => r.seq)).toEqual(views('session:31').messages);
    // Negated: listen 3's rows go, the others stay.
    expect(rows.filter((r) => matchesMessage(parseFilter('-session:"listen 3"'), r, ctx)).map((r) => r.seq)).toEqual(rows.filter((r) => r.session !== '3').map((r) => r.seq));
  });

  it('a finding\'s detail names it so (the Findings view, the drawer, the CLI): `listen 3 ended (dropped)`, not `3 ended`', () => {
    const { snap, name } = listens();
    const lost = snap.findings.filter((f) => f.uri === LISTENED && f.id !== 'notified-not-reread').map((f) => [f.id, findingDetail(f, name)]);
    expect(lost).toEqual([
      ['cached-not-subscribed', expect.stringMatching(/^lost with the listen stream: listen 3 ended \(dropped\) at seq \d+; no live session or listen has held it since then$/)],
      ['phantom-subscription', expect.stringMatching(/^listen 3 ended \(dropped\) at seq \d+$/)],
    ]);
    // What it names is still found by it (a finding about no session of its own: by its detail, as before).
    expect(snap.findings.filter((f) => findingMatches(f, parseFilter('session:"listen 3"'), snap.sessions)).map((f) => f.id)).toContain('phantom-subscription');
  });

  it('the CLI report names it so: a finding\'s where and the metrics', async () => {
    const { renderReport } = await import('../../../cli/report.ts');
    const { exportTrace } = await import('../../../shared/trace/index.ts');
    const log = listenLog();
    const trace = exportTrace({ frames: log.frames, createdAt: log.t, pageUrl: 'http://localhost:8080/kb' });
    const text = renderReport(trace, snapshotOf(log.frames, log.t), 'error');
    expect(text.split('\n').filter((l) => l.startsWith('   where: ') && l.includes('listen'))).toEqual([`   where: ${LISTENED}, listen 3`]);
    expect(text).toMatch(/subscribed URIs per live session \/ listen +listen 31: 1, listen:12: 1\n/);
    expect(text).toMatch(/\n   detail: listen 3 ended \(dropped\) at seq \d+\n/);
  });

  it('an id that is a session\'s too is shown as it is (which of the two it means, the id alone cannot say)', () => {
    const name = sessionIdNamer([
      { label: '3', kind: 'session', transport: 'streamable-http' },
      { label: '3', kind: 'listen', transport: 'streamable-http' },
      { label: '4', kind: 'listen', transport: 'streamable-http' },
    ]);
    expect(name('3')).toBe('3');
    expect(name('4')).toBe('listen 4');
    expect(sessionMention('3', name)).toBe('session 3');
    // A listen's own row and lane say what it is all the same.
    expect(sessionLabel({ label: '3', kind: 'listen' }, name)).toBe('listen 3');
  });

  it('a listen opening renames: the Messages view\'s kept filter result is redone then', () => {
    const log = listenLog();
    const rows = new FrameRows();
    for (const f of log.frames) rows.add(f);
    const listen31 = log.frames.find((f) => f.kind === 'http-request' && f.body?.text.includes('"id":31'))!;
    const engine = new Engine();
    engine.applyAll(log.frames.filter((f) => f.seq < listen31.seq));
    const early = sessionIdNamer(engine.snapshot(listen31.t).sessions);
    engine.applyAll(log.frames.filter((f) => f.seq >= listen31.seq));
    const late = sessionIdNamer(engine.snapshot(log.t).sessions);
    expect(late).not.toBe(early);
    const filter = parseFilter('session:"listen 31"');
    const kept = new IncrementalMessageFilter<(typeof rows.rows)[number]>();
    expect(kept.apply(rows.rows, filter, { ...NONE, name: early })).toEqual([]);
    const full = rows.rows.filter((r) => matchesMessage(filter, r, { ...NONE, name: late }));
    expect(full.length).toBe(3);
    expect(kept.apply(rows.rows, filter, { ...NONE, name: late })).toEqual(full);
  });
});

describe('a listen that reuses a request id (`listen:1 #2`) is named by its connection: the Messages view and the drawer as the Sessions grid', () => {
  const NONE: MessageContext = { staleUris: new Set(), phantomUris: new Set(), problemUris: new Set() };
  const build = (frames: readonly Frame[], t: number) => {
    const e = new Engine();
    e.applyAll(frames);
    const rows = new FrameRows();
    for (const f of frames) rows.add(f);
    return { e, snap: e.snapshot(t), rows };
  };
  /** What the Messages view's session column shows for each listen's rows, by listen (its request's seq). */
  const shown = (rows: readonly FrameRow[], name: SessionIdName) => [...new Set(rows.filter((r) => r.session !== '' || r.conn !== '').map((r) => shortSessionName(sessionIdOn(r.session, r.conn, name), name, middleId)).filter((s) => s.startsWith('listen')))];

  it('its rows say `listen:1 #2` and session:"listen:1 #2" finds them, only them, in the Messages view as in the Sessions grid', () => {
    const { log } = reusedListenLog();
    const { snap, rows } = build(log.frames, log.t);
    const name = sessionIdNamer(snap.sessions);
    const listens = snap.sessions.filter((s) => s.kind === 'listen');
    expect(listens.map((s) => s.label)).toEqual(['listen:1', 'listen:1 #2']);
    // Each listen knows its connection (its request's, its stream's).
    expect(new Set(listens.map((s) => s.conn)).size).toBe(2);
    // Both clients' rows carry the request id `listen:1`; the column names each by its listen's connection, whole (its
    // ` #2` is not cut: `lis…:1 #2`); a long id is cut before it.
    expect(shown(rows.rows, name)).toEqual(['listen:1', 'listen:1 #2']);
    const long = sessionIdNamer([{ label: 'listen:123456789 #2', kind: 'listen' }, { label: '123456789012 #3', kind: 'listen' }]);
    expect(shortSessionName('listen:123456789 #2', long, middleId)).toBe('lis…56789 #2');
    expect(shortSessionName('123456789012 #3', long, middleId)).toBe(`listen ${middleId('123456789012')} #3`);
    const second = listens[1]!;
    const ofSecond = rows.rows.filter((r) => r.conn === second.conn).map((r) => r.seq);
    // Its request, response head, acknowledgement, update (open: no end).
    expect(ofSecond).toHaveLength(4);
    const ctx = { ...NONE, name };
    const messages = (q: string) => rows.rows.filter((r) => matchesMessage(parseFilter(q), r, ctx)).map((r) => r.seq);
    const sessions = (q: string) => snap.sessions.filter((s) => matchesSessionView(parseFilter(q), s, name)).map((s) => sessionLabel(s, name));
    expect(sessions('session:"listen:1 #2"')).toEqual(['listen:1 #2']);
    expect(messages('session:"listen:1 #2"')).toEqual(ofSecond);
    // Free text finds it by that name too; -session: hides only its rows.
    expect(messages('"listen:1 #2"')).toEqual(ofSecond);
    expect(messages('-session:"listen:1 #2"')).toEqual(rows.rows.filter((r) => r.conn !== second.conn).map((r) => r.seq));
    // session:listen:1 finds both, as in the Sessions grid (a part of the name).
    expect(sessions('session:listen:1')).toEqual(['listen:1', 'listen:1 #2']);
    expect(messages('session:listen:1')).toEqual(rows.rows.filter((r) => r.session === 'listen:1').map((r) => r.seq));
  });

  it('after a trim the engine rebuilt from what is left names the listen anew, and the rows (kept, with their counts) with it', () => {
    const { log, second } = reusedListenLog();
    const { rows } = build(log.frames, log.t);
    // A live trim: the first client's frames go; the rows kept are the same objects.
    rows.dropBefore(second);
    const kept = log.frames.filter((f) => f.seq >= second);
    const e = new Engine();
    e.applyAll(kept);
    const snap = e.snapshot(log.t);
    const name = sessionIdNamer(snap.sessions);
    expect(snap.sessions.filter((s) => s.kind === 'listen').map((s) => s.label)).toEqual(['listen:1']);
    expect(shown(rows.rows, name)).toEqual(['listen:1']);
    expect(rows.rows.filter((r) => matchesMessage(parseFilter('session:"listen:1 #2"'), r, { ...NONE, name }))).toEqual([]);
  });

  it('the drawer names a message on a listen\'s connection by its listen, and says a plain 2026 message has no session', () => {
    const { log } = reusedListenLog();
    const { e, snap } = build(log.frames, log.t);
    const name = sessionIdNamer(snap.sessions);
    const second = snap.sessions.filter((s) => s.kind === 'listen')[1]!;
    const messages = Array.from({ length: e.messageCount }, (_, i) => e.message(i)!);
    const onSecond = messages.filter((m) => m.conn === second.conn);
    // The listen request, its acknowledgement, the update delivered on it.
    expect(onSecond.map((m) => m.method)).toEqual(['subscriptions/listen', 'notifications/subscriptions/acknowledged', 'notifications/resources/updated']);
    expect(onSecond.map((m) => messageSessionName(m, name))).toEqual(['listen:1 #2', 'listen:1 #2', 'listen:1 #2']);
    // The first listen's end (its graceful result) is the first's.
    const end = messages.find((m) => m.kind === 'result' && m.method === 'subscriptions/listen')!;
    expect(messageSessionName(end, name)).toBe('listen:1');
    // A plain read on its own POST: no session, said so (it was `—`).
    const read = messages.find((m) => m.kind === 'request' && m.uri === PLAIN)!;
    expect(read.session).toBeUndefined();
    expect(messageSessionName(read, name)).toBe('none (2026-07-28 has no sessions)');
    // A numbered listen: `listen 3`.
    const numbered = listenLog();
    const e3 = new Engine();
    e3.applyAll(numbered.frames);
    const name3 = sessionIdNamer(e3.snapshot(numbered.t).sessions);
    const ack3 = Array.from({ length: e3.messageCount }, (_, i) => e3.message(i)!).find((m) => m.method === 'notifications/subscriptions/acknowledged' && m.uri === undefined && m.raw.includes(LISTENED))!;
    expect(messageSessionName(ack3, name3)).toBe('listen 3');
    // A 2025 message keeps its session, and one before any session (an initialize) `—`.
    expect(messageSessionName({ session: 'S1', conn: 'c1', generation: '2025' }, name)).toBe('S1');
    expect(messageSessionName({ conn: 'c1', generation: '2025' }, name)).toBe('—');
  });

  it('a connection two listens claim (a batch of two) names neither', () => {
    const name = sessionIdNamer([
      { label: '1', kind: 'listen', conn: 'c1' },
      { label: '2', kind: 'listen', conn: 'c1' },
      { label: '3', kind: 'listen', conn: 'c2' },
    ]);
    expect(sessionIdOn('1', 'c1', name)).toBe('1');
    expect(sessionIdOn('', 'c2', name)).toBe('3');
    expect(sessionIdOn('', 'c3', name)).toBe('');
  });
});

describe('one client, one name in every view', () => {
  it('the table and the Findings view, showing different clients, number pages alike (names among all clients)', () => {
    const E = 'http://localhost:3000/mcp';
    const clients = [
      { doc: 'd1', endpoint: E, page: { top: true, url: 'http://app/' } },
      { doc: 'd2', endpoint: E, page: { top: false, url: 'http://app/w/frame' } },
      { doc: 'd3', endpoint: E, page: { top: false, url: 'http://app/w/frame' } },
    ] as Parameters<typeof clientTags>[0];
    // The table has rows of the top page and the second iframe; the findings are of both iframes.
    const table = clientTags(clients, [{ doc: 'd1', endpoint: E }, { doc: 'd3', endpoint: E }]);
    const findings = clientTags(clients, [{ doc: 'd2', endpoint: E }, { doc: 'd3', endpoint: E }]);
    expect(table.get(`d3 ${E}`)).toBe(findings.get(`d3 ${E}`));
    expect(findings.get(`d2 ${E}`)).not.toBe(findings.get(`d3 ${E}`));
  });
});

describe("a session lane's tooltip", () => {
  it('names a listen once, by the name its lane shows, and a session as one', () => {
    expect(sessionLaneTitle('listen', 'listen:0', '')).toBe('listen:0 — open');
    expect(sessionLaneTitle('listen', 'listen 3', 'dropped')).toBe('listen 3 — ended: dropped');
    expect(sessionLaneTitle('session', 'WebSocket #2', '')).toBe('session WebSocket #2 — open');
    expect(sessionLaneTitle('session', 'S1', 'http-404')).toBe('session S1 — ended: http-404');
  });
});
