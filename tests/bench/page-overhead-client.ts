// The page under measurement: consumes N SSE notifications on one MCP GET stream and M sequential JSON-RPC POST round
// trips, the way the SDK does it (fetch + eventsource-parser), and reports its own elapsed time.
import { createParser } from 'eventsource-parser';

async function consumeStream(base: string, count: number): Promise<number> {
  const r = await fetch(`${base}/mcp-stream?count=${count}`, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': 'bench-session', 'mcp-protocol-version': '2025-11-25' },
  });
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  let seen = 0;
  const parser = createParser({
    onEvent(ev) {
      const m = JSON.parse(ev.data) as { method?: string };
      if (m.method === 'notifications/resources/updated') seen++;
    },
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return seen;
}

async function roundTrips(base: string, count: number): Promise<number> {
  let ok = 0;
  for (let i = 1; i <= count; i++) {
    const r = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 'bench-session' },
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'resources/read', params: { uri: 'file:///docs/policy.md' } }),
    });
    const m = (await r.json()) as { id?: number };
    if (m.id === i) ok++;
  }
  return ok;
}

export async function runWorkload(base: string, notifications: number, posts: number) {
  const t0 = performance.now();
  const [seen, ok] = await Promise.all([consumeStream(base, notifications), roundTrips(base, posts)]);
  return { ms: performance.now() - t0, seen, ok };
}
Object.assign(window, { runWorkload });
