// The findings view: every finding of the view (open ones first, worst first), including those about a session rather
// than a URI (an expired session never re-initialized, a missing protocol header, a version regression). A click, or
// the arrow keys and Enter (as in the URI table), opens the finding — explanation, evidence, fix — in the drawer.
// Windowed like the other lists: a trace with thousands of findings (a client with 5,000 URIs) rendered every row, 14 s
// to open the view and 5 s per filter keystroke.
// The URI selected in the table is the same selection here: its findings are marked, the keyboard starts on the first
// of them, and a finding chosen here selects its URI for the other views (selecting a row drives every view).
// Findings of more than one client (two endpoints, or two documents: a reload kept in the log) read alike but for
// their client: a Client column then says it in the URI table's words (client-tags.ts: the endpoint, or the page);
// one client's findings have no such column. Sessions are named as elsewhere (a WebSocket's `WebSocket #2`).
import type { ComponentChildren } from 'preact';
import { memo } from 'preact/compat';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Finding, SessionView } from '../../shared/engine/index.ts';
import { findingRowKey } from '../../shared/findings/finding-log.ts';
import type { Filter } from '../model/filter.ts';
import { findingClientTag } from '../model/client-tags.ts';
import { findingDetail, findingMatches, sortFindings } from '../model/findings-view.ts';
import { nameSessionsIn, sessionIdNamer, sessionIdTitle } from '../model/session-label.ts';
import { formatClock } from '../model/format.ts';
import { UriText } from './UriTable.tsx';
import { VirtualList, type Column } from './VirtualList.tsx';

const ROW_HEIGHT = 22;

interface Props {
  findings: readonly Finding[];
  sessions: readonly SessionView[];
  /** Client tags by client key (findingClientTags): empty when the findings are of one client. */
  tags: ReadonlyMap<string, string>;
  filter: Filter;
  /** An imported trace is shown: the empty state speaks of the trace, not of "so far". */
  imported: boolean;
  /** The selected URI row's key (store.selected), or null. */
  selectedUri: string | null;
  onOpen: (key: string) => void;
  /** A finding about a URI was chosen here: its row is the selection. */
  onSelectUri: (key: string) => void;
  /** A note atop the list (the log's cap dropped frames the findings rested on: App's CapNoteLine). */
  note?: ComponentChildren;
}

const COLUMNS: readonly Column[] = ['Severity', 'Finding', 'URI', 'Session', 'Detail', 'First', 'Last', 'Count', 'State'].map((label) => ({ label }));
const CLIENT_COLUMN: Column = { label: 'Client', title: 'Which client (endpoint, or page) the finding is of: shown when the findings are of more than one' };
const WITH_CLIENT: readonly Column[] = [...COLUMNS.slice(0, 3), CLIENT_COLUMN, ...COLUMNS.slice(3)];

function FindingsViewImpl({ findings, sessions, tags, filter, imported, selectedUri, onOpen, onSelectUri, note }: Props) {
  const shown = useMemo(() => sortFindings(findings).filter((f) => findingMatches(f, filter, sessions, findingClientTag(tags, f))), [findings, sessions, filter, tags]);
  const name = sessionIdNamer(sessions);
  const withClient = tags.size > 0;
  // The finding the keyboard is on, by key (its position changes when the list does).
  const [selected, setSelected] = useState<string | null>(null);
  const index = useMemo(() => (selected === null ? -1 : shown.findIndex((f) => f.key === selected)), [shown, selected]);
  // A URI selected elsewhere (or on opening the view): the keyboard goes to its first finding, unless it is on one
  // of them already. Once per selected URI (when it has a finding shown), not at every live update: the user may have
  // moved on to another finding since.
  const firstOfUri = useMemo(() => (selectedUri === null ? undefined : shown.find((f) => findingRowKey(f) === selectedUri)?.key), [shown, selectedUri]);
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (firstOfUri === undefined || followed.current === selectedUri) return;
    followed.current = selectedUri;
    const current = index >= 0 ? shown[index]! : undefined;
    if (current && findingRowKey(current) === selectedUri) return;
    setSelected(firstOfUri);
  }, [selectedUri, firstOfUri]);
  const choose = (f: Finding) => {
    setSelected(f.key);
    const row = findingRowKey(f);
    if (row !== undefined && row !== selectedUri) onSelectUri(row);
  };
  return (
    <div class={`findings-view findings-table${withClient ? ' with-client' : ''}`} data-count={shown.length}>
      {note}
      {shown.length === 0 ? (
        <div class="uri-empty muted">{findings.length === 0 ? (imported ? 'No findings: nothing looked wrong in this trace.' : 'No findings: nothing looks wrong so far.') : 'No finding matches the filter.'}</div>
      ) : (
        <VirtualList
          label="Findings"
          class="finding-grid"
          count={shown.length}
          rowHeight={ROW_HEIGHT}
          version={shown.length}
          tabIndex={0}
          reveal={index >= 0 ? index : undefined}
          keyOf={(i) => shown[i]!.key}
          activeId={index >= 0 ? `finding-row-${index}` : undefined}
          columns={withClient ? WITH_CLIENT : COLUMNS}
          headClass="finding-head"
          onMove={(to) => choose(shown[to]!)}
          onOpen={(i) => onOpen(shown[i]!.key)}
          renderRow={(i) => {
            const f = shown[i]!;
            const isSelected = f.key === selected;
            const ofUri = selectedUri !== null && findingRowKey(f) === selectedUri;
            const client = findingClientTag(tags, f);
            const session = f.session === undefined ? undefined : name(f.session);
            return (
              <div
                key={f.key}
                id={`finding-row-${i}`}
                role="row"
                aria-rowindex={i + 2}
                aria-selected={isSelected}
                class={`finding-row finding-${f.severity}${f.open ? ' open' : ' closed'}${isSelected ? ' selected' : ''}${ofUri ? ' of-selected' : ''}`}
                data-of-selected={ofUri || undefined}
                data-finding-id={f.id}
                data-severity={f.severity}
                data-uri={f.uri ?? ''}
                data-client={client || undefined}
                data-open={f.open}
                onClick={() => {
                  choose(f);
                  onOpen(f.key);
                }}
              >
                <span role="gridcell" class={`sev sev-${f.severity}`}>{f.severity}</span>
                <span role="gridcell" title={f.id}>{f.title}</span>
                <span role="gridcell" class="uri" title={f.uri ?? ''} aria-label={f.uri}>
                  {/* Cut in the middle as in the table: two long URIs that differ at the end were told apart nowhere. */}
                  {f.uri ? <UriText uri={f.uri} /> : '—'}
                </span>
                {withClient ? (
                  <span role="gridcell" class="client" title={f.endpoint ?? ''}>
                    {client || '—'}
                  </span>
                ) : null}
                <span role="gridcell" title={f.session === undefined ? '' : sessionIdTitle(f.session, name)}>
                  {session ?? '—'}
                </span>
                <span role="gridcell" title={nameSessionsIn(f.detail ?? '', name)}>
                  {findingDetail(f, name)}
                </span>
                <span role="gridcell">{formatClock(f.firstT)}</span>
                <span role="gridcell">{formatClock(f.lastT)}</span>
                <span role="gridcell">{f.count}</span>
                <span role="gridcell">{f.open ? 'open' : 'past'}</span>
              </div>
            );
          }}
        />
      )}
    </div>
  );
}

/** Re-renders when its findings, sessions, tags, filter or selected URI changed (the handler reaches the same store). */
export const FindingsView = memo(FindingsViewImpl, (a, b) => a.findings === b.findings && a.sessions === b.sessions && a.tags === b.tags && a.filter === b.filter && a.selectedUri === b.selectedUri && a.imported === b.imported);
