// A minimal raw CDP client over the browser's remote-debugging port, for targets playwright does not expose (the
// devtools window and the extension panels inside it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';

export interface CdpTarget {
  id: string;
  type: string;
  url: string;
  webSocketDebuggerUrl: string;
}

export function debuggingPort(userDataDir: string): number {
  return Number(readFileSync(join(userDataDir, 'DevToolsActivePort'), 'utf8').split('\n')[0]);
}

export async function listTargets(port: number): Promise<CdpTarget[]> {
  return (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as CdpTarget[];
}

/** Evaluates an expression in a target and returns its value (by value). */
export async function evaluateIn(target: CdpTarget, expression: string): Promise<unknown> {
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  try {
    const reply = await new Promise<{ result?: { result?: { value?: unknown }; exceptionDetails?: unknown } }>((ok) => {
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as { id?: number };
        if (m.id === 1) ok(m as never);
      });
      ws.send(JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression, awaitPromise: true, returnByValue: true } }));
    });
    if (reply.result?.exceptionDetails) throw new Error(`evaluation failed: ${JSON.stringify(reply.result.exceptionDetails)}`);
    return reply.result?.result?.value;
  } finally {
    ws.close();
  }
}
