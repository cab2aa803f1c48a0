// The 2026-07-28 endpoint (/v2/mcp) with the real v2 SDK client: listen acknowledgement and subscriptionId, ttlMs on
// reads, notifications only to listens that asked for the URI, the refused-capability ack, and an abrupt restart.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKbServer, type KbServer } from '../../../demo/server/http.ts';
import { admin, eventually, POLICY, sleep } from './helpers.ts';

let kb: KbServer;
const clients: Client[] = [];

async function connect(): Promise<{ client: Client; updates: { uri: string; subscriptionId: unknown }[] }> {
  const client = new Client({ name: 'demo-test-v2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const updates: { uri: string; subscriptionId: unknown }[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push({ uri: n.params.uri, subscriptionId: (n.params._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'] });
  });
  client.onerror = () => undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(kb.endpoints.v2)));
  clients.push(client);
  return { client, updates };
}

beforeEach(async () => {
  kb = await createKbServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await kb.close();
});

describe('2026-07-28 endpoint', () => {
  it('reads carry ttlMs; the ttlMs fault changes it', async () => {
    const { client } = await connect();
    const r = await client.readResource({ uri: POLICY }, { cacheMode: 'bypass' });
    expect((r as { ttlMs?: number }).ttlMs).toBe(30_000);
    await admin(kb.url, 'faults', { ttlMs: 1000 });
    const r2 = await client.readResource({ uri: POLICY }, { cacheMode: 'bypass' });
    expect((r2 as { ttlMs?: number }).ttlMs).toBe(1000);
    const article = await client.readResource({ uri: 'postgres://kb/articles/102' }, { cacheMode: 'bypass' });
    expect(article.contents[0]?.uri).toBe('postgres://kb/articles/102');
  });

  it('listen is acknowledged with the honoured URIs, and updates carry the subscriptionId', async () => {
    const { client, updates } = await connect();
    const sub = await client.listen({ resourceSubscriptions: [POLICY] });
    expect(sub.honoredFilter.resourceSubscriptions).toEqual([POLICY]);
    expect(kb.state().listens).toEqual([expect.objectContaining({ uris: [POLICY] })]);
    await admin(kb.url, 'edit', { uri: 'postgres://kb/articles/101' });
    await admin(kb.url, 'edit', { uri: POLICY });
    await eventually(() => updates.length > 0, 3000, 'the notification');
    await sleep(50);
    expect(updates).toEqual([{ uri: POLICY, subscriptionId: expect.any(String) }]);
    expect(kb.state().metrics).toMatchObject({ droppedNoSubscriber: 1, updatesSent: 1 });
  });

  it('without the subscribe capability the ack honours no URI and the stream ends', async () => {
    await admin(kb.url, 'faults', { noSubscribeCapability: true });
    const { client } = await connect();
    expect(client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
    const sub = await client.listen({ resourceSubscriptions: [POLICY] });
    expect(sub.honoredFilter.resourceSubscriptions).toBeUndefined();
    expect(await sub.closed).toBe('graceful');
    await eventually(() => kb.state().listens.length === 0, 2000, 'listen gone');
  });

  it('restart cuts listen streams abruptly (no final response)', async () => {
    const { client } = await connect();
    const sub = await client.listen({ resourceSubscriptions: [POLICY] });
    const r = await admin(kb.url, 'restart', {});
    expect(r.json).toEqual({ dropped: { sessions: 0, listens: 1 } });
    expect(await sub.closed).toBe('remote');
    const again = await client.listen({ resourceSubscriptions: [POLICY] });
    expect(again.honoredFilter.resourceSubscriptions).toEqual([POLICY]);
  });

  it('rejects 2025-era requests on the 2026 endpoint', async () => {
    const res = await fetch(kb.endpoints.v2, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
  });
});
