// Panel entry. Inside devtools the inspected tab comes from chrome.devtools; as a normal tab from `?tab=<id>`.
import { render } from 'preact';
import { connectToTab } from './connection.ts';
import { App } from './components/App.tsx';
import { PanelStore } from './store.ts';
import './styles.css';

function inspectedTabId(): number | undefined {
  const fromQuery = new URLSearchParams(location.search).get('tab');
  if (fromQuery !== null && /^\d+$/.test(fromQuery)) return Number(fromQuery);
  return globalThis.chrome?.devtools?.inspectedWindow?.tabId;
}

function applyTheme(): void {
  const theme = globalThis.chrome?.devtools?.panels?.themeName;
  if (theme === 'dark') document.documentElement.classList.add('theme-dark');
  if (theme === 'default') document.documentElement.classList.add('theme-light');
}

const store = new PanelStore();
const tabId = inspectedTabId();
applyTheme();
const connection =
  tabId === undefined
    ? undefined
    : connectToTab(
        tabId,
        () => store.lastSeq(),
        (m) => store.receive(m),
        (s) => (store.status.value = s),
      );
if (!connection) store.status.value = 'offline';
Object.assign(globalThis, { mcpPanel: store });

render(<App store={store} onClear={() => connection?.clear()} />, document.getElementById('app')!);
