// The panel's long-lived port to the background, keyed by the inspected tab. It reconnects with backoff when the
// service worker restarts and says which seq it already has, so the backlog resumes without gaps or duplicates.
import browser from 'webextension-polyfill';
import { Backoff } from '../shared/backoff.ts';
import { PANEL_PORT, type BackgroundToPanel, type PanelToBackground } from '../shared/messages.ts';
import type { Settings } from '../shared/settings.ts';

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting';

export interface PanelConnection {
  /** Ask the background to clear the tab's log. False when not connected (reconnecting): nothing was sent. */
  clear(): boolean;
  /** Ask the background to replace the settings; it answers `settings` (to every panel) or `settings-error`. False when not connected. */
  setSettings(settings: Settings): boolean;
  close(): void;
}

/**
 * A port to the background that reconnects with backoff when the service worker restarts: `greet()` is sent on every
 * (re)connect; `onMessage` hears what comes and calls `ready()` once the connection is up (the backoff starts over);
 * `onDown` when it goes or cannot open. `send` is false when not connected.
 */
function reconnectingPort(
  greet: () => PanelToBackground,
  onMessage: (m: BackgroundToPanel, ready: () => void) => void,
  onDown: () => void = () => {},
): { send(m: PanelToBackground): boolean; close(): void } {
  const backoff = new Backoff(100, 3000);
  let port: browser.Runtime.Port | undefined;
  let closed = false;
  const ready = () => backoff.reset();
  const retry = () => {
    onDown();
    setTimeout(open, backoff.next());
  };
  const open = () => {
    if (closed) return;
    try {
      port = browser.runtime.connect({ name: PANEL_PORT });
    } catch {
      retry();
      return;
    }
    port.onMessage.addListener((m: unknown) => onMessage(m as BackgroundToPanel, ready));
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (!closed) retry();
    });
    port.postMessage(greet());
  };
  open();
  return {
    send(m) {
      if (!port) return false;
      port.postMessage(m);
      return true;
    },
    close() {
      closed = true;
      port?.disconnect();
    },
  };
}

/**
 * A panel without a tab (offline, to analyse an imported trace) still uses the saved settings, and saves them as any
 * panel does: a port that asks for them (`settings-get`) and then hears every change, reconnecting as connectToTab does.
 */
export function connectForSettings(onMessage: (m: BackgroundToPanel) => void): Pick<PanelConnection, 'setSettings' | 'close'> {
  const link = reconnectingPort(
    () => ({ type: 'settings-get' }),
    (msg, ready) => {
      if (msg.type === 'settings') ready();
      if (msg.type === 'settings' || msg.type === 'settings-error') onMessage(msg);
    },
  );
  return {
    setSettings: (settings) => link.send({ type: 'settings-set', settings }),
    close: () => link.close(),
  };
}

export function connectToTab(
  tabId: number,
  lastSeq: () => number,
  onMessage: (m: BackgroundToPanel) => void,
  onStatus: (s: ConnectionStatus) => void,
): PanelConnection {
  onStatus('connecting');
  const link = reconnectingPort(
    () => ({ type: 'hello', tabId, since: lastSeq() }),
    (msg, ready) => {
      if (msg.type === 'backlog' && msg.done) {
        ready();
        onStatus('live');
      }
      onMessage(msg);
    },
    () => onStatus('reconnecting'),
  );
  return {
    clear: () => link.send({ type: 'clear' }),
    setSettings: (settings) => link.send({ type: 'settings-set', settings }),
    close: () => link.close(),
  };
}
