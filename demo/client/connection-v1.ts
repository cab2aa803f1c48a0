// The 2025-11-25 connection on SDK v1 (@modelcontextprotocol/sdk): Streamable HTTP or legacy HTTP+SSE. Reports HTTP 404
// (on a request or on the GET stream's reconnect) as an expired session; the SDK itself never re-initializes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_INFO, endpointFor, headerDroppingFetch, type ConnectOptions, type KbConnection, type ListedResource, type ReadOutcome, type SubscribeOutcome } from './connection.ts';

/** Shorter than the SDK's 1 s default so the demo's stream reconnects (and the 404s after a restart) show up quickly. */
const RECONNECTION = { initialReconnectionDelay: 300, maxReconnectionDelay: 4000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 };

function is404(err: unknown): boolean {
  if (err instanceof StreamableHTTPError) return err.code === 404;
  return err instanceof Error && /\b404\b/.test(err.message) && /session not found|HTTP 404/i.test(err.message);
}

export async function connectV1(o: ConnectOptions): Promise<KbConnection> {
  const url = endpointFor(o.serverUrl, o.settings);
  const fetchImpl = headerDroppingFetch(o);
  const streamable = o.settings.transport === 'streamable-http'
    ? new StreamableHTTPClientTransport(url, { reconnectionOptions: RECONNECTION, ...(fetchImpl ? { fetch: fetchImpl } : {}) })
    : undefined;
  const transport = streamable ?? new SSEClientTransport(url, fetchImpl ? { fetch: fetchImpl } : {});
  // The v1 Client keeps the negotiated version to itself; the transport is told through setProtocolVersion.
  let negotiated: string | undefined;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    negotiated = v;
    setVersion?.(v);
  };
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let expired = false;
  let closed = false;
  const expire = (err: unknown) => {
    if (expired || closed) return;
    expired = true;
    o.events.sessionExpired(err instanceof Error ? err.message : String(err));
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => o.events.updated(n.params.uri));
  client.onerror = (err) => {
    if (closed) return;
    if (is404(err)) expire(err);
    else o.events.log(`transport: ${err.message}`);
  };
  await client.connect(transport);
  const guard = async <T>(p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } catch (err) {
      if (is404(err)) expire(err);
      throw err;
    }
  };
  const sessionId = streamable ? streamable.sessionId : undefined;

  return {
    settings: o.settings,
    protocolVersion: negotiated,
    sessionId,
    subscribeSupported: client.getServerCapabilities()?.resources?.subscribe === true,
    async list(): Promise<ListedResource[]> {
      const r = await guard(client.listResources());
      return r.resources.map((x) => ({ uri: x.uri, name: x.name, title: x.title, mimeType: x.mimeType, lastModified: x.annotations?.lastModified }));
    },
    async read(uri: string): Promise<ReadOutcome> {
      const r = await guard(client.readResource({ uri }));
      const c = r.contents[0];
      return { text: c && 'text' in c ? c.text : '', mimeType: c?.mimeType };
    },
    async subscribe(uri: string): Promise<SubscribeOutcome> {
      try {
        await guard(client.subscribeResource({ uri }));
        return { ok: true };
      } catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
    },
    async close(opts = {}) {
      closed = true;
      if (opts.endSession && streamable?.sessionId) await streamable.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    },
  };
}
