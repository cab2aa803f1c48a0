// The demo's knowledge-base MCP server: one node:http server on loopback carrying the SDK v1 endpoints (/mcp, /sse,
// /message), the 2026-07-28 endpoint (/v2/mcp) and the admin endpoint (/admin/*), with CORS for the client page's origin.
// createKbServer() wires the parts together and returns a handle whose close() releases the port and every stream.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleAdmin, type AdminActions, type AdminState, type UnparsableBody } from './admin.ts';
import type { KbContext } from './context.ts';
import { corsHeaders, isLoopbackHost, preflightHeaders } from './cors.ts';
import { EditTimer } from './edit-timer.ts';
import { DEFAULT_FAULTS, type Faults } from './faults.ts';
import { KbStore } from './kb-store.ts';
import { KbMetrics } from './metrics.ts';
import { BodyTooLargeError, readBody, sendJson } from './node-web.ts';
import { ReadScheduler } from './read-scheduler.ts';
import { SubscriptionLedger } from './subscription-ledger.ts';
import { startUpdateFanout } from './update-fanout.ts';
import { V1Endpoints } from './v1.ts';
import { V2Endpoint } from './v2.ts';

export interface KbServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Edit a document every N ms; 0 (default) = off. */
  editIntervalMs?: number;
  now?: () => number;
}

export interface KbServer {
  /** Base URL, e.g. http://127.0.0.1:8931 (no trailing slash). */
  url: string;
  port: number;
  endpoints: { streamableHttp: string; sse: string; v2: string; admin: string };
  store: KbStore;
  state(): AdminState;
  close(): Promise<void>;
}

export const PATHS = { streamableHttp: '/mcp', sse: '/sse', sseMessage: '/message', v2: '/v2/mcp', admin: '/admin/' } as const;
const BODY_LIMIT = 4 * 1024 * 1024;

export async function createKbServer(opts: KbServerOptions = {}): Promise<KbServer> {
  const now = opts.now ?? Date.now;
  let faults: Faults = { ...DEFAULT_FAULTS };
  const store = new KbStore(now);
  const ctx: KbContext = {
    store,
    ledger: new SubscriptionLedger(),
    metrics: new KbMetrics(),
    scheduler: new ReadScheduler(() => faults),
    faults: () => faults,
    now,
  };
  const v1 = new V1Endpoints(ctx);
  const v2 = new V2Endpoint(ctx);
  const timer = new EditTimer(store);
  const stopFanout = startUpdateFanout({
    ...ctx,
    sinks: { sendToSession: (id, uri) => v1.sendUpdated(id, uri), publishToListens: (uri) => v2.publishUpdated(uri) },
  });

  const state = (): AdminState => ({
    faults: { ...faults },
    editTimerMs: timer.intervalMs,
    configuredEditTimerMs: opts.editIntervalMs ?? 0,
    sessions: [...ctx.ledger.sessions.values()].map((s) => ({
      id: s.id,
      transport: s.transport,
      ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
      subscribeCapability: s.subscribeCapability,
      subscriptions: [...s.subscriptions],
      channelOpen: s.channelOpen,
      createdAt: new Date(s.createdAt).toISOString(),
    })),
    listens: [...ctx.ledger.listens.values()].map((l) => ({ ...l, openedAt: new Date(l.openedAt).toISOString() })),
    documents: store.all().map(({ uri, kind, title, revision, lastModified, text }) => ({ uri, kind, title, revision, lastModified, text })),
    heldReads: ctx.scheduler.heldUris(),
    metrics: ctx.metrics.snapshot(now()),
  });

  const restartAll = async () => {
    const sessions = await v1.restart();
    const listens = await v2.restart();
    ctx.metrics.count('restarts');
    return { sessions, listens };
  };

  const actions: AdminActions = {
    state,
    setFaults: (patch) => (faults = { ...faults, ...patch }),
    editable: (uri) => store.get(uri) !== undefined,
    editableUris: () => store.all().map((e) => e.uri),
    async edit(uri, text, times, gapMs) {
      let entry = store.edit(uri, text);
      for (let i = 1; i < times; i++) {
        await new Promise((r) => setTimeout(r, gapMs));
        entry = store.edit(uri, text === undefined ? undefined : `${text} (${i + 1})`);
      }
      if (!entry) throw new Error(`not editable: ${uri}`);
      return entry;
    },
    restart: restartAll,
    dropStreams: () => ({ getStreams: v1.dropStreams(), listens: v2.dropStreams() }),
    setTimer: (ms) => timer.set(ms),
    async reset() {
      await restartAll();
      faults = { ...DEFAULT_FAULTS };
      store.reset();
      ctx.metrics.reset();
    },
  };

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) }, corsHeaders(req));
      else res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isLoopbackHost(req)) {
      sendJson(res, 403, { error: 'this demo server only answers loopback Host headers' });
      return;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(req));
      res.end();
      return;
    }
    const cors = corsHeaders(req);
    const path = url.pathname;
    const isMcp = path === PATHS.streamableHttp || path === PATHS.v2 || path === PATHS.sseMessage;
    let raw: Buffer | undefined;
    let body: unknown;
    if (method === 'POST' || method === 'PUT') {
      try {
        raw = await readBody(req, BODY_LIMIT);
      } catch (err) {
        if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: err.message }, cors);
        throw err;
      }
      if (raw.length) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch (err) {
          if (isMcp) return sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }, cors);
          body = { unparsable: err instanceof Error ? err.message : String(err) } satisfies UnparsableBody;
        }
      }
    }
    if (path === PATHS.streamableHttp) return v1.handleStreamable(req, res, url, body, cors);
    if (path === PATHS.sse && method === 'GET') return v1.openSse(req, res, cors);
    if (path === PATHS.sseMessage && method === 'POST') return v1.postSse(req, res, url, body, cors);
    if (path === PATHS.v2) return v2.handle(req, res, url, raw, body, cors);
    if (path === '/admin' || path.startsWith(PATHS.admin)) return handleAdmin(req, res, path, body, actions, cors);
    if (path === '/' && method === 'GET') {
      return sendJson(res, 200, { name: 'kb-demo', endpoints: { ...PATHS } }, cors);
    }
    sendJson(res, 404, { error: `nothing at ${method} ${path}`, endpoints: PATHS }, cors);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  timer.set(opts.editIntervalMs ?? 0);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    port,
    endpoints: { streamableHttp: url + PATHS.streamableHttp, sse: url + PATHS.sse, v2: url + PATHS.v2, admin: url + PATHS.admin },
    store,
    state,
    async close() {
      timer.stop();
      stopFanout();
      await v1.restart().catch(() => undefined);
      await v2.close();
      ctx.scheduler.releaseAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
