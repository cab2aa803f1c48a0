// A small resource server on SDK v1 for the capture tests: Streamable HTTP (/mcp, stateful sessions), the legacy
// HTTP+SSE transport (/sse + /message) and a WebSocket endpoint (/ws, subprotocol "mcp"), all on one loopback port,
// with CORS as a real cross-origin deployment needs it. `edit(uri)` changes a document and notifies subscribers.
// Faults for the recovery tests: GET sockets reset, GETs refused with 503, slow reads, deleted documents.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import {
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface V1Server {
  url: string;
  port: number;
  docs: Map<string, string>;
  /** Changes a document and sends notifications/resources/updated to every session subscribed to it. */
  edit(uri: string, text?: string): Promise<number>;
  sessions(): string[];
  /** Ends every legacy SSE stream from the server side (as a restart or a proxy timeout would); returns how many. */
  dropLegacyStreams(): Promise<number>;
  /** Resets the socket of every open Streamable HTTP GET stream (a network blip: the session survives); returns how many. */
  dropGetSockets(): number;
  /** Streamable HTTP GET streams open now. */
  openGetStreams(): number;
  /** Answers the next `n` GETs on /mcp with 503 (a transient outage of the stream endpoint). */
  failNextGets(n: number): void;
  /** Every read from now on takes `ms` before it is answered. */
  setReadDelay(ms: number): void;
  /** Deletes a document: reads of it are answered -32002 "Resource not found", and its subscribers are notified. */
  remove(uri: string): Promise<number>;
  close(): Promise<void>;
}

export interface V1ServerOptions {
  /** Give the Streamable HTTP sessions an event store: SSE events carry ids and a GET with Last-Event-ID replays. */
  eventStore?: boolean;
}

/** An in-memory event store as the SDK's examples have it: ids are `<stream>_<uuid>`, replay is per stream. */
class MemoryEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${randomUUID()}`;
    this.events.set(id, { streamId, message });
    return id;
  }
  async replayEventsAfter(lastEventId: string, { send }: { send: (id: string, m: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const from = this.events.get(lastEventId);
    if (!from) return '';
    let after = false;
    for (const [id, e] of this.events) {
      if (e.streamId !== from.streamId) continue;
      if (after) await send(id, e.message);
      if (id === lastEventId) after = true;
    }
    return from.streamId;
  }
}

/** The key /sse-keyed puts in the endpoint it announces: a capture must never hold it. */
export const LEGACY_KEY = 'LEGACYKEY-5f3a9c';

const INITIAL_DOCS: Array<[string, string]> = [
  ['file:///docs/policy.md', '# Policy\nversion 1\n'],
  ['file:///docs/faq.md', '# FAQ\nversion 1\n'],
];

function cors(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', '*');
  res.setHeader('Access-Control-Expose-Headers', 'mcp-session-id, mcp-protocol-version, last-event-id');
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/** A server-side Transport over one WebSocket (SDK v1 has the client side only). */
class WebSocketServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (e: Error) => void;
  onmessage?: (m: JSONRPCMessage) => void;
  /** `binary`: every message goes out as a binary frame (a page with the default binaryType gets Blobs). */
  constructor(
    private readonly ws: WebSocket,
    private readonly binary = false,
  ) {
    ws.on('message', (data) => {
      try {
        this.onmessage?.(JSON.parse(String(data)) as JSONRPCMessage);
      } catch (e) {
        this.onerror?.(e as Error);
      }
    });
    ws.on('close', () => this.onclose?.());
  }
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.ws.send(this.binary ? Buffer.from(JSON.stringify(message)) : JSON.stringify(message));
  }
  async close(): Promise<void> {
    this.ws.close();
  }
}

export async function startV1Server(options: V1ServerOptions = {}): Promise<V1Server> {
  const docs = new Map(INITIAL_DOCS);
  let readDelayMs = 0;
  let failGets = 0;
  const getStreams = new Set<ServerResponse>();
  const versions = new Map<string, number>(INITIAL_DOCS.map(([u]) => [u, 1]));
  const subscribers = new Map<string, { server: Server; uris: Set<string> }>();
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();

  const makeServer = (key: () => string) => {
    const server = new Server({ name: 'capture-test-kb', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
    const entry = { server, uris: new Set<string>() };
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: [...docs.keys()].map((uri) => ({ uri, name: uri.split('/').pop()!, mimeType: 'text/markdown' })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
      if (readDelayMs > 0) await new Promise((r) => setTimeout(r, readDelayMs));
      const text = docs.get(req.params.uri);
      if (text === undefined) throw new McpError(-32002, 'Resource not found', { uri: req.params.uri });
      return { contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text }] };
    });
    server.setRequestHandler(SubscribeRequestSchema, async (req) => {
      entry.uris.add(req.params.uri);
      subscribers.set(key(), entry);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
      entry.uris.delete(req.params.uri);
      return {};
    });
    return { server, entry };
  };

  const http: HttpServer = createServer(async (req, res) => {
    cors(res);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
      if (url.pathname === '/mcp') {
        if (req.method === 'GET' && failGets > 0) {
          failGets--;
          return void res.writeHead(503).end('unavailable');
        }
        if (req.method === 'GET') {
          getStreams.add(res);
          res.on('close', () => getStreams.delete(res));
        }
        const sid = req.headers['mcp-session-id'] as string | undefined;
        if (sid) {
          const t = streamable.get(sid);
          if (!t) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          const body = req.method === 'POST' ? await readJson(req) : undefined;
          return void (await t.handleRequest(req, res, body));
        }
        if (req.method !== 'POST') return void res.writeHead(400).end('missing session');
        const body = await readJson(req);
        let transport!: StreamableHTTPServerTransport;
        const { server } = makeServer(() => transport.sessionId!);
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          ...(options.eventStore ? { eventStore: new MemoryEventStore() } : {}),
          onsessioninitialized: (id) => void streamable.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) {
            streamable.delete(transport.sessionId);
            subscribers.delete(transport.sessionId);
          }
        };
        await server.connect(transport);
        return void (await transport.handleRequest(req, res, body));
      }
      // /sse-keyed announces an endpoint carrying a key (`/message?api_key=…&sessionId=…`), as some servers do.
      if ((url.pathname === '/sse' || url.pathname === '/sse-keyed') && req.method === 'GET') {
        const transport = new SSEServerTransport(url.pathname === '/sse' ? '/message' : `/message?api_key=${LEGACY_KEY}`, res);
        const { server } = makeServer(() => transport.sessionId);
        legacy.set(transport.sessionId, transport);
        res.on('close', () => {
          legacy.delete(transport.sessionId);
          subscribers.delete(transport.sessionId);
        });
        return void (await server.connect(transport));
      }
      if (url.pathname === '/message' && req.method === 'POST') {
        const t = legacy.get(url.searchParams.get('sessionId') ?? '');
        if (!t) return void res.writeHead(404).end('no such session');
        return void (await t.handlePostMessage(req, res, await readJson(req)));
      }
      res.writeHead(404).end('not found');
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    }
  });

  // /ws, and /ws-binary where the server sends binary frames.
  const wss = new WebSocketServer({ server: http, handleProtocols: (p) => (p.has('mcp') ? 'mcp' : false) });
  wss.on('connection', (ws, req) => {
    if (req.url !== '/ws' && req.url !== '/ws-binary') return void ws.close(1008, 'no such endpoint');
    const id = `ws-${randomUUID()}`;
    const { server } = makeServer(() => id);
    const transport = new WebSocketServerTransport(ws, req.url === '/ws-binary');
    ws.on('close', () => subscribers.delete(id));
    void server.connect(transport);
  });

  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  const sockets = new Set<import('node:net').Socket>();
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const notify = async (uri: string): Promise<number> => {
    let sent = 0;
    for (const { server, uris } of subscribers.values()) {
      if (!uris.has(uri)) continue;
      await server.sendResourceUpdated({ uri }).catch(() => undefined);
      sent++;
    }
    return sent;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    docs,
    async edit(uri, text) {
      const v = (versions.get(uri) ?? 0) + 1;
      versions.set(uri, v);
      docs.set(uri, text ?? (docs.get(uri) ?? '').replace(/version \d+/, `version ${v}`));
      return notify(uri);
    },
    async remove(uri) {
      docs.delete(uri);
      return notify(uri);
    },
    dropGetSockets() {
      const n = getStreams.size;
      for (const res of getStreams) res.socket?.destroy();
      return n;
    },
    openGetStreams: () => getStreams.size,
    failNextGets(n) {
      failGets = n;
    },
    setReadDelay(ms) {
      readDelayMs = ms;
    },
    sessions: () => [...streamable.keys(), ...legacy.keys()],
    async dropLegacyStreams() {
      const all = [...legacy.values()];
      for (const t of all) await t.close();
      return all.length;
    },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      for (const t of streamable.values()) await t.close().catch(() => undefined);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
