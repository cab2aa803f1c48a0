// The sessions view: every session (2025) and listen stream (2026) with protocol version, capabilities, start, end
// and cause, subscriptions and streams; beside it the seed's metrics (DESIGN §1.6), server side and client side.
// Windowed like the other lists (a grid with one Tab stop: the arrows move the selection, Enter opens the session's
// drawer, the row whose drawer is open is the selected one): a client that re-initialized 5,000 times rendered every
// row, 5–7 s to open the view and seconds per filter keystroke. Rows re-render only when what they show changed.
import { memo } from 'preact/compat';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { EngineSnapshot } from '../../shared/engine/index.ts';
import { matchesSessionView, type Filter } from '../model/filter.ts';
import { elementId, formatClock, formatDuration } from '../model/format.ts';
import { sessionIdNamer } from '../model/session-label.ts';
import { clientKeyOf, sessionClientTags } from '../model/client-tags.ts';
import { channelCell, metricRows, NOT_INITIALIZED, sessionEntries, sessionRowTag, sessionNotes, startMark, subscriptionsCell, versionText, type SessionEntry } from '../model/sessions-view.ts';
import { HeadRow, VirtualList, type Column } from './VirtualList.tsx';
import { multiLine } from '../printable-dom.ts';

const ROW_HEIGHT = 22;

interface Props {
  snapshot: EngineSnapshot;
  filter: Filter;
  onOpen: (key: string) => void;
  /** The session whose drawer is open (null: none, or the drawer shows something else): its row is the selected one. */
  openKey: string | null;
  /** An imported trace is shown: the empty state speaks of the trace, not of "yet". */
  imported: boolean;
}

const COLUMNS: readonly Column[] = [
  { label: 'Session / listen' },
  { label: 'Endpoint' },
  { label: 'Transport' },
  { label: 'Version' },
  { label: 'Capabilities' },
  { label: 'Started', title: '* = picked up mid-way (see the note under the table)' },
  { label: 'Ended' },
  { label: 'Lived' },
  { label: 'Subscriptions', title: 'URIs the server holds for it (the tooltip names them)' },
  { label: 'Channel', title: 'A delivery channel is open' },
  { label: 'Streams' },
];

/**
 * Everything a row shows, as strings and flags: equal cells → the row is not re-rendered. To show something more, add
 * it here (cellsOf), its cell to RowView and its head to COLUMNS.
 */
interface Cells {
  key: string;
  label: string;
  /** Its client's tag when the sessions are of several clients (`iframe localhost:44273`), else ''. */
  client: string;
  kind: 'session' | 'listen';
  open: boolean;
  endCause: string;
  endpoint: string;
  transport: string;
  generation: string;
  version: string;
  notInitialized: boolean;
  capabilities: string;
  started: string;
  ended: string;
  lived: string;
  subscriptions: number;
  subscriptionsTitle: string;
  channel: string;
  channelClass: string;
  channelTitle: string | undefined;
  streams: string;
  /** The row's accessible name: kind and id, open or how it ended, version ("Session S1, open, 2025-11-25"). */
  name: string;
  selected: boolean;
}

function cellsOf(e: SessionEntry, selected: boolean, client: string): Cells {
  const s = e.session;
  const version = s.notInitialized ? 'not initialized' : versionText(s);
  return {
    key: e.key,
    label: e.label,
    client,
    kind: s.kind,
    open: s.open,
    endCause: s.endCause ?? '',
    endpoint: s.endpoint,
    transport: s.transport,
    generation: s.generation,
    version,
    notInitialized: s.notInitialized === true,
    capabilities: e.capabilities ? e.capabilities.join(', ') || '(none)' : s.kind === 'listen' ? `subscribe: ${e.client?.serverSubscribe ?? '?'}` : '—',
    started: `${formatClock(s.startT)}${startMark(s)}`,
    ended: s.open ? '' : `${formatClock(s.endT ?? s.startT)} · ${s.endCause ?? '?'}`,
    lived: formatDuration(e.durationMs),
    subscriptions: subscriptionsCell(s).count,
    subscriptionsTitle: subscriptionsCell(s).title,
    channel: channelCell(s).text,
    channelClass: channelCell(s).cls,
    channelTitle: channelCell(s).title,
    streams: e.streamsText,
    name: `${s.kind === 'listen' ? `Listen ${s.label}` : `Session ${e.label}`}${client ? `, ${client}` : ''}, ${s.open ? 'open' : `ended (${s.endCause ?? 'unknown cause'})`}, ${s.notInitialized ? 'not initialized' : s.version !== undefined ? versionText(s) : 'version unknown'}`,
    selected,
  };
}


function rowId(key: string): string {
  return elementId('session-row-', key);
}

const sameCells = (a: { c: Cells; n: number }, b: { c: Cells; n: number }): boolean => {
  if (a.n !== b.n) return false;
  for (const k in a.c) if (a.c[k as keyof Cells] !== b.c[k as keyof Cells]) return false;
  return true;
};

const RowView = memo(function RowView({ c, n, onOpen }: { c: Cells; n: number; onOpen: (k: string) => void }) {
  return (
    <div
      id={rowId(c.key)}
      class={`session-row${c.open ? ' open' : ' ended'}${c.selected ? ' selected' : ''}`}
      role="row"
      aria-rowindex={n}
      aria-selected={c.selected}
      aria-label={c.name}
      data-session={c.key}
      data-kind={c.kind}
      data-end-cause={c.endCause}
      title="Click or Enter opens the session's details"
      onClick={() => onOpen(c.key)}
    >
      <span role="gridcell" title={c.key}>
        {c.kind === 'listen' ? '⇶ ' : '◆ '}
        {c.label}
      </span>
      {/* The client first (two iframes' sessions share the endpoint: the page tells them apart), then the endpoint. */}
      <span role="gridcell" title={c.client ? `${c.client} · ${c.endpoint}` : c.endpoint}>
        {c.client ? (
          <span class="client-tag" data-client={c.client}>
            {c.client}
          </span>
        ) : null}
        {c.endpoint}
      </span>
      <span role="gridcell" title={`${c.transport} (${c.generation})`}>
        {c.transport} <span class="muted">{c.generation}</span>
      </span>
      <span role="gridcell">
        {c.notInitialized ? (
          <span class="no" title={NOT_INITIALIZED}>
            not initialized
          </span>
        ) : (
          c.version
        )}
      </span>
      <span role="gridcell" title={c.capabilities}>
        {c.capabilities}
      </span>
      <span role="gridcell" title={c.started}>
        {c.started}
      </span>
      <span role="gridcell" title={c.ended || undefined}>
        {c.open ? <span class="yes">open</span> : c.ended}
      </span>
      <span role="gridcell">{c.lived}</span>
      <span role="gridcell" title={c.subscriptionsTitle}>
        {c.subscriptions}
      </span>
      <span role="gridcell">
        <span class={c.channelClass} title={c.channelTitle}>
          {c.channel}
        </span>
      </span>
      <span role="gridcell" title={c.streams}>
        {c.streams}
      </span>
    </div>
  );
}, sameCells);

/**
 * The row the keyboard is on, by key (its position changes when the list does); it follows a drawer opened on a
 * session from elsewhere (a timeline lane, a finding), and the drawer follows it while open. A hook of its own: its
 * effect is kept until the drawer's session changes, and made in the view's render it would keep that render's
 * snapshot (an engine the panel replaced since, after a trim at the log's cap) alive all that time.
 */
function useCursor(openKey: string | null): [string | null, (key: string | null) => void] {
  const [cursor, setCursor] = useState<string | null>(openKey);
  useEffect(() => {
    if (openKey !== null) setCursor(openKey);
  }, [openKey]);
  return [cursor, setCursor];
}

function SessionsViewImpl({ snapshot, filter, onOpen, openKey, imported }: Props) {
  // Built once per snapshot, filtered once per filter: a keystroke does not rebuild the entries.
  const all = useMemo(() => sessionEntries(snapshot), [snapshot]);
  const name = sessionIdNamer(snapshot.sessions);
  // Which client each is, when there are several (two iframes' sessions were two rows alike: a review).
  const tags = sessionClientTags(snapshot);
  const tagOf = (e: SessionEntry) => tags.get(clientKeyOf(e.session)) ?? '';
  const entries = useMemo(
    () => (filter.terms.some((t) => t.key === 'session' || t.key === 'client') ? all.filter((e) => matchesSessionView(filter, e.session, name, tagOf(e))) : all),
    [all, filter, name, tags],
  );
  const metrics = useMemo(() => metricRows(snapshot.metrics, name), [snapshot.metrics, name]);
  const notes = useMemo(() => sessionNotes(entries), [entries]);
  const [cursor, setCursor] = useCursor(openKey);
  const selected = openKey ?? cursor;
  const index = useMemo(() => (selected === null ? -1 : entries.findIndex((e) => e.key === selected)), [entries, selected]);
  const open = (key: string) => {
    setCursor(key);
    onOpen(key);
  };
  return (
    <div class="sessions-view">
      <section class="sessions" aria-label="Sessions and listen streams" data-rows={entries.length}>
        {entries.length === 0 ? (
          <>
            <HeadRow columns={COLUMNS} class="session-head" inGrid={false} />
            <div class="uri-empty muted">{all.length === 0 ? (imported ? 'No sessions in this trace.' : 'No sessions yet.') : 'No session matches the filter.'}</div>
          </>
        ) : (
          <VirtualList
            label="Sessions and listen streams"
            class="session-grid"
            count={entries.length}
            rowHeight={ROW_HEIGHT}
            version={entries.length}
            tabIndex={0}
            reveal={index >= 0 ? index : undefined}
            keyOf={(i) => entries[i]!.key}
            activeId={index >= 0 ? rowId(entries[index]!.key) : undefined}
            columns={COLUMNS}
            headClass="session-head"
            onMove={(to) => {
              const key = entries[to]!.key;
              setCursor(key);
              // With the drawer open on a session, it follows the selection (as in the URI table).
              if (openKey !== null) onOpen(key);
            }}
            onOpen={(i) => open(entries[i]!.key)}
            renderRow={(i) => {
              const e = entries[i]!;
              return <RowView key={e.key} c={cellsOf(e, e.key === selected, sessionRowTag(e.session.endpoint, tagOf(e), filter))} n={i + 2} onOpen={open} />;
            }}
          />
        )}
        {notes.map((n) => (
          <p key={n.kind} class="muted note" data-note={n.kind}>
            {n.text}
          </p>
        ))}
      </section>
      <section class="metrics" aria-label="Metrics">
        {(['server', 'client', 'capture'] as const).map((g) => (
          <table key={g} class="metrics-table">
            <caption>{g === 'server' ? 'Server side (reconstructed)' : g === 'client' ? 'Client side' : 'Capture'}</caption>
            <tbody>
              {metrics
                .filter((m) => m.group === g)
                .map((m) => (
                  <tr key={m.name} data-metric={m.name}>
                    <th>{m.label}</th>
                    <td title={m.title || undefined}>{multiLine(m.value)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        ))}
      </section>
    </div>
  );
}

/** Re-renders when its snapshot, filter or open session changed (the handler reaches the same store). */
export const SessionsView = memo(SessionsViewImpl, (a, b) => a.snapshot === b.snapshot && a.filter === b.filter && a.openKey === b.openKey && a.imported === b.imported);
