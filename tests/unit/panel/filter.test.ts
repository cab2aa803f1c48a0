import { describe, expect, it } from 'vitest';
import type { UriRow } from '../../../shared/engine/index.ts';
import { matchesMessage, matchesRow, matchesSession, matchesSessionView, messageContext, parseFilter, tokenize, uriMatches, viewNotes } from '../../../panel/model/filter.ts';
import { sessionIdNamer, sessionLabel, sessionNameMatches, sessionNames, withShownNames } from '../../../panel/model/session-label.ts';
import { sessionLanes } from '../../../panel/model/timeline.ts';

function row(over: Partial<UriRow> = {}): UriRow {
  return {
    key: 'doc http://x/mcp file:///docs/policy.md',
    uri: 'file:///docs/policy.md',
    endpoint: 'http://x/mcp',
    doc: 'doc',
    cached: true,
    cacheReadAt: 0,
    cacheAgeMs: 1000,
    listed: false,
    clientBelievesSubscribed: true,
    serverHasSubscription: true,
    deliveryChannelOpen: true,
    heldBy: ['S1'],
    readsInFlight: 0,
    notifications: 0,
    expectedMaxAgeMs: 600_000,
    expectedMaxAgeSource: 'default',
    ageLimitMs: 600_000,
    ageLimitSource: 'default',
    findings: [],
    status: 'ok',
    ...over,
  };
}

describe('tokenize', () => {
  it('splits on whitespace and keeps quoted spaces', () => {
    expect(tokenize('  is:stale   uri:"file:///my docs/*" hello ')).toEqual(['is:stale', 'uri:file:///my docs/*', 'hello']);
    expect(tokenize('""')).toEqual(['']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('quoted words and uri: values (a panel audit, 2026-12-04)', () => {
  it('a quoted word is text to find: "-32601" is not a negation, "is:stale" not a key; -"…" negates text', () => {
    expect(parseFilter('"-32601"').terms).toEqual([{ key: 'text', value: '-32601', negate: false }]);
    expect(parseFilter('"is:stale"').terms).toEqual([{ key: 'text', value: 'is:stale', negate: false }]);
    expect(parseFilter('-"method not found"').terms).toEqual([{ key: 'text', value: 'method not found', negate: true }]);
    expect(parseFilter('-32601').terms).toEqual([{ key: 'text', value: '32601', negate: true }]);
    // Empty quotes (a word being typed) ask nothing.
    for (const q of ['-"', '-""', '""']) expect(parseFilter(q).terms, q).toEqual([]);
  });
  it('a ? alone is a query, not a wildcard; globs ignore case as substrings do', () => {
    expect(uriMatches('items?id=12', 'https://kb.example/api/items?id=12')).toBe(true);
    expect(uriMatches('**POLICY.md', 'file:///docs/policy.md')).toBe(true);
    expect(uriMatches('file:///docs/*.md', 'file:///docs/a/b.md')).toBe(false);
  });
});

describe('parseFilter', () => {
  it('recognizes keys, negation and free text', () => {
    expect(parseFilter('is:STALE -is:error uri:policy session:ab12 method:Read finding:phantom text').terms).toEqual([
      { key: 'is', value: 'stale', negate: false },
      { key: 'is', value: 'error', negate: true },
      { key: 'uri', value: 'policy', negate: false },
      { key: 'session', value: 'ab12', negate: false },
      { key: 'method', value: 'read', negate: false },
      { key: 'finding', value: 'phantom', negate: false },
      { key: 'text', value: 'text', negate: false },
    ]);
  });
  it('treats unknown keys (URIs) as free text, and a lone dash as text', () => {
    expect(parseFilter('file:///docs postgres://kb -').terms).toEqual([
      { key: 'text', value: 'file:///docs', negate: false },
      { key: 'text', value: 'postgres://kb', negate: false },
      { key: 'text', value: '-', negate: false },
    ]);
  });
  it('reports unknown is: values and empty values, and leaves them out', () => {
    const f = parseFilter('is:bogus uri: is:phantom');
    expect(f.terms).toEqual([{ key: 'is', value: 'phantom', negate: false }]);
    expect(f.errors).toHaveLength(2);
    expect(f.errors[0]).toMatch(/unknown is:bogus/);
    expect(f.errors[1]).toMatch(/uri: needs a value/);
  });
});

describe('uriMatches', () => {
  it('substring without wildcards, glob with them', () => {
    expect(uriMatches('POLICY', 'file:///docs/policy.md')).toBe(true);
    expect(uriMatches('file:///docs/*', 'file:///docs/policy.md')).toBe(true);
    expect(uriMatches('file:///docs/*', 'file:///docs/a/b.md')).toBe(false);
    expect(uriMatches('file:///**', 'file:///docs/a/b.md')).toBe(true);
    expect(uriMatches('postgres://*', 'file:///docs/policy.md')).toBe(false);
  });
});

describe('matchesRow', () => {
  const m = (q: string, r: UriRow, sessions: string[] = r.heldBy) => matchesRow(parseFilter(q), { row: r, sessions });
  it('is:stale follows staleness findings and an exceeded age', () => {
    expect(m('is:stale', row())).toBe(false);
    expect(m('is:stale', row({ findings: ['cached-not-subscribed'], status: 'warning' }))).toBe(true);
    expect(m('is:stale', row({ cacheAgeMs: 700_000 }))).toBe(true);
    expect(m('is:stale', row({ findings: ['protocol-header-missing'], status: 'warning' }))).toBe(false);
    // The age is compared with the bound the engine judges it by, not the cadence the row shows: a learned cadence is
    // no bound while the URI is held with a channel open (a review, 2026-12-05: a healthy subscribed row matched).
    const learned = { cacheAgeMs: 10_001, expectedMaxAgeMs: 2115, expectedMaxAgeSource: 'learned' as const };
    expect(m('is:stale', row({ ...learned, ageLimitMs: 600_000, ageLimitSource: 'default' }))).toBe(false);
    expect(m('is:stale', row({ ...learned, ageLimitMs: 2115, ageLimitSource: 'learned' }))).toBe(true);
  });
  it('is:phantom, is:error, is:problem, is:cached, is:subscribed', () => {
    const phantom = row({ serverHasSubscription: false, heldBy: [], findings: ['phantom-subscription'], status: 'error' });
    expect(m('is:phantom', phantom)).toBe(true);
    expect(m('is:phantom', row())).toBe(false);
    expect(m('is:error', phantom)).toBe(true);
    expect(m('is:problem', phantom)).toBe(true);
    expect(m('is:problem', row({ status: 'info' }))).toBe(false);
    expect(m('is:info', row({ status: 'info' }))).toBe(true);
    expect(m('is:info', phantom)).toBe(false);
    expect(m('is:ok', phantom)).toBe(false);
    expect(m('is:ok', row({ status: 'ok' }))).toBe(true);
    expect(m('is:cached', row({ cached: false }))).toBe(false);
    expect(m('-is:subscribed', phantom)).toBe(true);
  });
  it('uri:, session:, finding:, free text, all terms together', () => {
    const r = row({ findings: ['cache-age-exceeded'], status: 'warning' });
    expect(m('uri:policy', r)).toBe(true);
    expect(m('uri:schema', r)).toBe(false);
    expect(m('session:s1', r)).toBe(true);
    expect(m('session:s2', r)).toBe(false);
    expect(m('session:s2', r, ['S1', 'S2'])).toBe(true);
    expect(m('finding:age', r)).toBe(true);
    expect(m('docs/policy', r)).toBe(true);
    expect(m('cache-age', r)).toBe(true);
    // The words the Findings column shows: the finding's title.
    expect(m('older than expected', r)).toBe(true);
    expect(m('nobody', r)).toBe(false);
    expect(m('nobody', row({ findings: ['cached-not-subscribed'], status: 'warning' }))).toBe(true);
    expect(m('policy -is:stale', r)).toBe(false);
    expect(m('', r)).toBe(true);
  });
});

describe('matchesMessage and matchesSession', () => {
  const msg = { method: 'resources/read', uri: 'file:///docs/policy.md', session: 'S1abc', error: '', note: '', transport: 'HTTP POST', id: '3' };
  const ctx = { staleUris: new Set(['file:///docs/policy.md']), phantomUris: new Set<string>(), problemUris: new Set<string>() };
  it('is:rpc keeps the JSON-RPC messages (answers too) and leaves out the transport\'s rows; other views say it is not theirs', () => {
    const rows = [msg, { ...msg, method: 'resources/read (result)' }, { ...msg, method: '', uri: '', note: 'HTTP 200 application/json' }, { ...msg, method: '', note: 'SSE event (no data)' }];
    expect(rows.map((r) => matchesMessage(parseFilter('is:rpc'), r, ctx))).toEqual([true, true, false, false]);
    expect(rows.map((r) => matchesMessage(parseFilter('-is:rpc'), r, ctx))).toEqual([false, false, true, true]);
    expect(viewNotes(parseFilter('is:rpc'), 'resources')).toEqual(['is:rpc applies to the Messages view only']);
    expect(viewNotes(parseFilter('is:rpc'), 'findings')).toEqual(['is:rpc does not apply to findings']);
    expect(viewNotes(parseFilter('is:rpc'), 'messages')).toEqual([]);
  });

  it('applies to the message list', () => {
    const m = (q: string, x = msg) => matchesMessage(parseFilter(q), x, ctx);
    expect(m('method:read')).toBe(true);
    expect(m('method:subscribe')).toBe(false);
    expect(m('is:error')).toBe(false);
    expect(m('is:error', { ...msg, error: '-32602 nope' })).toBe(true);
    expect(m('is:stale')).toBe(true);
    expect(m('is:phantom')).toBe(false);
    expect(m('session:s1')).toBe(true);
    expect(m('uri:file:///docs/*')).toBe(true);
    expect(m('post')).toBe(true);
    // is:problem is the rows that are a problem (warning or error), not the stale ones.
    expect(m('is:problem')).toBe(false);
    expect(matchesMessage(parseFilter('is:problem'), msg, { ...ctx, problemUris: new Set([msg.uri]) })).toBe(true);
  });
  it('builds its context from the rows: stale, phantom, problem', () => {
    const row = (uri: string, over: Partial<UriRow>) => ({ uri, findings: [], status: 'ok', clientBelievesSubscribed: false, serverHasSubscription: false, ...over }) as unknown as UriRow;
    const c = messageContext([
      row('a', { findings: ['cache-age-exceeded'], status: 'info' }),
      row('b', { clientBelievesSubscribed: true, status: 'error', findings: ['phantom-subscription'] }),
      row('c', { status: 'warning', findings: ['subscribe-unsupported'] }),
    ]);
    expect([[...c.staleUris], [...c.phantomUris], [...c.problemUris]]).toEqual([['a', 'b'], ['b'], ['b', 'c']]);
  });
  it('takes stale and phantom URIs by the table\'s own test (an audit, 2026-12-05: Messages took fewer)', () => {
    const row = (uri: string, over: Partial<UriRow>) => ({ uri, findings: [], status: 'ok', clientBelievesSubscribed: false, serverHasSubscription: false, cached: false, ageLimitMs: 60_000, ...over }) as unknown as UriRow;
    const rows = [
      // Over its age bound, its cache-age-exceeded still inside the grace: red in the table, stale to is:stale.
      row('aged', { cached: true, cacheAgeMs: 61_000 }),
      // A phantom finding whose belief gap has closed since (resubscribed): the table's is:phantom keeps it.
      row('was-phantom', { findings: ['phantom-subscription'], clientBelievesSubscribed: true, serverHasSubscription: true }),
      row('fresh', { cached: true, cacheAgeMs: 1_000 }),
    ];
    const c = messageContext(rows);
    for (const q of ['is:stale', 'is:phantom'])
      expect(rows.filter((r) => matchesRow(parseFilter(q), { row: r, sessions: [] })).map((r) => r.uri)).toEqual([...(q === 'is:stale' ? c.staleUris : c.phantomUris)]);
    expect([[...c.staleUris], [...c.phantomUris]]).toEqual([['aged', 'was-phantom'], ['was-phantom']]);
  });
  it('only session: terms narrow session lanes', () => {
    expect(matchesSession(parseFilter('is:stale uri:x'), ['S1'])).toBe(true);
    expect(matchesSession(parseFilter('session:s2'), ['S1'])).toBe(false);
    expect(matchesSession(parseFilter('-session:s1'), ['S1'])).toBe(false);
  });
  // A 2026 listen's key holds its page and endpoint (`doc http://localhost:3001/mcp|…`): the Sessions view matched it,
  // so `session:localhost` showed every listen and no session, and `-session:mcp` hid every listen (an audit, 2026-12-05).
  describe('a Sessions row or session lane: by what it shows, alike for both kinds', () => {
    const session = { key: 'S1abc #2', label: 'S1abc', kind: 'session' as const };
    const listen = { key: 'doc-1 http://localhost:3001/mcp|s:listen:7', label: 'listen:7', kind: 'listen' as const };
    const numbered = { key: 'doc-1 http://localhost:3001/mcp|n:3', label: '3', kind: 'listen' as const };
    const m = (q: string, s: typeof session | typeof listen | typeof numbered) => matchesSessionView(parseFilter(q), s);
    it('names a session by its id and a listen by its request id and as its row says it (`listen <id>`), never by its key', () => {
      expect(sessionNames(session)).toEqual(['S1abc']);
      expect(sessionNames(listen)).toEqual(['listen:7']);
      expect(sessionNames(numbered)).toEqual(['3', 'listen 3']);
    });
    it('a resumed session by its id and by its label (`S1abc (resumed #2)`), on its row and its lane alike', () => {
      const resumed = { ...session, resumedFrom: 'S1abc' };
      expect(sessionNames(resumed)).toEqual(['S1abc', 'S1abc (resumed #2)']);
      expect(m('-session:resumed', resumed as typeof session)).toBe(false);
      expect(m('session:resumed', session)).toBe(false);
      const [lane] = sessionLanes([{ ...resumed, doc: 'd', endpoint: 'e', open: true, startT: 0, observedFromStart: false } as never], [], 1);
      expect(lane!.names).toEqual(sessionNames(resumed));
    });
    it('session: finds one session or listen by its id, a prefix or a part of it, case ignored', () => {
      expect(m('session:S1abc', session)).toBe(true);
      expect(m('session:s1', session)).toBe(true);
      expect(m('session:abc', session)).toBe(true);
      expect(m('session:S1abc', listen)).toBe(false);
      expect(m('session:listen:7', listen)).toBe(true);
      expect(m('session:listen:7', session)).toBe(false);
      expect(m('session:3', numbered)).toBe(true);
      expect(m('session:listen', numbered)).toBe(true);
      expect(m('session:listen', session)).toBe(false);
    });
    it('a number is matched whole: `#1` is not `#10`, `listen 3` not `listen 31`; an id still by any prefix or part (sessionNameMatches)', () => {
      // Substrings made `session:"websocket #1"` find WebSocket #10–#19 too, and `session:"listen 3"` listen 30–39.
      const no = [
        ['websocket #1', 'WebSocket #10'],
        ['websocket #1', 'WebSocket #12'],
        ['#1', 'WebSocket #19'],
        ['1', 'WebSocket #21'],
        ['listen 3', 'listen 31'],
        ['3', '31'],
        ['3', '13'],
        ['listen:7', 'listen:70'],
        ['resumed #1', 'S1abc (resumed #12)'],
        ['ws:k3x9q.1', 'ws:k3x9q.12'],
        ['ws:k3x9q.1', 'ws:k3x9q.10'],
      ];
      for (const [value, name] of no) expect(sessionNameMatches(value!, name!), `${value} in ${name}`).toBe(false);
      const yes = [
        ['websocket #1', 'WebSocket #1'],
        ['websocket #12', 'WebSocket #12'],
        ['websocket', 'WebSocket #10'],
        ['websocket #', 'WebSocket #10'],
        ['ket #10', 'WebSocket #10'],
        ['3', '3'],
        ['listen 3', 'listen 3'],
        ['resumed #1', 'S1abc (resumed #1)'],
        ['s1abc', 'S1abc (resumed #12)'],
        ['ws:k3x9q.1', 'ws:k3x9q.1'],
        ['k3x9q', 'ws:k3x9q.12'],
        // Digits within an id's word are not a number: a short id is a prefix of a longer one (S1 of S10).
        ['s1', 'S10'],
        ['ab12', 'ab123'],
        ['ws:doc-1:ws1', 'ws:doc-1:ws12'],
      ];
      for (const [value, name] of yes) expect(sessionNameMatches(value!, name!), `${value} in ${name}`).toBe(true);
      // A long Mcp-Session-Id (a UUID, hex): every prefix, and every part, as the docs promise — a UUID's group of
      // digits alone (`-1234-`) is a part of the id's one word, not a number.
      for (const id of ['38041234-9a7b-4c2e-8f00-123456789012', '3f2a91c0e5d84b7a90125c1e0e7f4410', '9876543210abcdef']) {
        for (let i = 0; i < id.length; i++) for (let j = i + 1; j <= id.length; j++) expect(sessionNameMatches(id.slice(i, j), id.toUpperCase()), id.slice(i, j)).toBe(true);
      }
      // In the Sessions view and on the lanes, by its id and as its row says it.
      const listen31 = { key: 'k', label: '31', kind: 'listen' as const };
      expect(m('session:3', listen31 as typeof numbered)).toBe(false);
      expect(m('session:"listen 3"', listen31 as typeof numbered)).toBe(false);
      expect(m('session:"listen 31"', listen31 as typeof numbered)).toBe(true);
      expect(m('-session:"listen 3"', listen31 as typeof numbered)).toBe(true);
      expect(matchesSession(parseFilter('session:"websocket #1"'), ['ws:k3x9q.12', 'WebSocket #10'])).toBe(false);
      expect(matchesSession(parseFilter('session:"websocket #1"'), ['ws:k3x9q.3', 'WebSocket #1'])).toBe(true);
      // The URI table's holders and the Messages rows alike.
      expect(matchesRow(parseFilter('session:"websocket #1"'), { row: row({ heldBy: ['ws:k3x9q.12'] }), sessions: ['ws:k3x9q.12', 'WebSocket #10'] })).toBe(false);
      const msg = { method: '', uri: '', session: 'ws:k3x9q.12', error: '', note: '', transport: 'WebSocket', id: '' };
      const ctx = { staleUris: new Set<string>(), phantomUris: new Set<string>(), problemUris: new Set<string>(), name: (id: string) => (id === 'ws:k3x9q.12' ? 'WebSocket #10' : id) };
      expect(matchesMessage(parseFilter('session:"websocket #1"'), msg, ctx)).toBe(false);
      expect(matchesMessage(parseFilter('session:"websocket #10"'), msg, ctx)).toBe(true);
      expect(matchesMessage(parseFilter('session:ws:k3x9q.1'), msg, ctx)).toBe(false);
    });
    it('never by the page or endpoint in a listen key, for either kind: the same answer as for a session', () => {
      for (const s of [session, listen, numbered]) {
        expect(m('session:localhost', s)).toBe(false);
        expect(m('session:mcp', s)).toBe(false);
        expect(m('session:doc-1', s)).toBe(false);
        expect(m('-session:mcp', s)).toBe(true);
        expect(m('-session:localhost', s)).toBe(true);
      }
    });
    it('negated, hides just what it names; other terms do not narrow sessions', () => {
      expect(m('-session:S1abc', session)).toBe(false);
      expect(m('-session:S1abc', listen)).toBe(true);
      expect(m('-session:listen:7', listen)).toBe(false);
      expect(m('is:stale uri:x method:read', listen)).toBe(true);
    });
    it('a listen\'s Messages rows and the URIs it holds (filed under its request id) by the names its Sessions row has, `listen 3` too', () => {
      // They were matched by the bare id: `session:"listen 3"` found listen 3 in the Sessions view and nothing there.
      const listen31 = { key: 'doc-1 http://localhost:3001/mcp|n:31', label: '31', kind: 'listen' as const };
      const all = [session, listen, numbered, listen31];
      const name = sessionIdNamer(all);
      const ctx = { staleUris: new Set<string>(), phantomUris: new Set<string>(), problemUris: new Set<string>(), name };
      const queries = ['session:"listen 3"', 'session:3', 'session:"LISTEN 31"', '-session:"listen 3"', 'session:"listen:7"', 'session:listen', 'session:s1abc', '-session:listen'];
      for (const s of all) {
        const msg = { method: '', uri: '', session: s.label, error: '', note: '', transport: 'HTTP POST', id: '' };
        for (const q of queries) {
          const f = parseFilter(q);
          const shown = matchesSessionView(f, s, name);
          expect(matchesMessage(f, msg, ctx), `${q} on ${sessionLabel(s)}'s rows`).toBe(shown);
          expect(matchesRow(f, { row: row({ heldBy: [s.label] }), sessions: withShownNames([s.label], name) }), `${q} on a URI ${sessionLabel(s)} holds`).toBe(shown);
        }
        // Free text finds the name shown too (any part of it, as free text does).
        expect(matchesMessage(parseFilter('"listen 3"'), msg, ctx), sessionLabel(s)).toBe(s === numbered || s === listen31);
      }
      // A number whole: listen 3 is not listen 31.
      const rows31 = { method: '', uri: '', session: '31', error: '', note: '', transport: 'HTTP POST', id: '' };
      expect(matchesMessage(parseFilter('session:"listen 3"'), rows31, ctx)).toBe(false);
      expect(matchesMessage(parseFilter('session:"listen 31"'), rows31, ctx)).toBe(true);
    });
    it('matches the ids the URI table matches a row\'s holders by (heldBy: the labels)', () => {
      for (const s of [session, listen, numbered]) {
        for (const q of [`session:${s.label}`, `-session:${s.label}`, 'session:localhost', '-session:mcp']) {
          expect(m(q, s)).toBe(matchesRow(parseFilter(q), { row: row({ heldBy: [s.label] }), sessions: [s.label] }));
        }
      }
    });
  });
});

describe('filter notes', () => {
  it('says when a word reads like a key but is not one (searched as text), not for URIs', () => {
    expect(parseFilter('sesion:abc').notes).toEqual(['sesion: is not a filter key (is: uri: session: method: finding: client:): searched as text']);
    expect(parseFilter('sesion:abc').terms).toEqual([{ key: 'text', value: 'sesion:abc', negate: false }]);
    for (const uri of ['file:///docs/a.md', 'postgres://kb/1', 'urn:isbn:123', 'http://x/y', 'policy']) expect(parseFilter(uri).notes).toEqual([]);
    expect(parseFilter('session:abc').notes).toEqual([]);
  });
  it('says which terms the view in front of the user does not use', () => {
    const f = parseFilter('method:read finding:stale is:warning session:S1');
    expect(viewNotes(f, 'resources')).toEqual(['method: applies to the Messages view only']);
    expect(viewNotes(f, 'messages')).toEqual(['finding: applies to the Resources and Findings views only', 'is:warning does not apply to messages']);
    expect(viewNotes(f, 'sessions')).toContain('only session: and client: apply to the Sessions view');
    expect(viewNotes(parseFilter('session:S1'), 'sessions')).toEqual([]);
    expect(viewNotes(parseFilter('uri:file:///*'), 'resources')).toEqual([]);
    expect(viewNotes(parseFilter('is:cached method:x is:error is:stale'), 'findings')).toEqual(['is:cached does not apply to findings', 'method: applies to the Messages view only']);
    expect(parseFilter('localhost:8080').notes).toEqual([]);
    expect(parseFilter('status:500').notes).toHaveLength(1);
    // A glob that cannot match a URI with a path: said, with what would.
    expect(parseFilter('uri:*.md').notes).toEqual(['uri:*.md is a glob over the whole URI, and * stays within one segment: try uri:**.md']);
    expect(matchesRow(parseFilter('uri:**.md'), { row: row({ uri: 'file:///docs/a.md' }), sessions: [] })).toBe(true);
    for (const q of ['uri:**.md', 'uri:file:///docs/*', 'uri:policy']) expect(parseFilter(q).notes, q).toEqual([]);
  });
  it('ignores a term that does not apply, negated or not (it never empties a view)', () => {
    const msg = { method: 'resources/read', uri: 'file:///a', session: 'S1', error: '', note: '', transport: 'streamable-http', id: '1' };
    const ctx = { staleUris: new Set<string>(), phantomUris: new Set<string>(), problemUris: new Set<string>() };
    for (const q of ['-is:warning', '-is:cached', '-is:subscribed', '-finding:x', 'finding:x', 'is:cached']) expect(matchesMessage(parseFilter(q), msg, ctx), q).toBe(true);
    for (const q of ['-method:read', 'method:read']) expect(matchesRow(parseFilter(q), { row: row(), sessions: [] }), q).toBe(true);
    // Terms that apply still count, negated or not.
    expect(matchesMessage(parseFilter('-method:read'), msg, ctx)).toBe(false);
    expect(matchesRow(parseFilter('-uri:policy'), { row: row(), sessions: [] })).toBe(false);
  });
});
