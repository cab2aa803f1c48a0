// The registry of tab logs, created on demand. After a service-worker restart a tab's log is found again in IndexedDB
// the first time anything touches it.
import { LogStore } from './log-store.ts';
import { DEFAULT_CAPS, TabLog, type LogCaps } from './tab-log.ts';

export class Tabs {
  private readonly logs = new Map<number, TabLog>();
  caps: LogCaps = DEFAULT_CAPS;
  /** Told when a panel starts, or the last one stops, showing a tab (the relays change pace). */
  onWatched: (tabId: number, watched: boolean) => void = () => undefined;
  /** The user's extra secret header names (TabLog.extraSecretHeaders). */
  extraSecretHeaders: () => Promise<readonly string[]> = async () => [];
  /** Panels showing each tab, by tab id (kept here, not in the log: a log can be replaced while a panel shows it). */
  private readonly watchers = new Map<number, number>();

  constructor(readonly store = new LogStore()) {
    // The browser closed the database under us (storage cleared): every loaded log reads its metadata again.
    store.onReopen = () => {
      for (const log of this.logs.values()) log.storageReopened();
    };
  }

  get(tabId: number): TabLog {
    let log = this.logs.get(tabId);
    if (!log) {
      log = new TabLog(tabId, this.store, () => this.caps, () => this.watched(tabId));
      log.extraSecretHeaders = () => this.extraSecretHeaders();
      this.logs.set(tabId, log);
    }
    return log;
  }

  /** Whether a panel shows `tabId` now. */
  watched(tabId: number): boolean {
    return (this.watchers.get(tabId) ?? 0) > 0;
  }

  /** A panel starts (+1) or stops (-1) showing `tabId`. */
  watch(tabId: number, delta: 1 | -1): void {
    const was = this.watched(tabId);
    const n = Math.max(0, (this.watchers.get(tabId) ?? 0) + delta);
    if (n === 0) this.watchers.delete(tabId);
    else this.watchers.set(tabId, n);
    // Only an existing log: a panel closing on a closed tab must not bring its log back.
    this.logs.get(tabId)?.paceChanged();
    const now = this.watched(tabId);
    if (now !== was) this.onWatched(tabId, now);
  }

  /**
   * A new browser session reuses tab ids: every log, stored or already loaded (a relay may have spoken before the
   * startup event), is a previous session's. Every read and write asked for after this call waits for the removal.
   */
  async newBrowserSession(): Promise<void> {
    const dropped = this.store.dropAllTabs();
    for (const log of this.logs.values()) log.discard();
    this.logs.clear();
    this.removed.clear();
    await dropped;
  }

  /** Tabs closed in this browser session (Chromium never reuses a tab id within one). */
  private readonly removed = new Set<number>();

  /** Whether `tabId` was closed: its log is gone, and nothing may bring it back (a Clear from a panel left open). */
  wasRemoved(tabId: number): boolean {
    return this.removed.has(tabId);
  }

  async remove(tabId: number): Promise<void> {
    this.removed.add(tabId);
    const log = this.get(tabId);
    this.logs.delete(tabId);
    await log.forget();
  }
}
