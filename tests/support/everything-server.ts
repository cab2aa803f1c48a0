// Runs @modelcontextprotocol/server-everything (its own transport code, unmodified) as a child process on a free
// loopback port, and stops it with the test.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface EverythingServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startEverythingServer(transport: 'streamableHttp' | 'sse' = 'streamableHttp'): Promise<EverythingServer> {
  const entry = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const child: ChildProcess = spawn(process.execPath, ['--import', resolve('tests/support/loopback-only.mjs'), entry, transport], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((ok, fail) => {
    let err = '';
    const timer = setTimeout(() => fail(new Error(`server-everything did not start: ${err}`)), 15_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /LOOPBACK_PORT (\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.on('exit', (code) => fail(new Error(`server-everything exited with ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
