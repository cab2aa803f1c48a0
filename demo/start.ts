// `npm start`: builds the extension (dist/) and the demo page, starts the knowledge-base MCP server and the page on
// loopback, prints the URLs, and opens Chromium with the extension and devtools where a display exists (otherwise it
// explains how to load dist/ unpacked) — then keeps serving until Ctrl+C / SIGTERM, which stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LaunchedChromium } from './launch-chromium.ts';
import type { PageServer } from './page-server.ts';
import type { KbServer } from './server/http.ts';
import { findScenario } from './scenarios.ts';
import { parseStartArgs, scenarioList, USAGE, type StartOptions } from './start-options.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const EXTENSION_DIR = join(REPO, 'dist');
const PAGE_DIR = join(REPO, 'demo', 'client', 'dist');
const PAGE_CONFIG = join(REPO, 'demo', 'client', 'vite.config.ts');

const children = new Set<ChildProcess>();
let kb: KbServer | undefined;
let page: PageServer | undefined;
let browser: LaunchedChromium | undefined;
/** Chromium on its way up: a stop during the launch closes it once it is there. */
let launching: Promise<LaunchedChromium | undefined> | undefined;
let stopping = false;
let stoppingAt = 0;
/** Interrupts received while stopping. */
let repeats = 0;

async function stop(reason: string, code = 0): Promise<never | void> {
  if (stopping) {
    // Ctrl+C reaches npm and us at once, and npm relays it again — on a loaded machine seconds later (2026-12-03:
    // after more than 3 s, while Chromium was still closing). The first repeat is taken for that echo whenever it
    // comes; a further one well after the first Ctrl+C means "now". (`npm start` runs us as `node --import tsx`, not
    // through the tsx CLI: that one SIGKILLs its child when the child does not confirm a signal within 30 ms, which
    // a loaded machine misses — the demo then never closed Chromium, and npm start exited 130.)
    repeats++;
    if (repeats > 1 && Date.now() - stoppingAt > 3000) process.exit(130);
    return;
  }
  stopping = true;
  stoppingAt = Date.now();
  console.log(`\n${reason}: stopping…`);
  const guard = setTimeout(() => {
    console.error('Shutdown took too long; exiting anyway.');
    process.exit(1);
  }, 8000);
  guard.unref();
  for (const c of children) c.kill('SIGTERM');
  browser ??= await launching;
  await browser?.close().catch(() => undefined);
  await page?.close().catch(() => undefined);
  await kb?.close().catch(() => undefined);
  console.log('Stopped. Ports released.');
  process.exit(code);
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    children.add(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

async function build(o: StartOptions): Promise<void> {
  if (o.noBuild && existsSync(join(EXTENSION_DIR, 'manifest.json'))) console.log('Extension: using the existing dist/ (--no-build).');
  else {
    console.log('Building the extension (npm run build)…');
    await run('npm', ['run', 'build', '--silent']);
  }
  if (o.noBuild && existsSync(join(PAGE_DIR, 'index.html'))) console.log('Demo page: using the existing demo/client/dist/ (--no-build).');
  else {
    console.log('Building the demo page…');
    const { build: viteBuild } = await import('vite');
    await viteBuild({ configFile: PAGE_CONFIG, logLevel: 'warn' });
  }
}

function hasDisplay(): boolean {
  return process.platform === 'darwin' || process.platform === 'win32' || Boolean(process.env.DISPLAY);
}

async function listen<T>(what: string, port: number, flag: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      console.error(`The ${what} port ${port} is already in use (another npm start?). Pass ${flag} <n> (0 = any free port).`);
      await stop('port in use', 1);
    }
    if ((err as NodeJS.ErrnoException).code === 'EACCES') {
      console.error(`The ${what} cannot listen on port ${port}: not allowed (ports under 1024 need privileges). Pass ${flag} <n> (0 = any free port).`);
      await stop('port not allowed', 1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  const parsed = parseStartArgs(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') return void console.log(USAGE);
  if (parsed.kind === 'list') return void console.log(`Scenarios (npm start -- --scenario <name>):\n${scenarioList()}`);
  if (parsed.kind === 'error') {
    console.error(parsed.message);
    process.exit(2);
  }
  const o = parsed.options;
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The terminal closed.
  process.on('SIGHUP', () => void stop('SIGHUP'));
  // npm gone without passing its signal on (npm stops on SIGTERM without forwarding it): we were re-parented.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop('npm exited');
  }, 1000).unref();
  // A bug in a request handler must not leave Chromium or a port behind: stop everything, say why.
  process.on('uncaughtException', (err) => {
    console.error(`npm start: unexpected error: ${err.stack ?? err.message}`);
    void stop('error', 1);
  });

  await build(o);
  // Loaded only now, so --help, --list and argument errors answer at once.
  const [{ createKbServer }, { createPageServer }] = await Promise.all([import('./server/http.ts'), import('./page-server.ts')]);
  kb = await listen('MCP server', o.serverPort, '--port', () => createKbServer({ port: o.serverPort, editIntervalMs: o.editIntervalMs }));
  const serverUrl = kb.url;
  page = await listen('demo page', o.pagePort, '--client-port', () => createPageServer({ dir: PAGE_DIR, serverUrl, port: o.pagePort }));
  const pageUrl = o.scenario ? `${page.url}?scenario=${encodeURIComponent(o.scenario)}` : page.url;

  console.log('');
  console.log('MCP devtools demo — knowledge base');
  console.log(`  MCP server, 2025-11-25 Streamable HTTP: ${kb.endpoints.streamableHttp}`);
  console.log(`  MCP server, legacy HTTP+SSE:            ${kb.endpoints.sse}`);
  console.log(`  MCP server, 2026-07-28:                 ${kb.endpoints.v2}`);
  console.log(`  Admin (faults, edits, state):           ${kb.endpoints.admin}state`);
  console.log(`  Demo page:                              ${pageUrl}`);
  if (o.scenario) console.log(`  Scenario: ${o.scenario} — ${findScenario(o.scenario)?.title ?? ''}`);
  if (o.scenario) console.log('  Documents are edited by the scenario\'s steps (it turns the edit timer off while it plays).');
  else console.log(`  ${o.editIntervalMs ? `Documents are edited every ${o.editIntervalMs / 1000} s` : 'Documents are not edited on a timer (--edit-interval 0)'}; the page's "Edit on server" button edits on demand.`);
  console.log('');

  if (stopping) return;
  if (hasDisplay() && !o.noBrowser) {
    try {
      const { launchChromium } = await import('./launch-chromium.ts');
      if (stopping) return;
      let failed: unknown;
      // stop() waits for it too, and gets undefined if it failed (a failed launch cleans up after itself).
      launching = launchChromium({ extensionDir: EXTENSION_DIR, headless: false, devtools: true, handleSignals: false, ...(process.env.DISPLAY ? { display: process.env.DISPLAY } : {}) }).catch((err: unknown) => {
        failed = err;
        return undefined;
      });
      const launched = await launching;
      if (!launched) throw failed;
      if (stopping) return;
      browser = launched;
      const tab = browser.context.pages()[0] ?? (await browser.context.newPage());
      await tab.goto(pageUrl);
      browser.context.on('close', () => {
        if (!stopping) console.log('Chromium was closed; still serving (Ctrl+C to stop).');
      });
      console.log('Chromium is open on the demo page with the extension loaded and devtools open: pick the "MCP" tab');
      console.log('(in a narrow devtools window it may sit behind the » button of the tab strip).');
      if (!o.scenario) printTryIt();
    } catch (err) {
      if (stopping) return;
      // Playwright's message is a page of log with colour codes: say the cause in one line.
      const message = (err instanceof Error ? err.message : String(err)).replace(/\u001b\[[0-9;]*m/g, '');
      const why = /XServer|X server/i.test(message)
        ? `no X server answers on DISPLAY=${process.env.DISPLAY ?? ''} (start one, e.g. xvfb-run -a npm start, or pass --no-browser)`
        : message.split('\n')[0]!.trim();
      console.error(`Could not open Chromium: ${why}`);
      printManualSteps(pageUrl, 'Chromium could not be started');
    }
  } else {
    printManualSteps(pageUrl, o.noBrowser ? '--no-browser' : 'no display (DISPLAY is not set)');
  }
  console.log('Serving. Press Ctrl+C to stop.');
}

/** The README's two demo steps: what to click, and what the MCP tab shows then. */
function printTryIt(): void {
  console.log('Then, on the demo page:');
  console.log('  1. Click "Edit on server": the notification arrives, the viewer re-reads, the row stays green.');
  console.log('  2. Untick "Resubscribe every cached key after (re)initialize", click "Reconnect", then "Edit on server":');
  console.log('     the viewer shows STALE and the MCP tab highlights the row (cached, but nobody is subscribed).');
  console.log('  Or: npm start -- --list, then npm start -- --scenario <name> plays one for you.');
}

function printManualSteps(pageUrl: string, why: string): void {
  console.log(`No browser opened: ${why}. To watch the demo with the extension:`);
  console.log('  1. Open chrome://extensions in Chrome or Chromium and turn on Developer mode.');
  console.log(`  2. Click "Load unpacked" and choose ${EXTENSION_DIR}`);
  console.log(`  3. Open ${pageUrl} , open devtools (F12) and pick the "MCP" tab.`);
  console.log('');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : String(err));
  void stop('error', 1);
});
