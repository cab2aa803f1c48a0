// The 2025-11-25 endpoints on SDK v1: Streamable HTTP at /mcp (stateful sessions keyed by Mcp-Session-Id) and the legacy
// HTTP+SSE pair /sse + /message?sessionId=. Owns the live session objects; the ledger mirrors them for the fan-out and
// the admin state. Unknown session ids get 404 (so a client must re-initialize), missing ones 400, as the spec says.
// Streamable HTTP sessions keep an event store: a dropped GET stream resumed with Last-Event-ID loses nothing.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { KbContext } from './context.ts';
import { SessionEventStore } from './event-store.ts';
import { sendJson, sendWebResponse, toWebRequest } from './node-web.ts';
import type { SessionTransport } from './subscription-ledger.ts';
import { buildV1Server } from './v1-server.ts';

interface LiveSession {
  kind: SessionTransport;
  server: Server;
  streamable?: WebStandardStreamableHTTPServerTransport;
  sse?: SSEServerTransport;
  openStreams: number;
}

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

export class V1Endpoints {
  private live = new Map<string, LiveSession>();

  constructor(private readonly ctx: KbContext) {}

  get sessionCount(): number {
    return this.live.size;
  }

  /** /mcp: POST, GET (standalone SSE stream) and DELETE. `body` is the parsed JSON of a POST. */
  async handleStreamable(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown, cors: Record<string, string>): Promise<void> {
    const method = req.method ?? 'GET';
    const sid = header(req, 'mcp-session-id');
    if (method === 'GET' && this.ctx.faults().refuseGetStream) {
      sendJson(res, 405, jsonRpcError(-32000, 'Method Not Allowed: this server offers no GET stream'), { ...cors, allow: 'POST, DELETE' });
      return;
    }
    if (sid) {
      const s = this.live.get(sid);
      if (!s?.streamable) {
        sendJson(res, 404, jsonRpcError(-32001, 'Session not found'), cors);
        return;
      }
      await this.forward(s, sid, req, res, url, body, cors);
      return;
    }
    if (method !== 'POST' || !containsInitialize(body)) {
      sendJson(res, 400, jsonRpcError(-32000, 'Bad Request: Mcp-Session-Id header is required'), cors);
      return;
    }
    const init = this.applyDowngrade(body);
    const subscribeCapability = !this.ctx.faults().noSubscribeCapability;
    const server = buildV1Server(this.ctx, { subscribeCapability });
    const live: LiveSession = { kind: 'streamable-http', server, openStreams: 0 };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Event ids on every SSE message, so a GET stream that drops can be resumed with Last-Event-ID.
      eventStore: new SessionEventStore(),
      onsessioninitialized: (id) => {
        this.live.set(id, live);
        this.ctx.ledger.addSession({ id, transport: 'streamable-http', protocolVersion: negotiated(init), subscribeCapability, createdAt: this.ctx.now() });
      },
      onsessionclosed: (id) => this.forget(id),
    });
    live.streamable = transport;
    server.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    await this.forward(live, undefined, req, res, url, init, cors);
  }

  /** GET /sse: opens a legacy session; the SDK writes `event: endpoint` with /message?sessionId=… */
  async openSse(_req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): Promise<void> {
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    const transport = new SSEServerTransport('/message', res);
    const subscribeCapability = !this.ctx.faults().noSubscribeCapability;
    const server = buildV1Server(this.ctx, { subscribeCapability });
    const id = transport.sessionId;
    this.live.set(id, { kind: 'sse', server, sse: transport, openStreams: 1 });
    this.ctx.ledger.addSession({ id, transport: 'sse', subscribeCapability, createdAt: this.ctx.now() });
    this.ctx.ledger.setChannelOpen(id, true);
    server.onclose = () => this.forget(id);
    res.on('close', () => {
      this.forget(id);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
  }

  /** POST /message?sessionId=… for a legacy session. */
  async postSse(_req: IncomingMessage, res: ServerResponse, url: URL, body: unknown, cors: Record<string, string>): Promise<void> {
    const id = url.searchParams.get('sessionId') ?? '';
    const s = this.live.get(id);
    if (!s?.sse) {
      sendJson(res, 404, jsonRpcError(-32001, 'Session not found'), cors);
      return;
    }
    const message = containsInitialize(body) ? this.applyDowngrade(body) : body;
    if (containsInitialize(message)) {
      const rec = this.ctx.ledger.sessions.get(id);
      if (rec) rec.protocolVersion = negotiated(message);
    }
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    await s.sse.handlePostMessage(_req, res, message);
  }

  /** Sends notifications/resources/updated on one session (with no stream open it only lands in the event store). */
  sendUpdated(sessionId: string, uri: string): void {
    this.live.get(sessionId)?.server.sendResourceUpdated({ uri }).catch(() => undefined);
  }

  /** Drops every session, as a restarted process would: later requests with the old ids get 404. */
  async restart(): Promise<number> {
    const all = [...this.live.values()];
    this.live.clear();
    this.ctx.ledger.clearSessions();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
    return all.length;
  }

  /** Closes every open GET stream without ending its session (the SDK client reconnects it, with Last-Event-ID). */
  dropStreams(): number {
    let n = 0;
    for (const s of this.live.values()) {
      if (s.streamable && s.openStreams > 0) {
        s.streamable.closeStandaloneSSEStream();
        n += 1;
      }
    }
    return n;
  }

  private async forward(s: LiveSession, sid: string | undefined, req: IncomingMessage, res: ServerResponse, url: URL, body: unknown, cors: Record<string, string>): Promise<void> {
    const transport = s.streamable;
    if (!transport) return;
    const aborter = new AbortController();
    res.on('close', () => aborter.abort());
    const response = await transport.handleRequest(toWebRequest(req, url, undefined, aborter.signal), { parsedBody: body });
    const getStream = req.method === 'GET' && response.status === 200 && sid !== undefined;
    if (getStream) {
      s.openStreams += 1;
      this.ctx.ledger.setChannelOpen(sid, true);
    }
    await sendWebResponse(res, response, cors, getStream ? () => {
      s.openStreams -= 1;
      this.ctx.ledger.setChannelOpen(sid, s.openStreams > 0);
    } : undefined);
  }

  private forget(id: string): void {
    this.live.delete(id);
    this.ctx.ledger.removeSession(id);
  }

  /** Under the downgradeProtocol fault, the initialize request is answered as if the client had asked for that version. */
  private applyDowngrade(body: unknown): unknown {
    const to = this.ctx.faults().downgradeProtocol;
    if (!to) return body;
    const rewrite = (m: unknown) => (isInitializeRequest(m) ? { ...m, params: { ...m.params, protocolVersion: to } } : m);
    return Array.isArray(body) ? body.map(rewrite) : rewrite(body);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function containsInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** The version the SDK server will answer with: the requested one when supported, else the latest. */
function negotiated(body: unknown): string {
  const init = (Array.isArray(body) ? body : [body]).find((m) => isInitializeRequest(m));
  const requested = isInitializeRequest(init) ? init.params.protocolVersion : undefined;
  return requested && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
