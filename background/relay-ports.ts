// Accepts relay ports from content scripts and tells each relay the capture settings. The tab and frame come from the runtime sender, never from the message.
// Batches are parsed and validated here (the page's text is untrusted), acknowledged only after they are persisted,
// then fanned out to the tab's live panels.
import type browser from 'webextension-polyfill';
import type { Frame } from '../shared/frames.ts';
import type { RelayAck, RelayBatch, RelayConfig, RelayPace } from '../shared/messages.ts';
import type { CaptureConfig } from '../shared/settings.ts';
import type { SettingsStore } from './settings.ts';
import { connectionLost } from './log-store.ts';
import { messageOf, type PanelHub } from './panel-ports.ts';
import { SentAgain } from './tab-log.ts';
import type { Tabs } from './tabs.ts';

function isBatch(m: unknown): m is RelayBatch {
  const b = m as RelayBatch;
  return (
    typeof b === 'object' &&
    b !== null &&
    b.type === 'frames' &&
    typeof b.relay === 'string' &&
    Number.isSafeInteger(b.batch) &&
    Array.isArray(b.payloads) &&
    b.payloads.every((p) => typeof p === 'string') &&
    Number.isSafeInteger(b.rejected)
  );
}

export class RelayHub {
  /** Every relay port, with its tab. */
  private readonly ports = new Map<browser.Runtime.Port, number>();

  constructor(
    private readonly tabs: Tabs,
    private readonly panels: PanelHub,
    private readonly settings: SettingsStore,
    private readonly onFrames: (tabId: number, frames: Frame[]) => void,
  ) {
    settings.onChange((s) => {
      for (const port of this.ports.keys()) sendConfig(port, s.capture);
    });
  }

  /** A panel started, or the last one stopped, showing `tabId`: its relays forward live, or gather (see RelayPace). */
  setLive(tabId: number, live: boolean): void {
    for (const [port, tab] of this.ports) if (tab === tabId) sendPace(port, live);
  }

  onPort(port: browser.Runtime.Port): void {
    const tabId = port.sender?.tab?.id;
    const frameId = port.sender?.frameId ?? 0;
    if (tabId === undefined || tabId < 0) {
      port.disconnect();
      return;
    }
    this.ports.set(port, tabId);
    port.onDisconnect.addListener(() => this.ports.delete(port));
    void this.settings.get().then((s) => sendConfig(port, s.capture));
    // Always, also when no panel watches: a relay keeps its last pace across reconnects, and a change made while it was
    // disconnected (the last panel closed during a worker restart) would otherwise never reach it.
    sendPace(port, this.tabs.watched(tabId));
    // After a failed write nothing more from this port is taken (not even batches already queued behind it): an ack of a
    // later batch would tell the relay to forget the failed one. The port is closed; the relay reconnects and re-sends
    // every unacknowledged batch in order.
    let reset = false;
    const current = () => !reset;
    port.onMessage.addListener((m: unknown) => {
      // A batch that comes after its tab was closed would bring the log back (and its badge): nothing is kept of it.
      if (!isBatch(m) || reset || this.tabs.wasRemoved(tabId)) return;
      this.tabs
        .get(tabId)
        .accept(m.relay, m.batch, m.payloads, frameId, m.rejected, m.rejectedWhy, Number.isSafeInteger(m.lost) ? m.lost : 0, current)
        .then(({ frames: accepted, stats }) => {
          const ack: RelayAck = { type: 'ack', batch: m.batch };
          try {
            port.postMessage(ack);
          } catch {
            // The page went away; its frames are stored regardless.
          }
          this.panels.publish(tabId, accepted, stats);
          if (accepted.length > 0) this.onFrames(tabId, accepted);
        })
        .catch((e: unknown) => {
          if (reset) return;
          reset = true;
          // Failed on purpose (the tab closed, a new browser session) or the storage was cleared under us: expected, and
          // the relay sends the batch again where it still matters. Not an error (it would land in the extension's
          // Errors list on every tab closed within a second of its last frames).
          if (connectionLost(e) || e instanceof SentAgain) {
            console.debug('mcp-devtools: a batch was not stored; its relay sends it again if its tab is still open', e);
          } else {
            console.error('mcp-devtools: could not store frames; the relay will re-send them', e);
            // Not silent: the tab's panels say so (a full disk). Nothing is lost yet.
            this.panels.broadcast(tabId, { type: 'error', error: `Could not store this tab's captured frames: ${messageOf(e).replace(/\.+$/, '')}. The page keeps them and sends them again; if this goes on, the browser may be out of storage for extensions.` });
          }
          try {
            port.disconnect();
          } catch {
            // Already gone.
          }
          this.ports.delete(port);
        });
    });
  }
}

function sendPace(port: browser.Runtime.Port, live: boolean): void {
  const message: RelayPace = { type: 'pace', live };
  try {
    port.postMessage(message);
  } catch {
    // Disconnected.
  }
}

/**
 * What the page's hook is told: the body cap. Not the extra secret header names (the background redacts those): the
 * config reaches the page's DOM, where any site could read the names a user gave for another.
 */
function sendConfig(port: browser.Runtime.Port, config: CaptureConfig): void {
  const message: RelayConfig = { type: 'config', config: { ...config, extraSecretHeaders: [] } };
  try {
    port.postMessage(message);
  } catch {
    // Disconnected.
  }
}
