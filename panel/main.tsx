// Panel entry. Inside devtools the inspected tab comes from chrome.devtools; as a normal tab from `?tab=<id>`; with
// neither it starts offline, ready to import a trace. Theme: the devtools theme, else `?theme=light|dark`, else the
// system's (prefers-color-scheme, in styles.css). `?view=resources|findings|sessions|messages` picks the first view.
import { render } from 'preact';
import { effect } from '@preact/signals';
import { connectForSettings, connectToTab } from './connection.ts';
import { App } from './components/App.tsx';
import { PanelStore, panelTitle, THEME_CHANGE, TICK_MS, type ViewName } from './store.ts';
import { installPrintableText } from './printable-dom.ts';
import { installUriCopy } from './uri-copy.ts';
import './styles.css';

const params = new URLSearchParams(location.search);

/** `?tab=`: a tab id (a whole number), null when absent, NaN when it is not one. */
const askedTab = ((q) => (q === null ? null : /^\d+$/.test(q) && Number.isSafeInteger(Number(q)) ? Number(q) : NaN))(params.get('tab'));

function inspectedTabId(): number | undefined {
  if (askedTab !== null && !Number.isNaN(askedTab)) return askedTab;
  return globalThis.chrome?.devtools?.inspectedWindow?.tabId;
}

/** The theme class for a devtools theme name ('default' is light), else `?theme=`, else none (the system's). */
function setTheme(devtools: string | undefined): void {
  const asked = params.get('theme');
  const theme = devtools === 'dark' ? 'dark' : devtools === 'default' ? 'light' : asked === 'dark' || asked === 'light' ? asked : undefined;
  const root = document.documentElement.classList;
  root.remove('theme-dark', 'theme-light');
  if (theme) root.add(`theme-${theme}`);
  // The timeline's canvas is drawn in the theme's colours: it draws again (Timeline.tsx).
  globalThis.dispatchEvent(new Event(THEME_CHANGE));
}

function applyTheme(): void {
  const panels = globalThis.chrome?.devtools?.panels;
  setTheme(panels?.themeName);
  // Devtools switched between light and dark while the panel is open: follow it (it read the name only at start).
  panels?.setThemeChangeHandler?.((name: string) => setTheme(name));
}

const store = new PanelStore();
const view = params.get('view');
if (view === 'resources' || view === 'findings' || view === 'sessions' || view === 'messages') store.view.value = view as ViewName;
if (params.get('perf') === '1') store.probe.enable();
const tabId = inspectedTabId();
applyTheme();
const connection =
  tabId === undefined
    ? undefined
    : connectToTab(
        tabId,
        () => store.lastSeq(),
        (m) => store.receive(m),
        (s) => store.setTabStatus(s),
      );
if (!connection) store.setTabStatus('offline');
// The inspected page navigating: the page in view left when only its iframes spoke MCP (they send no word of the page
// around them). Inside devtools its onNavigated (top-level only); as a tab, the tab starting to load (an iframe that
// navigates does it too: the store also waits for every iframe document in view to end).
if (tabId !== undefined) {
  const devtoolsNetwork = globalThis.chrome?.devtools?.network;
  if (devtoolsNetwork) devtoolsNetwork.onNavigated.addListener(() => store.topNavigated());
  else
    globalThis.chrome?.tabs?.onUpdated?.addListener((id, change) => {
      if (id === tabId && change.status === 'loading') store.topNavigated();
    });
}
// Without a tab the saved settings still apply (an imported trace is analysed with the user's rules) and Save saves them.
const settingsLink = connection ? undefined : connectForSettings((m) => store.receive(m));
// A panel opened as a tab with a tab id that is not one: said, not silently taken for "no tab".
if (Number.isNaN(askedTab)) {
  store.receive({ type: 'error', error: `?tab=${params.get('tab')} is not a tab id (a whole number): nothing will be captured here. Open the MCP panel from devtools on the page, or import a trace.`, noTab: true });
}
// Titled by the page it inspects: panels opened as tabs all read "MCP" (a review).
effect(() => {
  document.title = panelTitle(store.inspectedPage.value);
});
setInterval(() => store.tick(), TICK_MS);
Object.assign(globalThis, { mcpPanel: store });

installPrintableText();
installUriCopy(document);
render(<App store={store} connection={connection} settingsLink={settingsLink} />, document.getElementById('app')!);
