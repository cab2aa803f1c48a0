// Golden tests on real traces: every tests/fixtures/<name>.trace.json (recorded by the end-to-end suite with the real
// extension, SDK v1, SDK v2 and server-everything) is analyzed and compared with <name>.expected.json.
// To record the expectation of a new trace: UPDATE_GOLDEN=1 npx vitest run --project unit tests/unit/golden.test.ts
// (writes the missing .expected.json files; review them before committing — they are the claim).
// Session ids and event ids in a recording are random, so sessions are compared by kind/open/end cause, not label.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportTrace, parseTrace, serializeTrace } from '../../shared/trace/index.ts';
import { goldenOf, type GoldenExpectation } from '../support/golden.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';

const DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
const traces = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.trace.json')).sort() : [];

function withoutLabels(g: GoldenExpectation): unknown {
  return { ...g, sessions: g.sessions.map(({ label: _label, ...rest }) => rest) };
}

describe('golden traces', () => {
  for (const file of traces) {
    it(file, () => {
      const parsed = parseTrace(readFileSync(join(DIR, file), 'utf8'));
      if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
      const expectedPath = join(DIR, file.replace(/\.trace\.json$/, '.expected.json'));
      if (!existsSync(expectedPath)) {
        if (process.env.UPDATE_GOLDEN) {
          writeFileSync(expectedPath, JSON.stringify(goldenOf(parsed.trace), null, 2) + '\n');
          return;
        }
        throw new Error(`${file} has no ${expectedPath.split('/').pop()} (run with UPDATE_GOLDEN=1 to record one, then review it)`);
      }
      const expected = JSON.parse(readFileSync(expectedPath, 'utf8')) as GoldenExpectation;
      expect(withoutLabels(goldenOf(parsed.trace, expected))).toEqual(withoutLabels(expected));
    });
  }

  // The seam itself stays tested while no recording is committed yet.
  it('the golden projection of a scripted trace is stable across export and import', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read('file:///docs/policy.md', 'v1');
    c.subscribe('file:///docs/policy.md');
    get.close('aborted');
    c.initialize({ sessionId: 'S2' });
    const trace = exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/' });
    const back = parseTrace(serializeTrace(trace));
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const g = goldenOf(back.trace);
    expect(g).toEqual(goldenOf(trace));
    expect(g.findings.map((f) => `${f.id} ${f.reason ?? '-'} ${f.severity}`)).toEqual(['cached-not-subscribed lost-on-reinit error', 'phantom-subscription - error']);
    expect(g.sessions).toEqual([
      { label: 'S1', kind: 'session', open: false, endCause: 're-initialize' },
      { label: 'S2', kind: 'session', open: true },
    ]);
  });
});
