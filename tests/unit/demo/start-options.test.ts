// `npm start` argument parsing: defaults, flags, and the clear errors (unknown scenario lists the names).
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_PORT, DEFAULT_SERVER_PORT, parseStartArgs, scenarioList } from '../../../demo/start-options.ts';
import { SCENARIOS } from '../../../demo/scenarios.ts';

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
  // Each scenario's block: its name line and the indented lines under it, up to the next name.
  const blocks = () => {
    const out = new Map<string, string>();
    let name = '';
    for (const line of scenarioList().split('\n')) {
      const m = /^ {2}(\S+) /.exec(line);
      if (m?.[1]) name = m[1];
      out.set(name, `${out.get(name) ?? ''}${line}\n`);
    }
    return out;
  };

  it('names what each scenario expects and what it may also show (its allowed findings), from the data', () => {
    const b = blocks();
    expect([...b.keys()]).toEqual(SCENARIOS.map((s) => s.name));
    for (const s of SCENARIOS) {
      const text = b.get(s.name) ?? '';
      expect(text, s.name).toContain(s.title);
      for (const id of s.findings.expected) expect(/expects: (.*)/.exec(text)?.[1], s.name).toContain(id);
      const also = /may also show: (.*)/.exec(text)?.[1];
      if (s.findings.allowed?.length) for (const id of s.findings.allowed) expect(also, s.name).toContain(id);
      else expect(also, s.name).toBeUndefined();
    }
    expect(b.get('server-restart')).toMatch(/may also show: .*cached-not-subscribed/);
    expect(b.get('listen-refused')).toMatch(/may also show: .*subscribe-unsupported/);
    expect(b.get('healthy')).toMatch(/expects: no findings/);
  });
});
