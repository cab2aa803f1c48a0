// JSON-RPC 2.0 envelope classification, by hand: it runs on every message, so it must cost next to nothing beyond
// JSON.parse. Never throws; a bad envelope is described, not rejected.
import type { MessageKind, RequestId } from './types.ts';

export interface Envelope {
  kind: MessageKind;
  id?: RequestId | null;
  method?: string;
  problem?: string;
}

function isId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Classify one parsed value as a JSON-RPC message. */
export function classifyEnvelope(v: unknown): Envelope {
  const e: Envelope = { kind: 'invalid' };
  classifyInto(e, v);
  return e;
}

/** The classification written straight into a message (no intermediate object on the hot path). */
export function classifyInto(m: { kind: MessageKind; id?: RequestId | null | undefined; method?: string | undefined; problem?: string | undefined }, v: unknown): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    m.kind = 'invalid';
    m.problem = 'not a JSON object';
    return;
  }
  const o = v as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') {
    m.kind = 'invalid';
    m.problem = 'jsonrpc is not "2.0"';
    return;
  }
  const method = o.method;
  const id = o.id;
  if (method !== undefined) {
    if (typeof method !== 'string') {
      m.kind = 'invalid';
      m.problem = 'method is not a string';
      return;
    }
    m.method = method;
    const params = o.params;
    if (params !== undefined && (typeof params !== 'object' || params === null)) m.problem = 'params is not an object';
    if (id === undefined) {
      m.kind = 'notification';
      return;
    }
    if (!isId(id)) {
      m.kind = 'invalid';
      m.problem = 'request id is neither a string nor a number';
      return;
    }
    m.kind = 'request';
    m.id = id;
    return;
  }
  if (o.result !== undefined || 'result' in o) {
    if (!isId(id)) {
      m.kind = 'invalid';
      m.problem = 'response id is neither a string nor a number';
      return;
    }
    // What the SDK's clients refuse as a response (its envelope schemas are strict): the request stays unanswered.
    // (`o.error !== undefined`, not `'error' in o`: the same for parsed JSON, and ~2 % of a replay cheaper, by A/B.)
    if (o.error !== undefined) {
      m.kind = 'invalid';
      m.problem = 'a response with both result and error';
      return;
    }
    const r = o.result;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) {
      m.kind = 'invalid';
      m.problem = 'result is not an object';
      return;
    }
    m.kind = 'result';
    m.id = id;
    return;
  }
  if ('error' in o) {
    if (id !== null && !isId(id)) {
      m.kind = 'invalid';
      m.problem = 'error response id is not a string, number or null';
      return;
    }
    m.kind = 'error';
    m.id = id;
    const e = o.error as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      m.problem = 'error is not {code: integer, message: string}';
    }
    return;
  }
  m.kind = 'invalid';
  m.problem = 'neither a request, a notification nor a response';
}

/** Result of parsing one payload: either values (a batch gives several) or the reason it is not JSON. */
export type ParsedPayload = { ok: true; values: unknown[]; batch: boolean } | { ok: false; problem: string };

/** Parse a payload text. A JSON-RPC batch (2025-03-26) yields one value per element. */
export function parsePayload(text: string): ParsedPayload {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `not JSON: ${(e as Error).message}` };
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: false, problem: 'empty JSON-RPC batch' };
    return { ok: true, values: v, batch: true };
  }
  return { ok: true, values: [v], batch: false };
}

/** Stable map key for a request id: 1 and "1" are different ids. */
export function idKey(id: RequestId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}

/**
 * For a truncated payload (only a prefix was captured): what the prefix says about the message, without parsing it.
 * SDK serializers put `method` early for requests and notifications; response ids often come last, so responses are
 * matched through their exchange instead (see decoder).
 */
export function sniffTruncated(prefix: string): { method?: string; id?: RequestId; isResponse: boolean; isError: boolean } {
  const head = prefix.length > 4096 ? prefix.slice(0, 4096) : prefix;
  // Only an id before the payload ("result", "error", "params") is the message's own, and only a method before an
  // answer's: the SDK writes an answer as {result, jsonrpc, id}, so its id is past the cut, and an "id" inside the
  // result (a structuredContent field, a record) was taken for it, pairing the answer with another request (a review,
  // 2026-12-05). A "method" inside a result is not the message's either.
  const payloadAt = /"(?:result|error|params)"\s*:/.exec(head)?.index ?? Infinity;
  const answerAt = /"(?:result|error)"\s*:/.exec(head)?.index ?? Infinity;
  const methodMatch = /"method"\s*:\s*"([^"\\]{1,200})"/.exec(head);
  const method = methodMatch && methodMatch.index < answerAt ? methodMatch[1] : undefined;
  const idMatch = /"id"\s*:\s*(?:(-?\d{1,15})\b|"([^"\\]{0,200})")/.exec(head);
  const id = idMatch && idMatch.index < payloadAt ? (idMatch[1] !== undefined ? Number(idMatch[1]) : idMatch[2]) : undefined;
  // The first of the two keys decides. (Inside a JSON string a quote is escaped, so a document's text cannot match.)
  const answer = method === undefined ? /"(result|error)"\s*:/.exec(head)?.[1] : undefined;
  const out: { method?: string; id?: RequestId; isResponse: boolean; isError: boolean } = { isResponse: answer !== undefined, isError: answer === 'error' };
  if (method !== undefined) out.method = method;
  if (id !== undefined) out.id = id;
  return out;
}
