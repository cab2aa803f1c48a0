// What the KB client needs from an MCP connection, whatever the protocol generation: list, read, subscribe to one URI,
// and be told about updates, an expired session (v1) or a dropped listen stream (v2). connection-v1.ts and
// connection-v2.ts implement it on the real SDK clients; kb-client.ts never touches an SDK directly.
import type { ConnectionSettings } from './switches.ts';

export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  mimeType?: string;
  lastModified?: string;
}

export interface ReadOutcome {
  text: string;
  mimeType?: string;
  /** 2026-07-28 only: the server's cache lifetime for this result. */
  ttlMs?: number;
}

export type SubscribeOutcome = { ok: true } | { ok: false; reason: string };

export interface ConnectionEvents {
  updated(uri: string): void;
  /** The server no longer knows the session (HTTP 404): only a new initialize helps. Fired at most once per connection. */
  sessionExpired(detail: string): void;
  /** 2026-07-28: the current listen stream ended; 'remote' = dropped without the graceful final response. */
  listenClosed(reason: 'graceful' | 'remote'): void;
  log(text: string): void;
}

export interface KbConnection {
  readonly settings: ConnectionSettings;
  /** Negotiated protocol version. */
  readonly protocolVersion: string | undefined;
  /** Mcp-Session-Id (Streamable HTTP) or the legacy sessionId; undefined on 2026-07-28. */
  readonly sessionId: string | undefined;
  /** The server advertised resources.subscribe. */
  readonly subscribeSupported: boolean;
  list(): Promise<ListedResource[]>;
  read(uri: string): Promise<ReadOutcome>;
  /** v1: resources/subscribe. v2: re-opens subscriptions/listen with every URI subscribed on this connection. */
  subscribe(uri: string): Promise<SubscribeOutcome>;
  /** Ends the connection; `endSession` sends DELETE for the session first (v1 Streamable HTTP). */
  close(opts?: { endSession?: boolean }): Promise<void>;
}

export interface ConnectOptions {
  settings: ConnectionSettings;
  /** Server base URL, e.g. http://127.0.0.1:8931. */
  serverUrl: string;
  sendProtocolHeader: boolean;
  resumeWithLastEventId: boolean;
  events: ConnectionEvents;
}

export const CLIENT_INFO = { name: 'kb-viewer', version: '1.0.0' } as const;

export function endpointFor(serverUrl: string, s: ConnectionSettings): URL {
  if (s.generation === '2026-07-28') return new URL('/v2/mcp', serverUrl);
  return new URL(s.transport === 'sse' ? '/sse' : '/mcp', serverUrl);
}

/**
 * The fetch the SDK transport should use: undefined (plain fetch) for a well-behaved client, otherwise a wrapper that
 * strips the headers the switches say to drop (the protocol-header-missing and resume-gap bugs).
 */
export function headerDroppingFetch(o: { sendProtocolHeader: boolean; resumeWithLastEventId: boolean }): ((url: string | URL, init?: RequestInit) => Promise<Response>) | undefined {
  const drop = [...(o.sendProtocolHeader ? [] : ['mcp-protocol-version']), ...(o.resumeWithLastEventId ? [] : ['last-event-id'])];
  if (!drop.length) return undefined;
  return (url, init) => {
    const headers = new Headers(init?.headers);
    for (const h of drop) headers.delete(h);
    return fetch(url, { ...init, headers });
  };
}
