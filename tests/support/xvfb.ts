// Starts a private Xvfb display for headed tests (the real devtools window only opens headed) and stops it after.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Display {
  display: string;
  close(): Promise<void>;
}

export async function startXvfb(): Promise<Display> {
  const child: ChildProcess = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1400x900x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const display = await new Promise<string>((ok, fail) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`Xvfb did not start: ${err}`)), 10_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\s*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(`:${m[1]}`);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => fail(new Error(`Xvfb is not installed (apt-get install -y xvfb): ${e.message}`)));
    child.on('exit', (code) => fail(new Error(`Xvfb exited with ${code}: ${err}`)));
  });
  return {
    display,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
