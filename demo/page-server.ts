// Serves the built demo page (demo/client/dist) on its own loopback origin, so the page's MCP traffic to the server is
// really cross-origin, plus /config.json telling the page where the MCP server is. Static files only; no directory
// listings, nothing outside the bundle.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { isLoopbackHost } from './server/cors.ts';

export interface PageServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export async function createPageServer(opts: { dir: string; serverUrl: string; port?: number }): Promise<PageServer> {
  const root = resolve(opts.dir);
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://page.invalid');
    } catch {
      // `//[` or `http://[` as the request target: a bad request, not a reason to stop the demo.
      return send(400, 'text/plain', 'bad request target');
    }
    // Like the MCP server: loopback Host headers only (a DNS-rebinding page cannot read the demo).
    if (!isLoopbackHost(req)) return send(403, 'text/plain', 'loopback Host only');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain', 'GET only');
    if (url.pathname === '/config.json') return send(200, TYPES['.json'] ?? '', JSON.stringify({ serverUrl: opts.serverUrl }));
    let rel: string;
    try {
      rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    } catch {
      return send(400, 'text/plain', `bad path: ${url.pathname}`);
    }
    const file = normalize(join(root, rel));
    if (file !== root && !file.startsWith(root + sep)) return send(403, 'text/plain', 'outside the bundle');
    readFile(file).then(
      (body) => send(200, TYPES[extname(file)] ?? 'application/octet-stream', body),
      () => send(404, 'text/plain', `not found: ${url.pathname}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
