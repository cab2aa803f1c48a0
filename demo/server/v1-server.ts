// One SDK v1 (protocol ≤ 2025-11-25) server instance per session, on the low-level Server so resources/list can carry the
// live annotations.lastModified and the subscribe capability can be withheld per session. Subscriptions go to the
// ledger under the session's id; reads go through the read scheduler (slow / out-of-order faults).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { INSTRUCTIONS, SERVER_INFO, type KbContext } from './context.ts';
import { isKnownResource, listResources, listTemplates, readResource } from './resources.ts';

/** JSON-RPC error code for an unknown resource (2025-11-25 spec). */
export const RESOURCE_NOT_FOUND = -32002;

export function buildV1Server(ctx: KbContext, opts: { subscribeCapability: boolean }): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { resources: opts.subscribeCapability ? { subscribe: true, listChanged: true } : { listChanged: true } },
    instructions: INSTRUCTIONS,
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listResources(ctx.store) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: listTemplates() }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    ctx.metrics.count('reads');
    const snap = await ctx.scheduler.serve(uri, () => readResource(ctx.store, uri));
    if (!snap) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    return { contents: [{ uri: snap.uri, mimeType: snap.mimeType, text: snap.text }] };
  });
  // Without the capability the methods are simply not there: the SDK answers -32601 Method not found.
  if (opts.subscribeCapability) {
    server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
      const { uri } = req.params;
      if (!isKnownResource(ctx.store, uri)) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
      // A slow server holds the subscription only when it answers (what a client can rely on).
      await ctx.scheduler.delaySubscribe();
      if (extra.sessionId) ctx.ledger.subscribe(extra.sessionId, uri);
      ctx.metrics.count('subscribes');
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (req, extra) => {
      if (extra.sessionId) ctx.ledger.unsubscribe(extra.sessionId, req.params.uri);
      return {};
    });
  }
  return server;
}
