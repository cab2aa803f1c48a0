// What every part of the demo server shares: the store, the subscription ledger, the counters, the read scheduler and
// the current faults. Built once in http.ts and passed down; no globals.
import type { Faults } from './faults.ts';
import type { KbStore } from './kb-store.ts';
import type { KbMetrics } from './metrics.ts';
import type { ReadScheduler } from './read-scheduler.ts';
import type { SubscriptionLedger } from './subscription-ledger.ts';

export interface KbContext {
  store: KbStore;
  ledger: SubscriptionLedger;
  metrics: KbMetrics;
  scheduler: ReadScheduler;
  faults(): Faults;
  now(): number;
}

export const SERVER_INFO = { name: 'kb-demo', version: '1.0.0' } as const;
export const INSTRUCTIONS =
  'Knowledge base of the MCP devtools demo. Read documents, subscribe to the URIs you cache, re-read on notifications/resources/updated.';
