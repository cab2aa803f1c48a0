// The SDK's zod schemas (v1 `@modelcontextprotocol/sdk/types.js`), indexed by method, for the messages this tool does
// not check by hand. Indexed because `ClientRequestSchema.safeParse` tries every union member (~9 µs per message,
// measured), while the one schema for the method costs ~0.7 µs. Built lazily on first use.
import * as T from '@modelcontextprotocol/sdk/types.js';

/** Anything with zod's safeParse; kept structural so the zod version does not leak into our types. */
export interface SafeParser {
  safeParse(v: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

interface Tables {
  requests: Map<string, SafeParser>;
  notifications: Map<string, SafeParser>;
  results: Map<string, SafeParser>;
}

let tables: Tables | undefined;

function byMethod(union: unknown, into: Map<string, SafeParser>): void {
  const options = (union as { options?: unknown[] }).options ?? [];
  for (const o of options) {
    const method = (o as { shape?: { method?: { value?: unknown } } }).shape?.method?.value;
    if (typeof method === 'string' && !into.has(method)) into.set(method, o as SafeParser);
  }
}

function build(): Tables {
  const requests = new Map<string, SafeParser>();
  const notifications = new Map<string, SafeParser>();
  byMethod(T.ClientRequestSchema, requests);
  byMethod(T.ServerRequestSchema, requests);
  byMethod(T.ClientNotificationSchema, notifications);
  byMethod(T.ServerNotificationSchema, notifications);
  const results = new Map<string, SafeParser>([
    ['ping', T.EmptyResultSchema],
    ['logging/setLevel', T.EmptyResultSchema],
    ['completion/complete', T.CompleteResultSchema],
    ['prompts/get', T.GetPromptResultSchema],
    ['prompts/list', T.ListPromptsResultSchema],
    ['resources/templates/list', T.ListResourceTemplatesResultSchema],
    ['tools/call', T.CompatibilityCallToolResultSchema],
    ['tools/list', T.ListToolsResultSchema],
    ['sampling/createMessage', T.CreateMessageResultSchema],
    ['elicitation/create', T.ElicitResultSchema],
    ['roots/list', T.ListRootsResultSchema],
  ]);
  return { requests, notifications, results };
}

export function sdkSchemas(): Tables {
  return (tables ??= build());
}

/** First zod issue as `path: message`, or undefined when the value passes. */
export function zodProblem(schema: SafeParser, v: unknown): string | undefined {
  const r = schema.safeParse(v);
  if (r.success) return undefined;
  const issue = r.error?.issues[0];
  if (!issue) return 'does not match the SDK schema';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
