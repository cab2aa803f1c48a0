// Turns each knowledge-base edit into notifications/resources/updated for exactly the sessions and listen streams that
// subscribed to that URI (or everyone, under the notifyUnsubscribed fault), and counts what the seed wants counted:
// sent, dropped because nobody subscribed, dropped by fault, handed to a session with no open stream.
import type { Faults } from './faults.ts';
import type { KbStore } from './kb-store.ts';
import type { KbMetrics } from './metrics.ts';
import type { SubscriptionLedger } from './subscription-ledger.ts';

export interface UpdateSinks {
  /** Send to one v1 session (its SDK server decides the stream; with none open it is only stored for a resume). */
  sendToSession(sessionId: string, uri: string): void;
  /** Publish to the v2 handler's listen streams (the SDK filters by each stream's acknowledged URIs). */
  publishToListens(uri: string): void;
}

export interface FanoutDeps {
  store: KbStore;
  ledger: SubscriptionLedger;
  metrics: KbMetrics;
  faults: () => Faults;
  now: () => number;
  sinks: UpdateSinks;
}

/** Starts fanning out; returns the function that stops it. */
export function startUpdateFanout(d: FanoutDeps): () => void {
  return d.store.onChange((entry) => {
    const { uri } = entry;
    d.metrics.count('edits');
    if (d.faults().dropNotifications) {
      d.metrics.count('droppedByFault');
      return;
    }
    const subscribed = d.ledger.sessionsSubscribedTo(uri);
    const listens = d.ledger.listensFor(uri);
    if (subscribed.length === 0 && listens.length === 0) d.metrics.count('droppedNoSubscriber');
    const targets = d.faults().notifyUnsubscribed ? [...d.ledger.sessions.values()] : subscribed;
    for (const s of targets) {
      if (!s.subscriptions.has(uri)) d.metrics.count('unsolicitedSent');
      if (!s.channelOpen) d.metrics.count('lostNoChannel');
      d.metrics.sent(d.now());
      d.sinks.sendToSession(s.id, uri);
    }
    for (let i = 0; i < listens.length; i++) d.metrics.sent(d.now());
    d.sinks.publishToListens(uri);
  });
}
