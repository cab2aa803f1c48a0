// What the page shows, in one place: the client, the admin API, the selected document, the server's view (polled from
// /admin/state), the scenario being played and the event log. Views read it; actions change it and call render.
import type { AdminState } from '../server/admin.ts';
import type { Scenario } from '../scenarios.ts';
import type { AdminApi } from './admin-api.ts';
import type { ClientEvent, KbClient } from './kb-client.ts';
import type { ScenarioResult } from './scenario-player.ts';

export interface LogLine {
  at: number;
  kind: ClientEvent['kind'] | 'player' | 'admin' | 'error';
  uri?: string;
  text: string;
}

export interface AppState {
  serverUrl: string;
  client: KbClient;
  admin: AdminApi;
  selected: string | undefined;
  server: AdminState | undefined;
  serverError: string | undefined;
  scenario: Scenario | undefined;
  scenarioStatus: 'idle' | 'running' | 'done' | 'failed';
  scenarioResult: ScenarioResult | undefined;
  log: LogLine[];
}

export const LOG_LIMIT = 400;

export function pushLog(state: AppState, line: LogLine): void {
  state.log.push(line);
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
}
