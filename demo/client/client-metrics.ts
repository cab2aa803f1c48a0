// The client-side numbers the seed asks for (§1.6 of DESIGN): subscribe success rate, reconnects, share of reconnects
// followed by a resubscribe, share of notifications followed by a read; the average cache age comes from the cache.

export class ClientMetrics {
  initializations = 0;
  reconnects = 0;
  reconnectsFollowedByResubscribe = 0;
  subscribeAttempts = 0;
  subscribeSucceeded = 0;
  notifications = 0;
  notificationsFollowedByRead = 0;
  reads = 0;
  readsDiscarded = 0;
  polls = 0;

  /** Ratios as 0..1, or undefined when there is nothing to divide yet. */
  ratios(): { subscribeSuccess?: number; resubscribeAfterReconnect?: number; readAfterNotification?: number } {
    const r = (a: number, b: number) => (b ? a / b : undefined);
    return {
      subscribeSuccess: r(this.subscribeSucceeded, this.subscribeAttempts),
      resubscribeAfterReconnect: r(this.reconnectsFollowedByResubscribe, this.reconnects),
      readAfterNotification: r(this.notificationsFollowedByRead, this.notifications),
    };
  }
}
