// A 2026-07-28 resource server on SDK v2 (@modelcontextprotocol/server, createMcpHandler: no sessions, per-request
// _meta, `subscriptions/listen` streams) on a loopback port, for the capture tests. `edit(uri)` changes a document and
// publishes the update to every listen stream that asked for it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';

export interface V2Server {
  url: string;
  port: number;
  edit(uri: string): void;
  close(): Promise<void>;
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

/** `port`: listen on that one (a restarted server, for a client that reconnects); default a free one. */
export async function startV2Server(opts: { port?: number } = {}): Promise<V2Server> {
  const docs = new Map([
    ['file:///docs/policy.md', '# Policy\nversion 1\n'],
    ['file:///docs/faq.md', '# FAQ\nversion 1\n'],
  ]);
  const factory = () => {
    const server = new McpServer({ name: 'capture-test-kb-v2', version: '2.0.0' }, { capabilities: { resources: { subscribe: true, listChanged: true } } });
    for (const uri of docs.keys()) {
      server.registerResource(uri.split('/').pop()!, uri, { mimeType: 'text/markdown', cacheHint: { ttlMs: 30_000 } }, async () => ({
        contents: [{ uri, mimeType: 'text/markdown', text: docs.get(uri)! }],
      }));
    }
    return server;
  };
  const handler = createMcpHandler(factory, { legacy: 'reject', keepAliveMs: 0 });
  const sockets = new Set<Socket>();
  let base = '';
  const http = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', '*');
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Expose-Headers', '*');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    handler
      .fetch(toWebRequest(req, res, base))
      .then((response) => sendWebResponse(res, response))
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
    async close() {
      await handler.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
