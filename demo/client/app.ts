// The page controller: builds the views, turns button presses into client / admin actions, re-renders on client events
// and on a ticker (cache ages tick), polls the server's admin state, and plays a scenario when asked.
import type { Scenario } from '../scenarios.ts';
import { AdminApi } from './admin-api.ts';
import { pushLog, type AppState } from './app-state.ts';
import { KbClient } from './kb-client.ts';
import { endScenario, playScenario, prepareScenario, type ScenarioResult } from './scenario-player.ts';
import type { ClientSwitches, ConnectionSettings } from './switches.ts';
import { connectionControls, faultControls, switchControls, type ControlActions } from './ui/controls-view.ts';
import { h, replaceChildren, replaceIfChanged } from './ui/dom.ts';
import { documentBody, documentHead, documentList, type KbActions } from './ui/knowledge-base-view.ts';
import { scenarioPanel, scenarioPicker } from './ui/scenario-view.ts';
import { cacheTable, logView, metricsView } from './ui/state-view.ts';

export interface AppOptions {
  root: HTMLElement;
  serverUrl: string;
  connection: ConnectionSettings;
  switches: ClientSwitches;
  scenario?: Scenario;
  /** Rewrites the page URL (settings live in the query string so a reload keeps them). */
  navigate(params: Record<string, string | undefined>, reload: boolean): void;
}

const DEFAULT_DOCUMENT = 'file:///docs/policy.md';
const SERVER_POLL_MS = 1000;
const TICK_MS = 500;

export class App {
  readonly state: AppState;
  private panes = { docs: h('div'), docHead: h('div'), docBody: h('div'), cache: h('div'), metrics: h('div'), log: h('div'), scenario: h('div') };
  private faults = faultControls(this.controlActions());
  private renderQueued = false;

  constructor(private readonly o: AppOptions) {
    const client = new KbClient({ serverUrl: o.serverUrl, connection: o.connection, switches: o.switches });
    this.state = {
      serverUrl: o.serverUrl, client, admin: new AdminApi(o.serverUrl), selected: undefined, server: undefined, serverError: undefined,
      scenario: o.scenario, scenarioStatus: o.scenario ? 'running' : 'idle', scenarioResult: undefined, log: [],
    };
    client.on((e) => {
      pushLog(this.state, e);
      this.render();
    });
  }

  async start(): Promise<ScenarioResult | undefined> {
    this.layout();
    setInterval(() => this.render(), TICK_MS);
    const poll = () => void this.pollServer().finally(() => setTimeout(poll, SERVER_POLL_MS));
    const sc = this.o.scenario;
    if (sc) {
      document.body.dataset.scenario = 'running';
      try {
        await prepareScenario(sc, this.state.admin);
      } catch (err) {
        return this.finishScenario({ name: sc.name, pass: false, checks: [], error: `preparing the server failed: ${String(err)}`, durationMs: 0 }, false);
      }
    }
    poll();
    try {
      await this.state.client.connect();
    } catch (err) {
      this.logLine('error', `connect failed: ${err instanceof Error ? err.message : String(err)}`);
      if (sc) return this.finishScenario({ name: sc.name, pass: false, checks: [], error: `connect failed: ${String(err)}`, durationMs: 0 });
      return undefined;
    }
    if (!sc) {
      this.state.selected = DEFAULT_DOCUMENT;
      await this.state.client.open(DEFAULT_DOCUMENT);
      this.render();
      return undefined;
    }
    const first = sc.steps.find((s) => 'uri' in s && s.do !== 'edit');
    if (first && 'uri' in first) this.state.selected = first.uri;
    const result = await playScenario(sc, this.state.client, this.state.admin, (t) => this.logLine('player', t));
    return this.finishScenario(result);
  }

  /**
   * Says how the scenario went, once the server is back as `npm start` began it (endScenario; not when preparing it
   * failed: it is unreachable or never changed). A server that does not answer within 3 s does not hold the result back.
   */
  private async finishScenario(result: ScenarioResult, restore = true): Promise<ScenarioResult> {
    if (restore) {
      try {
        await Promise.race([endScenario(this.state.admin), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 3 s')), 3000))]);
      } catch (err) {
        this.logLine('error', `could not turn the scenario's faults off and the edit timer back on: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.state.scenarioResult = result;
    this.state.scenarioStatus = result.error ? 'failed' : 'done';
    document.body.dataset.scenarioPass = String(result.pass);
    document.body.dataset.scenario = this.state.scenarioStatus;
    const out = document.getElementById('scenario-result');
    if (out) out.textContent = JSON.stringify(result, null, 2);
    this.render();
    return result;
  }

  private layout(): void {
    const s = this.state;
    const header = h('header', {},
      h('h1', {}, 'Knowledge base ', h('span', { class: 'muted' }, '— MCP devtools demo')),
      connectionControls(s.client.settings, this.controlActions()),
      scenarioPicker(s.scenario?.name, (name) => this.o.navigate({ scenario: name }, true)),
    );
    const side = h('aside', {}, switchControls(s.client.switches, this.controlActions()), this.faults.element);
    const main = h('main', {}, this.panes.scenario, h('div', { class: 'kb' }, h('section', { class: 'pane documents' }, this.panes.docs), h('section', { class: 'pane document' }, this.panes.docHead, this.panes.docBody)), this.panes.cache, this.panes.metrics, this.panes.log,
      h('pre', { id: 'scenario-result', hidden: true }));
    replaceChildren(this.o.root, header, h('div', { class: 'body' }, main, side));
    this.render();
  }

  render(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    requestAnimationFrame(() => {
      this.renderQueued = false;
      const s = this.state;
      const kb = this.kbActions();
      replaceIfChanged(this.panes.docs, documentList(s, kb));
      replaceIfChanged(this.panes.docHead, documentHead(s, kb));
      replaceIfChanged(this.panes.docBody, documentBody(s));
      replaceIfChanged(this.panes.cache, cacheTable(s));
      replaceIfChanged(this.panes.metrics, metricsView(s));
      replaceIfChanged(this.panes.log, logView(s));
      replaceIfChanged(this.panes.scenario, scenarioPanel(s));
      if (s.server) this.faults.update(s.server.faults, s.server.editTimerMs);
    });
  }

  private async pollServer(): Promise<void> {
    try {
      this.state.server = await this.state.admin.state();
      this.state.serverError = undefined;
    } catch (err) {
      this.state.serverError = `admin state unavailable: ${err instanceof Error ? err.message : String(err)}`;
    }
    this.render();
  }

  private logLine(kind: 'player' | 'admin' | 'error', text: string): void {
    pushLog(this.state, { at: Date.now(), kind, text });
    this.render();
  }

  /** Runs an admin call, logging its outcome; errors are shown, never thrown at the UI. */
  private admin(what: string, call: () => Promise<unknown>): void {
    call().then(
      () => {
        this.logLine('admin', what);
        void this.pollServer();
      },
      (err: unknown) => this.logLine('error', `${what}: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private kbActions(): KbActions {
    const c = this.state.client;
    return {
      select: (uri) => {
        this.state.selected = uri;
        if (!c.cache.has(uri)) void c.open(uri);
        this.render();
      },
      refresh: (uri) => void c.read(uri),
      show: (uri) => void c.show(uri),
      edit: (uri) => this.admin(`edited ${uri}`, () => this.state.admin.edit(uri)),
    };
  }

  private controlActions(): ControlActions {
    const s = () => this.state;
    return {
      changeConnection: (patch) => this.o.navigate({ ...patch, scenario: undefined }, true),
      reconnect: () => void s().client.reconnect().catch((err: unknown) => this.logLine('error', `reconnect failed: ${String(err)}`)),
      setSwitch: (patch) => {
        s().client.setSwitches(patch);
        this.o.navigate(Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, String(v)])), false);
        this.render();
      },
      setFault: (patch) => this.admin(`faults ${JSON.stringify(patch)}`, () => s().admin.setFaults(patch)),
      restartServer: () => this.admin('server restarted', () => s().admin.restart()),
      dropStreams: () => this.admin('streams dropped', () => s().admin.dropStreams()),
      resetServer: () => this.admin('server reset', () => s().admin.reset()),
      setTimer: (ms) => this.admin(`edit timer ${ms} ms`, () => s().admin.setTimer(ms)),
    };
  }
}
