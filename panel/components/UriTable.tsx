// The URI table: one row per resource URI the client touched — cached? and its age (ticking), what the client
// believes, what the server side holds, whether a channel could deliver, last notification and read, and the
// findings. Problem rows come first (the engine's order) and are highlighted. Arrows move the selection (which drives
// every other view), Enter opens the detail drawer, Esc closes it.
import type { UriRow } from '../../shared/engine/index.ts';
import { CATALOGUE } from '../../shared/findings/catalogue.ts';
import { formatAgo, formatDuration } from '../model/format.ts';
import { cacheAge, isNavKey, isProblem, moveSelection } from '../model/uri-table.ts';
import { VirtualList } from './VirtualList.tsx';

const ROW_HEIGHT = 22;

interface Props {
  rows: UriRow[];
  now: number;
  selected: string | null;
  version: number;
  onSelect: (key: string | null) => void;
  onOpen: (key: string) => void;
  total: number;
}

const yes = (b: boolean, label: string) => (
  <span class={b ? 'yes' : 'no'} aria-label={`${label}: ${b ? 'yes' : 'no'}`}>
    {b ? '✓' : '✗'}
  </span>
);

function rowId(key: string): string {
  return `uri-row-${key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
}

function ageCell(r: UriRow, now: number) {
  const age = cacheAge(r, now);
  if (age === undefined) return <span class="muted">{r.listed ? 'listed' : 'not cached'}</span>;
  const over = age > r.expectedMaxAgeMs;
  return (
    <span class={over ? 'over-age' : ''} title={`expected at most ${formatDuration(r.expectedMaxAgeMs)} (${r.expectedMaxAgeSource})`}>
      {formatDuration(age)}
    </span>
  );
}

export function UriTable({ rows, now, selected, version, onSelect, onOpen, total }: Props) {
  const index = selected === null ? -1 : rows.findIndex((r) => r.key === selected);
  return (
    <div class="uri-table" data-rows={rows.length}>
      <div class="uri-row head" role="row" aria-hidden="true">
        <span>Status</span>
        <span>URI</span>
        <span>Cache age</span>
        <span title="The client believes it is subscribed">Client</span>
        <span title="The server side (reconstructed) holds the subscription">Server</span>
        <span title="An open stream could deliver a notification">Channel</span>
        <span>Last notify</span>
        <span>Last read</span>
        <span>Findings</span>
      </div>
      {rows.length === 0 ? (
        <div class="uri-empty muted">{total === 0 ? 'No resource URIs yet: the table fills as the client reads and subscribes.' : 'No URI matches the filter.'}</div>
      ) : (
        <VirtualList
          label="Resource URIs"
          class="uri-grid"
          count={rows.length}
          rowHeight={ROW_HEIGHT}
          version={version}
          reveal={index >= 0 ? index : undefined}
          tabIndex={0}
          activeId={index >= 0 ? rowId(selected!) : undefined}
          onKeyDown={(e) => {
            if (isNavKey(e.key)) {
              e.preventDefault();
              onSelect(moveSelection(rows.map((r) => r.key), selected, e.key));
            } else if (e.key === 'Enter' && selected !== null) {
              e.preventDefault();
              onOpen(selected);
            }
          }}
          renderRow={(i) => {
            const r = rows[i]!;
            const sel = r.key === selected;
            return (
              <div
                key={r.key}
                id={rowId(r.key)}
                class={`uri-row status-${r.status}${isProblem(r) ? ' problem' : ''}${sel ? ' selected' : ''}`}
                role="row"
                aria-selected={sel}
                data-uri={r.uri}
                data-key={r.key}
                data-findings={r.findings.join(' ')}
                data-status={r.status}
                onClick={() => onSelect(r.key)}
                onDblClick={() => onOpen(r.key)}
              >
                <span class={`sev sev-${r.status}`} role="gridcell">
                  {r.status === 'ok' ? 'ok' : r.status}
                </span>
                <span role="gridcell" title={`${r.uri}\n${r.endpoint}`} class="uri">
                  {r.uri}
                </span>
                <span role="gridcell">{ageCell(r, now)}</span>
                <span role="gridcell">{yes(r.clientBelievesSubscribed, 'client believes subscribed')}</span>
                <span role="gridcell" title={r.heldBy.join(', ')}>
                  {yes(r.serverHasSubscription, 'server has the subscription')}
                </span>
                <span role="gridcell">{yes(r.deliveryChannelOpen, 'delivery channel open')}</span>
                <span role="gridcell">{formatAgo(r.lastNotifyT, now)}</span>
                <span role="gridcell">{formatAgo(r.lastReadT, now)}</span>
                <span role="gridcell" class="finding-cell" title={r.findings.map((f) => CATALOGUE[f].title).join('\n')}>
                  {r.findings.map((f) => CATALOGUE[f].title).join(' · ')}
                </span>
              </div>
            );
          }}
        />
      )}
    </div>
  );
}
