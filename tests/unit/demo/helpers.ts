// Helpers for the demo server tests: real SDK clients on loopback, raw admin calls, and polling for an expectation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export interface TestClient {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  updates: string[];
  close(): Promise<void>;
}

export async function connectV1(url: string, kind: 'streamable-http' | 'sse' = 'streamable-http'): Promise<TestClient> {
  const transport = kind === 'sse' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'demo-test', version: '1' });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  client.onerror = () => undefined;
  await client.connect(transport);
  return { client, transport, updates, close: () => client.close().catch(() => undefined) };
}

export async function admin(base: string, path: string, body?: unknown, method = body === undefined && path === 'state' ? 'GET' : 'POST'): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}/admin/${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export async function eventually(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const POLICY = 'file:///docs/policy.md';
