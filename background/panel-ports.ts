// Serves panels: on hello, the tab's backlog after the panel's last seq (in chunks), then live frames and stats. A panel
// that reconnects after a worker restart says where it was, so it gets neither gaps nor duplicates.
import type browser from 'webextension-polyfill';
import { connOf, type Frame } from '../shared/frames.ts';
import type { BackgroundToPanel, PanelToBackground, TabStats } from '../shared/messages.ts';
import type { SettingsStore } from './settings.ts';
import type { Tabs } from './tabs.ts';

const BACKLOG_CHUNK = 2000;

export class PanelHub {
  private readonly live = new Map<number, Set<browser.Runtime.Port>>();
  /** Panels still reading the tab's backlog: a clear in between must reach them too (their next chunk is what it kept). */
  private readonly loading = new Map<number, Set<browser.Runtime.Port>>();

  private readonly all = new Set<browser.Runtime.Port>();
  /** The `kept` of the last stats sent to each panel (statsFor): sent again only when it changed. */
  private readonly keptSent = new WeakMap<browser.Runtime.Port, readonly number[] | undefined>();

  constructor(
    private readonly tabs: Tabs,
    private readonly settings: SettingsStore,
    /** The log was cleared; `kept` are the frames of the exchanges still open, which it kept. */
    private readonly onCleared: (tabId: number, kept: Frame[], stats: TabStats) => void = () => undefined,
    /** Whether the browser has this tab (a panel opened as a tab may name one that was closed). */
    private readonly tabExists: (tabId: number) => Promise<boolean> = async () => true,
  ) {
    settings.onChange((s) => {
      for (const port of this.all) send(port, { type: 'settings', settings: s });
    });
  }

  onPort(port: browser.Runtime.Port): void {
    let tabId: number | undefined;
    this.all.add(port);
    port.onMessage.addListener((m: unknown) => {
      const msg = m as PanelToBackground;
      if (msg?.type === 'hello' && Number.isSafeInteger(msg.tabId) && Number.isSafeInteger(msg.since)) {
        if (tabId !== undefined) return;
        tabId = msg.tabId;
        this.tabs.watch(tabId, 1);
        this.serve(port, msg.tabId, msg.since).catch((e: unknown) => send(port, { type: 'error', error: `Could not read this tab's log: ${messageOf(e)}` }));
      } else if (msg?.type === 'settings-get') {
        this.settings.get().then(
          (settings) => send(port, { type: 'settings', settings }),
          (e: unknown) => send(port, { type: 'settings-error', error: `Could not read the saved settings: ${messageOf(e)}` }),
        );
      } else if (msg?.type === 'settings-set') {
        this.settings.set(msg.settings).then(
          (r) => {
            if (!r.ok) send(port, { type: 'settings-error', error: r.error });
          },
          (e: unknown) => send(port, { type: 'settings-error', error: `Could not save the settings: ${messageOf(e)}` }),
        );
      } else if (msg?.type === 'clear' && tabId !== undefined) {
        const id = tabId;
        if (this.tabs.wasRemoved(id)) return send(port, closedTab(id));
        this.tabs
          .get(id)
          .clear()
          .then(
            ({ stats, kept }) => {
              this.onCleared(id, kept, stats);
              const cleared: BackgroundToPanel = { type: 'cleared', stats, kept: new Set(kept.map((f) => connOf(f))).size };
              for (const port of [...(this.loading.get(id) ?? []), ...(this.live.get(id) ?? [])]) this.keptSent.set(port, stats.kept);
              for (const port of this.loading.get(id) ?? []) send(port, cleared);
              this.broadcast(id, cleared);
              if (kept.length > 0) this.broadcast(id, { type: 'frames', frames: kept });
            },
            (e: unknown) => send(port, { type: 'error', error: `Could not clear the log: ${messageOf(e)}` }),
          );
      }
    });
    port.onDisconnect.addListener(() => {
      this.all.delete(port);
      if (tabId === undefined) return;
      this.live.get(tabId)?.delete(port);
      this.loading.get(tabId)?.delete(port);
      this.tabs.watch(tabId, -1);
    });
  }

  private async serve(port: browser.Runtime.Port, tabId: number, since: number): Promise<void> {
    // Loading from the hello on: a clear while the tab, its log or the settings are looked up reaches this panel too.
    let loading = this.loading.get(tabId);
    if (!loading) this.loading.set(tabId, (loading = new Set()));
    loading.add(port);
    if (!(await this.tabExists(tabId))) {
      send(port, { type: 'error', error: `There is no tab ${tabId} (it was closed, or the id is wrong): nothing will be captured here. Open the MCP panel from devtools on the page, or import a trace.`, noTab: true });
    }
    const log = this.tabs.get(tabId);
    const stats = await log.ensureLoaded();
    send(port, { type: 'settings', settings: await this.settings.get() });
    send(port, this.statsFor(port, stats));
    await log.backlog(since, BACKLOG_CHUNK, (frames, done) => {
      send(port, { type: 'backlog', frames, done });
      // A panel that went away meanwhile is not kept as live (its disconnect has already been handled).
      if (done && this.all.has(port)) {
        this.loading.get(tabId)?.delete(port);
        let set = this.live.get(tabId);
        if (!set) this.live.set(tabId, (set = new Set()));
        set.add(port);
      }
    }).finally(() => this.loading.get(tabId)?.delete(port));
  }

  publish(tabId: number, frames: Frame[], stats: TabStats): void {
    if (frames.length > 0) this.broadcast(tabId, { type: 'frames', frames });
    for (const port of this.live.get(tabId) ?? []) send(port, this.statsFor(port, stats));
  }

  /** The stats message for one panel: without `kept` when it is what that panel was last sent. */
  private statsFor(port: browser.Runtime.Port, stats: TabStats): BackgroundToPanel {
    if (this.keptSent.has(port) && sameSeqs(this.keptSent.get(port), stats.kept)) {
      const { kept: _, ...rest } = stats;
      return { type: 'stats', stats: rest, keptUnchanged: true };
    }
    this.keptSent.set(port, stats.kept);
    return { type: 'stats', stats };
  }

  /** The tab was closed: its panels (one opened as a tab outlives it) stop showing it as live. */
  tabClosed(tabId: number): void {
    for (const port of this.loading.get(tabId) ?? []) send(port, closedTab(tabId));
    this.broadcast(tabId, closedTab(tabId));
  }

  broadcast(tabId: number, message: BackgroundToPanel): void {
    for (const port of this.live.get(tabId) ?? []) send(port, message);
  }
}

function closedTab(tabId: number): BackgroundToPanel {
  return { type: 'error', error: `Tab ${tabId} was closed: its log is gone and nothing more will be captured here. What this panel shows stays until it closes (Export ▾ keeps it).`, noTab: true };
}

function sameSeqs(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if ((a?.length ?? 0) !== (b?.length ?? 0)) return false;
  for (let i = 0; i < (a?.length ?? 0); i++) if (a![i] !== b![i]) return false;
  return true;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function send(port: browser.Runtime.Port, message: BackgroundToPanel): void {
  try {
    port.postMessage(message);
  } catch {
    // Disconnected; onDisconnect cleans up.
  }
}
