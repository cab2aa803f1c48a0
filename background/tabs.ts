// The registry of tab logs, created on demand. After a service-worker restart a tab's log is found again in IndexedDB
// the first time anything touches it.
import { LogStore } from './log-store.ts';
import { DEFAULT_CAPS, TabLog, type LogCaps } from './tab-log.ts';

export class Tabs {
  private readonly logs = new Map<number, TabLog>();
  caps: LogCaps = DEFAULT_CAPS;
  /** Told when a panel starts, or the last one stops, showing a tab (the relays change pace). */
  onWatched: (tabId: number, watched: boolean) => void = () => undefined;

  constructor(readonly store = new LogStore()) {}

  get(tabId: number): TabLog {
    let log = this.logs.get(tabId);
    if (!log) {
      log = new TabLog(tabId, this.store, () => this.caps, (watched) => this.onWatched(tabId, watched));
      this.logs.set(tabId, log);
    }
    return log;
  }

  async remove(tabId: number): Promise<void> {
    const log = this.get(tabId);
    this.logs.delete(tabId);
    await log.forget();
  }
}
