// Trace format v1: export → import is lossless; a bad file gets a precise error naming what and where; the JSON schema
// in the repo accepts exactly what the importer accepts (checked with ajv on valid and mutated traces).
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { frameProblem } from '../../../shared/frame-shape.ts';
import { FRAME_KINDS } from '../../../shared/frames.ts';
import { exportTrace, parseTrace, serializeTrace, validateTrace } from '../../../shared/trace/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, ModernClient, StreamableClient, WsClient } from '../../support/mcp-clients.ts';

const schema = JSON.parse(readFileSync(new URL('../../../shared/trace/trace.schema.json', import.meta.url), 'utf8'));
// Both are CommonJS: under ESM the class/function may sit on `.default`.
type AjvCtor = new (o: object) => { compile(s: object): (v: unknown) => boolean };
const AjvClass = ((Ajv2020 as unknown as { default?: AjvCtor }).default ?? Ajv2020) as unknown as AjvCtor;
const ajv = new AjvClass({ allErrors: false, strict: false });
((addFormats as unknown as { default?: (a: unknown) => void }).default ?? (addFormats as unknown as (a: unknown) => void))(ajv);
const schemaValid = ajv.compile(schema);

function everyKindTrace() {
  const log = new FrameLog();
  log.pageStart('http://localhost:8080/');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S' });
  const get = c.openGet({ ids: 'e' });
  get.priming().updated('file:///a');
  log.emit({ kind: 'sse-comment', conn: get.conn, text: 'keep-alive' });
  get.close('failed');
  c.read('file:///big', 'x'.repeat(10));
  new ModernClient(log, 'http://localhost:3000/mcp26').listen(['file:///a']).complete();
  const es = new LegacySseClient(log, 'http://localhost:3001/sse', 'eventsource');
  es.connect('a');
  es.drop();
  log.emit({ kind: 'es-close', conn: es.conn });
  const ws = new WsClient(log, 'ws://localhost:3002/');
  ws.connect();
  ws.initialize();
  log.emit({ kind: 'ws-error', conn: ws.conn });
  ws.close();
  log.emit({ kind: 'capture-error', where: 'fetch:body', message: 'boom' });
  log.pageEnd('http://localhost:8080/');
  return exportTrace({ frames: log.frames, createdAt: log.t, pageUrl: 'http://localhost:8080/', dropped: { frames: 0 } });
}

function firstWithHeaders(t: Record<string, unknown>): number {
  return (t.frames as { headers?: object }[]).findIndex((f) => f.headers !== undefined);
}

describe('trace export redaction', () => {
  it('applies the rules again (extra secret headers named later, an old endpoint in clear); redacted values stay; off when asked', () => {
    const log = new FrameLog('d');
    const c = new LegacySseClient(log, 'http://localhost:3001/sse');
    c.connect('abc', '&api_key=SECRET42');
    const post = log.newConn('post');
    log.httpRequest(post, 'POST', c.postUrl, { 'x-tenant-key': 'TENANTSECRET', authorization: '[redacted:0000abcd]' }, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    const t = exportTrace({ frames: log.frames, createdAt: log.t, pageUrl: 'http://localhost:8080/?token=PAGESECRET', extraSecretHeaders: ['x-tenant-secret-id', 'X-Tenant-Key'] });
    const text = serializeTrace(t);
    for (const secret of ['SECRET42', 'TENANTSECRET', 'PAGESECRET']) expect(text).not.toContain(secret);
    const req = t.frames.find((f) => f.kind === 'http-request' && f.conn === post) as Extract<(typeof t.frames)[number], { kind: 'http-request' }>;
    expect(req.headers.authorization).toBe('[redacted:0000abcd]');
    // What had nothing to redact is the very same frame.
    expect(t.frames.filter((f, i) => f === log.frames[i]).length).toBe(log.frames.length - 2);
    expect(validateTrace(JSON.parse(text)).ok).toBe(true);
    const raw = serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t, pageUrl: 'http://x/', redaction: { enabled: false }, extraSecretHeaders: ['x-tenant-key'] }));
    expect(raw).toContain('TENANTSECRET');
  });
});

describe('trace v1', () => {
  it('round-trips losslessly and re-analyzes to the same state', () => {
    const trace = everyKindTrace();
    expect(new Set(trace.frames.map((f) => f.kind))).toEqual(new Set(FRAME_KINDS));
    const text = serializeTrace(trace);
    const back = parseTrace(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.trace).toEqual(trace);
    const now = trace.frames.at(-1)!.t + 5000;
    expect(Engine.replay(back.trace.frames).snapshot(now).findings).toEqual(Engine.replay(trace.frames).snapshot(now).findings);
    expect(schemaValid(JSON.parse(text))).toBe(true);
  });

  it('writes one frame per line', () => {
    const text = serializeTrace(everyKindTrace());
    const lines = text.trim().split('\n');
    expect(lines[0]).toMatch(/^\{"format":"mcp-devtools-trace","version":1,.*"frames":\[$/);
    expect(lines.at(-1)).toBe(']}');
  });

  const bad: [string, (t: Record<string, unknown>) => unknown, string][] = [
    ['not JSON', () => '{"format":', 'not JSON'],
    ['an array', (t) => [t.frames], 'expected a trace object, got an array (a bare frame list is not a trace file)'],
    ['wrong format', (t) => ({ ...t, format: 'har' }), 'format: expected "mcp-devtools-trace", got "har"'],
    ['newer version', (t) => ({ ...t, version: 2 }), 'version: 2 is newer than this tool reads (1)'],
    ['bad createdAt', (t) => ({ ...t, createdAt: 'yesterday' }), 'createdAt: expected an ISO 8601 time, got "yesterday"'],
    ['no page url', (t) => ({ ...t, page: {} }), 'page.url: missing'],
    ['no frames', (t) => ({ ...t, frames: undefined }), 'frames: missing'],
    ['a frame without seq', (t) => ({ ...t, frames: (t.frames as object[]).map((f, i) => (i === 12 ? { ...f, seq: undefined } : f)) }), 'frames[12].seq: missing'],
    ['a malformed field', (t) => ({ ...t, frames: (t.frames as object[]).map((f, i) => (i === 3 ? { ...f, t: 'soon' } : f)) }), 'frames[3].t: malformed'],
    ['an unknown kind', (t) => ({ ...t, frames: (t.frames as object[]).map((f, i) => (i === 5 ? { ...f, kind: 'smoke-signal' } : f)) }), 'frames[5]: unknown kind "smoke-signal"'],
    ['a capitalised header name', (t) => ({ ...t, frames: (t.frames as { kind: string; headers?: object }[]).map((f, i) => (i === firstWithHeaders(t) ? { ...f, headers: { 'Mcp-Session-Id': 'S' } } : f)) }), `frames[`],
    ['redaction.enabled as a string', (t) => ({ ...t, redaction: { enabled: 'true' } }), 'redaction.enabled: expected true or false, got "true"'],
    ['page.url as a number', (t) => ({ ...t, page: { url: 5 } }), 'page.url: expected a string, got 5'],
    ['page as null', (t) => ({ ...t, page: null }), 'page: expected an object with a url, got null'],
    ['a fractional version', (t) => ({ ...t, version: 1.5 }), 'version: expected 1, got 1.5'],
    ['tool.version as a number', (t) => ({ ...t, tool: { name: 'x', version: 1 } }), 'tool.version: expected a string, got 1'],
    ['tool as a string', (t) => ({ ...t, tool: 'mcp-devtools' }), 'tool: expected an object with name and version, got "mcp-devtools"'],
    ['frames as an object', (t) => ({ ...t, frames: { a: 1 } }), 'frames: expected an array, got {"a":1}'],
    ['a malformed field whose value holds a line separator', (t) => ({ ...t, frames: (t.frames as object[]).map((f, i) => (i === 3 ? { ...f, t: 'soon\u2028x' } : f)) }), 'frames[3].t: malformed'],
    ['an infinite version', (t) => ({ ...t, version: Infinity }), 'version: expected 1, got Infinity'],
    [
      'seq going backwards',
      (t) => ({ ...t, frames: (t.frames as { seq: number }[]).map((f, i) => (i === 7 ? { ...f, seq: 2 } : f)) }),
      'frames[7].seq: 2 is not greater than frames[6].seq (7)',
    ],
  ];
  for (const [name, mutate, error] of bad) {
    it(`rejects ${name} with "${error}"`, () => {
      const t = JSON.parse(serializeTrace(everyKindTrace())) as Record<string, unknown>;
      const m = mutate(t);
      const r = typeof m === 'string' ? parseTrace(m) : validateTrace(m);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.ok || r.error.startsWith(error) ? r.error.slice(0, error.length) : r.error).toBe(error);
    });
  }

  it('names a capitalised header precisely', () => {
    const t = JSON.parse(serializeTrace(everyKindTrace())) as Record<string, unknown>;
    const i = firstWithHeaders(t);
    (t.frames as { headers: object }[])[i]!.headers = { 'content-type': 'application/json', 'Mcp-Session-Id': 'S' };
    expect(validateTrace(t)).toEqual({ ok: false, error: `frames[${i}].headers: malformed (header names are lower-case, as page JS sees them; got "Mcp-Session-Id")` });
    expect(schemaValid(t)).toBe(false);
    // Only A–Z, as in the schema: other letters are not a header name's case.
    (t.frames as { headers: object }[])[i]!.headers = { 'x-Ä': 'a' };
    expect([validateTrace(t).ok, schemaValid(t)]).toEqual([true, true]);
  });

  it('the schema agrees with the importer on createdAt and on large integers', () => {
    const base = JSON.parse(serializeTrace(everyKindTrace())) as Record<string, unknown> & { frames: Record<string, unknown>[]; dropped: object };
    const times = ['2026-12-02', '2026-12-02T10:00Z', '2026-12-02T10:00:00Z', '2026-12-02T10:00:00.123+01:00', '2026-12-02T23:59:60Z', '2026-12-02t10:00:00z', '2026-12-02 10:00:00Z', '2026-12-02T10:00:00', '2026-13-01', '2026-12-02T24:00Z', '2026-12-02T10:00+24:00', '20261202'];
    for (const createdAt of times) expect([createdAt, schemaValid({ ...base, createdAt })]).toEqual([createdAt, validateTrace({ ...base, createdAt }).ok]);
    for (const n of [2 ** 53 - 1, 2 ** 53, 1e300]) {
      expect(schemaValid({ ...base, dropped: { frames: n } })).toBe(validateTrace({ ...base, dropped: { frames: n } }).ok);
      const frames = base.frames.map((f, k) => (k === base.frames.length - 1 ? { ...f, seq: n } : f));
      expect(schemaValid({ ...base, frames })).toBe(validateTrace({ ...base, frames }).ok);
    }
  });

  // Strictly increasing seq is the importer's job: JSON Schema cannot say it. Everything else must agree.
  it('the schema agrees with the importer on mutated frames', () => {
    const base = JSON.parse(serializeTrace(everyKindTrace())) as { frames: Record<string, unknown>[] };
    const values = [undefined, null, 0, -1, 1.5, 'x', true, [], {}, { text: 'a' }];
    fc.assert(
      fc.property(fc.nat(base.frames.length - 1), fc.constantFrom(...Object.keys(base.frames[0]!), 'conn', 'body', 'data', 'status', 'headers', 'outcome'), fc.constantFrom(...values), (i, field, value) => {
        const frames = base.frames.map((f, k) => (k === i ? { ...f, [field]: value } : f));
        if (value === undefined) delete frames[i]![field];
        const t = JSON.parse(JSON.stringify({ ...base, frames })) as typeof base;
        expect(schemaValid(t)).toBe(frameProblem(t.frames[i]) === null);
      }),
      { numRuns: 400 },
    );
  }, 60_000);
});

describe('trace versioning (docs/trace-format.md, Versioning)', () => {
  const base = () => JSON.parse(serializeTrace(everyKindTrace())) as Record<string, unknown> & { frames: Record<string, unknown>[]; tool: { name: string; version: string } };
  const endAt = (t: ReturnType<typeof base>) => t.frames.findIndex((f) => f.kind === 'http-end');
  const wsAt = (t: ReturnType<typeof base>) => t.frames.findIndex((f) => f.kind === 'ws-message');

  it('a kind or an enumerated value v1 lacks refuses the file, saying a newer mcp-devtools wrote it when its tool says so', () => {
    const t = base();
    t.tool = { name: 'mcp-devtools', version: '0.10.0' };
    t.frames[3] = { ...t.frames[3], kind: 'smoke-signal' };
    expect(validateTrace(t)).toEqual({ ok: false, error: 'frames[3]: unknown kind "smoke-signal" (not in trace format v1: the file was written by mcp-devtools 0.10.0, newer than this one, 0.1.0; a newer mcp-devtools reads it)' });
    const u = base();
    u.tool = { name: 'mcp-devtools', version: '0.2' };
    const i = endAt(u);
    u.frames[i] = { ...u.frames[i], outcome: 'timed-out' };
    expect(validateTrace(u)).toMatchObject({ ok: false, error: `frames[${i}].outcome: malformed (got "timed-out") (not in trace format v1: the file was written by mcp-devtools 0.2, newer than this one, 0.1.0; a newer mcp-devtools reads it)` });
  });

  it('from this version or another tool: not v1, and nothing claims a newer tool would read it', () => {
    const t = base();
    const i = wsAt(t);
    t.frames[i] = { ...t.frames[i], dir: 'sideways' };
    expect(validateTrace(t)).toEqual({ ok: false, error: `frames[${i}].dir: malformed (got "sideways") (not in trace format v1, and a writer that adds one must raise the format version: the file was edited, or written by another tool)` });
    // A malformed value that is no newer writer's (not a string) gets no such words.
    t.frames[i] = { ...t.frames[i], dir: 3 };
    expect(validateTrace(t)).toEqual({ ok: false, error: `frames[${i}].dir: malformed (got 3)` });
    expect(validateTrace({ ...base(), version: 2 })).toEqual({ ok: false, error: 'version: 2 is newer than this tool reads (1): a newer mcp-devtools reads it' });
  });

  it('extra properties (top level, header objects, frames) are read and ignored; the schema agrees', () => {
    const t = base();
    const extra = { ...t, x_top: { a: 1 }, page: { ...(t.page as object), x_page: true }, frames: t.frames.map((f, k) => (k === 1 ? { ...f, x_vendor: 'v' } : f)) };
    const r = validateTrace(extra);
    expect(r.ok).toBe(true);
    expect(schemaValid(extra)).toBe(true);
    if (r.ok) expect((r.trace as unknown as Record<string, unknown>).x_top).toEqual({ a: 1 });
  });
});

describe('the "analysis" header (optional)', () => {
  const base = () => JSON.parse(serializeTrace(everyKindTrace())) as Record<string, unknown>;
  const good = { freshnessRules: [{ pattern: 'file:///docs/**', maxAgeMs: 1000 }], defaultMaxAgeMs: 600_000, graceMs: 2000 };

  it('is written by exportTrace when given, before the frames, and read back; a trace without it stays valid', () => {
    const t = exportTrace({ frames: everyKindTrace().frames, createdAt: 0, pageUrl: 'http://x/', analysis: good });
    const text = serializeTrace(t);
    expect(text.split('\n')[0]).toMatch(/"dropped":\{"frames":0\},"analysis":\{"freshnessRules":\[\{"pattern":"file:\/\/\/docs\/\*\*","maxAgeMs":1000\}\],"defaultMaxAgeMs":600000,"graceMs":2000\},"frames":\[$/);
    const back = parseTrace(text);
    expect(back.ok && back.trace.analysis).toEqual(good);
    expect(validateTrace(base()).ok).toBe(true);
  });

  it('the schema agrees with the importer on it', () => {
    const cases: unknown[] = [
      good,
      { ...good, graceMs: undefined },
      { ...good, graceMs: 0 },
      { ...good, graceMs: -1 },
      { ...good, graceMs: 2592000001 },
      { ...good, defaultMaxAgeMs: 999 },
      { ...good, defaultMaxAgeMs: '600000' },
      { freshnessRules: [], defaultMaxAgeMs: 1000 },
      { defaultMaxAgeMs: 1000 },
      { freshnessRules: [] },
      { freshnessRules: {}, defaultMaxAgeMs: 1000 },
      { freshnessRules: [{ pattern: '', maxAgeMs: 1 }], defaultMaxAgeMs: 1000 },
      { freshnessRules: [{ pattern: ' \t', maxAgeMs: 1 }], defaultMaxAgeMs: 1000 },
      { freshnessRules: [{ pattern: 'x', maxAgeMs: 0.5 }], defaultMaxAgeMs: 1000 },
      { freshnessRules: [{ pattern: 'x', maxAgeMs: 1.5 }], defaultMaxAgeMs: 1000 },
      { freshnessRules: [{ pattern: 'x' }], defaultMaxAgeMs: 1000 },
      { freshnessRules: ['x'], defaultMaxAgeMs: 1000 },
      { ...good, x_future: 1 },
      null,
      [],
      'rules',
    ];
    for (const analysis of cases) {
      const t = JSON.parse(JSON.stringify({ ...base(), analysis })) as Record<string, unknown>;
      expect([analysis, schemaValid(t)]).toEqual([analysis, validateTrace(t).ok]);
    }
    expect(validateTrace({ ...base(), analysis: { ...good, defaultMaxAgeMs: 999 } })).toEqual({ ok: false, error: 'analysis.defaultMaxAgeMs: expected milliseconds from 1000 to 2592000000, got 999' });
    expect(validateTrace({ ...base(), analysis: { defaultMaxAgeMs: 1000 } })).toEqual({ ok: false, error: 'analysis.freshnessRules: missing' });
  });
});
