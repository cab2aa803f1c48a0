// The panel's long-lived port to the background, keyed by the inspected tab. It reconnects with backoff when the
// service worker restarts and says which seq it already has, so the backlog resumes without gaps or duplicates.
import browser from 'webextension-polyfill';
import { Backoff } from '../shared/backoff.ts';
import { PANEL_PORT, type BackgroundToPanel, type PanelToBackground } from '../shared/messages.ts';
import type { Settings } from '../shared/settings.ts';

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting';

export interface PanelConnection {
  clear(): void;
  /** Ask the background to replace the settings; it answers `settings` (to every panel) or `settings-error`. False when not connected. */
  setSettings(settings: Settings): boolean;
  close(): void;
}

/**
 * A panel without a tab (offline, to analyse an imported trace) still uses the saved settings, and saves them as any
 * panel does: a port that asks for them (`settings-get`) and then hears every change, reconnecting as connectToTab does.
 */
/** Asks the background to replace the settings on `port`; false when not connected. */
function sendSettings(port: browser.Runtime.Port | undefined, settings: Settings): boolean {
  if (!port) return false;
  const msg: PanelToBackground = { type: 'settings-set', settings };
  port.postMessage(msg);
  return true;
}

export function connectForSettings(onMessage: (m: BackgroundToPanel) => void): Pick<PanelConnection, 'setSettings' | 'close'> {
  const backoff = new Backoff(100, 3000);
  let port: browser.Runtime.Port | undefined;
  let closed = false;
  const open = () => {
    if (closed) return;
    try {
      port = browser.runtime.connect({ name: PANEL_PORT });
    } catch {
      setTimeout(open, backoff.next());
      return;
    }
    port.onMessage.addListener((m: unknown) => {
      const msg = m as BackgroundToPanel;
      if (msg.type === 'settings') backoff.reset();
      if (msg.type === 'settings' || msg.type === 'settings-error') onMessage(msg);
    });
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (!closed) setTimeout(open, backoff.next());
    });
    const get: PanelToBackground = { type: 'settings-get' };
    port.postMessage(get);
  };
  open();
  return {
    setSettings: (settings) => sendSettings(port, settings),
    close() {
      closed = true;
      port?.disconnect();
    },
  };
}

export function connectToTab(
  tabId: number,
  lastSeq: () => number,
  onMessage: (m: BackgroundToPanel) => void,
  onStatus: (s: ConnectionStatus) => void,
): PanelConnection {
  const backoff = new Backoff(100, 3000);
  let port: browser.Runtime.Port | undefined;
  let closed = false;

  const open = () => {
    if (closed) return;
    try {
      port = browser.runtime.connect({ name: PANEL_PORT });
    } catch {
      onStatus('reconnecting');
      setTimeout(open, backoff.next());
      return;
    }
    port.onMessage.addListener((m: unknown) => {
      const msg = m as BackgroundToPanel;
      if (msg.type === 'backlog' && msg.done) {
        backoff.reset();
        onStatus('live');
      }
      onMessage(msg);
    });
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (closed) return;
      onStatus('reconnecting');
      setTimeout(open, backoff.next());
    });
    const hello: PanelToBackground = { type: 'hello', tabId, since: lastSeq() };
    port.postMessage(hello);
  };
  onStatus('connecting');
  open();

  return {
    clear() {
      const msg: PanelToBackground = { type: 'clear' };
      port?.postMessage(msg);
    },
    setSettings: (settings) => sendSettings(port, settings),
    close() {
      closed = true;
      port?.disconnect();
    },
  };
}
