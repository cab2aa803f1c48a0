// MCP protocol constants the decoder and engine depend on, in one place. Values checked against
// @modelcontextprotocol/core 2.4 (src/constants.ts) and the 2026-07-28 listen router in @modelcontextprotocol/server.

export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const SUBSCRIPTION_ID_META_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The first protocol revision of the session-less generation. Revisions are ISO dates, so they compare as strings. */
export const FIRST_MODERN_VERSION = '2026-07-28';
/** From this revision on, HTTP requests after initialization must carry MCP-Protocol-Version. */
export const HEADER_REQUIRED_FROM = '2025-06-18';

export function isModernVersion(v: string): boolean {
  return v >= FIRST_MODERN_VERSION;
}

/** Methods whose semantics the engine tracks; their shapes are checked by hand (validate.ts) because they are hot. */
export const M = {
  initialize: 'initialize',
  initialized: 'notifications/initialized',
  discover: 'server/discover',
  read: 'resources/read',
  list: 'resources/list',
  subscribe: 'resources/subscribe',
  unsubscribe: 'resources/unsubscribe',
  updated: 'notifications/resources/updated',
  listChanged: 'notifications/resources/list_changed',
  listen: 'subscriptions/listen',
  acknowledged: 'notifications/subscriptions/acknowledged',
  cancelled: 'notifications/cancelled',
} as const;

/**
 * 2026-07-28 (SEP-2243): the requests whose `Mcp-Name` header must mirror a body field, and which field (the SDK's
 * MCP_NAME_HEADER_SOURCE, shared there by the client's emission and the server's check).
 */
export const MCP_NAME_SOURCE: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  [M.read, 'uri'],
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);

/**
 * Method names are fresh strings from JSON.parse; swapping them once for the canonical literal makes every later
 * comparison (the engine's switch, set lookups, interning in the message store) an identity check. Found by length,
 * then compared: cheaper than hashing the fresh string for a Map lookup (it runs for every request and notification).
 */
const CANONICAL_BY_LENGTH: (string[] | undefined)[] = Array.from({ length: Math.max(...Object.values(M).map((m) => m.length)) + 1 }, () => undefined);
for (const m of Object.values(M)) {
  const same = CANONICAL_BY_LENGTH[m.length];
  if (same) same.push(m);
  else CANONICAL_BY_LENGTH[m.length] = [m];
}

export function canonicalMethod(method: string): string {
  const same = method.length < CANONICAL_BY_LENGTH.length ? CANONICAL_BY_LENGTH[method.length] : undefined;
  if (same !== undefined) for (let i = 0; i < same.length; i++) if (same[i] === method) return same[i]!;
  return method;
}

/** Methods that exist only in the 2026 generation: seeing one marks the exchange as 2026. */
export const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set([M.discover, M.listen, M.acknowledged]);

/** JSON-RPC error codes we name in explanations. */
export const METHOD_NOT_FOUND = -32601;
