// The Resources view's panes: the URI table over the timeline (left), the flow chart beside them (under them when the
// panel is narrow). Two splitters ([role=separator], keyboard-operable: arrows, Home/End, Enter on the chart's to hide
// or show it) resize them; the sizes and a hidden chart are remembered (prefs.ts). At 200 % zoom (a 700 × 450 panel)
// the table had one row's room, the lanes a lane and a half, the chart the rest, and nothing could change that (review
// 2026-12-06).
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { readPref, writePref } from '../prefs.ts';

/** Sizes in percent of the pane they split: bounded so that no pane is lost by a drag. */
export const PANE_MIN = 15;
export const PANE_MAX = 85;
const STEP = 5;

export function clampPane(v: number): number {
  return Math.round(Math.max(PANE_MIN, Math.min(PANE_MAX, v)));
}

/** What a key does to a splitter's value (the first pane's share, percent), or null for a key it does not take. */
export function splitterKey(key: string, value: number): number | null {
  if (key === 'ArrowUp' || key === 'ArrowLeft') return clampPane(value - STEP);
  if (key === 'ArrowDown' || key === 'ArrowRight') return clampPane(value + STEP);
  if (key === 'Home') return PANE_MIN;
  if (key === 'End') return PANE_MAX;
  return null;
}

function storedPane(name: string, fallback: number | null): number | null {
  const v = readPref<unknown>(name, fallback);
  return typeof v === 'number' && Number.isFinite(v) ? clampPane(v) : fallback;
}

/**
 * A splitter between two panes of `container` laid out along `axis` (the first pane's share in percent: null until
 * the user moves it, the CSS default meanwhile, read from the first pane's size).
 */
function Splitter(p: {
  label: string;
  value: number | null;
  onChange: (v: number) => void;
  onEnter?: () => void;
  /** The element whose box the share is of, and the first pane's element. */
  boxes: () => { container: HTMLElement | null; first: HTMLElement | null; vertical: boolean };
  controls: string;
  class: string;
}) {
  const measured = () => {
    const { container, first, vertical } = p.boxes();
    if (!container || !first) return 50;
    const c = container.getBoundingClientRect();
    const f = first.getBoundingClientRect();
    const whole = vertical ? c.height : c.width;
    return whole > 0 ? clampPane(((vertical ? f.height : f.width) / whole) * 100) : 50;
  };
  const value = p.value ?? measured();
  const vertical = p.boxes().vertical;
  return (
    <div
      class={`splitter ${p.class}`}
      role="separator"
      tabIndex={0}
      // A horizontal line between stacked panes; a vertical one between panes side by side.
      aria-orientation={vertical ? 'horizontal' : 'vertical'}
      aria-label={p.label}
      aria-controls={p.controls}
      aria-valuenow={value}
      aria-valuemin={PANE_MIN}
      aria-valuemax={PANE_MAX}
      aria-valuetext={`${value} %`}
      title={`${p.label}: drag, or the arrow keys${p.onEnter ? '; Enter hides or shows the chart' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && p.onEnter) {
          e.preventDefault();
          p.onEnter();
          return;
        }
        const next = splitterKey(e.key, p.value ?? measured());
        if (next === null) return;
        e.preventDefault();
        p.onChange(next);
      }}
      onPointerDown={(e) => {
        const { container, vertical: v } = p.boxes();
        if (!container) return;
        e.preventDefault();
        const el = e.currentTarget;
        el.setPointerCapture(e.pointerId);
        const r = container.getBoundingClientRect();
        const move = (m: PointerEvent) => p.onChange(clampPane(v ? ((m.clientY - r.top) / r.height) * 100 : ((m.clientX - r.left) / r.width) * 100));
        const up = () => {
          el.removeEventListener('pointermove', move);
          el.removeEventListener('pointerup', up);
          el.removeEventListener('pointercancel', up);
        };
        el.addEventListener('pointermove', move);
        el.addEventListener('pointerup', up);
        el.addEventListener('pointercancel', up);
      }}
    />
  );
}

export function ResourcesPanes(p: { table: ComponentChildren; timeline: ComponentChildren; flow: ComponentChildren }) {
  // The table's share of the left column's height; the flow chart's share of the view (its width, or its height when
  // narrow: the chart is under the rest then). null: the stylesheet's default.
  const [table, setTable] = useState<number | null>(() => storedPane('paneTable', null));
  const [flow, setFlow] = useState<number | null>(() => storedPane('paneFlow', null));
  const [flowHidden, setFlowHidden] = useState<boolean>(() => readPref<unknown>('flowHidden', false) === true);
  const root = useRef<HTMLDivElement>(null);
  const left = useRef<HTMLDivElement>(null);
  const narrow = () => (root.current ? getComputedStyle(root.current).flexDirection === 'column' : false);
  const saveTable = (v: number) => {
    setTable(v);
    writePref('paneTable', v);
  };
  // The chart's splitter gives the share of the first pane (the table and timeline); the chart has the rest.
  const saveFlow = (firstShare: number) => {
    const v = clampPane(100 - firstShare);
    setFlow(v);
    writePref('paneFlow', v);
  };
  const hide = (h: boolean) => {
    setFlowHidden(h);
    writePref('flowHidden', h);
    // The control that did it goes: focus goes to the one that brings the chart back (or the splitter), not the page.
    setTimeout(() => root.current?.querySelector<HTMLElement>(h ? '.flow-show' : '.splitter-flow')?.focus());
  };
  const style: Record<string, string> = {};
  if (table !== null) style['--table-size'] = `${table}%`;
  if (flow !== null) style['--flow-size'] = `${flow}%`;
  return (
    <div class={`resources${flowHidden ? ' flow-hidden' : ''}`} ref={root} style={style} data-flow-hidden={flowHidden ? 'true' : undefined}>
      <div class="left" id="resources-left" ref={left}>
        {p.table}
        <Splitter
          class="splitter-table"
          label="Resize the URI table and the timeline"
          controls="resources-left"
          value={table}
          onChange={saveTable}
          boxes={() => ({ container: left.current, first: left.current?.querySelector<HTMLElement>('.uri-table') ?? null, vertical: getComputedStyle(left.current ?? document.body).flexDirection === 'column' })}
        />
        {p.timeline}
      </div>
      {flowHidden ? (
        <div class="flow-collapsed">
          <button type="button" class="flow-show" aria-label="Show the flow chart" title="Show the flow chart" onClick={() => hide(false)}>
            ◂ Flow chart
          </button>
        </div>
      ) : (
        <>
          <Splitter
            class="splitter-flow"
            label="Resize the flow chart"
            controls="resources-flow"
            value={flow === null ? null : 100 - flow}
            onChange={saveFlow}
            onEnter={() => hide(true)}
            boxes={() => ({ container: root.current, first: left.current, vertical: narrow() })}
          />
          <div class="flow-wrap" id="resources-flow">
            <button type="button" class="flow-hide" aria-label="Hide the flow chart" title="Hide the flow chart (the table and the timeline take its room)" onClick={() => hide(true)}>
              ✕
            </button>
            {p.flow}
          </div>
        </>
      )}
    </div>
  );
}
