// Serves test pages from memory on a loopback port. Routes may be functions, for pages that stream or misbehave.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Route =
  | { type: string; body: string | Buffer; headers?: Record<string, string>; status?: number }
  | ((req: IncomingMessage, res: ServerResponse) => void | Promise<void>);

export interface StaticServer {
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  /** http://localhost:port — another origin on the same server, for cross-origin frames. */
  altUrl: string;
  routes: Map<string, Route>;
  http: Server;
  close(): Promise<void>;
}

export async function startStaticServer(routes: Record<string, Route> = {}): Promise<StaticServer> {
  const table = new Map(Object.entries(routes));
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const route = table.get(path);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (typeof route === 'function') {
      Promise.resolve(route(req, res)).catch(() => res.destroy());
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type, 'cache-control': 'no-store', ...route.headers });
    res.end(route.body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    altUrl: `http://localhost:${port}`,
    routes: table,
    http: server,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export function html(body: string, head = ''): Route {
  return { type: 'text/html; charset=utf-8', body: `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>` };
}

export function js(body: string): Route {
  return { type: 'text/javascript; charset=utf-8', body };
}
