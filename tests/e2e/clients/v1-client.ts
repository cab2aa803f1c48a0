// A real browser MCP client on SDK v1, driven by the tests through window.mcp. Streamable HTTP, legacy SSE or WebSocket.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

type Kind = 'streamable' | 'sse' | 'ws';
let client: Client | undefined;
let transport: StreamableHTTPClientTransport | SSEClientTransport | WebSocketClientTransport | undefined;
const updates: Array<{ uri: string; at: number }> = [];

const mcp = {
  updates,
  async connect(kind: Kind, url: string): Promise<string | undefined> {
    client = new Client({ name: 'capture-test-client', version: '1.0.0' });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push({ uri: n.params.uri, at: Date.now() });
    });
    transport =
      kind === 'streamable'
        ? new StreamableHTTPClientTransport(new URL(url))
        : kind === 'sse'
          ? new SSEClientTransport(new URL(url))
          : new WebSocketClientTransport(new URL(url));
    await client.connect(transport);
    return (transport as { sessionId?: string }).sessionId;
  },
  async read(uri: string): Promise<string> {
    const r = await client!.readResource({ uri });
    const c = r.contents[0] as { text?: string };
    return c.text ?? '';
  },
  async subscribe(uri: string): Promise<void> {
    await client!.subscribeResource({ uri });
  },
  async list(): Promise<string[]> {
    return (await client!.listResources()).resources.map((r) => r.uri);
  },
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
    return client!.callTool({ name, arguments: args });
  },
  /** Ends the Streamable HTTP session from the page's own pagehide handler, as a careful client does (a DELETE). */
  endSessionOnPageHide(): void {
    const t = transport as StreamableHTTPClientTransport;
    addEventListener('pagehide', () => void t.terminateSession().catch(() => {}));
  },
  async close(): Promise<void> {
    await client?.close();
  },
};
Object.assign(window, { mcp });
