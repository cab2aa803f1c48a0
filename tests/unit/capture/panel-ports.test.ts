// PanelHub when storage fails: the panel is told, in words, instead of waiting forever on "Connecting…" or never
// hearing that its settings were not saved.
import { describe, expect, it } from 'vitest';
import type browser from 'webextension-polyfill';
import { PanelHub } from '../../../background/panel-ports.ts';
import type { SettingsStore } from '../../../background/settings.ts';
import type { Tabs } from '../../../background/tabs.ts';
import type { BackgroundToPanel } from '../../../shared/messages.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';

function fakePort() {
  const sent: BackgroundToPanel[] = [];
  let onMessage: (m: unknown) => void = () => undefined;
  const port = {
    postMessage: (m: BackgroundToPanel) => void sent.push(m),
    onMessage: { addListener: (f: (m: unknown) => void) => void (onMessage = f) },
    onDisconnect: { addListener: () => undefined },
  } as unknown as browser.Runtime.Port;
  return { port, sent, deliver: (m: unknown) => onMessage(m) };
}

const broken = new Error('QuotaExceededError (simulated)');
const tabs = {
  watch: () => undefined,
  wasRemoved: () => false,
  get: () => ({ ensureLoaded: () => Promise.reject(broken), clear: () => Promise.reject(broken) }),
} as unknown as Tabs;
const settings = {
  onChange: () => undefined,
  get: async () => DEFAULT_SETTINGS,
  set: () => Promise.reject(broken),
} as unknown as SettingsStore;

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('PanelHub when storage fails', () => {
  it('reports a log that cannot be read, settings that cannot be saved and a clear that failed', async () => {
    const hub = new PanelHub(tabs, settings);
    const { port, sent, deliver } = fakePort();
    hub.onPort(port);
    deliver({ type: 'hello', tabId: 7, since: 0 });
    await settle();
    expect(sent).toContainEqual({ type: 'error', error: "Could not read this tab's log: QuotaExceededError (simulated)" });
    deliver({ type: 'settings-set', settings: DEFAULT_SETTINGS });
    await settle();
    expect(sent).toContainEqual({ type: 'settings-error', error: 'Could not save the settings: QuotaExceededError (simulated)' });
    deliver({ type: 'clear' });
    await settle();
    expect(sent).toContainEqual({ type: 'error', error: 'Could not clear the log: QuotaExceededError (simulated)' });
  });
});

describe('PanelHub for a tab that does not exist', () => {
  it('says so, and still serves what the log has', async () => {
    const working = {
      watch: () => undefined,
      wasRemoved: () => false,
      get: () => ({ ensureLoaded: async () => ({ frames: 0 }), backlog: async (_s: number, _c: number, on: (f: unknown[], d: boolean) => void) => on([], true) }),
    } as unknown as Tabs;
    const ok = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS } as unknown as SettingsStore;
    const hub = new PanelHub(working, ok, () => undefined, async (id) => id !== 999999);
    const { port, sent, deliver } = fakePort();
    hub.onPort(port);
    deliver({ type: 'hello', tabId: 999999, since: 0 });
    await settle();
    expect(sent[0]).toMatchObject({ type: 'error', error: expect.stringContaining('There is no tab 999999'), noTab: true });
    expect(sent.map((m) => m.type)).toEqual(['error', 'settings', 'stats', 'backlog']);
    const other = fakePort();
    hub.onPort(other.port);
    other.deliver({ type: 'hello', tabId: 5, since: 0 });
    await settle();
    expect(other.sent.map((m) => m.type)).toEqual(['settings', 'stats', 'backlog']);
  });
});

describe('PanelHub while a panel connects', () => {
  function slowTab() {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tabs = {
      watch: () => undefined,
      wasRemoved: () => false,
      get: () => ({
        ensureLoaded: async () => ({ frames: 0 }),
        clear: async () => ({ stats: { frames: 1 }, kept: [] }),
        backlog: async (_s: number, _c: number, on: (f: unknown[], d: boolean) => void) => on([], true),
      }),
    } as unknown as Tabs;
    const ok = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS } as unknown as SettingsStore;
    // The tab lookup is slow: the window in which another panel may clear the log.
    return { hub: new PanelHub(tabs, ok, () => undefined, () => gate.then(() => true)), release };
  }

  it('a clear by another panel while it looks the tab up still reaches it', async () => {
    const { hub, release } = slowTab();
    const a = fakePort();
    hub.onPort(a.port);
    a.deliver({ type: 'hello', tabId: 3, since: 0 });
    const b = fakePort();
    hub.onPort(b.port);
    b.deliver({ type: 'hello', tabId: 3, since: 0 });
    b.deliver({ type: 'clear' });
    await settle();
    expect(a.sent.map((m) => m.type)).toEqual(['cleared']);
    release();
    await settle();
    expect(a.sent.map((m) => m.type)).toEqual(['cleared', 'settings', 'stats', 'backlog']);
  });

  it('a panel that disconnects before its backlog is done is not kept as live', async () => {
    const { hub, release } = slowTab();
    let disconnect: () => void = () => undefined;
    const sent: BackgroundToPanel[] = [];
    let onMessage: (m: unknown) => void = () => undefined;
    const port = {
      postMessage: (m: BackgroundToPanel) => void sent.push(m),
      onMessage: { addListener: (f: (m: unknown) => void) => void (onMessage = f) },
      onDisconnect: { addListener: (f: () => void) => void (disconnect = f) },
    } as unknown as browser.Runtime.Port;
    hub.onPort(port);
    onMessage({ type: 'hello', tabId: 4, since: 0 });
    disconnect();
    release();
    await settle();
    const before = sent.length;
    hub.publish(4, [], { frames: 1 } as never);
    expect(sent.length).toBe(before);
  });
});

describe('PanelHub stats', () => {
  it("sends the trim's kept seqs only when they changed for that panel (not up to ~1,000 seqs with every batch)", async () => {
    const base = { tabId: 1, frames: 10, bytes: 0, dropped: 5, rejected: 0, lastSeq: 15, segment: 1, errors: 0 };
    const okTabs = {
      watch: () => undefined,
      wasRemoved: () => false,
      get: () => ({ ensureLoaded: async () => ({ ...base, kept: [1, 2, 3] }), backlog: async (_s: number, _c: number, on: (f: unknown[], done: boolean) => void) => on([], true) }),
    } as unknown as Tabs;
    const hub = new PanelHub(okTabs, settings);
    const { port, sent, deliver } = fakePort();
    hub.onPort(port);
    deliver({ type: 'hello', tabId: 1, since: 0 });
    await settle();
    const stats = () => sent.filter((m): m is Extract<BackgroundToPanel, { type: 'stats' }> => m.type === 'stats');
    expect(stats()).toEqual([{ type: 'stats', stats: { ...base, kept: [1, 2, 3] } }]);
    hub.publish(1, [], { ...base, frames: 11, lastSeq: 16, kept: [1, 2, 3] });
    hub.publish(1, [], { ...base, frames: 11, lastSeq: 17, kept: [1, 2, 4] });
    hub.publish(1, [], { ...base, frames: 11, lastSeq: 18 });
    hub.publish(1, [], { ...base, frames: 11, lastSeq: 19 });
    expect(stats().slice(1)).toEqual([
      { type: 'stats', stats: { ...base, frames: 11, lastSeq: 16 }, keptUnchanged: true },
      { type: 'stats', stats: { ...base, frames: 11, lastSeq: 17, kept: [1, 2, 4] } },
      { type: 'stats', stats: { ...base, frames: 11, lastSeq: 18 } },
      { type: 'stats', stats: { ...base, frames: 11, lastSeq: 19 }, keptUnchanged: true },
    ]);
  });
});
