// The scenario table is data other tests loop over: names unique, every finding id real and every one demonstrated,
// healthy on both generations expects none, steps only touch resources the server has.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FINDING_IDS, SCENARIOS, findScenario } from '../../../demo/scenarios.ts';
import { KbStore } from '../../../demo/server/kb-store.ts';
import { isKnownResource } from '../../../demo/server/resources.ts';

describe('scenarios', () => {
  it('have unique names and the ones the brief names', () => {
    const names = SCENARIOS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['healthy', 'healthy-v2', 'reconnect-without-resubscribe', 'out-of-order-reads', 'parent-only', 'server-restart', 'notify-no-reread', 'dropped-notifications', 'no-get-stream', 'listen-refused']) {
      expect(findScenario(n), n).toBeDefined();
    }
  });

  it('healthy scenarios on both generations expect no findings', () => {
    for (const n of ['healthy', 'healthy-v2', 'healthy-sse']) expect(findScenario(n)?.findings.expected).toEqual([]);
    expect(findScenario('healthy')?.connection.generation).toBe('2025-11-25');
    expect(findScenario('healthy-v2')?.connection.generation).toBe('2026-07-28');
  });

  it('name only real finding ids, and together demonstrate every one', () => {
    const ids = new Set<string>(FINDING_IDS);
    const shown = new Set<string>();
    for (const s of SCENARIOS) {
      for (const f of [...s.findings.expected, ...(s.findings.allowed ?? [])]) expect(ids.has(f), `${s.name}: ${f}`).toBe(true);
      for (const f of s.findings.expected) shown.add(f);
    }
    expect([...ids].filter((id) => !shown.has(id))).toEqual([]);
  });

  it('every step uses resources the server has, and every scenario checks the client at least once', () => {
    const store = new KbStore();
    for (const s of SCENARIOS) {
      for (const step of s.steps) if ('uri' in step) expect(isKnownResource(store, step.uri), `${s.name}: ${step.uri}`).toBe(true);
      expect(s.steps.some((st) => st.do === 'expect'), s.name).toBe(true);
    }
  });

  it('are all documented in demo/README.md with their expected findings and the ones they may also show', () => {
    const readme = readFileSync('demo/README.md', 'utf8');
    expect(readme).toContain('| scenario | generation | what goes wrong | expected findings | may also show |');
    const ids = (cell: string | undefined, none: string) => {
      const c = cell?.trim() ?? '';
      return c === none ? [] : c.split(', ').sort();
    };
    for (const s of SCENARIOS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${s.name}\` |`));
      expect(row, s.name).toBeDefined();
      const cells = row?.split('|') ?? [];
      expect(ids(cells.at(-3), 'none'), s.name).toEqual([...s.findings.expected].sort());
      expect(ids(cells.at(-2), '—'), `${s.name}: may also show`).toEqual([...(s.findings.allowed ?? [])].sort());
    }
  });
});
