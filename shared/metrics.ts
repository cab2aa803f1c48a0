// The observability numbers the seed asks for (DESIGN §1.6), computed from the engine's state at `now`.
// Server side (as reconstructed from the wire): active sessions, subscribed URIs per session, updated notifications per
// unit time, updates that found no subscriber. Client side: subscribe success rate, reconnects and the share followed
// by a resubscribe, the share of notifications followed by a read, the average age of cached entries.
import type { EngineCore } from './engine/core.ts';
import { carriedCount, pendingCount } from './engine/uri-state.ts';

export interface Metrics {
  activeSessions: number;
  activeListenStreams: number;
  subscribedUrisPerSession: { session: string; uris: number }[];
  notifications: number;
  /** Over the span from the first frame to `now` (a silence counts); null while that span is under a minute. */
  notificationsPerMinute: number | null;
  /** Reads that found changed content while no session subscribed the URI: updates the server could not announce. */
  updatesDroppedInferred: number;
  subscribeRequested: number;
  subscribeSucceeded: number;
  subscribeFailed: number;
  subscribeSuccessRate: number | null;
  reconnects: number;
  /** Reconnects after which every URI the client believed subscribed was subscribed again. */
  reconnectsResubscribed: number;
  /** Reconnects after which the client believed something subscribed (the share's denominator). */
  reconnectsToResubscribe: number;
  /** Share of reconnects (that had something to resubscribe) followed by a full resubscribe. */
  resubscribeShare: number | null;
  notificationsForCached: number;
  notificationsReread: number;
  /** Notifications not re-read yet but still within the grace: not counted either way in `rereadShare`. */
  notificationsPendingReread: number;
  rereadShare: number | null;
  cachedEntries: number;
  averageCacheAgeMs: number | null;
  maxCacheAgeMs: number | null;
  reads: number;
  staleOverwrites: number;
  frames: number;
  messages: number;
  invalidMessages: number;
  unknownMessages: number;
  captureErrors: number;
  /** Internal errors the engine caught (a bug, never expected; the frame was skipped). */
  engineErrors: number;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** The notifications `rereadShare` judges: those for cached URIs, less those still within the grace. */
export function rereadJudged(m: Pick<Metrics, 'notificationsForCached' | 'notificationsPendingReread'>): number {
  return m.notificationsForCached - m.notificationsPendingReread;
}

export function computeMetrics(core: EngineCore, now: number, engineErrors = 0): Metrics {
  const k = core.counters;
  let activeSessions = 0;
  let activeListenStreams = 0;
  const perSession: { session: string; uris: number }[] = [];
  const live = core.ledgers.filter((l) => l.live);
  const labels = new Map<string, number>();
  const byEndpoint = new Map<string, number>();
  for (const l of live) {
    labels.set(l.label, (labels.get(l.label) ?? 0) + 1);
    byEndpoint.set(`${l.label} ${l.client.endpoint}`, (byEndpoint.get(`${l.label} ${l.client.endpoint}`) ?? 0) + 1);
  }
  for (const l of live) {
    if (l.kind === 'session') activeSessions++;
    else activeListenStreams++;
    // Two clients' listens may share a label (each SDK client numbers from 0): then the endpoint tells them apart, or,
    // on one endpoint (a page and its iframe), the client (document and endpoint).
    const session =
      (labels.get(l.label) ?? 0) <= 1
        ? l.label
        : (byEndpoint.get(`${l.label} ${l.client.endpoint}`) ?? 0) > 1
          ? `${l.label} (${l.client.key})`
          : `${l.label} (${l.client.endpoint})`;
    // What it holds in its own right: sub-resources covered through a subscribed parent are not subscriptions.
    perSession.push({ session, uris: l.uris.size - (l.viaParent?.size ?? 0) });
  }
  let cached = 0;
  let ageSum = 0;
  let ageMax: number | null = null;
  let pending = 0;
  for (const c of core.clients.values()) {
    if (c.ended) continue;
    for (const u of c.uris.values()) {
      const p = u.pendingReread;
      // Within the grace, or re-read and the answer not here yet: the client is doing its part, not judged yet.
      if (p && (now - p.t < core.grace || p.reread !== undefined)) pending += pendingCount(p);
      else if (p?.carried) pending += carriedCount(p);
      if (!u.cached) continue;
      cached++;
      const age = Math.max(0, now - u.readAt);
      ageSum += age;
      ageMax = ageMax === null ? age : Math.max(ageMax, age);
    }
  }
  const withSomething = core.reconnects.filter((r) => r.believed > 0);
  const resubscribed = withSomething.filter((r) => r.missingCount === 0).length;
  const spanMin = k.firstT !== undefined && core.lastT !== undefined ? (Math.max(now, core.lastT) - k.firstT) / 60_000 : 0;
  return {
    activeSessions,
    activeListenStreams,
    subscribedUrisPerSession: perSession,
    notifications: k.notifications,
    notificationsPerMinute: spanMin >= 1 ? k.notifications / spanMin : null,
    updatesDroppedInferred: k.updatesDroppedInferred,
    subscribeRequested: k.subscribeRequested,
    subscribeSucceeded: k.subscribeSucceeded,
    subscribeFailed: k.subscribeFailed,
    subscribeSuccessRate: ratio(k.subscribeSucceeded, k.subscribeSucceeded + k.subscribeFailed),
    reconnects: core.reconnects.length,
    reconnectsResubscribed: resubscribed,
    reconnectsToResubscribe: withSomething.length,
    resubscribeShare: ratio(resubscribed, withSomething.length),
    notificationsForCached: k.notificationsForCached,
    notificationsReread: k.notificationsReread,
    notificationsPendingReread: pending,
    rereadShare: ratio(k.notificationsReread, rereadJudged({ notificationsForCached: k.notificationsForCached, notificationsPendingReread: pending })),
    cachedEntries: cached,
    averageCacheAgeMs: cached ? ageSum / cached : null,
    maxCacheAgeMs: ageMax,
    reads: k.reads,
    staleOverwrites: k.staleOverwrites,
    frames: k.frames,
    messages: k.messages,
    invalidMessages: k.invalidMessages,
    unknownMessages: k.unknownMessages,
    captureErrors: k.captureErrors,
    engineErrors,
  };
}
