// A persistent raw CDP session to one target (for profiling targets playwright cannot attach to, like the service worker).
import WebSocket from 'ws';
import type { CdpTarget } from './cdp.ts';

export class CdpSession {
  private nextId = 1;
  private readonly pending = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { id?: number; result?: unknown; error?: unknown };
      if (m.id !== undefined) this.pending.get(m.id)?.(m);
    });
    // A target that went away (a worker stopped) answers nothing more: its calls fail rather than wait for ever.
    ws.on('close', () => {
      for (const answer of this.pending.values()) answer({ error: 'the target closed its DevTools connection' });
      this.pending.clear();
    });
  }
  static async open(target: CdpTarget): Promise<CdpSession> {
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise<void>((ok, fail) => {
      ws.once('open', () => ok());
      ws.once('error', fail);
    });
    return new CdpSession(ws);
  }
  send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise((ok, fail) => {
      this.pending.set(id, (m) => {
        this.pending.delete(id);
        if (m.error) fail(new Error(JSON.stringify(m.error)));
        else ok(m.result as T);
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }
  close(): void {
    this.ws.close();
  }
}
