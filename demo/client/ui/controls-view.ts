// The page's control panes, built once and updated in place (re-creating inputs would steal focus): connection
// (generation, transport, reconnect), the client-bug switches, and the server's fault switches and admin buttons.
import { DEFAULT_FAULTS, type Faults } from '../../server/faults.ts';
import { SWITCH_LABELS, type ClientSwitches, type ConnectionSettings } from '../switches.ts';
import { h } from './dom.ts';

export interface ControlActions {
  changeConnection(patch: Partial<ConnectionSettings>): void;
  reconnect(): void;
  setSwitch(patch: Partial<ClientSwitches>): void;
  setFault(patch: Partial<Faults>): void;
  restartServer(): void;
  dropStreams(): void;
  resetServer(): void;
  setTimer(ms: number): void;
}

export function connectionControls(settings: ConnectionSettings, a: ControlActions): HTMLElement {
  const gen = h('select', { id: 'generation', onchange: (e) => a.changeConnection({ generation: (e.target as HTMLSelectElement).value as ConnectionSettings['generation'] }) },
    h('option', { value: '2025-11-25', selected: settings.generation === '2025-11-25' }, '2025-11-25 (SDK v1, sessions)'),
    h('option', { value: '2026-07-28', selected: settings.generation === '2026-07-28' }, '2026-07-28 (SDK v2, subscriptions/listen)'),
  );
  const transport = h('select', { id: 'transport', disabled: settings.generation === '2026-07-28', onchange: (e) => a.changeConnection({ transport: (e.target as HTMLSelectElement).value as ConnectionSettings['transport'] }) },
    h('option', { value: 'streamable-http', selected: settings.transport === 'streamable-http' }, 'Streamable HTTP'),
    h('option', { value: 'sse', selected: settings.transport === 'sse' }, 'HTTP+SSE (legacy)'),
  );
  return h('div', { class: 'connection' },
    h('label', {}, 'Protocol ', gen), h('label', {}, 'Transport ', transport),
    h('button', { id: 'reconnect', onclick: () => a.reconnect(), title: 'New transport + initialize, like an app after a drop' }, 'Reconnect'),
  );
}

export function switchControls(sw: ClientSwitches, a: ControlActions): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const key of Object.keys(SWITCH_LABELS) as (keyof ClientSwitches)[]) {
    const value = sw[key];
    let input: HTMLElement;
    if (typeof value === 'boolean') {
      input = h('input', { type: 'checkbox', id: `switch-${key}`, checked: value, onchange: (e) => a.setSwitch({ [key]: (e.target as HTMLInputElement).checked }) });
    } else if (key === 'onNotification') {
      input = h('select', { id: `switch-${key}`, onchange: (e) => a.setSwitch({ onNotification: (e.target as HTMLSelectElement).value as ClientSwitches['onNotification'] }) },
        h('option', { value: 'reread', selected: value === 'reread' }, 're-read'), h('option', { value: 'mark-dirty', selected: value === 'mark-dirty' }, 'mark dirty only'));
    } else if (key === 'subscribeTo') {
      input = h('select', { id: `switch-${key}`, onchange: (e) => a.setSwitch({ subscribeTo: (e.target as HTMLSelectElement).value as ClientSwitches['subscribeTo'] }) },
        h('option', { value: 'document', selected: value === 'document' }, 'each document'), h('option', { value: 'parent', selected: value === 'parent' }, 'parent file:///docs/ only'));
    } else {
      input = h('input', { type: 'number', min: 0, step: 500, id: `switch-${key}`, value: Number(value), onchange: (e) => a.setSwitch({ [key]: Number((e.target as HTMLInputElement).value) }) });
    }
    rows.push(h('label', { class: 'row' }, input, ' ', SWITCH_LABELS[key]));
  }
  return h('fieldset', { class: 'switches' }, h('legend', {}, 'Client behaviour (healthy = all defaults)'), ...rows);
}

const FAULT_LABELS: Record<keyof Faults, string> = {
  dropNotifications: 'Drop notifications',
  refuseGetStream: 'Refuse the GET stream (405)',
  noSubscribeCapability: 'Advertise no resources.subscribe (new sessions)',
  slowReadsMs: 'Slow reads (ms)',
  slowSubscribesMs: 'Slow subscribe answers (ms)',
  outOfOrderReads: 'Out-of-order reads',
  notifyUnsubscribed: 'Notify sessions that never subscribed',
  downgradeProtocol: 'Downgrade protocol on initialize',
  ttlMs: 'ttlMs on 2026-07-28 reads (empty = 30000)',
};

export interface FaultControls {
  element: HTMLElement;
  update(f: Faults, timerMs: number): void;
}

export function faultControls(a: ControlActions): FaultControls {
  const inputs = new Map<keyof Faults, HTMLInputElement | HTMLSelectElement>();
  const rows: HTMLElement[] = [];
  for (const key of Object.keys(DEFAULT_FAULTS) as (keyof Faults)[]) {
    let input: HTMLInputElement | HTMLSelectElement;
    if (typeof DEFAULT_FAULTS[key] === 'boolean') {
      input = h('input', { type: 'checkbox', id: `fault-${key}`, onchange: (e) => a.setFault({ [key]: (e.target as HTMLInputElement).checked }) });
    } else if (key === 'downgradeProtocol') {
      input = h('select', { id: `fault-${key}`, onchange: (e) => a.setFault({ downgradeProtocol: (e.target as HTMLSelectElement).value || null }) },
        h('option', { value: '' }, 'no'), h('option', { value: '2025-06-18' }, '2025-06-18'), h('option', { value: '2025-03-26' }, '2025-03-26'), h('option', { value: '2024-11-05' }, '2024-11-05'));
    } else {
      input = h('input', { type: 'number', min: 0, step: 100, id: `fault-${key}`, onchange: (e) => {
        const v = (e.target as HTMLInputElement).value;
        a.setFault({ [key]: key === 'ttlMs' && v === '' ? null : Number(v) });
      } });
    }
    inputs.set(key, input);
    rows.push(h('label', { class: 'row' }, input, ' ', FAULT_LABELS[key]));
  }
  const timer = h('input', { type: 'number', min: 0, step: 1000, id: 'edit-timer', onchange: (e) => a.setTimer(Number((e.target as HTMLInputElement).value)) });
  const element = h('fieldset', { class: 'faults' }, h('legend', {}, 'Server faults'), ...rows,
    h('label', { class: 'row' }, timer, ' Edit a document every (ms, 0 = off)'),
    h('div', { class: 'buttons' },
      h('button', { id: 'restart-server', onclick: () => a.restartServer(), title: 'Drop every session and listen stream' }, 'Restart server'),
      h('button', { id: 'drop-streams', onclick: () => a.dropStreams(), title: 'Close GET / listen streams, keep sessions' }, 'Drop streams'),
      h('button', { id: 'reset-server', onclick: () => a.resetServer(), title: 'Faults off, documents back to revision 1, sessions dropped' }, 'Reset'),
    ),
  );
  return {
    element,
    update(f, timerMs) {
      for (const [key, input] of inputs) {
        if (document.activeElement === input) continue;
        const v = f[key];
        if (input instanceof HTMLInputElement && input.type === 'checkbox') input.checked = v === true;
        else input.value = v === null ? '' : String(v);
      }
      if (document.activeElement !== timer) timer.value = String(timerMs);
    },
  };
}
