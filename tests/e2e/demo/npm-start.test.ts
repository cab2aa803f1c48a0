// `npm start` as a new user runs it, without a display: it builds nothing it already has (--no-build), prints the URLs,
// serves the demo page and the MCP endpoint, and on Ctrl+C (SIGINT to the process group, as a terminal sends it) stops
// everything: exit, no orphan processes, ports released. Also the CLI's clear errors.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { alive, descendants } from './process-tree.ts';

const env = { ...process.env };
delete env.DISPLAY;

let child: ChildProcess | undefined;

beforeAll(async () => {
  // --no-build still builds what is missing; build here so the test measures serving, not bundling.
  if (!existsSync('demo/client/dist/index.html')) {
    const { build } = await import('vite');
    await build({ configFile: 'demo/client/vite.config.ts', logLevel: 'warn' });
  }
  if (!existsSync('dist/manifest.json')) spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
}, 180_000);

afterAll(() => {
  xvfb?.kill('SIGTERM');
  // Only if a test failed half-way: never leave our own process group running.
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

function waitForOutput(p: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    p.stdout?.on('data', onData);
    p.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) => reject(new Error(`exited early (${code}):\n${out}`)));
  });
}

let xvfb: ChildProcess | undefined;

/** Our own X server on a free display number (stopped in afterAll). */
async function startXvfb(): Promise<string> {
  for (let n = 90 + Math.floor(Math.random() * 100); ; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    const until = Date.now() + 5000;
    while (!existsSync(`/tmp/.X11-unix/X${n}`)) {
      if (Date.now() > until || xvfb.exitCode !== null) throw new Error(`Xvfb :${n} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return `:${n}`;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

describe('npm start', () => {
  it('serves the page and the MCP endpoint without a display, and SIGINT stops everything', async () => {
    child = spawn('npm', ['start', '--', '--no-build', '--port', '0', '--client-port', '0', '--edit-interval', '0'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = await waitForOutput(child, /Serving\. Press Ctrl\+C/, 40_000);
    expect(out).toMatch(/Load unpacked/);
    const pageUrl = /Demo page:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)?.[1];
    const mcpUrl = /Streamable HTTP:\s+(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
    expect(pageUrl).toBeDefined();
    expect(mcpUrl).toBeDefined();
    if (!pageUrl || !mcpUrl) return;

    const html = await fetch(pageUrl).then((r) => r.text());
    expect(html).toContain('<div id="app">');
    const config = (await fetch(new URL('config.json', pageUrl)).then((r) => r.json())) as { serverUrl: string };
    expect(new URL(mcpUrl).origin).toBe(config.serverUrl);
    const init = await fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } }),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeTruthy();
    await init.body?.cancel();

    const pid = child.pid as number;
    const tree = [pid, ...descendants(pid)];
    expect(tree.length).toBeGreaterThan(1);
    let tail = '';
    child.stdout?.on('data', (d: Buffer) => (tail += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child?.once('exit', (code, signal) => resolve({ code, signal })));
    process.kill(-pid, 'SIGINT');
    const { code, signal } = await exited;
    // npm itself dies of the SIGINT it received (or reports 130); the demo below it stops cleanly and says so.
    expect(code === 0 || code === 130 || signal === 'SIGINT').toBe(true);
    expect(tail).toMatch(/SIGINT: stopping…[\s\S]*Stopped\. Ports released\./);
    const deadline = Date.now() + 5000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tree.filter(alive)).toEqual([]);
    for (const u of [pageUrl, mcpUrl]) expect(await canListen(Number(new URL(u).port))).toBe(true);
  }, 60_000);

  it('with a display it opens Chromium on the scenario page, and SIGINT closes it too', async () => {
    const display = await startXvfb();
    child = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts', '--no-build', '--port', '0', '--client-port', '0', '--scenario', 'healthy'], { env: { ...env, DISPLAY: display }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = await waitForOutput(child, /Serving\. Press Ctrl\+C/, 40_000);
    expect(out).toMatch(/Chromium is open on the demo page/);
    const base = /Admin \(faults, edits, state\):\s+(http:\/\/127\.0\.0\.1:\d+)\/admin\/state/.exec(out)?.[1];
    const pageUrl = /Demo page:\s+(http:\/\/127\.0\.0\.1:\d+\/)\?scenario=healthy/.exec(out)?.[1];
    if (!base || !pageUrl) throw new Error(out);
    // The page in that browser plays `healthy`: the server sees its session and the edits the scenario makes.
    type State = { sessions: unknown[]; documents: { uri: string; revision: number }[] };
    let state: State | undefined;
    const until = Date.now() + 20_000;
    while (Date.now() < until) {
      state = (await fetch(`${base}/admin/state`).then((r) => r.json())) as State;
      if (state.sessions.length > 0 && state.documents.find((d) => d.uri === 'postgres://kb/articles/101')?.revision === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(state?.sessions.length).toBeGreaterThan(0);
    expect(state?.documents.find((d) => d.uri === 'postgres://kb/articles/101')?.revision).toBe(2);

    const pid = child.pid as number;
    const tree = [pid, ...descendants(pid)];
    let tail = '';
    child.stdout?.on('data', (d: Buffer) => (tail += d.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    process.kill(-pid, 'SIGINT');
    expect(await exited).toBe(0);
    expect(tail).toMatch(/Stopped\. Ports released\./);
    const deadline = Date.now() + 5000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tree.filter(alive)).toEqual([]);
    for (const u of [base, pageUrl]) expect(await canListen(Number(new URL(u).port))).toBe(true);
  }, 60_000);

  it('SIGTERM to npm alone (a process manager, `kill <pid>`) stops the demo under it too', async () => {
    child = spawn('npm', ['start', '--', '--no-build', '--no-browser', '--port', '0', '--client-port', '0'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = await waitForOutput(child, /Serving\. Press Ctrl\+C/, 40_000);
    const ports = [...out.matchAll(/http:\/\/127\.0\.0\.1:(\d+)\//g)].map((m) => Number(m[1]));
    const pid = child.pid as number;
    const tree = [pid, ...descendants(pid)];
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tree.filter(alive)).toEqual([]);
    for (const port of new Set(ports)) expect(await canListen(port)).toBe(true);
  }, 60_000);

  it('a display with no X server behind it: one line says why, nothing is left behind, and SIGHUP (the terminal closed) stops it', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'npm-start-tmp-'));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    let n = 400 + Math.floor(Math.random() * 100);
    while (existsSync(`/tmp/.X11-unix/X${n}`)) n++;
    child = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts', '--no-build', '--port', '0', '--client-port', '0'], { env: { ...env, DISPLAY: `:${n}`, TMPDIR: tmp }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = await waitForOutput(child, /Serving\. Press Ctrl\+C/, 60_000);
    const why = out.split('\n').filter((l) => l.startsWith('Could not open Chromium: '));
    expect(why).toEqual([`Could not open Chromium: no X server answers on DISPLAY=:${n} (start one, e.g. xvfb-run -a npm start, or pass --no-browser)`]);
    expect(out).not.toContain('\u001b');
    expect(out).toMatch(/No browser opened: Chromium could not be started/);
    expect(readdirSync(tmp).filter((f) => f.startsWith('mcp-devtools-profile-'))).toEqual([]);
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    process.kill(child.pid as number, 'SIGHUP');
    expect(await exited).toBe(0);
  }, 90_000);

  it('stopped while Chromium is still starting: Chromium is closed and its profile removed', async () => {
    const display = await startXvfb();
    const tmp = mkdtempSync(join(tmpdir(), 'npm-start-tmp-'));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    child = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts', '--no-build', '--port', '0', '--client-port', '0'], { env: { ...env, DISPLAY: display, TMPDIR: tmp }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(child, /Demo page:/, 40_000);
    // Chromium is on its way up: wait until its profile exists, then hang up.
    const until = Date.now() + 20_000;
    while (readdirSync(tmp).every((f) => !f.startsWith('mcp-devtools-profile-')) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(readdirSync(tmp).filter((f) => f.startsWith('mcp-devtools-profile-'))).toHaveLength(1);
    const pid = child.pid as number;
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    process.kill(pid, 'SIGHUP');
    const tree = [pid, ...descendants(pid)];
    expect(await exited).toBe(0);
    const deadline = Date.now() + 5000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(tree.filter(alive)).toEqual([]);
    expect(readdirSync(tmp).filter((f) => f.startsWith('mcp-devtools-profile-'))).toEqual([]);
  }, 90_000);

  it('--scenario with an unknown name exits 2 and lists the scenarios; --list names them', () => {
    const bad = spawnSync('node_modules/.bin/tsx', ['demo/start.ts', '--scenario', 'nope'], { env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown scenario 'nope'/);
    expect(bad.stderr).toMatch(/out-of-order-reads/);
    const list = spawnSync('node_modules/.bin/tsx', ['demo/start.ts', '--list'], { env, encoding: 'utf8' });
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/reconnect-without-resubscribe/);
    expect(list.stdout).toMatch(/healthy-v2/);
  }, 30_000);
});
