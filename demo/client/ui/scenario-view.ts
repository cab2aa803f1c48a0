// The scenario bar: pick a seed scenario (reloads the page with ?scenario=), see its story, steps and checks.
import { SCENARIOS } from '../../scenarios.ts';
import type { AppState } from '../app-state.ts';
import { describeStep } from '../scenario-player.ts';
import { h } from './dom.ts';

export function scenarioPicker(current: string | undefined, play: (name: string | undefined) => void): HTMLElement {
  const select = h('select', { id: 'scenario-select' },
    h('option', { value: '' }, '— free play —'),
    ...SCENARIOS.map((s) => h('option', { value: s.name, selected: s.name === current }, `${s.name}: ${s.title}`)));
  return h('div', { class: 'scenario-picker' }, h('label', {}, 'Scenario ', select),
    h('button', { id: 'play-scenario', onclick: () => play(select.value || undefined) }, current ? 'Replay' : 'Play'));
}

export function scenarioPanel(s: AppState): HTMLElement {
  const sc = s.scenario;
  if (!sc) return h('section', { class: 'pane scenario muted' }, 'Free play: use the switches and buttons, or pick a scenario.');
  const res = s.scenarioResult;
  return h('section', { class: 'pane scenario', 'data-status': s.scenarioStatus },
    h('h2', {}, `${sc.title} `, h('span', { class: `badge ${res ? (res.pass ? 'ok' : 'bad') : ''}` }, res ? (res.pass ? 'behaved as described' : 'did NOT behave as described') : s.scenarioStatus)),
    h('p', {}, sc.story),
    h('ol', { class: 'steps' }, ...sc.steps.map((st, i) => {
      const check = res?.checks.find((c) => c.step === i + 1);
      return h('li', { class: check ? (check.pass ? 'ok' : 'bad') : '' }, describeStep(st), check ? ` — ${check.detail}` : '');
    })),
    h('p', { class: 'muted' }, 'Expected findings in the MCP devtools tab: ', sc.findings.expected.length ? sc.findings.expected.join(', ') : 'none'),
    res?.error ? h('p', { class: 'bad' }, res.error) : null,
  );
}
