// Status line: connection state (live / reconnecting / imported …) and the counters. Dropped and rejected counts are
// always visible: never silent loss. For an imported trace the counters are the trace's own.
import type { TabStats } from '../../shared/messages.ts';
import type { PanelStatus, PanelStore } from '../store.ts';
import { statusFrameCounts } from '../model/status-counts.ts';
import { formatBytes } from '../model/format.ts';

const LOADING = 'Loading the log…';
const LABEL: Record<PanelStatus, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'No tab', imported: 'Imported' };

export interface Counts {
  frames: number;
  dropped: number;
  rejected: number;
  rejectedWhy?: string | undefined;
}

export function countsOf(stats: TabStats | null): Counts {
  return { frames: stats?.frames ?? 0, dropped: stats?.dropped ?? 0, rejected: stats?.rejected ?? 0, rejectedWhy: stats?.rejectedWhy };
}

export function StatusBar({
  status,
  counts,
  waiting,
  title,
  paused = false,
  kept = 0,
  inView,
  replaying = false,
  loading = null,
  dropping = null,
}: {
  status: PanelStatus;
  counts: Counts;
  waiting: number;
  title?: string;
  paused?: boolean;
  kept?: number;
  /** With earlier pages left out of the view (Preserve log off): the frames of the page in view. */
  inView?: number | undefined;
  /** The scrubber replays an earlier instant (the views show it, not the live state). */
  replaying?: boolean;
  /**
   * Loading the tab's log (the port is up, the backlog coming or being applied): the status says so rather than
   * "Connecting…" or "Live", and the frame count is how many of the log's are in (a review saw "Connecting…" for 4 s
   * with rows on screen, and the count stuck).
   */
  loading?: { loaded: number; total: number } | null;
  /** Caps saved below what the log holds: the background is dropping its oldest frames (the count follows when done). */
  dropping?: { maxFrames: number; maxBytes: number; by: 'frames' | 'bytes' } | null;
}) {
  // Paused is a view state: the connection stays live and frames keep being recorded (they wait, counted).
  const showPaused = paused && status === 'live';
  const showLoading = loading !== null && !showPaused && (status === 'connecting' || status === 'live');
  // While the scrubber replays, the views show an earlier instant: "Live" alone read as if they showed the live state
  // (a UX audit). The connection's state (data-status) is unchanged; the text says both.
  const text = `${showPaused ? 'Paused (the log keeps recording)' : showLoading ? LOADING : LABEL[status]}${replaying ? ' · replaying' : ''}`;
  // Read out only when the state changes (live, paused, reconnecting…, frames lost), not at every batch of frames: the
  // whole line as a live region re-announced itself twice a second on a page that talks MCP (accessibility audit).
  const announce = [showPaused ? 'Paused' : showLoading ? LOADING : LABEL[status], replaying ? 'replaying an earlier instant' : '', counts.dropped ? 'frames were dropped' : '', counts.rejected ? 'messages were rejected' : ''].filter(Boolean).join(', ');
  return (
    <div class="status-bar" role="group" aria-label="Capture status" data-status={status} data-paused={showPaused ? 'true' : undefined} data-replay={replaying ? 'true' : undefined} data-loading={showLoading ? 'true' : undefined} title={title}>
      <span class="sr-only" role="status">
        {announce}
      </span>
      <span class={`status-dot ${showPaused ? 'paused' : status}`} aria-hidden="true" />
      {/* Seen, not read: the status above says the state (the group read "Live Live" to a screen reader). */}
      <span class="status-text" aria-hidden="true">
        {text}
      </span>
      {showLoading && loading ? (
        <span data-count="frames" title="Frames of the tab's log the view has taken in so far, of those the log held when the panel connected (and what came since).">
          {loading.loaded} of {loading.total} frames
        </span>
      ) : inView !== undefined && counts.frames > inView ? (
        // The view is this page's: counting the whole log here read as if the export held it all (an audit, 2026-12-05).
        <span data-count="frames" title={`The tab's log holds ${counts.frames} frames; ${counts.frames - inView} of them are earlier pages, left out while Preserve log is off.`}>
          {inView} frames ({counts.frames - inView} of earlier pages hidden)
        </span>
      ) : (
        <span data-count="frames">{counts.frames} frames</span>
      )}
      {dropping ? (
        <span data-count="dropping" class="warn" title="Settings were saved with caps below what the log holds: the log is dropping its oldest frames now; the counts follow once it has.">
          {/* Named by the cap the log is over (its frames may be under theirs when only the bytes cap went down). */}
          dropping the oldest to the cap of {dropping.by === 'frames' ? dropping.maxFrames : formatBytes(dropping.maxBytes)}…
        </span>
      ) : null}
      <span data-count="dropped" class={counts.dropped ? 'warn' : ''} title={counts.dropped ? 'The log hit its cap: the oldest frames were dropped, so the analysis is partial.' : ''}>
        {counts.dropped} dropped
      </span>
      <span data-count="rejected" class={counts.rejected ? 'warn' : ''} title={counts.rejectedWhy ?? ''}>
        {counts.rejected} rejected
      </span>
      {kept > 0 ? (
        <span data-count="kept" title="Clear kept the exchanges still open then (a stream, a socket, a request waiting for its answer), by the frames that opened them: what they bring later keeps its session and request.">
          {kept} {kept === 1 ? 'exchange' : 'exchanges'} kept at Clear
        </span>
      ) : null}
      {/* Only paused: frames not yet applied while the view loads or catches up are the notice's (docs/panel.md). */}
      {paused && waiting > 0 ? (
        <span data-count="waiting" class="warn">
          {waiting} waiting
        </span>
      ) : null}
    </div>
  );
}

/** The status line bound to the store's signals: only it re-renders when the counters tick (every frames batch). */
export function LiveStatus({ store }: { store: PanelStore }) {
  // `imported` is not a signal: read the view's version so that a second import (status stays "imported") re-renders.
  void store.version.value;
  const imported = store.imported;
  const status = store.status.value;
  const logged = imported
    ? { frames: imported.trace.frames.length, dropped: imported.trace.dropped.frames, rejected: imported.trace.dropped.rejected ?? 0 }
    : countsOf(store.stats.value);
  // A closed tab's log is gone: no "(N of earlier pages hidden)" for frames that no longer exist.
  const shown = statusFrameCounts(logged.frames, store.framesInView(), !imported && store.tabStatusIsOffline());
  const counts = { ...logged, frames: shown.frames };
  return <StatusBar status={status} counts={counts} waiting={store.waiting.value} paused={store.paused.value} kept={imported ? 0 : store.keptOnClear.value} inView={shown.inView} replaying={store.scrubT.value !== null} loading={imported ? null : store.loading.value} dropping={imported ? null : store.capDrop.value} />;
}
