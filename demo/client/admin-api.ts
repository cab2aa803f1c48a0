// Typed calls to the demo server's admin endpoint (/admin/*), used by the page's buttons and the scenario player.
// Non-2xx answers become errors carrying the server's `error` text.
import type { AdminState } from '../server/admin.ts';
import type { Faults, FaultsPatch } from '../server/faults.ts';

export class AdminApi {
  constructor(private readonly serverUrl: string) {}

  state(): Promise<AdminState> {
    return this.call('GET', 'state');
  }

  async setFaults(patch: FaultsPatch): Promise<Faults> {
    return (await this.call<{ faults: Faults }>('POST', 'faults', patch)).faults;
  }

  edit(uri: string, opts: { times?: number; gapMs?: number; text?: string } = {}): Promise<{ uri: string; revision: number }> {
    return this.call('POST', 'edit', { uri, ...opts });
  }

  restart(): Promise<unknown> {
    return this.call('POST', 'restart', {});
  }

  dropStreams(): Promise<unknown> {
    return this.call('POST', 'drop-streams', {});
  }

  setTimer(intervalMs: number): Promise<unknown> {
    return this.call('POST', 'timer', { intervalMs });
  }

  reset(): Promise<unknown> {
    return this.call('POST', 'reset', {});
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(`/admin/${path}`, this.serverUrl), {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => ({}))) as { error?: string };
    if (!res.ok) throw new Error(`admin ${path}: HTTP ${res.status}${json.error ? ` — ${json.error}` : ''}`);
    return json as T;
  }
}
