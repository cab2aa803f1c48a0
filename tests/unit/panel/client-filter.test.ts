// Several clients in one tab (two iframes of a page on one server): which client each session is of, in the Sessions
// grid and the drawers (the page by its URL, not a bare browser frame number), and the filter finding rows by the
// client's tag the views show — `client:` and free text (a review: `localhost` found no row while the tag said
// `iframe localhost:44273`, and `client:` was "not a filter key").
import { describe, expect, it } from 'vitest';
import { Engine, type EngineSnapshot } from '../../../shared/engine/index.ts';
import { clientKeyOf, docTag, findingClientTag, findingClientTags, pageFact, sessionClientTags } from '../../../panel/model/client-tags.ts';
import { matchesSessionView, parseFilter, viewNotes } from '../../../panel/model/filter.ts';
import { findingMatches } from '../../../panel/model/findings-view.ts';
import { filterRows } from '../../../panel/model/uri-table.ts';
import { sessionLanes, sessionLanesMatching } from '../../../panel/model/timeline.ts';
import { sessionRowTag } from '../../../panel/model/sessions-view.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

/** Two iframes (localhost:44273, 127.0.0.1:44273) on one server, each reading the policy without subscribing. */
function twoIframes(): EngineSnapshot {
  const a = new FrameLog('doc-a');
  a.pageStart('http://localhost:44273/', false);
  const ca = new StreamableClient(a, URL);
  ca.initialize({ sessionId: 'SA' });
  ca.read(POLICY, 'a');
  const b = new FrameLog('doc-b', a.t + 1, a.lastSeq);
  b.pageStart('http://127.0.0.1:44273/', false);
  const cb = new StreamableClient(b, URL);
  cb.initialize({ sessionId: 'SB' });
  cb.read(POLICY, 'b');
  const e = new Engine();
  e.applyAll([...a.frames.map((f) => ({ ...f, frameId: 10 })), ...b.frames.map((f) => ({ ...f, frameId: 11 }))]);
  return e.snapshot(b.t + 700_000);
}

describe('several clients in one tab', () => {
  it('the filter finds URI rows and findings by the client tag shown: client: and free text', () => {
    const snap = twoIframes();
    const uris = (q: string) => filterRows(snap, parseFilter(q)).map((r) => r.doc);
    expect(uris('')).toEqual(['doc-a', 'doc-b']);
    expect(uris('localhost')).toEqual(['doc-a']);
    expect(uris('"iframe 127.0.0.1"')).toEqual(['doc-b']);
    expect(uris('client:localhost')).toEqual(['doc-a']);
    expect(uris('-client:localhost')).toEqual(['doc-b']);
    expect(uris('client:iframe')).toEqual(['doc-a', 'doc-b']);
    expect(parseFilter('client:localhost').notes).toEqual([]);
    const tags = findingClientTags(snap);
    const findings = (q: string) => snap.findings.filter((f) => findingMatches(f, parseFilter(q), snap.sessions, findingClientTag(tags, f))).map((f) => f.doc);
    expect(findings('client:127.0.0.1')).toEqual(['doc-b', 'doc-b']);
    expect(findings('localhost')).toContain('doc-a');
    expect(findings('client:iframe').length).toBe(snap.findings.length);
    // One client: no tag shown, none to find.
    const one = { ...snap, uris: snap.uris.filter((r) => r.doc === 'doc-a') };
    expect(filterRows(one, parseFilter('client:localhost'))).toEqual([]);
    expect(viewNotes(parseFilter('client:x'), 'messages')).toEqual(['client: does not apply to the Messages view']);
    expect(viewNotes(parseFilter('client:x session:S'), 'sessions')).toEqual([]);
  });

  it('sessions say their client (the grid, its filter, the session drawer); a frame drawer its page by URL', () => {
    const snap = twoIframes();
    const tags = sessionClientTags(snap);
    const tagOf = (label: string) => tags.get(clientKeyOf(snap.sessions.find((s) => s.label === label)!));
    expect([tagOf('SA'), tagOf('SB')]).toEqual(['iframe localhost:44273', 'iframe 127.0.0.1:44273']);
    expect(sessionClientTags(snap)).toBe(tags);
    const sessions = (q: string) => snap.sessions.filter((s) => matchesSessionView(parseFilter(q), s, undefined, tags.get(clientKeyOf(s)))).map((s) => s.label);
    expect(sessions('client:127')).toEqual(['SB']);
    expect(sessions('-client:127 session:S')).toEqual(['SA']);
    expect(pageFact(snap.clients, 'doc-a', tagOf('SA'))).toBe('http://localhost:44273/ (iframe); shown as “iframe localhost:44273”');
    expect(pageFact(snap.clients, 'doc-b', docTag(snap, 'doc-b'), 'browser frame 11, page segment 1')).toBe(
      'http://127.0.0.1:44273/ (iframe, browser frame 11, page segment 1); shown as “iframe 127.0.0.1:44273”',
    );
    expect(pageFact(snap.clients, 'gone', undefined, 'browser frame 3, page segment 2')).toBe('— (its page load is not in view; browser frame 3, page segment 2)');
    // One client's sessions: no tag.
    expect(sessionClientTags({ clients: snap.clients, sessions: snap.sessions.filter((s) => s.label === 'SA') }).size).toBe(0);
  });

  it("client: keeps the timeline's session lanes of that client, as the Sessions grid keeps its rows (a review: the lanes ignored it)", () => {
    const snap = twoIframes();
    const tags = sessionClientTags(snap);
    const lanes = sessionLanes(snap.sessions, snap.streams, snap.now);
    const kept = (q: string) => sessionLanesMatching(lanes, parseFilter(q), tags).map((l) => l.label);
    const grid = (q: string) => snap.sessions.filter((s) => matchesSessionView(parseFilter(q), s, undefined, tags.get(clientKeyOf(s)) ?? '')).map((s) => s.label);
    expect(kept('')).toEqual(['SA', 'SB']);
    for (const q of ['client:localhost', '-client:localhost', 'client:127.0.0.1', 'client:iframe', 'client:nowhere', 'session:SA client:127']) {
      expect(kept(q)).toEqual(grid(q));
    }
    expect(kept('client:localhost')).toEqual(['SA']);
    expect(kept('-client:localhost')).toEqual(['SB']);
    expect(kept('session:SA client:127')).toEqual([]);
    // One client: no tag, none to find (as its URI rows).
    const one = sessionLanesMatching(lanes.filter((l) => l.label === 'SA'), parseFilter('client:localhost'), new Map());
    expect(one).toEqual([]);
  });

  it('a Sessions row shows the tag client: matched, also one it hides otherwise (it only repeats the Endpoint)', () => {
    // One page, two servers: the clients differ by endpoint alone, and each tag is the endpoint's short form.
    const log = new FrameLog('doc-1');
    log.pageStart('http://localhost:8080/');
    new StreamableClient(log, 'http://localhost:3000/mcp').initialize({ sessionId: 'S1' });
    new StreamableClient(log, 'http://localhost:4000/mcp').initialize({ sessionId: 'S2' });
    const e = new Engine();
    e.applyAll(log.frames);
    const snap = e.snapshot(log.t + 1000);
    const tags = sessionClientTags(snap);
    const s1 = snap.sessions.find((s) => s.label === 'S1')!;
    const tag = tags.get(clientKeyOf(s1))!;
    expect(tag).toBe('localhost:3000/mcp');
    expect(sessionRowTag(s1.endpoint, tag, parseFilter(''))).toBe('');
    expect(sessionRowTag(s1.endpoint, tag, parseFilter('session:S1'))).toBe('');
    // Matched by the whole tag (as the other views match that client), and then shown.
    expect(matchesSessionView(parseFilter('client:3000'), s1, undefined, tag)).toBe(true);
    expect(sessionRowTag(s1.endpoint, tag, parseFilter('client:3000'))).toBe(tag);
    expect(sessionRowTag(s1.endpoint, tag, parseFilter('-client:4000'))).toBe(tag);
    // A tag that says more than the endpoint is shown anyway.
    expect(sessionRowTag(s1.endpoint, 'iframe localhost:44273', parseFilter(''))).toBe('iframe localhost:44273');
  });
});
