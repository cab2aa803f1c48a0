// Server side of the non-interference probes (tests/e2e/clients/probes.ts): JSON-RPC over JSON and SSE, redirects,
// slow heads and bodies, binary bodies, a never-ending SSE stream whose disconnect is observable, an EventSource feed
// and a WebSocket echo.
import { createHash } from 'node:crypto';
import { WebSocketServer } from 'ws';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StaticServer } from './static-server.ts';

const result = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { contents: [{ uri: 'file:///docs/policy.md', text: 'hello' }] } });

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function idOf(text: string): unknown {
  try {
    const v = JSON.parse(text) as { id?: unknown } | Array<{ id?: unknown }>;
    return Array.isArray(v) ? v[0]?.id : v.id;
  } catch {
    return null;
  }
}

export function installProbeRoutes(site: StaticServer): void {
  const forever = { opened: 0, closed: 0 };
  const r = site.routes;
  r.set('/rpc', async (req: IncomingMessage, res: ServerResponse) => {
    const text = req.method === 'POST' ? await bodyOf(req) : '';
    res.writeHead(200, { 'content-type': 'application/json', 'x-custom': 'yes', 'mcp-session-id': 'sess-1', 'set-cookie': 'a=b' });
    res.end(req.method === 'HEAD' ? undefined : text.startsWith('[') ? `[${result(1)},${result(2)}]` : result(idOf(text)));
  });
  // Answers with the MCP headers the request arrived with (a page's one-shot headers iterator must reach the server).
  r.set('/echo-headers', async (req, res) => {
    const id = idOf(await bodyOf(req));
    const seen = { contentType: req.headers['content-type'] ?? null, protocol: req.headers['mcp-protocol-version'] ?? null };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { contents: [{ uri: 'file:///docs/policy.md', text: JSON.stringify(seen) }] } }));
  });
  // Answers with the size and SHA-256 of the bytes the request arrived with (a binary body must reach the server as sent).
  r.set('/echo-bytes', async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const seen = { bytes: body.byteLength, sha256: createHash('sha256').update(body).digest('hex') };
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: JSON.stringify(seen) } }));
  });
  r.set('/rpc-404', async (req, res) => {
    await bodyOf(req);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
  });
  r.set('/redirect', async (req, res) => {
    await bodyOf(req);
    res.writeHead(307, { location: '/rpc' }).end();
  });
  r.set('/binary', async (req, res) => {
    await bodyOf(req);
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 250, 251, 252]));
  });
  r.set('/plain', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>plain</p>'));
  r.set('/rpc-sse', async (req, res) => {
    const id = idOf(await bodyOf(req));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`event: message\nid: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })}\n\n`);
    setTimeout(() => {
      res.write(`event: message\nid: 2\ndata: ${result(id)}\n\n`);
      res.end();
    }, 400);
  });
  r.set('/rpc-sse-forever', async (req, res) => {
    await bodyOf(req);
    forever.opened++;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}\n\n`);
    const timer = setInterval(() => res.write(': keep-alive\n\n'), 50);
    res.on('close', () => {
      clearInterval(timer);
      forever.closed++;
    });
  });
  // The same with a JSON body that never ends (a page cancelling it must close the connection too).
  r.set('/rpc-json-forever', async (req, res) => {
    await bodyOf(req);
    forever.opened++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":10,"result":{"pad":"');
    const timer = setInterval(() => res.write('x'.repeat(1024)), 50);
    res.on('close', () => {
      clearInterval(timer);
      forever.closed++;
    });
  });
  r.set('/forever-state', (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(forever)));
  r.set('/slow', async (req, res) => {
    await bodyOf(req);
    setTimeout(() => !res.destroyed && res.writeHead(200, { 'content-type': 'application/json' }).end(result(1)), 2000);
  });
  r.set('/slow-body', async (req, res) => {
    await bodyOf(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","id":8,');
    setTimeout(() => !res.destroyed && res.end('"result":{}}'), 2000);
  });
  r.set('/big', async (req, res) => {
    await bodyOf(req);
    const mb = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('mb') ?? '5');
    const text = 'x'.repeat(mb * 1024 * 1024);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 5, result: { contents: [{ uri: 'file:///big', text }] } }));
  });
  r.set('/es', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: endpoint\ndata: /message?sessionId=abc\n\n');
    res.write(`id: 7\ndata: ${result(1)}\n\n`);
    res.write(`id: 8\ndata: ${result(2)}\n\n`);
  });
  const wss = new WebSocketServer({ server: site.http, path: '/echo' });
  wss.on('connection', (ws) => ws.on('message', (d) => ws.send(String(d))));
}
