// The panel's root: toolbar, the views (Resources = URI table + timeline + flow chart; Findings; Sessions; Messages), the
// detail drawer, settings, import errors and drag-and-drop. Global keys: Esc closes the drawer (or menu/dialog),
// Ctrl/⌘+F focuses the filter, Alt+1…4 switch views.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Signal } from '@preact/signals';
import { validateSettings, DEFAULT_SETTINGS, type Settings } from '../../shared/settings.ts';
import { cancelExport, cancelImport, exportError, exportHarFile, exportNotice, exportProgress, exportTraceFile, hasTraffic, importDropped, importFile } from '../actions.ts';
import type { PanelConnection } from '../connection.ts';
import { findingClientTags, snapshotClientTags } from '../model/client-tags.ts';
import { messageContext, viewNotes, type Filter, type MessageContext } from '../model/filter.ts';
import { contextSetsRead, IncrementalMessageFilter, rowsUpTo } from '../model/message-filter.ts';
import { formatClock } from '../model/format.ts';
import { importAnalysisNote, importSettingsLine } from '../model/import-analysis.ts';
import { capNote, type CapNote } from '../model/cap-note.ts';
import { carriedCount } from '../carried-findings.ts';
import { sessionIdNamer } from '../model/session-label.ts';
import { NOT_SAVED_RECONNECTING, sameUris, saveRoute } from '../model/settings-form.ts';
import { clearControl, notClearedText } from '../model/clear-control.ts';
import { exportTitle, pageLeftHint } from '../model/export-control.ts';
import { hiddenFrameCount } from '../model/status-counts.ts';
import { filterRows, findingCounts, severityCountLabel, viewForSeverity } from '../model/uri-table.ts';
import type { ImportedTrace, PanelStore, ViewName } from '../store.ts';
import type { FrameRow } from '../frame-rows.ts';
import { DetailDrawer } from './DetailDrawer.tsx';
import { RenderGuard } from './RenderGuard.tsx';
import { FlowChart } from './FlowChart.tsx';
import { sessionSteps } from '../model/flow-view.ts';
import { FindingsView } from './FindingsView.tsx';
import { FrameList } from './FrameList.tsx';
import { SessionsView } from './SessionsView.tsx';
import { SettingsDialog } from './SettingsDialog.tsx';
import { Timeline } from './Timeline.tsx';
import { Toolbar, type ToolbarActions } from './Toolbar.tsx';
import { UriTable } from './UriTable.tsx';
import { ResourcesPanes } from './ResourcesPanes.tsx';
import { viewHandlers } from './view-handlers.ts';
import { isSearchMessage, searchApplier } from '../devtools-search.ts';
import { loadFraction, loadLabel } from '../model/backlog-load.ts';

/** The context of a filter that reads none of it (no is:stale, is:problem, is:phantom). */
const NO_CONTEXT: MessageContext = { staleUris: new Set(), phantomUris: new Set(), problemUris: new Set() };

const VIEWS: Array<[ViewName, string]> = [
  ['resources', 'Resources'],
  ['findings', 'Findings'],
  ['sessions', 'Sessions'],
  ['messages', 'Messages'],
];

interface Props {
  store: PanelStore;
  connection: PanelConnection | undefined;
  /** Without a tab: the port for the saved settings (main.tsx, connectForSettings). */
  settingsLink?: Pick<PanelConnection, 'setSettings'>;
}

export function App({ store, connection, settingsLink }: Props) {
  const snap = store.shown.value;
  const liveSnap = store.snapshot.value;
  const version = store.version.value;
  const filter = store.filter.value;
  const view = store.view.value;
  const selected = store.selected.value;
  const drawer = store.drawer.value;
  const scrubT = store.scrubT.value;
  const status = store.status.value;
  const imported = store.imported;
  const filterRef = useRef<HTMLInputElement>(null);
  // The Messages view's filtered rows, kept from one commit to the next (only the rows appended since are filtered).
  const messageFilter = useMemo(() => new IncrementalMessageFilter<FrameRow>(), []);
  // Closing the drawer gives focus back to what opened it (the row, the finding, the evidence link), as devtools does.
  const openedFrom = useRef<{ el: HTMLElement; again: string | null } | null>(null);
  // What had the focus last outside the drawer: the drawer takes the focus as it opens (its effect runs before this
  // component's), so the opener is known from here, not from document.activeElement then.
  const lastOutside = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const t = e.target;
      if (t instanceof HTMLElement && !t.closest('.drawer')) lastOutside.current = t;
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, []);
  const drawerOpen = drawer !== null;
  useEffect(() => {
    if (drawerOpen) {
      const a = lastOutside.current;
      if (!openedFrom.current && a) openedFrom.current = { el: a, again: locatorOf(a) };
      return;
    }
    const back = openedFrom.current;
    openedFrom.current = null;
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    // The element may have been drawn again meanwhile (a lane label, a row): the same one by its data attributes.
    const el = back?.el.isConnected ? back.el : back?.again ? document.querySelector<HTMLElement>(back.again) : null;
    if (el) el.focus();
    else (document.querySelector('.main [tabindex="0"]') as HTMLElement | null)?.focus();
  }, [drawerOpen]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settingsPending, setSettingsPending] = useState(false);
  const [dragging, setDragging] = useState(false);

  const rows = useMemo(() => (snap ? filterRows(snap, filter) : []), [snap, filter]);
  // The URIs for the Settings dialog's rule notes: one list while they stay the same URIs (see sameUris), computed
  // only while it is open.
  const urisRef = useRef<readonly string[] | undefined>(undefined);
  const settingsUris = useMemo(() => (settingsOpen && snap ? (urisRef.current = sameUris(urisRef.current, snap.uris.map((u) => u.uri))) : undefined), [settingsOpen, snap?.uris]);
  const counts = useMemo(() => findingCounts(snap?.findings ?? []), [snap]);
  const labels = useMemo(() => {
    const s = snap ?? { findings: [], uris: [] };
    return [severityCountLabel(s, 'error', counts.error, view), severityCountLabel(s, 'warning', counts.warning, view), severityCountLabel(s, 'info', counts.info, view)] as const;
  }, [snap, counts, view]);
  // Frames of the view's history the log's cap dropped (live only: an import says so in its own note): said by the
  // counts and atop Findings, with what the badge counts when that is more (model/cap-note.ts).
  const cap = capNote(imported ? 0 : store.capLost(), counts.error, imported ? undefined : store.stats.value?.errors, snap ? carriedCount(snap.findings) : 0);
  // One object while the words stay the same: the toolbar (memo) renders again only when a label changed.
  const countLabels = useMemo(() => ({ error: labels[0], warning: labels[1], info: labels[2] }), [labels[0], labels[1], labels[2]]);
  // A selection the filter hides stays (clearing the filter brings it back) but drives nothing meanwhile: the chart
  // shows every URI, as the table shows no selected row.
  const selectedRow = selected === null ? undefined : rows.find((r) => r.key === selected);

  // A save answered: close the dialog on the new settings, keep it open on an error.
  const settings = store.settings.value;
  const settingsError = store.settingsError.value;
  useEffect(() => {
    if (settingsPending && settings) {
      setSettingsPending(false);
      setSettingsOpen(false);
    }
  }, [settings]);
  useEffect(() => {
    if (settingsError) setSettingsPending(false);
  }, [settingsError]);

  // Inside devtools, DevTools' own Find bar (Ctrl/⌘+F there) drives the filter; extension/devtools.ts forwards it.
  useEffect(() => {
    const apply = searchApplier({
      filterText: () => store.filterText.value,
      setFilterText: (t) => (store.filterText.value = t),
      // Enter / Shift+Enter in the Find bar: the view's list moves its selection, as ↓ / ↑ there would, focus staying
      // in the Find bar.
      step: (dir) => document.querySelector('.main .vlist')?.dispatchEvent(new KeyboardEvent('keydown', { key: dir > 0 ? 'ArrowDown' : 'ArrowUp', bubbles: true, cancelable: true })),
    });
    const onMessage = (e: MessageEvent) => {
      if (e.origin === location.origin && isSearchMessage(e.data)) apply(e.data);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A modal dialog in front (Settings) takes its own Escape: the drawer behind it stays.
      if (e.key === 'Escape' && store.drawer.value && !document.querySelector('dialog[open]')) {
        store.drawer.value = null;
        e.preventDefault();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'f') {
        filterRef.current?.focus();
        filterRef.current?.select();
        e.preventDefault();
      } else if (e.altKey && ['1', '2', '3', '4'].includes(e.key)) {
        const next = VIEWS[Number(e.key) - 1]![0];
        // On a view tab, focus moves to the new view's tab, as ← → do (it stayed on the old tab, no longer selected).
        const onTab = document.activeElement?.getAttribute('role') === 'tab';
        store.view.value = next;
        e.preventDefault();
        // Focus was in the view that went: it goes to the new view's tab rather than to the page. Focus elsewhere (the
        // filter, the toolbar, the timeline of a view that stays) stays where it is.
        setTimeout(() => {
          const a = document.activeElement;
          if (onTab || a === null || a === document.body || !a.isConnected) document.querySelector<HTMLElement>(`[role="tab"][data-view="${next}"]`)?.focus();
        });
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // Stable handlers: the toolbar re-renders only when what it shows changed.
  const actions = useMemo<ToolbarActions>(
    () => ({
      onPause: (p) => store.setPaused(p),
      onClear: () => {
        if (!store.imported) {
          // Disabled while reconnecting (clearControl); a port not up (first connect) or down since the render: said by state.
          if (connection && !connection.clear()) store.backgroundError.value = notClearedText(store.status.value);
          return;
        }
        store.closeImport();
        // With nothing left (no tab, or a tab that is gone), Clear disables itself: focus goes to Import, not to the page.
        setTimeout(() => {
          const at = document.activeElement;
          if (at === null || at === document.body || (at instanceof HTMLButtonElement && at.disabled)) focusImport();
        }, 0);
      },
      onPreserve: (on) => store.setPreserveLog(on),
      onFilter: (t) => (store.filterText.value = t),
      onExportTrace: () => exportTraceFile(store),
      onExportHar: () => exportHarFile(store),
      onImport: (f) => void importFile(store, f),
      onSettings: () => {
        store.settingsError.value = null;
        setSettingsOpen(true);
      },
      onCloseImport: () => {
        store.closeImport();
        // The chip goes with the import: focus goes to Import, not to the page.
        focusImport();
      },
      onSeverity: (s) => {
        // A second click on the same count takes the filter off again.
        if (store.filterText.value === `is:${s}`) {
          store.filterText.value = '';
          return;
        }
        store.filterText.value = `is:${s}`;
        // The counts are the shown snapshot's (the scrubbed instant while scrubbing): so is the choice of view.
        store.view.value = viewForSeverity(store.shown.value ?? { findings: [], uris: [] }, s, store.view.value);
      },
      onPast: () => {
        store.view.value = 'findings';
      },
    }),
    [],
  );

  // Made once per store, outside this render: a memoized view keeps them, and must not keep this render's snapshot.
  const h = viewHandlers(store);

  const saveSettings = (s: Settings) => {
    // With a tab or without, the settings are the extension's: saved through the background (the panel's port, or
    // the settings port of a panel without a tab). A tab panel whose tab is gone keeps its port, and saves through it.
    const link = connection ?? settingsLink;
    const route = saveRoute(link !== undefined, () => link!.setSettings(s));
    if (route === 'sent') {
      store.settingsError.value = null;
      setSettingsPending(true);
      return;
    }
    if (route === 'reconnecting') {
      store.settingsError.value = NOT_SAVED_RECONNECTING;
      return;
    }
    const v = validateSettings(s);
    if (!v.ok) store.settingsError.value = v.error;
    else {
      store.receive({ type: 'settings', settings: v.settings });
      setSettingsOpen(false);
    }
  };

  // An imported trace with no MCP traffic (no frames, or only page loads) says so, not the views' empty states.
  const noTraffic = imported !== null && !hasTraffic(imported.trace.frames);
  const empty = noTraffic || (!imported && (liveSnap?.frames ?? 0) === 0 && store.waiting.value === 0);

  const canExport = imported !== null || store.hasFramesInView();
  const exporting = exportNotice(store).value;
  const exportRunning = exporting?.state === 'running' ? exporting : null;
  const inView = store.framesInView();
  const hiddenFrames = hiddenFrameCount(store.stats.value?.frames ?? 0, inView, store.tabStatusIsOffline());
  const clear = clearControl({ imported: imported !== null, tabPanel: connection !== undefined, offline: store.tabStatusIsOffline(), status });

  let main;
  if (empty) {
    main = (
      <div class="empty" data-empty="true">
        {noTraffic ? (
          <>
            <p data-no-traffic="true">
              <code>{imported.name}</code> holds no MCP traffic:{' '}
              {imported.trace.frames.length === 0 ? 'its list of frames is empty.' : `its ${imported.trace.frames.length} frame${imported.trace.frames.length === 1 ? ' is a page load or unload' : 's are only page loads and unloads'}, no request, response or stream.`}
            </p>
            <p>There is nothing to analyse in it (the CLI refuses a trace with no frames). Import another trace: use Import, or drop the file here.</p>
          </>
        ) : !imported && store.pageLeft.value ? (
          <>
            <p data-page-left="true">
              The page left: <code>{store.pageLeft.value.url}</code> ended, and no page since has spoken MCP.
            </p>
            <p>{pageLeftHint({ frames: store.pageLeft.value.frames, tabGone: store.tabStatusIsOffline() })}</p>
          </>
        ) : status === 'offline' ? (
          <>
            <p>No tab is being inspected.</p>
            <p>Import a trace file exported from this panel: use Import, or drop the file here.</p>
          </>
        ) : (
          <>
            <p>No MCP traffic captured in this tab yet.</p>
            <p>Reload the page to capture from its first request (initialize, subscribe…). Or import a trace: use Import, or drop the file here.</p>
          </>
        )}
      </div>
    );
  } else if (!snap) {
    main = <div class="empty muted">Analyzing…</div>;
  } else if (view === 'resources') {
    main = (
      <ResourcesPanes
        table={<UriTable rows={rows} total={snap.uris.length} now={snap.now} selected={selected} onSelect={h.selectUri} onOpen={h.openUri} tags={snapshotClientTags(snap)} sessions={snap.sessions} findings={snap.findings} imported={imported !== null} />}
        timeline={<TimelinePane store={store} filter={filter} selected={selected} live={!imported} scrubT={scrubT} />}
        flow={<FlowPane store={store} selectedKey={selectedRow ? selected : null} selectedUri={selectedRow?.uri} />}
      />
    );
  } else if (view === 'findings') {
    main = (
      <FindingsView
        findings={snap.findings}
        sessions={snap.sessions}
        tags={findingClientTags(snap)}
        filter={filter}
        imported={imported !== null}
        selectedUri={selectedRow ? selected : null}
        onOpen={h.openFinding}
        onSelectUri={h.selectUri}
        note={cap ? <CapNoteLine note={cap} /> : null}
      />
    );
  } else if (view === 'sessions') {
    main = <SessionsView snapshot={snap} imported={imported !== null} filter={filter} openKey={drawer?.kind === 'session' ? drawer.key : null} onOpen={h.openSession} />;
  } else {
    // While scrubbing, the messages up to the replayed instant.
    const scrubbed = store.scrubSnapshot.value;
    const every = store.messageRows();
    const all = scrubbed ? rowsUpTo(every, scrubbed.lastSeq) : every;
    // Sessions named as the other views name them (a WebSocket's `WebSocket #2`, a listen's `listen 3`), shown and found by that name.
    const name = sessionIdNamer(snap.sessions);
    let shownRows = all;
    if (filter.terms.length) {
      // Filtered over every row (incrementally: see message-filter.ts), then cut at the replayed instant while scrubbing.
      const ctx = { ...(contextSetsRead(filter).length ? messageContext(snap.uris) : NO_CONTEXT), name };
      const hits = messageFilter.apply(every, filter, ctx);
      shownRows = scrubbed ? rowsUpTo(hits, scrubbed.lastSeq) : hits;
    }
    main = (
      <FrameList
        rows={shownRows}
        name={name}
        total={all.length}
        version={version}
        selected={store.messageSelected.value}
        onSelect={h.selectMessage}
        onOpen={h.openFrame}
      />
    );
  }

  return (
    <div
      class={`app${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.relatedTarget === null) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer) void importDropped(store, e.dataTransfer.files);
      }}
    >
      <Toolbar
        paused={store.paused.value}
        preserveLog={store.preserveLog.value}
        filterText={store.filterText.value}
        filterErrors={filter.errors.join('; ')}
        filterNotes={[...filter.notes, ...viewNotes(filter, view)].join('; ')}
        errors={counts.error}
        warnings={counts.warning}
        infos={counts.info}
        past={counts.past}
        pastInfo={counts.pastInfo}
        countLabels={countLabels}
        capShort={cap?.short}
        capDetail={cap?.detail}
        store={store}
        imported={imported?.name ?? null}
        noTab={store.tabStatusIsOffline()}
        canClear={clear.enabled}
        clearTitle={clear.title}
        canExport={canExport && !exportRunning}
        exportTitle={exportTitle({ exporting: exportRunning?.what, canExport, pageLeft: !imported && store.pageLeft.value !== null, hiddenFrames: imported ? 0 : hiddenFrames, tabGone: !imported && store.tabStatusIsOffline() })}
        filterRef={filterRef}
        actions={actions}
      />
      <div class="viewbar">
        <div class="tabs" role="tablist" aria-label="Views">
          {VIEWS.map(([id, label], i) => (
            <button
              key={id}
              type="button"
              role="tab"
              id={`view-tab-${id}`}
              data-view={id}
              aria-selected={view === id}
              tabIndex={view === id ? 0 : -1}
              title={`${label} (Alt+${i + 1})`}
              onClick={() => (store.view.value = id)}
              onKeyDown={(e) => {
                if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
                const next = VIEWS[(i + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length]![0];
                store.view.value = next;
                (e.currentTarget.parentElement?.querySelector(`[data-view="${next}"]`) as HTMLElement | null)?.focus();
              }}
            >
              {label}
              {/* How many findings the view lists (past ones too): none of them is out of sight behind a tab. */}
              {id === 'findings' && snap && snap.findings.length > 0 ? <span class="tab-count" data-findings-total={snap.findings.length}> {snap.findings.length}</span> : null}
            </button>
          ))}
        </div>
        {scrubT !== null ? (
          <div class="scrub-banner" data-scrubbing="true">
            {/* Said once, when replaying begins; each step's instant is the slider's value text, not announced again here. */}
            <span class="sr-only" role="status">
              Showing a replayed state
            </span>
            {/* A stop is judged at the end of its quiet span (PanelStore.setScrub): ages and findings are as of then, and
                the banner says so (it named only the stop's instant while the ages counted a minute past it: an audit). */}
            <span aria-hidden="true" data-scrub-until={snap && snap.now - scrubT >= 1000 ? snap.now : undefined}>
              Showing the state at {formatClock(scrubT)}
              {snap && snap.now - scrubT >= 1000 ? `, as it stood until ${formatClock(snap.now)}` : ''} (replayed).
            </span>{' '}
            <button
              type="button"
              class="link"
              onClick={() => {
                store.setScrub(null);
                // This banner goes: focus moves to the scrubber (the timeline's), else the view's tab, not to the page.
                (document.querySelector<HTMLElement>('input[aria-label="Replay up to"]') ?? document.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'))?.focus();
              }}
            >
              {imported ? 'Back to the end' : 'Back to live'}
            </button>
          </div>
        ) : null}
        {imported ? (
          <ImportedNote imported={imported} asOf={scrubT !== null && snap ? snap.now : null} settings={store.settings.value} />
        ) : null}
      </div>
      {store.importing.value ? (
        <ProgressNotice
          label={importLabel(store.importing.value, store.importStep.value)}
          progress={store.importProgress.value}
          done={IMPORT_DONE[store.importStep.value ?? 'analysing']}
          data-importing="true"
          data-import-step={store.importStep.value ?? undefined}
          onCancel={() => {
            cancelImport(store);
            // The button goes with the notice: focus goes back to Import rather than falling to the page.
            document.querySelector<HTMLButtonElement>('button[aria-label="Import trace"]')?.focus();
          }}
        />
      ) : null}
      {exportRunning ? (
        <ExportProgressNotice store={store} what={exportRunning.what} frames={exportRunning.frames} />
      ) : exporting?.state === 'cancelled' ? (
        <div class="banner info" data-export-cancelled="true">
          <span role="status">Export cancelled: nothing was downloaded.</span>
        </div>
      ) : null}
      {store.reanalysing.value ? (
        <ProgressNotice label={`Analysing ${store.reanalysing.value} again with the new settings…`} progress={store.reanalyseProgress.value} data-reanalysing="true" />
      ) : null}
      {store.loading.value !== null && !imported ? (
        <ProgressNotice label={loadLabel(store.loading.value)} progress={loadFraction(store.loading.value)} done="loaded" data-loading-log="true" />
      ) : store.catchUp.value !== null && !imported ? (
        <ProgressNotice label={`Analysing the tab's log (${(store.waiting.value + store.engineNow().frameCount).toLocaleString('en-US')} frames)…`} progress={store.catchUp.value} data-catching-up="true" />
      ) : null}
      {store.scrubPending.value ? (
        <ProgressNotice
          label={`Replaying up to ${formatClock(store.scrubPending.value.t)}…`}
          progress={store.scrubPending.value.progress}
          done="replayed"
          data-replaying="true"
          cancelLabel={imported ? 'Stop replaying: back to the end' : 'Stop replaying: back to live'}
          onCancel={() => {
            store.setScrub(null);
            document.querySelector<HTMLInputElement>('input[aria-label="Replay up to"]')?.focus();
          }}
        />
      ) : null}
      <ErrorBanner message={store.importError} kind="import" />
      <ErrorBanner message={store.backgroundError} kind="background" />
      <ErrorBanner message={exportError(store)} kind="export" />
      <div class="main" role="tabpanel" aria-labelledby={`view-tab-${view}`} data-view={view}>
        <RenderGuard key={view} what={`${view} view`}>
          {main}
        </RenderGuard>
        {drawer && snap ? (
          <RenderGuard resetKey={JSON.stringify(drawer)} what="detail drawer">
            <DetailDrawer store={store} target={drawer} snapshot={snap} onClose={() => (store.drawer.value = null)} open={(t) => store.openFromDrawer(t)} />
          </RenderGuard>
        ) : null}
      </div>
      {settingsOpen ? (
        <SettingsDialog
          settings={settings ?? DEFAULT_SETTINGS}
          log={store.imported ? null : store.stats.value}
          error={settingsError}
          connected={(connection ?? settingsLink) !== undefined}
          tab={connection !== undefined && !store.imported}
          uris={settingsUris}
          importNote={store.imported ? importSettingsLine(store.imported.trace.analysis, store.imported.analysedWith, settings) : null}
          onSave={saveSettings}
          onClose={() => {
            setSettingsOpen(false);
            setSettingsPending(false);
          }}
        />
      ) : null}
      {dragging ? (
        <div class="drop-overlay" aria-hidden="true">
          Drop a trace file to import it
        </div>
      ) : null}
    </div>
  );
}

// The timeline and the flow chart follow the table a frame or two later (PanelStore.flowSnap / laneSnap): they read
// those signals here, so their updates re-render only them, not the whole panel. When scrubbing, the chart shows the
// replayed state at once.
function TimelinePane(p: { store: PanelStore; filter: Filter; selected: string | null; live: boolean; scrubT: number | null }) {
  const { store, filter } = p;
  const h = viewHandlers(store);
  const laneSnap = store.laneSnap.value ?? store.snapshot.value;
  // While scrubbing, lanes (their order, status, sessions) are the replayed state's, like every other view; the marks
  // stay the whole history, dimmed after the cursor.
  const shownSnap = store.scrubSnapshot.value ?? laneSnap;
  const rows = useMemo(() => (shownSnap ? filterRows(shownSnap, filter) : []), [shownSnap, filter]);
  return (
    <Timeline
      snapshot={shownSnap}
      messages={(store.snapshot.value ?? laneSnap)?.messages}
      endT={(store.snapshot.value ?? laneSnap)?.lastT}
      index={store.timeline}
      source={store.timelineSource}
      rows={rows}
      filter={filter}
      selectedKey={p.selected}
      now={laneSnap?.now ?? store.now.value}
      live={p.live}
      scrubT={p.scrubT}
      pendingT={store.scrubPending.value?.t ?? null}
      onSelectUri={h.selectUri}
      onOpenMessage={h.openMessage}
      onOpenSession={h.openSession}
      onScrub={h.scrub}
    />
  );
}

function FlowPane({ store, selectedKey, selectedUri }: { store: PanelStore; selectedKey: string | null; selectedUri: string | undefined }) {
  const flow = store.scrubSnapshot.value?.flow ?? store.flowSnap.value ?? store.snapshot.value?.flow;
  const shown = store.scrubSnapshot.value ?? store.snapshot.value;
  // Again when the sessions or the messages changed (an initialize's answer comes after its session began).
  const steps = useMemo(() => sessionSteps(shown, selectedKey), [shown?.sessions, shown?.messages.count, selectedKey]);
  return <FlowChart flow={flow} selectedKey={selectedKey} selectedUri={selectedUri} steps={steps} />;
}

/**
 * The imported trace's note: page, export time, and the instant its ages and "ago" are as of: the export's, or while
 * replaying, the replayed state's (it kept "as of the export" while the banner above showed an earlier instant).
 */
function ImportedNote({ imported, asOf, settings }: { imported: ImportedTrace; asOf: number | null; settings: Settings | null }) {
  const ages = asOf === null ? 'ages and “ago” are as of the export' : `ages and “ago” are as of ${formatClock(asOf)} (the replayed state)`;
  const dropped = imported.trace.dropped.frames;
  // Which analysis settings the view uses, the trace's own or the panel's, when that matters (docs/panel.md, Import).
  const analysis = importAnalysisNote(imported.trace.analysis, imported.analysedWith, settings);
  return (
    <div
      class="imported-note muted"
      data-ages-as-of={asOf ?? 'export'}
      data-analysed-with={imported.analysedWith}
      // Whole in the tooltip: the note is cut short beside the tabs.
      title={`${imported.trace.page.url || imported.name} · exported ${imported.trace.createdAt} · ${ages}${dropped ? ` · ${dropped} frames were dropped before export: partial analysis` : ''}${analysis ? ` · ${analysis.text} (${analysis.detail})` : ''}`}
    >
      {imported.trace.page.url || imported.name} · exported {imported.trace.createdAt} · {ages}
      {dropped ? <span class="warn"> · {dropped} frames were dropped before export: partial analysis</span> : null}
      {analysis ? (
        <span class={analysis.differs ? 'warn' : undefined} data-analysis-note>
          {' '}
          · {analysis.text}
        </span>
      ) : null}
    </div>
  );
}

/** The live view's note when the log's cap dropped frames its findings rested on (model/cap-note.ts). */
function CapNoteLine({ note }: { note: CapNote }) {
  return (
    <div class="imported-note muted cap-note" data-cap-lost={note.lost} data-badge-differs={note.badgeDiffers || undefined} title={note.detail}>
      <span class="warn">{note.text}</span>
    </div>
  );
}

function focusImport(): void {
  document.querySelector<HTMLElement>('button[aria-label="Import trace"]')?.focus();
}

/** A dismissable error line under the toolbar (`data-import-error` / `data-background-error` for tests). */
function ErrorBanner({ message, kind }: { message: Signal<string | null>; kind: 'import' | 'background' | 'export' }) {
  if (!message.value) return null;
  return (
    <div class="banner error" role="alert" {...{ [`data-${kind}-error`]: 'true' }}>
      <span>{message.value}</span>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => {
          message.value = null;
          // The banner goes with its button: focus goes to Import (the usual next step), not to the page.
          focusImport();
        }}
      >
        ✕
      </button>
    </div>
  );
}

/**
 * An export under way (actions.ts exportFile): what, of how many frames, how far, and Cancel. Its own component, so
 * the progress redraws only the notice, not the panel.
 */
function ExportProgressNotice({ store, what, frames }: { store: PanelStore; what: 'trace' | 'HAR'; frames: number }) {
  // Export is disabled meanwhile, which drops the focus it had to the page: when the notice goes (done or cancelled),
  // focus that fell to the page goes back to Export, enabled again.
  useEffect(
    () => () => {
      setTimeout(() => {
        const at = document.activeElement;
        if (at === null || at === document.body) document.querySelector<HTMLButtonElement>('button[aria-label="Export trace"]')?.focus();
      }, 0);
    },
    [],
  );
  return (
    <ProgressNotice
      label={`Exporting the ${what} of ${frames.toLocaleString('en-US')} frames…`}
      progress={exportProgress(store).value}
      done="written"
      data-exporting="true"
      cancelLabel="Cancel the export"
      onCancel={() => cancelExport(store)}
    />
  );
}

/** A notice of work under way: the live region names it once; progress is a bar (not re-announced text). */
/** What the import notice's percentage counts, by step. */
const IMPORT_DONE = { reading: 'read', parsing: 'parsed', checking: 'checked', analysing: 'analysed' } as const;

/**
 * The import notice: the file and the step under way. The parse is one call that cannot be interrupted: the notice
 * says so while it runs (a Cancel clicked then lands when it ends), docs/panel.md, Import.
 */
export function importLabel(file: string, step: PanelStore['importStep']['value']): string {
  switch (step) {
    case 'reading':
      return `Importing ${file}: reading…`;
    case 'parsing':
      return `Importing ${file}: parsing… (cannot be cancelled while parsing: Cancel takes effect when it ends)`;
    case 'checking':
      return `Importing ${file}: checking the frames…`;
    default:
      return `Importing ${file}: analysing…`;
  }
}

function ProgressNotice(props: { label: string; progress: number | null; done?: string; onCancel?: () => void; cancelLabel?: string; 'data-importing'?: string; 'data-exporting'?: string; 'data-reanalysing'?: string; 'data-catching-up'?: string; 'data-loading-log'?: string; 'data-import-step'?: string | undefined; 'data-replaying'?: string }) {
  const { label, progress, onCancel, done = 'analysed', cancelLabel = 'Cancel the import', ...data } = props;
  const percent = progress !== null ? Math.floor(progress * 100) : null;
  return (
    <div class="banner info" {...data}>
      <span role="status">{label}</span>
      {percent !== null ? (
        <>
          <progress class="import-progress" max={100} value={percent} aria-label={done[0]!.toUpperCase() + done.slice(1)} />
          <span class="import-percent" aria-hidden="true">
            {done} {percent} %
          </span>
        </>
      ) : null}
      {onCancel ? (
        <button type="button" class="link" aria-label={cancelLabel} onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/** A selector that finds an element drawn again (same tag, same identifying data attribute), or null. */
function locatorOf(el: HTMLElement): string | null {
  for (const name of ['data-session', 'data-key', 'data-uri', 'data-seq', 'data-index', 'aria-label']) {
    const v = el.getAttribute(name);
    if (v !== null) return `${el.tagName.toLowerCase()}${el.classList.length ? `.${[...el.classList].map((c) => CSS.escape(c)).join('.')}` : ''}[${name}="${CSS.escape(v)}"]`;
  }
  return null;
}
