// The 2026-07-28 connection on SDK v2 (@modelcontextprotocol/client): no session, no initialize (server/discover), and
// subscriptions through subscriptions/listen. One listen stream carries every URI subscribed on this connection; adding
// a URI opens a new listen with the whole set and closes the old one after the new acknowledgement. The SDK's own
// response cache is bypassed: the page's cache (read-cache.ts) is the one under study.
import { Client, StreamableHTTPClientTransport, type McpSubscription } from '@modelcontextprotocol/client';
import { CLIENT_INFO, endpointFor, headerDroppingFetch, type ConnectOptions, type KbConnection, type ListedResource, type ReadOutcome, type SubscribeOutcome } from './connection.ts';

export const MODERN_VERSION = '2026-07-28';

export async function connectV2(o: ConnectOptions): Promise<KbConnection> {
  const url = endpointFor(o.serverUrl, o.settings);
  const fetchImpl = headerDroppingFetch(o);
  const transport = new StreamableHTTPClientTransport(url, fetchImpl ? { fetch: fetchImpl } : {});
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN_VERSION } } });
  client.setNotificationHandler('notifications/resources/updated', (n) => o.events.updated(n.params.uri));
  client.onerror = (err) => o.events.log(`transport: ${err.message}`);
  await client.connect(transport);

  const uris = new Set<string>();
  let acknowledged = new Set<string>();
  let current: McpSubscription | undefined;
  let closed = false;

  const listen = async (): Promise<McpSubscription> => {
    const sub = await client.listen({ resourceSubscriptions: [...uris] });
    void sub.closed.then((reason) => {
      // Only the live stream matters: the ones we replaced or closed ourselves end with 'local'.
      if (closed || sub !== current || reason === 'local') return;
      current = undefined;
      o.events.listenClosed(reason);
    });
    return sub;
  };

  return {
    settings: o.settings,
    protocolVersion: MODERN_VERSION,
    sessionId: undefined,
    subscribeSupported: client.getServerCapabilities()?.resources?.subscribe === true,
    async list(): Promise<ListedResource[]> {
      const r = await client.listResources(undefined, { cacheMode: 'bypass' });
      return r.resources.map((x) => ({ uri: x.uri, name: x.name, title: x.title, mimeType: x.mimeType, lastModified: x.annotations?.lastModified }));
    },
    async read(uri: string): Promise<ReadOutcome> {
      const r = await client.readResource({ uri }, { cacheMode: 'bypass' });
      const c = r.contents[0];
      const ttl = (r as { ttlMs?: unknown }).ttlMs;
      return { text: c && 'text' in c ? c.text : '', mimeType: c?.mimeType, ...(typeof ttl === 'number' ? { ttlMs: ttl } : {}) };
    },
    async subscribe(uri: string): Promise<SubscribeOutcome> {
      if (current && acknowledged.has(uri)) return { ok: true };
      uris.add(uri);
      const previous = current;
      try {
        const sub = await listen();
        current = sub;
        await previous?.close().catch(() => undefined);
        const honored = sub.honoredFilter.resourceSubscriptions ?? [];
        acknowledged = new Set(honored);
        return honored.includes(uri) ? { ok: true } : { ok: false, reason: 'the listen acknowledgement did not include this URI' };
      } catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
    },
    async close() {
      closed = true;
      await current?.close().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
