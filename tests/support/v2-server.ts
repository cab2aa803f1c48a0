// A 2026-07-28 resource server on SDK v2 (@modelcontextprotocol/server, createMcpHandler: no sessions, per-request
// _meta, `subscriptions/listen` streams) on a loopback port, for the capture tests. `edit(uri)` changes a document and
// publishes the update to every listen stream that asked for it. Faults for the recovery tests: listen sockets reset
// (an abrupt drop), listen streams ended gracefully (the SDK's end response), a ttlMs of the test's choosing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';

export interface V2Server {
  url: string;
  port: number;
  edit(uri: string): void;
  /** `subscriptions/listen` streams open now. */
  openListenStreams(): number;
  /** Resets the socket of every open listen stream (no end response: an abrupt drop); returns how many. */
  dropListenSockets(): number;
  /**
   * Ends every open listen stream gracefully, as the SDK does on shutdown (each gets its `resultType: "complete"`
   * response), and goes on serving with a fresh handler on the same event bus; returns how many ended.
   */
  endListens(): Promise<number>;
  close(): Promise<void>;
}

export interface V2ServerOptions {
  /** Listen on that one (a restarted server, for a client that reconnects); default a free one. */
  port?: number;
  /** The ttlMs the reads declare (default 30 s). */
  ttlMs?: number;
  /** Advertise resources.subscribe (default true): without it a listen's resourceSubscriptions are not honoured. */
  subscribe?: boolean;
}

/** node:http → web Request (Node 20 has fetch's Request/Response globally). */
export function toWebRequest(req: IncomingMessage, res: ServerResponse, base: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const controller = new AbortController();
  // The response closing (not the request: that 'close's once its body is read) means the client went away.
  res.on('close', () => controller.abort());
  return new Request(new URL(req.url ?? '/', base), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    signal: controller.signal,
    // @ts-expect-error Node's fetch needs duplex for streamed bodies.
    duplex: 'half',
  });
}

/** web Response → node:http, streaming (a listen response never ends on its own). */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

export async function startV2Server(opts: V2ServerOptions = {}): Promise<V2Server> {
  const docs = new Map([
    ['file:///docs/policy.md', '# Policy\nversion 1\n'],
    ['file:///docs/faq.md', '# FAQ\nversion 1\n'],
  ]);
  const factory = () => {
    const server = new McpServer({ name: 'capture-test-kb-v2', version: '2.0.0' }, { capabilities: { resources: { subscribe: opts.subscribe ?? true, listChanged: true } } });
    for (const uri of docs.keys()) {
      server.registerResource(uri.split('/').pop()!, uri, { mimeType: 'text/markdown', cacheHint: { ttlMs: opts.ttlMs ?? 30_000 } }, async () => ({
        contents: [{ uri, mimeType: 'text/markdown', text: docs.get(uri)! }],
      }));
    }
    return server;
  };
  let handler = createMcpHandler(factory, { legacy: 'reject', keepAliveMs: 0 });
  const bus = handler.bus;
  const sockets = new Set<Socket>();
  const listens = new Set<ServerResponse>();
  let base = '';
  const http = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Expose-Headers', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    handler
      .fetch(toWebRequest(req, res, base))
      .then((response) => {
        // Only a listen is answered with a stream by this server (its reads and discover are single JSON answers).
        if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          listens.add(res);
          res.on('close', () => listens.delete(res));
        }
        return sendWebResponse(res, response);
      })
      .catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(e));
        else res.destroy();
      });
  });
  http.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => http.listen(opts.port ?? 0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    edit(uri) {
      docs.set(uri, (docs.get(uri) ?? '').replace(/version (\d+)/, (_, n) => `version ${Number(n) + 1}`));
      handler.notify.resourceUpdated(uri);
    },
    openListenStreams: () => listens.size,
    dropListenSockets() {
      const n = listens.size;
      for (const res of listens) res.socket?.destroy();
      return n;
    },
    async endListens() {
      const n = listens.size;
      const old = handler;
      handler = createMcpHandler(factory, { legacy: 'reject', keepAliveMs: 0, bus });
      await old.close();
      return n;
    },
    async close() {
      await handler.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
