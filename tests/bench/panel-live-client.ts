// The page that feeds the panel benchmark's live run: an MCP client the way the SDK behaves on the wire — initialize,
// the GET stream, read + subscribe 50 URIs — then it re-reads every URI the server says was updated. The server sends
// `rate` notifications per second; each costs 5 frames (the SSE event, and request, response, body, end of the
// re-read), so 200/s is 1,000 frames/s through the hook, the relay, the background and the panel's port.
import { createParser } from 'eventsource-parser';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function rpc(base: string, session: string | undefined, id: number, method: string, params: unknown): Promise<{ session: string | undefined; body: unknown }> {
  const h: Record<string, string> = { ...HEADERS };
  if (session) {
    h['mcp-session-id'] = session;
    h['mcp-protocol-version'] = '2025-11-25';
  }
  const r = await fetch(`${base}/mcp`, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  return { session: r.headers.get('mcp-session-id') ?? session, body: await r.json() };
}

async function start(base: string, uris: number, rate: number, seconds: number): Promise<{ notifications: number; reads: number }> {
  let id = 1;
  const init = await rpc(base, undefined, id++, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  const session = init.session!;
  await fetch(`${base}/mcp`, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  for (let i = 0; i < uris; i++) {
    await rpc(base, session, id++, 'resources/read', { uri: `file:///docs/doc-${i}.md` });
    await rpc(base, session, id++, 'resources/subscribe', { uri: `file:///docs/doc-${i}.md` });
  }
  let notifications = 0;
  let reads = 0;
  const r = await fetch(`${base}/mcp?rate=${rate}&seconds=${seconds}&uris=${uris}`, {
    headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
  });
  const pending: Promise<unknown>[] = [];
  const parser = createParser({
    onEvent(ev) {
      const m = JSON.parse(ev.data) as { method?: string; params?: { uri?: string } };
      if (m.method !== 'notifications/resources/updated' || !m.params?.uri) return;
      notifications++;
      pending.push(rpc(base, session, id++, 'resources/read', { uri: m.params.uri }).then(() => reads++));
    },
  });
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await Promise.all(pending);
  return { notifications, reads };
}

Object.assign(window, { startLive: start });
