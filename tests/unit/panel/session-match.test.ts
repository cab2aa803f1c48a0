// The sessions a finding concerns (`session:` in the URI table and the Findings view) are found through indexes
// (labels by word, each client's sessions by start): held here to the plain per-session scan they replace.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { followsUriAcrossSessions, type Finding, type FindingId, type SessionView, type UriRow } from '../../../shared/engine/index.ts';
import type { Filter } from '../../../panel/model/filter.ts';
import { findingMatches } from '../../../panel/model/findings-view.ts';
import { filterRows, findingSessions, rowSessions, type SessionSpan } from '../../../panel/model/uri-table.ts';
import { sessionNameMatches } from '../../../panel/model/session-label.ts';

type FindingFacts = Parameters<typeof findingSessions>[0];

/** The plain definition: every session, one by one. */
function naiveFindingSessions(f: FindingFacts, sessions: readonly SessionSpan[]): string[] {
  const out = f.session !== undefined ? [f.session] : [];
  const detail = f.detail;
  if (detail) {
    for (const s of sessions) {
      if (s.label === f.session || (s.doc !== undefined && s.doc !== f.doc) || (s.endpoint !== undefined && s.endpoint !== f.endpoint)) continue;
      const named = /^\d+$/.test(s.label) ? [`listen ${s.label}`, `session ${s.label}`, `${s.label} ended`].some((x) => namesId(detail, x)) : namesId(detail, s.label);
      if (named) out.push(s.label);
    }
  }
  if (followsUriAcrossSessions(f.id)) {
    for (const s of sessions) {
      if (s.startT === undefined || s.doc !== f.doc || s.endpoint !== f.endpoint || out.includes(s.label)) continue;
      if (heldDuring(f, s.startT, s.endT ?? Infinity)) out.push(s.label);
    }
  }
  return out;
}

function heldDuring(f: Pick<Finding, 'firstT' | 'lastT' | 'spans'>, from: number, to: number): boolean {
  if (!f.spans) return f.firstT < to && from <= f.lastT;
  for (const [t0, t1] of f.spans) if (t0 < to && from <= t1) return true;
  return false;
}

function namesId(text: string, id: string): boolean {
  if (id.length === 0) return false;
  for (let i = text.indexOf(id); i >= 0; i = text.indexOf(id, i + 1)) {
    const before = i === 0 ? '' : text[i - 1]!;
    const after = text[i + id.length] ?? '';
    if (!/[A-Za-z0-9_-]/.test(before) && !/[A-Za-z0-9_-]/.test(after)) return true;
  }
  return false;
}

// Labels that are prefixes of one another, numbers (named only as "listen 21", "21 ended"…), words of the details,
// ids that are not one word, an empty one.
const LABELS = ['S1', 'S10', 's1', '21', '2', 'listen', 'ended', 'a.b', 'x y', '-S1', 'S1-', ''];
const WORDS = [...LABELS, 'listen', 'session', 'ended', 'seq', 'at'];
const SEPARATORS = [' ', ' ', '  ', '.', ', ', '-', '', '(', ')'];
const VALUES = ['s1', 's10', '1', '2', '21', 's', 'a', '.', ' ', 'x y', '-', 'listen', 'zz'];

// Mostly one client: a finding's client has several sessions to search among; sometimes another, or none said.
const client = { doc: fc.constantFrom('d0', 'd0', 'd0', 'd1', undefined), endpoint: fc.constantFrom('e0', 'e0', 'e0', 'e1', undefined) };
// Few distinct times: sessions and spans often start or end at the same time (the bounds of the searches).
const time = fc.integer({ min: 0, max: 8 });
const sessionArb = fc.record({
  label: fc.constantFrom(...LABELS),
  ...client,
  startT: fc.option(time, { nil: undefined }),
  length: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
});
const detailArb = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 6 })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(''));
const findingArb = fc.record({
  id: fc.constantFrom<FindingId>('cached-not-subscribed', 'phantom-subscription', 'cache-age-exceeded'),
  session: fc.option(fc.constantFrom(...LABELS), { nil: undefined }),
  detail: fc.option(detailArb, { nil: undefined }),
  ...client,
  uri: fc.option(fc.constantFrom('file:///a', 'file:///b'), { nil: undefined }),
  firstT: time,
  length: fc.integer({ min: 0, max: 4 }),
  spans: fc.option(fc.array(fc.tuple(time, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 4 }), { nil: undefined }),
});

function toSessions(xs: Array<{ label: string; doc: string | undefined; endpoint: string | undefined; startT: number | undefined; length: number | undefined }>): SessionSpan[] {
  return xs.map(({ length, ...s }) => ({ ...s, endT: s.startT === undefined || length === undefined ? undefined : s.startT + length }));
}

function toFinding(x: { id: FindingId; session: string | undefined; detail: string | undefined; doc: string | undefined; endpoint: string | undefined; uri: string | undefined; firstT: number; length: number; spans: Array<[number, number]> | undefined }): Finding {
  // Spans oldest first, as the engine keeps them; firstT…lastT covers them.
  const spans = x.spans?.map(([t0, d]): [number, number] => [t0, t0 + d]).sort((a, b) => a[0] - b[0]);
  const firstT = spans ? spans[0]![0] : x.firstT;
  const lastT = spans ? Math.max(...spans.map((s) => s[1])) : x.firstT + x.length;
  return { id: x.id, session: x.session, detail: x.detail, doc: x.doc, endpoint: x.endpoint, uri: x.uri, firstT, lastT, spans } as unknown as Finding;
}

const sessionFilter = (value: string, negate = false): Filter => ({ terms: [{ key: 'session', value, negate }], errors: [], notes: [] });

describe('sessions a finding concerns', () => {
  it('findingSessions lists what the per-session scan lists, in the same order', () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { maxLength: 10 }), findingArb, (ss, x) => {
        const sessions = toSessions(ss);
        const f = toFinding(x);
        expect(findingSessions(f, sessions)).toEqual(naiveFindingSessions(f, sessions));
      }),
      { numRuns: 3000 },
    );
  });

  it('the Findings view keeps a finding for session:<value> when session: finds one of the scan’s sessions (sessionNameMatches)', () => {
    fc.assert(
      fc.property(fc.array(sessionArb, { maxLength: 10 }), findingArb, fc.constantFrom(...VALUES), fc.boolean(), (ss, x, value, negate) => {
        const sessions = toSessions(ss);
        const f = toFinding(x);
        const hit = naiveFindingSessions(f, sessions).some((s) => sessionNameMatches(value, s));
        expect(findingMatches(f, sessionFilter(value, negate), sessions)).toBe(hit !== negate);
      }),
      { numRuns: 3000 },
    );
  });

  it('the URI table keeps the rows the plain rowSessions would, for one or two session: terms', () => {
    const row = fc.record({ uri: fc.constantFrom('file:///a', 'file:///b'), ...client, heldBy: fc.array(fc.constantFrom(...LABELS), { maxLength: 2 }) });
    const term = fc.record({ value: fc.constantFrom(...VALUES), negate: fc.boolean() });
    fc.assert(
      fc.property(fc.array(sessionArb, { maxLength: 10 }), fc.array(findingArb, { maxLength: 8 }), fc.array(row, { maxLength: 4 }), fc.array(term, { minLength: 1, maxLength: 2 }), (ss, xs, rs, terms) => {
        const sessions = toSessions(ss);
        const findings = xs.map(toFinding);
        // One row per key, as in a snapshot.
        const keyed = rs.map((r) => ({ ...r, key: `${r.doc ?? ''} ${r.endpoint ?? ''} ${r.uri}` }) as unknown as UriRow);
        const uris = keyed.filter((r, i) => keyed.findIndex((o) => o.key === r.key) === i);
        const snapshot = { uris, findings, sessions: sessions as SessionView[] };
        const filter: Filter = { terms: terms.map((t) => ({ key: 'session' as const, ...t })), errors: [], notes: [] };
        // The plain definition: every session that concerns the row (rowSessions), asked of each term.
        const byRow = new Map<string, string[]>();
        for (const f of findings) {
          const k = f.uri === undefined ? undefined : `${f.doc ?? ''} ${f.endpoint ?? ''} ${f.uri}`;
          if (k !== undefined) byRow.set(k, [...(byRow.get(k) ?? []), ...naiveFindingSessions(f, sessions)]);
        }
        const expected = uris.filter((r) => terms.every((t) => [...r.heldBy, ...(byRow.get(r.key) ?? [])].some((s) => sessionNameMatches(t.value, s)) !== t.negate));
        expect(filterRows(snapshot, filter)).toEqual(expected);
        expect(new Set(rowSessions(snapshot).get(uris[0]?.key ?? '') ?? [])).toEqual(new Set(uris[0] ? [...uris[0].heldBy, ...(byRow.get(uris[0].key) ?? [])] : []));
      }),
      { numRuns: 2000 },
    );
  });

  it('a session that ended as the finding began is not one it held in, though a later one in the search ends after', () => {
    // Sorted by start: X, A, B; the search visits A first (the middle), with B (ending after the span began) below it.
    const sessions: SessionSpan[] = [
      { label: 'S1x', doc: 'd', endpoint: 'e', startT: 0, endT: 1 },
      { label: 'S1a', doc: 'd', endpoint: 'e', startT: 0, endT: 2 },
      { label: 'S1b', doc: 'd', endpoint: 'e', startT: 5, endT: 6 },
    ];
    const f = toFinding({ id: 'cached-not-subscribed', session: undefined, detail: undefined, doc: 'd', endpoint: 'e', uri: 'file:///a', firstT: 2, length: 1, spans: undefined });
    expect(findingSessions(f, sessions)).toEqual([]);
    expect(findingMatches(f, sessionFilter('s1'), sessions)).toBe(false);
    expect(findingMatches({ ...f, lastT: 5 }, sessionFilter('s1'), sessions)).toBe(true);
  });
});
