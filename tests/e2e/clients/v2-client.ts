// A real browser MCP client on SDK v2 (@modelcontextprotocol/client) speaking 2026-07-28: server/discover, per-request
// _meta, `subscriptions/listen`. Driven by the tests through window.mcp2.
import { Client, StreamableHTTPClientTransport, type McpSubscription } from '@modelcontextprotocol/client';

let client: Client | undefined;
let subscription: McpSubscription | undefined;
const updates: Array<{ uri: string; at: number }> = [];

const mcp2 = {
  updates,
  async connect(url: string): Promise<void> {
    client = new Client({ name: 'capture-test-client-v2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push({ uri: n.params.uri, at: Date.now() });
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  },
  async read(uri: string): Promise<{ text: string; ttlMs: unknown }> {
    const r = await client!.readResource({ uri });
    return { text: (r.contents[0] as { text?: string }).text ?? '', ttlMs: (r as { ttlMs?: unknown }).ttlMs };
  },
  async listen(uris: string[]): Promise<unknown> {
    subscription = await client!.listen({ resourceSubscriptions: uris });
    return subscription.honoredFilter;
  },
  async unlisten(): Promise<string> {
    await subscription!.close();
    return subscription!.closed;
  },
  async close(): Promise<void> {
    await client?.close();
  },
};
Object.assign(window, { mcp2 });
