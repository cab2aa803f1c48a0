// `npm start` argument parsing: defaults, flags, and the clear errors (unknown scenario lists the names).
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_PORT, DEFAULT_SERVER_PORT, parseStartArgs } from '../../../demo/start-options.ts';

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
