// The server-side numbers the seed asks for (§1.6 of DESIGN): updated notifications sent (and per minute), updates dropped
// because no session subscribed, plus the demo's own fault counters. Time is passed in.

export interface MetricsSnapshot {
  edits: number;
  updatesSent: number;
  updatesPerMinute: number;
  /** Edits no session or listen stream was subscribed to: "the resource changed and nobody was told". */
  droppedNoSubscriber: number;
  /** Notifications suppressed by the dropNotifications fault. */
  droppedByFault: number;
  /** Notifications handed to a v1 session that had no open stream (delivered only if the client resumes it). */
  lostNoChannel: number;
  /** Notifications sent to sessions that never subscribed (notifyUnsubscribed fault). */
  unsolicitedSent: number;
  reads: number;
  subscribes: number;
  restarts: number;
}

const WINDOW_MS = 60_000;

export class KbMetrics {
  private counts: Omit<MetricsSnapshot, 'updatesPerMinute'> = KbMetrics.zero();
  private sendTimes: number[] = [];

  private static zero(): Omit<MetricsSnapshot, 'updatesPerMinute'> {
    return { edits: 0, updatesSent: 0, droppedNoSubscriber: 0, droppedByFault: 0, lostNoChannel: 0, unsolicitedSent: 0, reads: 0, subscribes: 0, restarts: 0 };
  }

  count(key: keyof Omit<MetricsSnapshot, 'updatesPerMinute' | 'updatesSent'>, by = 1): void {
    this.counts[key] += by;
  }

  sent(now: number): void {
    this.counts.updatesSent += 1;
    this.sendTimes.push(now);
    this.trim(now);
  }

  snapshot(now: number): MetricsSnapshot {
    this.trim(now);
    return { ...this.counts, updatesPerMinute: this.sendTimes.length };
  }

  reset(): void {
    this.counts = KbMetrics.zero();
    this.sendTimes = [];
  }

  private trim(now: number): void {
    while (this.sendTimes.length && (this.sendTimes[0] ?? now) < now - WINDOW_MS) this.sendTimes.shift();
  }
}
