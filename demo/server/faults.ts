// The server's fault switches and their validation. Pure: admin.ts parses requests with parseFaultsPatch and applies the
// result; everything that misbehaves on purpose reads the current Faults. A bad patch is rejected whole (nothing changes).
import { z } from 'zod';

export interface Faults {
  /** Edits happen but no notifications/resources/updated is sent (counted as dropped by fault). */
  dropNotifications: boolean;
  /** GET /mcp (the standalone SSE stream) answers 405, so notifications have no channel. */
  refuseGetStream: boolean;
  /** New sessions (v1) / requests (v2) advertise no resources.subscribe: resources/subscribe → -32601, listen ack drops URIs. */
  noSubscribeCapability: boolean;
  /** Every resources/read waits this long before answering (ms). */
  slowReadsMs: number;
  /** Every resources/subscribe (v1) waits this long before answering (ms): a slow server, which a healthy client must
   * not be blamed for. */
  slowSubscribesMs: number;
  /** The first of two concurrent reads of a URI is held until the second is answered (its older snapshot arrives last). */
  outOfOrderReads: boolean;
  /** Send resources/updated to every v1 session, subscribed or not. */
  notifyUnsubscribed: boolean;
  /** Answer new initialize requests with this older protocol version (a rolled-back deploy); null = echo the client's. */
  downgradeProtocol: string | null;
  /** ttlMs on 2026-07-28 read results; null = the per-resource default (DEFAULT_TTL_MS). */
  ttlMs: number | null;
}

export const DEFAULT_FAULTS: Readonly<Faults> = Object.freeze({
  dropNotifications: false,
  refuseGetStream: false,
  noSubscribeCapability: false,
  slowReadsMs: 0,
  slowSubscribesMs: 0,
  outOfOrderReads: false,
  notifyUnsubscribed: false,
  downgradeProtocol: null,
  ttlMs: null,
});

/** The longest a held read of an out-of-order pair waits for the read that overtakes it (ms): long enough for edit →
 * notification → re-read on a loaded CI machine (1 s was not), well within the scenario player's 8 s settle. */
export const OUT_OF_ORDER_HOLD_MS = 4000;
/** ttlMs on 2026-07-28 reads when the ttlMs fault is not set. */
export const DEFAULT_TTL_MS = 30_000;

/** Older versions the SDK v1 client accepts, so a downgrade is a regression rather than a failed handshake. */
export const DOWNGRADE_VERSIONS = ['2025-06-18', '2025-03-26', '2024-11-05'] as const;

const FaultsPatchSchema = z.strictObject({
  dropNotifications: z.boolean(),
  refuseGetStream: z.boolean(),
  noSubscribeCapability: z.boolean(),
  slowReadsMs: z.number().int().min(0).max(10_000),
  slowSubscribesMs: z.number().int().min(0).max(10_000),
  outOfOrderReads: z.boolean(),
  notifyUnsubscribed: z.boolean(),
  downgradeProtocol: z.enum(DOWNGRADE_VERSIONS).nullable(),
  ttlMs: z.number().int().min(0).max(86_400_000).nullable(),
}).partial();

export type FaultsPatch = Partial<Faults>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Turns zod issues into one readable line per problem, naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join('.') : 'body';
      if (i.code === 'unrecognized_keys') return `unknown field(s) ${i.keys.map((k) => `'${k}'`).join(', ')}`;
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

export function parseFaultsPatch(input: unknown): Parsed<FaultsPatch> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, error: `expected a JSON object of fault switches (known: ${Object.keys(DEFAULT_FAULTS).join(', ')})` };
  }
  const r = FaultsPatchSchema.safeParse(input);
  if (!r.success) return { ok: false, error: `${describeIssues(r.error)} (known switches: ${Object.keys(DEFAULT_FAULTS).join(', ')})` };
  return { ok: true, value: r.data as FaultsPatch };
}
