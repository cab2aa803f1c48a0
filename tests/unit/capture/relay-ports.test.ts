// RelayHub's pace messages (background/relay-ports.ts): every relay learns on connect whether a panel shows its tab —
// also when none does, since a relay keeps its last pace across reconnects — and hears every change after.
import 'fake-indexeddb/auto';
import type browser from 'webextension-polyfill';
import { describe, expect, it, vi } from 'vitest';
import { LogStore } from '../../../background/log-store.ts';
import type { PanelHub } from '../../../background/panel-ports.ts';
import { RelayHub } from '../../../background/relay-ports.ts';
import type { SettingsStore } from '../../../background/settings.ts';
import { Tabs } from '../../../background/tabs.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';

function relayPort(tabId: number) {
  const sent: unknown[] = [];
  let disconnect = () => undefined as void;
  const port = {
    sender: { tab: { id: tabId }, frameId: 0 },
    postMessage: (m: unknown) => void sent.push(m),
    onMessage: { addListener: () => undefined },
    onDisconnect: { addListener: (f: () => void) => void (disconnect = f) },
  } as unknown as browser.Runtime.Port;
  return { port, sent, paces: () => sent.filter((m) => (m as { type: string }).type === 'pace'), disconnect: () => disconnect() };
}

describe('RelayHub pace', () => {
  it('tells each relay on connect and on every change whether a panel shows its tab', async () => {
    const tabs = new Tabs(new LogStore('relay-ports-test'));
    const settings = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS } as unknown as SettingsStore;
    const hub = new RelayHub(tabs, {} as PanelHub, settings, () => undefined);
    tabs.onWatched = (tabId, watched) => hub.setLive(tabId, watched); // as background/index.ts wires it

    const a = relayPort(3);
    const other = relayPort(4);
    hub.onPort(a.port);
    hub.onPort(other.port);
    expect(a.paces()).toEqual([{ type: 'pace', live: false }]);

    tabs.watch(3, 1);
    expect(a.paces()).toEqual([{ type: 'pace', live: false }, { type: 'pace', live: true }]);
    expect(other.paces()).toEqual([{ type: 'pace', live: false }]); // another tab's relay is not told

    // The relay reconnects (worker restart) while the panel still shows the tab: it is live at once.
    a.disconnect();
    const again = relayPort(3);
    hub.onPort(again.port);
    expect(again.paces()).toEqual([{ type: 'pace', live: true }]);

    // The panel closed while the relay was away: the reconnecting relay hears that it is idle now.
    again.disconnect();
    tabs.watch(3, -1);
    const back = relayPort(3);
    hub.onPort(back.port);
    expect(back.paces()).toEqual([{ type: 'pace', live: false }]);
  });
});

/** A RelayHub over `tabs` with one relay port of tab `tabId`: what the hub tells the tab's panels, and a way to send. */
function relayOfTab(tabs: Tabs, tabId: number) {
  const settings = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS } as unknown as SettingsStore;
  const told: Array<[number, unknown]> = [];
  const panels = { broadcast: (tab: number, m: unknown) => told.push([tab, m]), publish: () => undefined } as unknown as PanelHub;
  const hub = new RelayHub(tabs, panels, settings, () => undefined);
  let onMessage: (m: unknown) => void = () => undefined;
  const port = {
    sender: { tab: { id: tabId }, frameId: 0 },
    postMessage: () => undefined,
    onMessage: { addListener: (f: (m: unknown) => void) => void (onMessage = f) },
    onDisconnect: { addListener: () => undefined },
    disconnect: () => undefined,
  } as unknown as browser.Runtime.Port;
  hub.onPort(port);
  return { told, settings, deliver: (m: unknown) => onMessage(m) };
}

describe('RelayHub on a failing store', () => {
  it("tells the tab's panels when its frames cannot be stored (a full disk): never silent", async () => {
    const store = new LogStore('relay-ports-quota');
    store.append = async () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const tabs = new Tabs(store);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { told, deliver } = relayOfTab(tabs, 5);
    const frames = [{ kind: 'sse-event', doc: 'd', n: 1, t: 1, conn: 'd.1', data: { text: '{"jsonrpc":"2.0","method":"m"}' } }];
    deliver({ type: 'frames', relay: 'R', batch: 1, payloads: [JSON.stringify({ tag: PAGE_TAG, frames })], rejected: 0 });
    for (let i = 0; i < 100 && told.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(told).toEqual([[5, { type: 'error', error: "Could not store this tab's captured frames: The quota has been exceeded. The page keeps them and sends them again; if this goes on, the browser may be out of storage for extensions." }]]);
    // And the extension's Errors list has it.
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual(['mcp-devtools: could not store frames; the relay will re-send them']);
    errors.mockRestore();
  });
});

describe('a tab closed while its batch waits to be written', () => {
  it('leaves no log behind and no "out of storage" error: a late batch and a Clear from a panel left open bring nothing back', async () => {
    // Nor an error in the extension's Errors list (console.error): closing a tab is routine.
    const errors = vi.spyOn(console, 'error');
    const store = new LogStore('relay-ports-closed-tab');
    const tabs = new Tabs(store);
    const { told, deliver, settings } = relayOfTab(tabs, 6);
    const frames = [{ kind: 'page-end', doc: 'd', n: 1, t: 1, url: 'http://x/', persisted: false }];
    const batch = (n: number) => ({ type: 'frames', relay: 'R', batch: n, payloads: [JSON.stringify({ tag: PAGE_TAG, frames: [{ ...frames[0], n }] })], rejected: 0 });
    deliver(batch(1));
    // The batch is taken and waits for its write (no panel: the idle delay); the tab closes meanwhile.
    await new Promise((r) => setTimeout(r, 20));
    await tabs.remove(6);
    await new Promise((r) => setTimeout(r, 1200));
    expect(told).toEqual([]);
    expect(await store.allTabIds()).toEqual([]);
    deliver(batch(2));
    const { PanelHub: Hub } = await import('../../../background/panel-ports.ts');
    const panelHub = new Hub(tabs, settings);
    const sent: Array<{ type: string; error?: string; noTab?: boolean }> = [];
    let fromPanel: (m: unknown) => void = () => undefined;
    panelHub.onPort({
      postMessage: (m: { type: string }) => void sent.push(m),
      onMessage: { addListener: (f: (m: unknown) => void) => void (fromPanel = f) },
      onDisconnect: { addListener: () => undefined },
    } as unknown as browser.Runtime.Port);
    fromPanel({ type: 'hello', tabId: 6, since: 0 });
    await new Promise((r) => setTimeout(r, 50));
    fromPanel({ type: 'clear' });
    await new Promise((r) => setTimeout(r, 1200));
    expect(sent.filter((m) => m.type === 'error')).toEqual([{ type: 'error', error: expect.stringContaining('Tab 6 was closed'), noTab: true }]);
    expect(await store.allTabIds()).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
