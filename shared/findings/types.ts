// The finding types: what the engine tells the user is wrong, per URI and session, with the frames that prove it.
// Pure types; the texts live in catalogue.ts.

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export type FindingId =
  | 'cached-not-subscribed'
  | 'phantom-subscription'
  | 'no-delivery-channel'
  | 'notified-not-reread'
  | 'stale-overwrite'
  | 'cache-age-exceeded'
  | 'missed-update'
  | 'resume-gap'
  | 'session-expired-not-reinitialized'
  | 'subscribe-unsupported'
  | 'unsolicited-update'
  | 'protocol-header-missing'
  | 'version-regression';

/** Why a cached URI has no server-side subscription. */
export type CoverageReason =
  | 'never-subscribed'
  | 'lost-on-reinit'
  | 'lost-with-stream'
  | 'unsubscribed'
  | 'dropped-on-relisten'
  | 'subscribe-failed'
  | 'parent-only'
  | 'refused-in-ack'
  | 'not-seen-subscribing';

/** Sub-cases of phantom-subscription (none for the usual one: the server offers subscriptions, the client did not resubscribe). */
export type PhantomReason = 'subscribe-not-offered';

/** Sub-cases of resume-gap (findings/lifecycle.ts for the session, findings/gap.ts for each URI). */
export type ResumeReason = 'no-last-event-id' | 'unknown-last-event-id' | 'no-event-ids' | 'subscription-lapsed' | 'lapse-caught-up' | 'lapse-reread-late';

export interface Finding {
  id: FindingId;
  /** Stable per (id, client, uri, session): the same problem keeps its key across snapshots and replays. */
  key: string;
  severity: Severity;
  /** The page document of the client (a reload is a new document, and a new client). */
  doc?: string;
  endpoint?: string;
  uri?: string;
  session?: string;
  /** Sub-case, e.g. the CoverageReason of cached-not-subscribed, or 'missing'/'mismatch' for the header. */
  reason?: string;
  /** One line with the specifics of this instance (what was sent, what came back). */
  detail?: string;
  firstT: number;
  lastT: number;
  /** Frame sequence numbers that show it, oldest first (capped). */
  evidence: number[];
  /** How many times it happened (event findings) or was re-opened (state findings). */
  count: number;
  /**
   * Only for a finding that happened more than once: each occurrence's time span (from, to), oldest first (capped:
   * the first and the latest 23). `firstT`…`lastT` then covers the times in between, when it did not hold.
   */
  spans?: Array<[number, number]>;
  /** True while the condition still holds at `now`; false for something that happened or has been resolved. */
  open: boolean;
  title: string;
  explanation: string;
  fix: string;
}
