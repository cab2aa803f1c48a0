// `npm start` argument parsing: defaults, flags, and the clear errors (unknown scenario lists the names).
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_PORT, DEFAULT_SERVER_PORT, parseStartArgs, scenarioList } from '../../../demo/start-options.ts';
import { SCENARIOS } from '../../../demo/scenarios.ts';
import { CATALOGUE } from '../../../shared/findings/catalogue.ts';
import type { FindingId } from '../../../shared/findings/types.ts';

describe('parseStartArgs', () => {
  it('defaults to fixed ports, a timer and building', () => {
    expect(parseStartArgs([])).toEqual({ kind: 'run', options: { serverPort: DEFAULT_SERVER_PORT, pagePort: DEFAULT_PAGE_PORT, editIntervalMs: 20_000, noBuild: false, noBrowser: false } });
  });

  it('reads every flag, in both spellings', () => {
    const r = parseStartArgs(['--scenario', 'parent-only', '--port=0', '--client-port', '0', '--edit-interval', '0', '--no-build', '--no-browser']);
    expect(r).toEqual({ kind: 'run', options: { scenario: 'parent-only', serverPort: 0, pagePort: 0, editIntervalMs: 0, noBuild: true, noBrowser: true } });
    expect(parseStartArgs([], { DEMO_NO_BUILD: '1' })).toMatchObject({ options: { noBuild: true } });
    expect(parseStartArgs(['--list'])).toEqual({ kind: 'list' });
    expect(parseStartArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it('an unknown scenario names the known ones', () => {
    const r = parseStartArgs(['--scenario', 'nope']);
    expect(r.kind).toBe('error');
    if (r.kind !== 'error') return;
    expect(r.message).toMatch(/Unknown scenario 'nope'/);
    expect(r.message).toMatch(/reconnect-without-resubscribe/);
    expect(r.message).toMatch(/healthy-v2/);
  });

  it.each([[['--scenario']], [['--port', 'x']], [['--port', '70000']], [['--edit-interval', '-1']], [['--edit-interval', '3000000000']], [['--bogus']], [['--port', '9000', '--client-port', '9000']]])('%j is an error', (argv) => {
    expect(parseStartArgs(argv).kind).toBe('error');
  });

  it.each([['--no-build=0'], ['--no-browser=false'], ['--list=1']])('a switch given a value (%s) is refused, not read as on', (arg) => {
    const r = parseStartArgs([arg]);
    expect(r).toEqual({ kind: 'error', message: expect.stringMatching(/takes no value/) });
  });
});

describe('scenarioList (--list)', () => {
  // Each scenario's block: its name line, then its findings, one a line ('expects:' / 'may also show:' start a section).
  const blocks = () => {
    const out = new Map<string, { text: string; expects: string[]; also: string[] }>();
    let cur: { text: string; expects: string[]; also: string[] } | undefined;
    let section: 'expects' | 'also' = 'expects';
    for (const line of scenarioList().split('\n')) {
      const m = /^ {2}(\S+) /.exec(line);
      if (m?.[1]) out.set(m[1], (cur = { text: '', expects: [], also: [] }));
      if (!cur) throw new Error(`a line before the first scenario: ${line}`);
      cur.text += `${line}\n`;
      if (m) continue;
      if (/^\s+expects:/.test(line)) section = 'expects';
      if (/^\s+may also show:/.test(line)) section = 'also';
      const f = line.replace(/^\s+(expects:|may also show:)?\s*/, '');
      if (f !== 'no findings') cur[section].push(f);
    }
    return out;
  };

  it('names what each scenario expects and what it may also show (its allowed findings), from the data', () => {
    const b = blocks();
    expect([...b.keys()]).toEqual(SCENARIOS.map((s) => s.name));
    const ids = (lines: string[]) => lines.map((l) => l.split(' ')[0]);
    for (const s of SCENARIOS) {
      const block = b.get(s.name);
      expect(block?.text, s.name).toContain(s.title);
      expect(ids(block?.expects ?? []), s.name).toEqual(s.findings.expected);
      expect(ids(block?.also ?? []), s.name).toEqual(s.findings.allowed ?? []);
    }
    expect(b.get('server-restart')?.text).toMatch(/may also show: +cached-not-subscribed/);
    expect(b.get('listen-refused')?.text).toMatch(/may also show: +subscribe-unsupported/);
    expect(b.get('healthy')?.text).toMatch(/expects: +no findings/);
  });

  it('quotes each finding by the title the panel shows for it (the catalogue\'s), next to its id', () => {
    for (const [name, block] of blocks()) {
      for (const line of [...block.expects, ...block.also]) {
        const m = /^(\S+) +"(.*)"$/.exec(line);
        expect(m, `${name}: ${line}`).not.toBeNull();
        expect(m?.[2], `${name}: ${line}`).toBe(CATALOGUE[m?.[1] as FindingId].title);
      }
    }
    expect(blocks().get('server-restart')?.text).toMatch(/phantom-subscription +"Client believes it is subscribed; the server has no record"/);
  });
});
