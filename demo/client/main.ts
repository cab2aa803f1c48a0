// Entry point of the demo page: works out the server URL (?server=, else /config.json from the page's own server, else
// the default port), the connection settings and switches (query string, or the scenario's), then starts the app.
// With ?scenario=<name> the page plays that scenario by itself and marks body[data-scenario] = done | failed.
import { findScenario, SCENARIO_NAMES } from '../scenarios.ts';
import { App } from './app.ts';
import { connectionFromQuery, HEALTHY_SWITCHES, switchesFromQuery } from './switches.ts';
import './styles.css';

const DEFAULT_SERVER = 'http://127.0.0.1:8931';

async function serverUrl(params: URLSearchParams): Promise<string> {
  const fromQuery = params.get('server');
  if (fromQuery) return fromQuery;
  try {
    const res = await fetch('./config.json', { cache: 'no-store' });
    if (res.ok) {
      const cfg = (await res.json()) as { serverUrl?: unknown };
      if (typeof cfg.serverUrl === 'string') return cfg.serverUrl;
    }
  } catch {
    // Served without the demo's static server (e.g. vite preview): fall back to the default port.
  }
  return DEFAULT_SERVER;
}

function navigate(params: Record<string, string | undefined>, reload: boolean): void {
  const url = new URL(location.href);
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  if (reload) location.assign(url);
  else history.replaceState(null, '', url);
}

async function main(): Promise<void> {
  const root = document.getElementById('app');
  if (!root) throw new Error('missing #app');
  const params = new URLSearchParams(location.search);
  const name = params.get('scenario') ?? undefined;
  const scenario = name ? findScenario(name) : undefined;
  if (name && !scenario) {
    root.textContent = `Unknown scenario '${name}'. Known: ${SCENARIO_NAMES.join(', ')}`;
    document.body.dataset.scenario = 'failed';
    return;
  }
  const connection = scenario ? scenario.connection : connectionFromQuery(params);
  const switches = scenario ? { ...HEALTHY_SWITCHES, ...scenario.client } : switchesFromQuery(params);
  const app = new App({ root, serverUrl: await serverUrl(params), connection, switches, ...(scenario ? { scenario } : {}), navigate });
  (window as unknown as { kbDemo: App }).kbDemo = app;
  await app.start();
}

main().catch((err: unknown) => {
  document.body.dataset.scenario = 'failed';
  document.body.append(String(err));
});
