// The toolbar: record/pause, clear, preserve log, the filter, export ▾ (trace JSON, HAR), import, settings, finding
// counts by severity and the status line. Every control has an accessible name.
import { memo } from 'preact/compat';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { PanelStore } from '../store.ts';
import { LiveStatus } from './StatusBar.tsx';
import { pastPill } from '../model/uri-table.ts';

export interface ToolbarActions {
  onPause: (paused: boolean) => void;
  onClear: () => void;
  onPreserve: (on: boolean) => void;
  onFilter: (text: string) => void;
  onExportTrace: () => void;
  onExportHar: () => void;
  onImport: (file: File) => void;
  onSettings: () => void;
  onCloseImport: () => void;
  onSeverity: (s: 'error' | 'warning' | 'info') => void;
  /** The past-problems count: the Findings view, where they are listed. */
  onPast: () => void;
}

interface Props {
  paused: boolean;
  preserveLog: boolean;
  filterText: string;
  /** Problems with the filter, '; '-joined ('' when none). */
  filterErrors: string;
  /** Terms searched differently than they may look, or not used by this view (shown when there is no error). */
  filterNotes: string;
  errors: number;
  warnings: number;
  infos: number;
  /** Each count's accessible name and tooltip: what a click shows (severityCountLabel). */
  countLabels?: Record<'error' | 'warning' | 'info', string>;
  /** The log's cap dropped frames the view's findings rested on: the mark by the counts, and its tooltip (cap-note.ts). */
  capShort?: string | undefined;
  capDetail?: string | undefined;
  /** Warnings and errors that held earlier and were resolved (findingCounts.past). */
  past: number;
  /** Info findings that held earlier and no longer do (findingCounts.pastInfo): counted in the pill too. */
  pastInfo?: number;
  /** For the status line, which is bound to the store's own signals. */
  store: PanelStore;
  imported: string | null;
  /** No tab behind this panel (opened offline, or the tab does not exist): pause and preserve log mean nothing. */
  noTab: boolean;
  canClear: boolean;
  /** Clear's tooltip: what it does, or why it is disabled (clearControl). */
  clearTitle?: string;
  /** Something to export (frames captured, or an imported trace). */
  canExport: boolean;
  /** Export's tooltip: what it exports, or why nothing (exportTitle). */
  exportTitle: string;
  filterRef: { current: HTMLInputElement | null };
  /** Stable across renders. */
  actions: ToolbarActions;
}

function ExportMenu({ onTrace, onHar, disabled, title }: { onTrace: () => void; onHar: () => void; disabled: boolean; title: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  // A layout effect: the first item has the focus by the time the menu is on screen (with a passive effect, a Tab
  // pressed in between left from the button and the menu stayed open: a flaky e2e run, 2026-12-05).
  useLayoutEffect(() => {
    if (open) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  // Inside the viewport: a menu that would run past the right edge (the button near it, a narrow panel) is moved left.
  useLayoutEffect(() => {
    if (!open) return;
    const fit = () => {
      const menu = ref.current?.querySelector<HTMLElement>('.menu');
      if (!menu) return;
      menu.style.left = '';
      const r = menu.getBoundingClientRect();
      const over = r.right - (document.documentElement.clientWidth - 6);
      if (over > 0) menu.style.left = `${-Math.min(over, Math.max(0, r.left - 6))}px`;
    };
    fit();
    globalThis.addEventListener('resize', fit);
    return () => globalThis.removeEventListener('resize', fit);
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  const pick = (f: () => void) => {
    setOpen(false);
    // The chosen item goes away with the menu: focus goes back to the Export button, not to the page.
    ref.current?.querySelector<HTMLElement>('button')?.focus();
    f();
  };
  return (
    <div
      class="menu-wrap"
      ref={ref}
      // Focus that leaves the menu and its button by any way (Tab from the button, a click elsewhere) closes it.
      onFocusOut={(e) => {
        if (open && !ref.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        type="button"
        aria-label="Export trace"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        title={title}
        onClick={() => setOpen(!open)}
      >
        Export ▾
      </button>
      {open ? (
        <div
          class="menu"
          role="menu"
          aria-label="Export"
          onKeyDown={(e) => {
            const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
            const i = items.indexOf(document.activeElement as HTMLElement);
            if (e.key === 'Escape') {
              e.stopPropagation();
              setOpen(false);
              ref.current?.querySelector<HTMLElement>('button')?.focus();
            } else if (e.key === 'Tab') {
              // A menu is one stop: Tab closes it, focus back on the Export button (the next Tab moves on from there).
              setOpen(false);
              ref.current?.querySelector<HTMLElement>('button')?.focus();
            } else if (e.key === 'ArrowDown') items[(i + 1) % items.length]?.focus();
            else if (e.key === 'ArrowUp') items[(i - 1 + items.length) % items.length]?.focus();
            else return;
            e.preventDefault();
          }}
        >
          <button type="button" role="menuitem" onClick={() => pick(onTrace)}>
            Trace file (.json) — re-analyzable, lossless
          </button>
          <button type="button" role="menuitem" onClick={() => pick(onHar)}>
            HAR 1.2 (.har) — MCP HTTP traffic, SSE in _sseEvents
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Sets --room on the element: the width from its left edge to the viewport's right edge (the filter's message bubble
 *  stays inside the viewport: styles.css). Measured at each resize, as the toolbar wraps differently. */
function useRoomToRight(ref: { current: HTMLElement | null }): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const fit = () => el.style.setProperty('--room', `${Math.max(120, document.documentElement.clientWidth - el.getBoundingClientRect().left - 6)}px`);
    fit();
    globalThis.addEventListener('resize', fit);
    return () => globalThis.removeEventListener('resize', fit);
  }, []);
}

function ToolbarView(props: Props) {
  const fileRef = useRef<HTMLInputElement>(null);
  const filterWrap = useRef<HTMLDivElement>(null);
  useRoomToRight(filterWrap);
  const a = props.actions;
  const p = { ...props, ...a, counts: { error: props.errors, warning: props.warnings, info: props.infos } };
  const errors = props.filterErrors ? [props.filterErrors] : [];
  const pill = pastPill(props.past, props.pastInfo ?? 0);
  return (
    <div class="toolbar" role="toolbar" aria-label="MCP panel controls">
      <button
        type="button"
        class={`record${p.paused ? '' : ' on'}`}
        aria-label={p.paused ? 'Resume recording' : 'Pause recording'}
        title={p.paused ? 'Resume: apply the frames captured meanwhile' : 'Pause: freeze the view (capture continues in the background)'}
        disabled={p.imported !== null || p.noTab}
        onClick={() => p.onPause(!p.paused)}
      >
        {p.paused ? '▶' : '●'}
      </button>
      <button type="button" onClick={p.onClear} aria-label={p.imported ? 'Clear: close the imported trace' : 'Clear log'} title={p.clearTitle ?? (p.imported ? 'Close the imported trace' : "Clear the tab's log")} disabled={!p.canClear}>
        ⊘
      </button>
      <label class="check" title="Keep the log of earlier pages when the tab navigates">
        <input type="checkbox" checked={p.preserveLog} aria-label="Preserve log" disabled={p.imported !== null || p.noTab} onChange={(e) => p.onPreserve(e.currentTarget.checked)} /> Preserve log
      </label>
      <span class="sep" />
      <div class="filter-wrap" ref={filterWrap}>
        <input
          ref={p.filterRef}
          type="search"
          class={`filter${errors.length ? ' invalid' : ''}`}
          aria-label="Filter"
          aria-invalid={errors.length > 0}
          aria-describedby={errors.length ? 'filter-errors' : props.filterNotes ? 'filter-notes' : undefined}
          title={errors.length ? props.filterErrors : props.filterNotes || undefined}
          placeholder="Filter: is:stale uri:… session:… text"
          value={p.filterText}
          onInput={(e) => p.onFilter(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && p.filterText) {
              e.stopPropagation();
              p.onFilter('');
            }
          }}
        />
        {errors.length ? (
          // Described by the box (aria-describedby, aria-invalid), not an alert: a half-typed term (`is:st`) is not an
          // emergency to interrupt with at every keystroke (accessibility audit).
          <span id="filter-errors" class="filter-errors">
            {props.filterErrors}
          </span>
        ) : props.filterNotes ? (
          <span id="filter-notes" class="filter-errors note" role="status">
            {props.filterNotes}
          </span>
        ) : null}
      </div>
      <span class="sep" />
      <ExportMenu onTrace={p.onExportTrace} onHar={p.onExportHar} disabled={!p.canExport} title={p.exportTitle} />
      <button type="button" aria-label="Import trace" title="Import a trace file (or drop it on the panel)" onClick={() => fileRef.current?.click()}>
        Import…
      </button>
      <input
        ref={fileRef}
        type="file"
        accept=".json,application/json"
        class="hidden-file"
        aria-label="Trace file to import"
        tabIndex={-1}
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (f) p.onImport(f);
        }}
      />
      {p.imported ? (
        <button type="button" class="chip imported-file" aria-label="Close imported trace" title={`Showing ${p.imported}; click to go back`} onClick={p.onCloseImport}>
          <span class="chip-name">{p.imported}</span>
          <span aria-hidden="true">{'\u00a0'}✕</span>
        </button>
      ) : null}
      <button type="button" aria-label="Settings" title="Settings: freshness rules, caps, redaction" onClick={p.onSettings}>
        ⚙
      </button>
      <span class="sep" />
      <span class="finding-counts" aria-label={`Open findings: ${p.counts.error} errors, ${p.counts.warning} warnings, ${p.counts.info} info${p.capShort ? ` (${p.capShort})` : ''}`}>
        {(['error', 'warning', 'info'] as const).map((s) => (
          <button key={s} type="button" class={`count sev-${s}${p.counts[s] ? ' some' : ''}`} data-severity={s} data-n={p.counts[s]} title={p.countLabels?.[s] ?? `Show ${s} rows`} aria-pressed={p.filterText === `is:${s}`} aria-label={p.countLabels?.[s] ?? `${p.counts[s]} ${s === 'info' || p.counts[s] === 1 ? s : `${s}s`}: show ${s} rows`} onClick={() => p.onSeverity(s)}>
            {s === 'error' ? '✖' : s === 'warning' ? '▲' : 'ℹ'} {p.counts[s]}
          </button>
        ))}
        {pill ? (
          <button type="button" class={`count past${pill.notesOnly ? ' notes-only' : ''}`} data-past={pill.n} title={pill.title} aria-label={pill.label} onClick={p.onPast}>
            {pill.n} past
          </button>
        ) : null}
        {p.capShort ? (
          <span class="warn cap-partial" data-cap-partial title={p.capDetail}>
            ⚠ {p.capShort}
          </span>
        ) : null}
      </span>
      <span class="spacer" />
      <LiveStatus store={p.store} />
    </div>
  );
}

/** Re-renders only when a shown value changed (the handlers are stable). */
export const Toolbar = memo(ToolbarView);
