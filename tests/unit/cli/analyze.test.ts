// The analyze CLI: exit codes 0/1/2, --json, --fail-on, --now, --rule, and clear messages for unusable input.
// Run in-process through main(), plus once as a real process the way CI runs it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { DEFAULT_SETTINGS, validateSettings } from '../../../shared/settings.ts';
import { main } from '../../../cli/analyze.ts';
import { Decoder } from '../../../shared/decode/decoder.ts';
import { exportTrace, serializeTrace } from '../../../shared/trace/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { LegacySseClient, StreamableClient } from '../../support/mcp-clients.ts';
import { oneClientLog, reloadedLog, twoEndpointLog } from '../../support/two-clients.ts';

const POLICY = 'file:///docs/policy.md';

/** A client that reconnects without resubscribing (errors), plus a URI read and never subscribed (warning). */
function brokenTrace(exportDelayMs = 5000): string {
  const log = new FrameLog();
  log.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  get.close('aborted');
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  return serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + exportDelayMs, pageUrl: 'http://localhost:8080/kb' }));
}

function healthyTrace(withWarning = false): string {
  const log = new FrameLog();
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(POLICY, 'v1');
  c.subscribe(POLICY);
  if (withWarning) c.read('file:///docs/faq.md', 'faq');
  return serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/kb' }));
}

function cli(argv: string[], files: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = main(argv, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readFile: (p) => {
      if (!(p in files)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      return files[p]!;
    },
  });
  return { code, stdout, stderr };
}

describe('analyze', () => {
  it('exits 0 on a healthy trace and prints sessions, URIs, findings and metrics', () => {
    const r = cli(['ok.json'], { 'ok.json': healthyTrace() });
    expect(r.code).toBe(0);
    for (const section of ['SESSIONS', 'URIS', 'FINDINGS (0)', 'METRICS']) expect(r.stdout).toContain(section);
    expect(r.stdout).toContain(POLICY);
    expect(r.stderr).toBe('');
  });

  it('exits 1 on error-level findings and explains them', () => {
    const r = cli(['bad.json'], { 'bad.json': brokenTrace() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[ERROR] phantom-subscription');
    expect(r.stdout).toContain('[ERROR] cached-not-subscribed (lost-on-reinit: lost when its session ended)');
    expect(r.stdout).toMatch(/fix: Treat every new session as empty/);
    // The explanations are wrapped for an 80-column terminal, under their label.
    const prose = r.stdout.split('\n').filter((l) => /^( {3}(why|fix): | {8}\S)/.test(l));
    expect(prose.length).toBeGreaterThan(4);
    expect(prose.every((l) => l.length <= 80)).toBe(true);
    expect(r.stdout).toContain('frame seq ');
  });

  it('names a legacy session the stream reconnected to without an initialize', () => {
    const log = new FrameLog();
    const c = new LegacySseClient(log, 'http://localhost:3001/sse', 'eventsource');
    c.connect('a');
    c.initialize();
    c.call('resources/read', { uri: POLICY }, { contents: [{ uri: POLICY, text: 'v1' }] });
    c.call('resources/subscribe', { uri: POLICY });
    c.drop();
    c.connect('b');
    const r = cli(['legacy.json'], { 'legacy.json': serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/' })) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ *b +http:\/\/localhost:3001\/sse +http-sse\/2025 \(not initialized\) +open/m);
    expect(r.stdout).toContain('[ERROR] session-expired-not-reinitialized (stream-reconnected)');
  });

  it('tells two clients\' rows and findings about one URI apart by their client, only when there are two; names a WebSocket\'s session WebSocket #n', () => {
    const traceOf = (frames: ReturnType<typeof twoEndpointLog>['frames'], t: number) => serializeTrace(exportTrace({ frames, createdAt: t, pageUrl: 'http://localhost:8080/kb' }));
    const two = twoEndpointLog();
    const r = cli(['two.json'], { 'two.json': traceOf(two.frames, two.t) });
    expect(r.code).toBe(1);
    const section = (name: string) => r.stdout.slice(r.stdout.indexOf(`\n${name}`) + 1).split('\n\n')[0]!.split('\n');
    // The URI table: a client column, each row its endpoint.
    const uris = section('URIS');
    expect(uris[1]).toMatch(/^status +uri +client +cached /);
    expect(uris.slice(3).map((l) => l.split(/ {2,}/).slice(0, 3).join(' | '))).toEqual([
      `ERROR | ${POLICY} | localhost:3002/ws`,
      `WARNING | ${POLICY} | localhost:3000/mcp`,
    ]);
    // The findings say their client in where:, sessions as the panel names them (in the detail too).
    const wheres = r.stdout.split('\n').filter((l) => l.startsWith('   where: '));
    expect(wheres).toEqual([
      `   where: ${POLICY}, client localhost:3002/ws, session WebSocket #2`,
      `   where: ${POLICY}, client localhost:3002/ws, session WebSocket #2`,
      `   where: ${POLICY}, client localhost:3000/mcp, session S1`,
    ]);
    expect(r.stdout).toContain('   detail: WebSocket #1 ended (transport-closed)');
    expect(section('SESSIONS').slice(3).map((l) => l.split(/ {2,}/)[0])).toEqual(['S1', 'WebSocket #1', 'WebSocket #2']);
    expect(r.stdout).toMatch(/subscribed URIs per live session \/ listen +S1: 0, WebSocket #2: 0/);
    expect(r.stdout).not.toContain('ws:doc-1');
    // --json keeps the engine's ids and adds nothing.
    const json = JSON.parse(cli(['two.json', '--json'], { 'two.json': traceOf(two.frames, two.t) }).stdout);
    expect(json.sessions.map((s: { label: string }) => s.label)).toEqual(['S1', expect.stringMatching(/^ws:doc-1:/), expect.stringMatching(/^ws:doc-1:/)]);
    expect(json.findings.every((f: Record<string, unknown>) => !('client' in f))).toBe(true);

    // A reload kept in the log: the same endpoint, told apart by the page.
    const [page1, page2] = reloadedLog();
    const reloaded = cli(['reload.json'], { 'reload.json': traceOf([...page1!.frames, ...page2!.frames], page2!.t) }).stdout;
    expect(reloaded.split('\n').filter((l) => l.startsWith('   where: '))).toEqual([`   where: ${POLICY}, client top page (unloaded), session S1`, `   where: ${POLICY}, client top page, session S2`]);

    // One client: no client column, no client in where:.
    const one = oneClientLog();
    const plain = cli(['one.json'], { 'one.json': traceOf(one.frames, one.t) }).stdout;
    expect(plain).toMatch(/\nstatus +uri +cached /);
    expect(plain).not.toContain('client localhost');
    expect(plain).toContain(`   where: ${POLICY}, session S1`);
  });

  it('--fail-on decides which level fails', () => {
    const files = { 'w.json': healthyTrace(true) };
    expect(cli(['w.json'], files).code).toBe(0);
    expect(cli(['w.json', '--fail-on', 'warning'], files).code).toBe(1);
    expect(cli(['w.json', '--fail-on', 'error'], files).code).toBe(0);
  });

  it('--json prints the snapshot as JSON', () => {
    const r = cli(['bad.json', '--json'], { 'bad.json': brokenTrace() });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.outputVersion).toBe(1);
    expect(out.trace).toMatchObject({ format: 'mcp-devtools-trace', version: 1 });
    expect(out.findings[0]).toMatchObject({ id: expect.any(String), severity: expect.any(String), title: expect.any(String), uri: POLICY, open: expect.any(Boolean), firstT: expect.any(Number), lastT: expect.any(Number), evidence: expect.any(Array), explanation: expect.any(String), fix: expect.any(String) });
    expect(out.metrics).toBeDefined();
    expect(out.sessions.length).toBeGreaterThan(0);
    expect(out.findings.map((f: { id: string }) => f.id).sort()).toEqual(['cached-not-subscribed', 'phantom-subscription']);
    expect(out.uris[0]).toMatchObject({ uri: POLICY, cached: true, clientBelievesSubscribed: true, serverHasSubscription: false });
    expect(typeof out.messages).toBe('number');
  });

  it('--now moves the evaluation time (within the grace nothing is settled yet)', () => {
    const text = brokenTrace(0);
    const last = JSON.parse(text).frames.at(-1).t as number;
    expect(cli(['t.json', '--now', new Date(last + 100).toISOString()], { 't.json': text }).code).toBe(0);
    expect(cli(['t.json', '--now', new Date(last + 10_000).toISOString()], { 't.json': text }).code).toBe(1);
  });

  it('--rule sets an expected freshness for a URI pattern', () => {
    const text = healthyTrace();
    const later = new Date(JSON.parse(text).frames.at(-1).t + 120_000).toISOString();
    const r = cli(['t.json', '--now', later, '--rule', 'file:///docs/*=60000', '--fail-on', 'warning'], { 't.json': text });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('cache-age-exceeded (rule)');
  });

  it('exits 2 with a clear message for unusable input', () => {
    expect(cli([], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('analyze: no trace file given') });
    expect(cli(['missing.json'], {})).toMatchObject({ code: 2, stderr: 'analyze: cannot read missing.json: no such file (ENOENT)\n' });
    expect(cli(['x.json'], { 'x.json': 'not json' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^analyze: x.json is not a usable trace: not JSON/) });
    const t = JSON.parse(healthyTrace());
    delete t.frames[3].seq;
    expect(cli(['x.json'], { 'x.json': JSON.stringify(t) })).toMatchObject({ code: 2, stderr: 'analyze: x.json is not a usable trace: frames[3].seq: missing\n' });
    expect(cli(['x.json', '--fail-on', 'loud'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--fail-on: expected warning, error or info, got loud') });
    expect(cli(['x.json', '--now', 'tomorrow'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--now: expected an ISO 8601 time') });
    expect(cli(['x.json', '--bogus'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option --bogus') });
    // Date.parse would read "1" as the year 2001: only ISO 8601 is taken.
    expect(cli(['x.json', '--now', '1'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--now: expected an ISO 8601 time') });
    // Padded with spaces, --now is refused as a padded millisecond option is (' 1000'), saying why; not trimmed.
    expect(cli(['x.json', '--now', ' 2026-12-02T10:00:00Z'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--now: " 2026-12-02T10:00:00Z" has spaces around it') });
    expect(cli(['x.json', '--now', '2026-12-02 10:00:00.000 UTC\n'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('has spaces around it') });
    expect(cli(['x.json', '--grace', ' 1000'], {})).toMatchObject({ code: 2 });
    // A HAR (the other file the panel exports) is named as such.
    expect(cli(['x.har'], { 'x.har': JSON.stringify({ log: { version: '1.2', entries: [] } }) })).toMatchObject({ code: 2, stderr: expect.stringContaining('(this looks like a HAR file;') });
    // …whatever the order of its keys; an empty file is called empty, not cut short.
    expect(cli(['y.har'], { 'y.har': JSON.stringify({ $schema: 'x', log: { version: '1.2', creator: {}, entries: [] } }) })).toMatchObject({ code: 2, stderr: expect.stringContaining('(this looks like a HAR file;') });
    expect(cli(['e.json'], { 'e.json': ' \n' })).toMatchObject({ code: 2, stderr: expect.stringContaining('the file is empty') });
    const badTime = JSON.parse(healthyTrace());
    badTime.createdAt = '12/02/2026';
    expect(cli(['x.json'], { 'x.json': JSON.stringify(badTime) })).toMatchObject({ code: 2, stderr: expect.stringContaining('createdAt: expected an ISO 8601 time') });
  });

  it('says what a number option wanted and got', () => {
    for (const [flag, v] of [['--grace', ''], ['--grace', '-1'], ['--default-max-age', 'abc']]) {
      expect(cli(['x.json', flag!, v!], {})).toMatchObject({ code: 2, stderr: expect.stringContaining(`${flag}: expected a number of milliseconds ≥ 0, got ${JSON.stringify(v)}`) });
    }
    expect(cli(['x.json', '--grace'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--grace: expected a number of milliseconds ≥ 0, got nothing') });
    // Freshness takes the panel's limits: a default of 0 made every cached URI over age at once.
    expect(cli(['x.json', '--default-max-age', '0'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--default-max-age: must be between 1000 and 2592000000 milliseconds') });
    expect(cli(['x.json', '--rule', 'file:**=0.5'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--rule: the milliseconds must be between 1 and 2592000000') });
    expect(cli(['x.json', '--rule', 'file:**=3000000000'], {})).toMatchObject({ code: 2, stderr: expect.stringContaining('--rule: the milliseconds must be between') });
  });

  // Only their refusals were tested (a docs audit, 2026-12-05): a value given must reach the engine.
  it('--grace and --default-max-age change the verdict on a real trace (SDK v1, Streamable HTTP)', () => {
    const text = readFileSync(join(import.meta.dirname, '../../fixtures/sdk-v1-streamable.trace.json'), 'utf8');
    const files = { 't.json': text };
    const ids = (argv: string[]) => {
      const r = cli(['t.json', '--json', ...argv], files);
      return (JSON.parse(r.stdout).findings as Array<{ id: string; open: boolean }>).map((f) => `${f.id}${f.open ? '' : ' (past)'}`).sort();
    };
    // The client re-read within the 2 s grace; with none, the moments between were findings.
    expect(ids([])).toEqual([]);
    expect(ids(['--grace', '0'])).toEqual(['cached-not-subscribed (past)', 'notified-not-reread (past)']);
    expect(cli(['t.json', '--fail-on', 'warning'], files).code).toBe(0);
    expect(cli(['t.json', '--fail-on', 'warning', '--grace', '0'], files).code).toBe(1);
    // An hour after the export the cache is older than the 10-minute default; a 2-hour default lets it be.
    const later = new Date(Date.parse(JSON.parse(text).createdAt) + 3600_000).toISOString();
    expect(ids(['--now', later])).toEqual(['cache-age-exceeded']);
    expect(ids(['--now', later, '--default-max-age', String(2 * 3600_000)])).toEqual([]);
    expect(ids(['--now', later, '--default-max-age', String(50 * 60_000)])).toEqual(['cache-age-exceeded']);
  });

  it('--help prints the usage to stdout and exits 0; -- ends the options', () => {
    expect(cli(['--help'], {})).toEqual({ code: 0, stdout: expect.stringMatching(/^usage: analyze <trace.json>[^]*--grace <ms>[^]*Exit status: 0/), stderr: '' });
    // As the README and the code (shared/engine/freshness.ts) have it: a glob's ? is not a /.
    expect(cli(['--help'], {}).stdout.replace(/\s+/g, ' ')).toContain('? one character other than /;');
    // Times say their zone.
    expect(cli(['t.json'], { 't.json': healthyTrace() }).stdout).toMatch(/evaluated at: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC/);
    expect(cli(['--', '--odd-name.json'], { '--odd-name.json': healthyTrace() }).code).toBe(0);
  });

  it('names a file too large to read in words', () => {
    let stderr = '';
    expect(
      main(['big.json'], {
        stdout: () => undefined,
        stderr: (s) => void (stderr += s),
        readFile: () => {
          throw Object.assign(new Error('too long'), { code: 'ERR_STRING_TOO_LONG' });
        },
      }),
    ).toBe(2);
    expect(stderr).toBe('analyze: cannot read big.json: the file is too large to read as text (the limit is about 512 MB) (ERR_STRING_TOO_LONG)\n');
  });

  it('never lets a trace write control characters to the terminal', () => {
    const t = JSON.parse(brokenTrace());
    t.page.url = 'http://x/\n0 error(s), 0 warning(s), 0 info; failing on error\u001b[2J';
    const r = cli(['t.json'], { 't.json': JSON.stringify(t) });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.stdout).toContain('trace: http://x/\\n0 error(s), 0 warning(s), 0 info; failing on error\\u001b[2J — ');
    expect(r.stdout.trimEnd().split('\n').filter((l) => l.includes('failing on'))).toHaveLength(2);
    // A URI and a session id with a line break and an escape sequence: each stays on its line, escaped.
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S\u001b[31m\nforged' });
    c.openGet();
    c.read('file:///x\nFORGED-URI\u001b[2J', 'v1');
    const hostile = serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://x/' }));
    for (const args of [['h.json'], ['h.json', '--json']]) {
      const out = cli(args, { 'h.json': hostile }).stdout;
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(out).not.toMatch(/^FORGED/m);
      expect(out).not.toMatch(/^forged/m);
    }
    expect(cli(['h.json'], { 'h.json': hostile }).stdout).toContain('file:///x\\nFORGED-URI\\u001b[2J');
    const c1 = JSON.parse(brokenTrace());
    c1.page.url = 'http://x/\u009b2J\u007f\u2028';
    const json = cli(['t.json', '--json'], { 't.json': JSON.stringify(c1) }).stdout;
    expect(json).not.toMatch(/[\u007f-\u009f\u2028\u2029]/);
    expect(JSON.parse(json).trace.page.url).toBe(c1.page.url);
    const bad = cli(['t.json'], { 't.json': '\u001b[31m{' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('\u001b');
  });

  it('--now judges the trace as of that moment: later frames are left out, and it says so', () => {
    const text = brokenTrace(0);
    const frames = JSON.parse(text).frames as { t: number }[];
    const mid = frames[Math.floor(frames.length / 2)]!.t;
    const r = cli(['t.json', '--now', new Date(mid).toISOString(), '--json'], { 't.json': text });
    const later = frames.filter((f) => f.t > mid).length;
    expect(later).toBeGreaterThan(0);
    expect(r.stderr).toBe(`analyze: note: ${later} of ${frames.length} frames come after --now and are left out\n`);
    expect(JSON.parse(r.stdout).metrics.messages).toBeLessThan(JSON.parse(cli(['t.json', '--json'], { 't.json': text }).stdout).metrics.messages);
  });

  it('an internal failure exits 2, never 1 (which means "findings")', () => {
    const spy = vi.spyOn(Engine.prototype, 'snapshot').mockImplementation(() => {
      throw new Error('boom');
    });
    try {
      expect(cli(['t.json'], { 't.json': healthyTrace() })).toMatchObject({ code: 2, stderr: expect.stringContaining('analyze: internal error while analysing t.json: Error: boom') });
    } finally {
      spy.mockRestore();
    }
  });

  it('frames the engine could not analyse: the report is printed, and the exit is 2 (partial), not 0 or 1', () => {
    const push = Decoder.prototype.push;
    const spy = vi.spyOn(Decoder.prototype, 'push').mockImplementation(function (this: Decoder, f) {
      if (f.seq === 3) throw new Error('bug on seq 3');
      return push.call(this, f);
    });
    try {
      const r = cli(['t.json'], { 't.json': healthyTrace() });
      expect(r).toMatchObject({ code: 2, stderr: expect.stringMatching(/^analyze: internal error: 1 frame\(s\) could not be analysed, the report above is partial; first: seq 3: Error: bug on seq 3/) });
      expect(r.stdout).toContain('SESSIONS');
    } finally {
      spy.mockRestore();
    }
  });

  it('runs as `npm run analyze` does, with the exit code as the process status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyze-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bad.trace.json');
    writeFileSync(file, brokenTrace());
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/analyze.ts', file, '--json'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).findings).toHaveLength(2);
    const none = spawnSync(process.execPath, ['--import', 'tsx', 'cli/analyze.ts', join(dir, 'nope.json')], { encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('cannot read');
    // - reads stdin.
    const piped = spawnSync(process.execPath, ['--import', 'tsx', 'cli/analyze.ts', '-', '--json'], { encoding: 'utf8', input: brokenTrace() });
    expect(piped.status).toBe(1);
    expect(JSON.parse(piped.stdout).findings).toHaveLength(2);
    // A reader that closes the pipe early (`| head -1`) gets no stack trace, and the status is still the verdict.
    const head = spawnSync('bash', ['-c', `set -o pipefail; '${process.execPath}' --import tsx cli/analyze.ts '${file}' | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(head.stderr).not.toContain('EPIPE');
    expect(head.stdout.trim()).toBe('1');
  }, 30_000);

  it('runs by any path to it (a symlinked checkout, no .ts), reads relative paths from where npm was started, and keeps its status when stderr is closed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'analyze-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'bad.trace.json'), brokenTrace());
    const link = join(dir, 'checkout');
    symlinkSync(process.cwd(), link);
    for (const entry of [join(link, 'cli/analyze.ts'), 'cli/analyze']) {
      const r = spawnSync(process.execPath, ['--import', 'tsx', entry, join(dir, 'bad.trace.json'), '--json'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(JSON.parse(r.stdout).findings).toHaveLength(2);
    }
    // `npm run analyze -- bad.trace.json` from the trace's folder: npm starts the script in the package's folder.
    const env = { ...process.env, npm_lifecycle_event: 'analyze', INIT_CWD: dir };
    expect(spawnSync(process.execPath, ['--import', 'tsx', 'cli/analyze.ts', 'bad.trace.json'], { encoding: 'utf8', env }).status).toBe(1);
    // Nobody reads stderr any more: an unusable file still exits 2, not 1 ("findings").
    const closed = spawnSync('bash', ['-c', `'${process.execPath}' --import tsx cli/analyze.ts '${join(dir, 'nope.json')}' 2>&1 | head -c 0; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
    expect(closed.stdout.trim()).toBe('2');
  }, 60_000);

  it('refuses bytes that are not UTF-8 and a trace without frames, naming what is wrong', () => {
    const latin1 = Buffer.from(brokenTrace().replace('http://localhost:8080/kb', 'http://localhost:8080/k\u00e9'), 'latin1');
    const at = latin1.indexOf(0xe9);
    expect(cli(['l.json'], { 'l.json': latin1 as unknown as string })).toEqual({
      code: 2,
      stdout: '',
      stderr: `analyze: l.json is not a usable trace: it is not UTF-8 text (byte 0xe9 at offset ${at}); was it re-saved in another encoding?\n`,
    });
    // The same text as UTF-8 bytes is fine.
    expect(cli(['u.json'], { 'u.json': Buffer.from(brokenTrace(), 'utf8') as unknown as string }).code).toBe(1);
    const empty = JSON.parse(brokenTrace());
    empty.frames = [];
    expect(cli(['z.json'], { 'z.json': JSON.stringify(empty) })).toMatchObject({ code: 2, stderr: expect.stringContaining('analyze: z.json has no frames: nothing to analyse (was capture paused') });
    empty.dropped.frames = 40;
    expect(cli(['z.json'], { 'z.json': JSON.stringify(empty) })).toMatchObject({ code: 2, stderr: expect.stringContaining('(the capture dropped all 40)') });
  });

  it('says what an unlisted read error is, in Node\'s words', () => {
    const r = main(['t.json/x'], {
      stdout: () => {},
      stderr: (s) => expect(s).toBe("analyze: cannot read t.json/x: ENOTDIR: not a directory, open 't.json/x'\n"),
      readFile: () => {
        throw Object.assign(new Error("ENOTDIR: not a directory, open 't.json/x'"), { code: 'ENOTDIR' });
      },
    });
    expect(r).toBe(2);
  });

  it('prints the export time in UTC, counts capture errors, and gives the redaction header in --json', () => {
    const t = JSON.parse(brokenTrace());
    t.createdAt = '2026-08-01T18:00:05.034+09:00';
    const last = t.frames.at(-1);
    t.frames.push({ kind: 'capture-error', doc: last.doc, n: last.n + 1, t: last.t + 1, seq: last.seq + 1, frameId: last.frameId, segment: last.segment, where: 'fetch', message: 'clone failed' });
    t.redaction = { enabled: true, bodyCapBytes: 262144, redactedValues: 3 };
    const text = cli(['t.json'], { 't.json': JSON.stringify(t) });
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain('written 2026-08-01 09:00:05.034 UTC by');
    expect(text.stdout).toMatch(/^capture errors +1$/m);
    const json = JSON.parse(cli(['t.json', '--json'], { 't.json': JSON.stringify(t) }).stdout);
    expect(json.trace.redaction).toEqual({ enabled: true, bodyCapBytes: 262144, redactedValues: 3 });
    expect(json.metrics.captureErrors).toBe(1);
  });

  it('says when a trace names no page (exported after Clear, or from an MCP iframe only)', () => {
    const t = JSON.parse(brokenTrace());
    t.page.url = '';
    expect(cli(['t.json'], { 't.json': JSON.stringify(t) }).stdout).toContain('trace: (no page URL) — ');
  });

  // A URI must not read reversed in a CI log (bidi overrides), nor two URIs look the same (invisible marks, as the panel).
  it.each([
    ['bidirectional overrides', 'http://x/\u202egpj.exe', 'http://x/\\u202egpj.exe'],
    ['invisible marks', 'http://x/po\u200blicy\u00ad.md', 'http://x/po\\u200blicy\\u00ad.md'],
  ])('shows %s as escapes, in the report and in --json', (_what, url, shown) => {
    const t = JSON.parse(brokenTrace());
    t.page.url = url;
    const r = cli(['t.json'], { 't.json': JSON.stringify(t) });
    expect(r.stdout).toContain(`trace: ${shown} — `);
    expect(r.stdout).not.toMatch(/[\u200b\u00ad\u202a-\u202e\u2066-\u2069]/);
    expect(cli(['t.json', '--json'], { 't.json': JSON.stringify(t) }).stdout).toContain(`"url": "${shown}"`);
  });

  it('shows tag characters and every other format character as escapes (ASCII smuggled in a URI must show)', () => {
    const t = JSON.parse(brokenTrace());
    // U+E0041 (TAG LATIN CAPITAL LETTER A) displays as nothing: `file:///a\u{E0041}.md` reads as file:///a.md.
    t.page.url = 'file:///a\u{E0041}.md\u180e\u206a\ufff9\u{1D173}';
    const r = cli(['t.json'], { 't.json': JSON.stringify(t) });
    expect(r.stdout).toContain('trace: file:///a\\u{e0041}.md\\u180e\\u206a\\ufff9\\u{1d173} — ');
    expect(r.stdout).not.toMatch(/[\p{Cf}]/u);
    // --json: the same characters as JSON escapes (an astral one as its surrogate pair): valid JSON, the same value.
    const json = cli(['t.json', '--json'], { 't.json': JSON.stringify(t) }).stdout;
    expect(json).toContain('"url": "file:///a\\udb40\\udc41.md\\u180e\\u206a\\ufff9\\ud834\\udd73"');
    expect(json).not.toMatch(/[\p{Cf}]/u);
    expect(JSON.parse(json).trace.page.url).toBe(t.page.url);
  });

  it('refuses an option given twice, --opt=value, and a --now before every frame', () => {
    const files = { 't.json': brokenTrace() };
    expect(cli(['t.json', '--fail-on', 'warning', '--fail-on', 'error'], files)).toMatchObject({ code: 2, stderr: expect.stringContaining('analyze: --fail-on given twice') });
    expect(cli(['t.json', '--now=2026-12-02T10:00:00Z'], files)).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option --now=2026-12-02T10:00:00Z (write --now <value>, two arguments)') });
    const r = cli(['t.json', '--now', '2020-01-01T00:00:00Z'], files);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^analyze: --now 2020-01-01T00:00:00\.000Z is before the trace's first traffic frame \(the earliest --now that reaches it is 2026-/);
    expect(r.stdout).toBe('');
    // A page's start is stamped when the document began, seconds before its first request: a --now between the two
    // leaves nothing to judge either (it passed as clean).
    const t = JSON.parse(brokenTrace());
    t.frames[0].t -= 3000;
    const between = new Date(t.frames[0].t + 1000).toISOString();
    const early = cli(['t.json', '--now', between], { 't.json': JSON.stringify(t) });
    expect(early).toMatchObject({ code: 2, stdout: '' });
    expect(early.stderr).toContain(`is before the trace's first traffic frame (the earliest --now that reaches it is ${new Date(Math.ceil(t.frames[1].t)).toISOString()};`);
    // Frame times are sub-millisecond: the time the message names must itself be accepted (it named the frame's time cut
    // to the millisecond, which was "before" the frame).
    t.frames[1].t += 0.4;
    const named = /reaches it is (\S+);/.exec(cli(['t.json', '--now', between], { 't.json': JSON.stringify(t) }).stderr)![1]!;
    expect(named).toBe(new Date(Math.ceil(t.frames[1].t)).toISOString());
    expect(cli(['t.json', '--now', named], { 't.json': JSON.stringify(t) }).code).not.toBe(2);
    // Repeatable options stay repeatable.
    expect(cli(['t.json', '--rule', 'file:**=1000', '--rule', 'x=5'], files).code).toBe(1);
  });
});

describe('analyze: a first-use review (2026-12-06)', () => {
  const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../fixtures', name), 'utf8');

  it('names a 2026 listen in the SESSIONS table as the panel does: the SDK\'s listen:0 as it is, not "listen listen:0"', () => {
    const r = cli(['t.json'], { 't.json': fixture('sdk-v2-listen.trace.json') });
    const sessions = r.stdout.slice(r.stdout.indexOf('SESSIONS'), r.stdout.indexOf('URIS'));
    expect(sessions).toMatch(/^listen:0 {2}/m);
    expect(sessions).not.toContain('listen listen:0');
  });

  it('refuses a trace of page lifecycle frames alone, as an empty one: an empty recording never passes as clean', () => {
    const log = new FrameLog();
    log.pageStart('http://localhost:8080/kb');
    const text = serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/kb' }));
    expect(cli(['p.json'], { 'p.json': text })).toEqual({
      code: 2,
      stdout: '',
      stderr: "analyze: p.json has no traffic, only the page's start or end (1 frame): nothing to analyse (was capture paused, or another tab exported?)\n",
    });
    expect(cli(['p.json', '--fail-on', 'info', '--json'], { 'p.json': text }).code).toBe(2);
  });

  it('--now takes a time as the report prints it, and says a time without a zone needs one', () => {
    const text = fixture('sdk-v1-websocket.trace.json');
    const files = { 't.json': text };
    const at = (now: string) => cli(['t.json', '--json', '--now', now], files);
    const iso = JSON.parse(at('2026-12-02T11:01:49.648Z').stdout).now;
    for (const printed of ['2026-12-02 11:01:49.648 UTC', '2026-12-02 11:01:49.648Z', '2026-12-02 11:01:49.648 utc', '2026-12-02t11:01:49.648z', '2026-12-02 12:01:49.648+01:00']) {
      const r = at(printed);
      expect(r.code, printed).toBe(0);
      expect(r.stderr, printed).not.toContain('--now:');
      expect(JSON.parse(r.stdout).now, printed).toBe(iso);
    }
    // The time the text report prints is taken as it is.
    const evaluated = /^evaluated at: (.+)$/m.exec(cli(['t.json'], files).stdout)![1]!;
    expect(cli(['t.json', '--now', evaluated], files).stderr).not.toContain('--now:');
    for (const local of ['2026-12-02T11:01:49.648', '2026-12-02 11:01:49']) {
      expect(at(local)).toMatchObject({ code: 2, stderr: expect.stringContaining(`--now: "${local}" has no time zone: add Z (UTC) or an offset (±hh:mm), e.g. `) });
    }
    expect(at('2026-12-02 25:00:00 UTC')).toMatchObject({ code: 2, stderr: expect.stringContaining('--now: expected an ISO 8601 time with a time zone (e.g. 2026-12-02T10:00:00Z, or as the report prints times: 2026-12-02 10:00:00.000 UTC), got "2026-12-02 25:00:00 UTC"') });
  });

  it('after Clear: says why the trace names no page, and marks a session picked up mid-way (its version from the header) as the panel does', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(POLICY, 'v1');
    // Clear dropped the page's start and the initialize (and its notifications/initialized).
    const frames = log.frames.filter((f) => !('conn' in f) || !['doc-1:post1', 'doc-1:post2'].includes(f.conn as string));
    const r = cli(['t.json'], { 't.json': serializeTrace(exportTrace({ frames, createdAt: log.t + 5000, pageUrl: '' })) });
    expect(r.stdout).toContain("\nnote: no page URL: the trace holds no page start (exported after the panel's Clear, or the page began before the extension was loaded)\n");
    expect(r.stdout).toMatch(/^S1 \* +http:\/\/localhost:3000\/mcp +streamable-http\/2025 2025-11-25 \(from header\) +open/m);
    expect(r.stdout).toContain('\n* picked up mid-way: its initialize is not in the log (the page began before the extension was loaded, or Clear or the log cap dropped it). Reload the page to capture from the start.\n');
    // A trace from the start has none of it.
    const whole = cli(['t.json'], { 't.json': healthyTrace() }).stdout;
    expect(whole).not.toMatch(/note: no page URL|picked up mid-way|from header|^S1 \*/m);
  });

  it('notes a session the page resumed (↻) as the panel does, its id escaped on the one line of the note', () => {
    /** The reloaded page of session-ids.test.ts: it resumes its stored session id, with no initialize. */
    const resumedTrace = (id: string): string => {
      const log1 = new FrameLog('doc-1');
      log1.pageStart('http://localhost:8080/');
      const c1 = new StreamableClient(log1, 'http://localhost:3000/mcp', '2025-06-18');
      c1.initialize({ sessionId: id });
      c1.openGet();
      c1.read(POLICY, 'x');
      c1.subscribe(POLICY);
      log1.pageEnd('http://localhost:8080/');
      const log2 = new FrameLog('doc-2', log1.t + 10, log1.lastSeq);
      log2.pageStart('http://localhost:8080/');
      const c2 = new StreamableClient(log2, 'http://localhost:3000/mcp', '2025-06-18');
      c2.sessionId = id; // resumed from storage: no initialize
      c2.negotiated = '2025-06-18';
      c2.openGet();
      c2.read(POLICY, 'y');
      return serializeTrace(exportTrace({ frames: [...log1.frames, ...log2.frames], createdAt: log2.t + 100, pageUrl: 'http://localhost:8080/' }));
    };
    const plain = cli(['t.json'], { 't.json': resumedTrace('S1') }).stdout;
    expect(plain).toContain('\n↻ resumed session S1 (no initialize: the page reused the stored id of an earlier session on the same endpoint');
    // A session id is the server's (the page's): one holding a line feed must not forge a line of the report.
    const forged = 'S1\n0 error(s), 0 warning(s), 0 info; FORGED';
    const out = cli(['t.json'], { 't.json': resumedTrace(forged) }).stdout;
    expect(out).toContain('\n↻ resumed session S1\\n0 error(s), 0 warning(s), 0 info; FORGED (no initialize:');
    // The report's own summary line starts so; no line the id forged does.
    expect(out.split('\n').filter((l) => l.includes('FORGED')).every((l) => !l.startsWith('0 error'))).toBe(true);
  });

  it('option numbers: plain decimals only, each range said, and a rule rounded as the panel saves it', () => {
    const fails = (argv: string[], message: string) => expect(cli(['x.json', ...argv], {}), argv.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(message) });
    // 0 is a number out of range, not a malformed rule.
    fails(['--rule', 'file:**=0'], '--rule: the milliseconds must be between 1 and 2592000000 (30 days)');
    for (const n of ['0x3e8', '1e3', 'Infinity', ' 1000', '1000 ', '+1000', '-5', '']) {
      fails(['--rule', `file:**=${n}`], `--rule: expected <glob>=<milliseconds>, got file:**=${n}`);
      fails(['--grace', n], `--grace: expected a number of milliseconds ≥ 0, got ${JSON.stringify(n)}`);
      fails(['--default-max-age', n], `--default-max-age: expected a number of milliseconds ≥ 0, got ${JSON.stringify(n)}`);
    }
    fails(['--grace', '99999999999999'], '--grace: must be between 0 and 2592000000 milliseconds (30 days); got "99999999999999"');
    expect(cli(['t.json', '--grace', '2592000000'], { 't.json': healthyTrace() }).code).toBe(0);
    expect(cli(['t.json', '--grace', '0.5', '--rule', 'file:**=1.5'], { 't.json': healthyTrace() }).stderr).toBe('');
    // A rule of 1.5 ms means what the panel's saved rule means: the settings the panel saves go through
    // validateSettings, which rounds to whole milliseconds; the CLI rounds the same way.
    const saved = validateSettings({ ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: 'file:**', maxAgeMs: 1.5 }] });
    expect(saved.ok && saved.settings.freshnessRules[0]!.maxAgeMs).toBe(2);
    const json = JSON.parse(cli(['t.json', '--json', '--rule', 'file:**=1.5'], { 't.json': healthyTrace() }).stdout);
    expect(json.uris.find((u: { uri: string }) => u.uri === POLICY)).toMatchObject({ expectedMaxAgeMs: 2, expectedMaxAgeSource: 'rule' });
  });

  it('reading stdin, a message names it stdin, not "-"', () => {
    const e: string[] = [];
    expect(main(['-'], { stdout: () => {}, stderr: (s) => e.push(s), readFile: () => '{"format": ' })).toBe(2);
    expect(e.join('')).toMatch(/^analyze: stdin is not a usable trace: /);
    const empty: string[] = [];
    expect(main(['-'], { stdout: () => {}, stderr: (s) => empty.push(s), readFile: () => { throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' }); } })).toBe(2);
    expect(empty.join('')).toMatch(/^analyze: cannot read stdin: /);
  });

  it('a reason whose label is its code is said once: (unsubscribed), not (unsubscribed: unsubscribed)', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    c.unsubscribe(POLICY);
    const r = cli(['t.json'], { 't.json': serializeTrace(exportTrace({ frames: log.frames, createdAt: log.t + 5000, pageUrl: 'http://localhost:8080/kb' })) });
    expect(r.stdout).toContain('[WARNING] cached-not-subscribed (unsubscribed): Cached, but nobody is subscribed');
    expect(r.stdout).not.toContain('(unsubscribed: unsubscribed)');
  });
});

describe('analyze: a partial trace (frames dropped or rejected before the export)', () => {
  function partial(dropped: { frames: number; rejected?: number }, withWarning = false): string {
    const t = JSON.parse(healthyTrace(withWarning));
    t.dropped = dropped;
    return JSON.stringify(t);
  }

  it.each([
    [{ frames: 40 }, 'dropped 40 frame(s) at the log\'s cap (the oldest)', 40],
    [{ frames: 40, rejected: 3 }, "dropped 40 frame(s) at the log's cap (the oldest)", 40],
  ])('%j: a warning on stderr in text and --json modes, partial and lostFrames in the JSON; the exit is the findings\'', (dropped, words, lost) => {
    const text = cli(['t.json'], { 't.json': partial(dropped) });
    expect(text.code).toBe(0);
    expect(text.stderr).toBe(`analyze: warning: the trace is partial: the capture ${words} before the export; findings may be missing or come from half-seen exchanges (--fail-on-partial makes this exit 2)\n`);
    const json = cli(['t.json', '--json'], { 't.json': partial(dropped) });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe(text.stderr);
    expect(JSON.parse(json.stdout)).toMatchObject({ partial: true, lostFrames: lost, trace: { dropped } });
    // Findings keep their exit: 1 stays "findings".
    expect(cli(['t.json', '--fail-on', 'warning'], { 't.json': partial(dropped, true) }).code).toBe(1);
  });

  it('rejected messages (page-controlled: malformed or forged, never frames) do not make a whole trace partial', () => {
    const t = partial({ frames: 0, rejected: 3 });
    const r = cli(['t.json', '--json', '--fail-on-partial'], { 't.json': t });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ partial: false, lostFrames: 0, trace: { dropped: { frames: 0, rejected: 3 } } });
    const text = cli(['t.json'], { 't.json': t });
    expect(text.stdout).toContain('note: the capture refused 3 malformed message(s) from the page (not frames: the trace is not partial for them)');
    expect(text.stdout).not.toContain('the analysis is partial');
  });

  it('a whole trace: no warning, partial false', () => {
    const r = cli(['t.json', '--json'], { 't.json': healthyTrace() });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ partial: false, lostFrames: 0 });
  });

  it('--fail-on-partial: exit 2 with the report printed (also over findings); a whole trace passes as before', () => {
    const r = cli(['t.json', '--fail-on-partial'], { 't.json': partial({ frames: 5 }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('SESSIONS');
    expect(r.stderr).toMatch(/^analyze: warning: the trace is partial: .*\nanalyze: --fail-on-partial: the trace is partial \(see the warning above\): exit 2\n$/);
    expect(r.stderr).not.toContain('(--fail-on-partial makes this exit 2)');
    expect(cli(['t.json', '--fail-on-partial', '--fail-on', 'warning'], { 't.json': partial({ frames: 5 }, true) }).code).toBe(2);
    expect(cli(['t.json', '--fail-on-partial'], { 't.json': healthyTrace() })).toMatchObject({ code: 0, stderr: '' });
    expect(cli(['t.json', '--fail-on-partial', '--fail-on-partial'], { 't.json': healthyTrace() })).toMatchObject({ code: 2, stderr: expect.stringContaining('--fail-on-partial given twice') });
    expect(cli(['--help'], {}).stdout).toContain('--fail-on-partial');
  });
});

describe('analyze: the analysis settings the trace records (its "analysis" header)', () => {
  const RULE = { pattern: 'file:///docs/**', maxAgeMs: 1000 };
  function recorded(analysis: object | null = { freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000 }): string {
    const t = JSON.parse(healthyTrace());
    if (analysis) t.analysis = analysis;
    return JSON.stringify(t);
  }
  const ageFindings = (stdout: string) => (JSON.parse(stdout).findings as { id: string }[]).filter((f) => f.id === 'cache-age-exceeded').length;

  it('are used by default: a finding the exporting view showed (a 1 s rule) is found again, and the report says where each setting came from', () => {
    const json = cli(['t.json', '--json'], { 't.json': recorded() });
    expect(ageFindings(json.stdout)).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      analysis: { freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000, from: { freshnessRules: 'trace', defaultMaxAgeMs: 'trace', graceMs: 'trace' } },
      trace: { analysis: { freshnessRules: [RULE] } },
    });
    expect(json.code).toBe(0);
    expect(cli(['t.json', '--fail-on', 'warning'], { 't.json': recorded() }).code).toBe(1);
    expect(cli(['t.json'], { 't.json': recorded() }).stdout).toContain("\nanalysis settings: freshness rules file:///docs/**=1000 (the trace's), default max age 600000 ms (the trace's), grace 2000 ms (the trace's)\n");
  });

  it('an option replaces the trace\'s setting (--rule all its rules); --ignore-trace-settings judges with the defaults; an older trace, the defaults', () => {
    const relaxed = cli(['t.json', '--json', '--rule', 'file:**=3600000'], { 't.json': recorded() });
    expect(ageFindings(relaxed.stdout)).toBe(0);
    expect(JSON.parse(relaxed.stdout).analysis).toMatchObject({ freshnessRules: [{ pattern: 'file:**', maxAgeMs: 3_600_000 }], from: { freshnessRules: 'option', defaultMaxAgeMs: 'trace', graceMs: 'trace' } });
    const grace = JSON.parse(cli(['t.json', '--json', '--grace', '0', '--default-max-age', '1000'], { 't.json': recorded() }).stdout).analysis;
    expect(grace).toMatchObject({ graceMs: 0, defaultMaxAgeMs: 1000, from: { freshnessRules: 'trace', defaultMaxAgeMs: 'option', graceMs: 'option' } });
    const ignored = cli(['t.json', '--json', '--ignore-trace-settings'], { 't.json': recorded() });
    expect(ageFindings(ignored.stdout)).toBe(0);
    expect(JSON.parse(ignored.stdout).analysis).toEqual({ freshnessRules: [], defaultMaxAgeMs: 600_000, graceMs: 2000, from: { freshnessRules: 'default', defaultMaxAgeMs: 'default', graceMs: 'default' } });
    const old = cli(['t.json'], { 't.json': recorded(null) });
    expect(old.stdout).toContain('\nanalysis settings: no freshness rule (default), default max age 600000 ms (default), grace 2000 ms (default)\n');
    // A trace without graceMs: the default grace, said so.
    expect(JSON.parse(cli(['t.json', '--json'], { 't.json': recorded({ freshnessRules: [], defaultMaxAgeMs: 5000 }) }).stdout).analysis.from).toEqual({ freshnessRules: 'trace', defaultMaxAgeMs: 'trace', graceMs: 'default' });
    expect(cli(['--help'], {}).stdout).toContain('--ignore-trace-settings');
  });

  it('a malformed "analysis" makes the file unusable, naming the field', () => {
    expect(cli(['t.json'], { 't.json': recorded({ freshnessRules: [{ pattern: ' ', maxAgeMs: 5 }], defaultMaxAgeMs: 600_000 }) })).toMatchObject({ code: 2, stderr: expect.stringContaining('analysis.freshnessRules[0].pattern: expected a non-empty glob, got " "') });
    expect(cli(['t.json'], { 't.json': recorded({ freshnessRules: [], defaultMaxAgeMs: 10 }) })).toMatchObject({ code: 2, stderr: expect.stringContaining('analysis.defaultMaxAgeMs: expected milliseconds from 1000 to 2592000000, got 10') });
  });
});

describe('analyze --json: the fields README promises stable', () => {
  /** README's table under "`--json` prints one object": field → the names its row lists (those without `?`). */
  function promised(): Map<string, string[]> {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('`--json` prints one object'), readme.indexOf('A session\'s `label` is the session id'));
    const out = new Map<string, string[]>();
    for (const line of table.split('\n')) {
      const m = /^\| `([a-zA-Z]+)(\[\])?` \| (.*) \|$/.exec(line);
      if (!m) continue;
      // Values and notes are in parentheses; a name is a backticked identifier (its nested fields after a space).
      const names = [...m[3]!.replace(/\([^)]*\)/g, '').matchAll(/`([a-zA-Z]+)(\??)[^`]*`/g)].filter((n) => n[2] === '').map((n) => n[1]!);
      out.set(m[1]!, names);
    }
    return out;
  }

  it.each(['sdk-v1-streamable', 'sdk-v2-listen', 'demo-healthy-slow-server'])('%s: every field listed is there, in every element', (name) => {
    const text = readFileSync(new URL(`../../fixtures/${name}.trace.json`, import.meta.url), 'utf8');
    const out = JSON.parse(cli(['t.json', '--json'], { 't.json': text }).stdout) as Record<string, unknown>;
    const fields = promised();
    expect([...fields.keys()]).toEqual(['outputVersion', 'trace', 'analysis', 'partial', 'lostFrames', 'now', 'findings', 'uris', 'sessions', 'metrics', 'messages', 'failOn']);
    for (const [field, names] of fields) {
      expect(out).toHaveProperty(field);
      const value = out[field];
      const objects = Array.isArray(value) ? (value as object[]) : typeof value === 'object' && value !== null ? [value] : [];
      for (const o of objects) for (const n of names) expect([field, n, n in o]).toEqual([field, n, true]);
    }
    expect((out.findings as unknown[]).length + (out.uris as unknown[]).length).toBeGreaterThan(0);
  });
});
