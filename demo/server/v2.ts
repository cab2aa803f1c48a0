// The 2026-07-28 variant on @modelcontextprotocol/server 2.x, mounted at /v2/mcp: no sessions, per-request server
// instances from one factory, change notifications only on subscriptions/listen streams (the SDK acknowledges the
// honoured filter first and stamps every notification with the subscriptionId), ttlMs on every read. We track the open
// listen streams ourselves (the SDK keeps them private) so the fan-out can count "nobody subscribed" and restart can cut
// them abruptly.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer, ResourceNotFoundError, ResourceTemplate, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { INSTRUCTIONS, SERVER_INFO, type KbContext } from './context.ts';
import { DEFAULT_TTL_MS } from './faults.ts';
import { sendWebResponse, toWebRequest } from './node-web.ts';
import { listResources, readResource } from './resources.ts';
import { ARTICLE_TEMPLATE } from './seed-documents.ts';

export const V2_PROTOCOL_VERSION = '2026-07-28';

/** A fresh server for one request, reflecting the current documents and faults. */
export function buildV2Server(ctx: KbContext): McpServer {
  const faults = ctx.faults();
  const server = new McpServer(SERVER_INFO, {
    capabilities: { resources: faults.noSubscribeCapability ? { listChanged: true } : { subscribe: true, listChanged: true } },
    instructions: INSTRUCTIONS,
  });
  const cacheHint = { ttlMs: faults.ttlMs ?? DEFAULT_TTL_MS, cacheScope: 'private' as const };
  const read = async (uri: URL) => {
    ctx.metrics.count('reads');
    const snap = await ctx.scheduler.serve(uri.href, () => readResource(ctx.store, uri.href));
    if (!snap) throw new ResourceNotFoundError(uri.href);
    return { contents: [{ uri: snap.uri, mimeType: snap.mimeType, text: snap.text }] };
  };
  const all = listResources(ctx.store);
  const articles = all.filter((r) => r.uri.startsWith('postgres://kb/articles/') && ctx.store.get(r.uri)?.kind === 'article');
  for (const r of all) {
    if (articles.includes(r)) continue;
    server.registerResource(r.name, r.uri, { title: r.title, mimeType: r.mimeType, annotations: r.annotations, cacheHint }, read);
  }
  server.registerResource(
    'article',
    new ResourceTemplate(ARTICLE_TEMPLATE, { list: () => ({ resources: articles }) }),
    { title: 'Knowledge-base article by id', mimeType: 'application/json', cacheHint },
    (uri) => read(uri),
  );
  return server;
}

export class V2Endpoint {
  private handler: McpHttpHandler;
  private listenResponses = new Map<string, ServerResponse>();

  constructor(private readonly ctx: KbContext) {
    this.handler = this.createHandler();
  }

  get listenCount(): number {
    return this.listenResponses.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL, raw: Buffer | undefined, parsed: unknown, cors: Record<string, string>): Promise<void> {
    const aborter = new AbortController();
    res.on('close', () => aborter.abort());
    const response = await this.handler.fetch(toWebRequest(req, url, raw, aborter.signal));
    const listen = listenRequest(parsed);
    const isStream = listen !== undefined && response.status === 200 && (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (!isStream) {
      await sendWebResponse(res, response, cors);
      return;
    }
    const key = randomUUID();
    // Mirrors the SDK's honoured subset: resourceSubscriptions survive only with the subscribe capability.
    const uris = this.ctx.faults().noSubscribeCapability ? [] : listen.uris;
    this.ctx.ledger.addListen({ key, requestId: listen.id, uris, openedAt: this.ctx.now() });
    this.ctx.metrics.count('subscribes', uris.length);
    this.listenResponses.set(key, res);
    await sendWebResponse(res, response, cors, () => {
      this.ctx.ledger.removeListen(key);
      this.listenResponses.delete(key);
    });
  }

  publishUpdated(uri: string): void {
    this.handler.notify.resourceUpdated(uri);
  }

  /** Cuts every listen stream without the graceful final response (a crashed process) and starts a fresh handler. */
  async restart(): Promise<number> {
    const n = this.dropStreams();
    const old = this.handler;
    this.handler = this.createHandler();
    await old.close().catch(() => undefined);
    return n;
  }

  /** Abruptly closes every open listen stream; the handler keeps serving. */
  dropStreams(): number {
    const open = [...this.listenResponses.values()];
    this.listenResponses.clear();
    this.ctx.ledger.clearListens();
    for (const res of open) res.destroy();
    return open.length;
  }

  async close(): Promise<void> {
    this.dropStreams();
    await this.handler.close().catch(() => undefined);
  }

  private createHandler(): McpHttpHandler {
    return createMcpHandler(() => buildV2Server(this.ctx), { legacy: 'reject', onerror: () => undefined });
  }
}

function listenRequest(body: unknown): { id: string | number | null; uris: string[] } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const m = body as { method?: unknown; id?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (m.method !== 'subscriptions/listen') return undefined;
  const subs = m.params?.notifications?.resourceSubscriptions;
  const uris = Array.isArray(subs) ? subs.filter((u): u is string => typeof u === 'string') : [];
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  return { id, uris };
}
