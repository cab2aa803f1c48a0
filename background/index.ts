// The service worker: owns every tab's frame log (persisted, capped), accepts relay batches, serves panels. All
// listeners are registered synchronously at the top level so a worker woken by an event finds them (MV3).
import browser from 'webextension-polyfill';
import { PANEL_PORT, RELAY_PORT } from '../shared/messages.ts';
import { PanelHub } from './panel-ports.ts';
import { RelayHub } from './relay-ports.ts';
import { SettingsStore } from './settings.ts';
import type { Settings } from '../shared/settings.ts';
import { Tabs } from './tabs.ts';
import { Badge } from './badge.ts';
import { installMarkerSalt } from './marker-salt.ts';

const tabs = new Tabs();
const settings = new SettingsStore(tabs.store);
const badge = new Badge(tabs, settings);
const panels = new PanelHub(
  tabs,
  settings,
  (tabId, kept, stats) => badge.clear(tabId, kept, Math.max(stats.segment, 1)),
  (tabId) => browser.tabs.get(tabId).then(
    () => true,
    () => false,
  ),
);
const relays = new RelayHub(tabs, panels, settings, (tabId, frames) =>
  badge.onFrames(tabId, frames).catch((e: unknown) => console.error('mcp-devtools: badge update failed', e)),
);

tabs.onWatched = (tabId, watched) => relays.setLive(tabId, watched);
// (Stored in lower case: validateSettings normalizes them.) Redacted with the stored marker salt: no frame is stored
// before it is installed.
const markerSalt = installMarkerSalt(tabs.store);
tabs.extraSecretHeaders = () => Promise.all([settings.get(), markerSalt]).then(([s]) => s.capture.extraSecretHeaders);

const applyCaps = (s: Settings) => (tabs.caps = { maxFrames: s.maxFrames, maxBytes: s.maxBytes });
void settings.get().then(applyCaps);
settings.onChange((s) => {
  applyCaps(s);
  // Lowered caps apply to every stored log now, not at its tab's next frame; open panels get the new counts.
  void tabs.store
    .allTabIds()
    .then((ids) => Promise.all(ids.map(async (id) => {
      const stats = await tabs.get(id).capsChanged();
      if (stats) panels.publish(id, [], stats);
    })))
    .catch((e: unknown) => console.error('mcp-devtools: applying the new caps failed', e));
});

browser.runtime.onConnect.addListener((port) => {
  if (port.name === RELAY_PORT) relays.onPort(port);
  // Only our own pages (the devtools panel, or the panel opened as a tab) read logs and change settings: a content
  // script's port (a compromised page's renderer posing as one) names the page's URL.
  else if (port.name === PANEL_PORT && port.sender?.url?.startsWith(browser.runtime.getURL(''))) panels.onPort(port);
  else port.disconnect();
});

browser.tabs.onRemoved.addListener((tabId) => {
  badge.forget(tabId);
  panels.tabClosed(tabId);
  void tabs.remove(tabId);
});

// A new browser session reuses tab ids: logs of the previous session are not this session's tabs.
browser.runtime.onStartup.addListener(() => {
  tabs.newBrowserSession().catch((e: unknown) => console.error('mcp-devtools: removing the previous session\'s logs failed', e));
});

// For tests and debugging from the service worker console.
Object.assign(globalThis, { mcpDevtools: { tabs, panels, badge, settings, relays } });
