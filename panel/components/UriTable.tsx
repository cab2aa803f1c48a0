// The URI table: one row per resource URI the client touched — cached? and its age (ticking), what the client
// believes, what the server side holds, whether a channel could deliver, last notification and read, and the
// findings. Problem rows come first (the engine's order) and are highlighted. Arrows move the selection (which drives
// every other view), Enter opens the detail drawer, Esc closes it. Rows re-render only when what they show changed:
// times are shown to the second, so a live table touches the DOM at most once a second per row.
import { memo } from 'preact/compat';
import type { Finding, SessionView, UriRow } from '../../shared/engine/index.ts';
import type { Severity } from '../../shared/findings/types.ts';
import { CATALOGUE } from '../../shared/findings/catalogue.ts';
import { clientKeyOf } from '../model/client-tags.ts';
import { sessionIdNamer, type SessionIdName } from '../model/session-label.ts';
import { elementId, formatAge, formatAgoCoarse, formatDuration } from '../model/format.ts';
import { ageSeverities, ageTitle, cacheAge, isOverAge, isProblem, lastHolders, rowFindingTitles, serverTitle, uriParts, type LastHolder } from '../model/uri-table.ts';
import { HeadRow, VirtualList, type Column } from './VirtualList.tsx';
import { printableText } from '../../shared/printable-text.ts';

const ROW_HEIGHT = 22;

interface Props {
  rows: UriRow[];
  now: number;
  selected: string | null;
  onSelect: (key: string | null) => void;
  onOpen: (key: string) => void;
  total: number;
  /** Client tags by client key (client-tags.ts): empty when the rows are of one client. */
  tags: Map<string, string>;
  /** The snapshot's sessions: who held a URI nobody holds now (the Server cell's tooltip). */
  sessions: readonly SessionView[];
  /** The snapshot's findings: the colour of a cache past its age is its cache-age finding's (ageSeverities). */
  findings: readonly Finding[];
  /** An imported trace is shown: the empty state speaks of the trace, not of a table that fills as traffic comes. */
  imported: boolean;
}

/** ✓ or ✗; a "no" about a URI that is neither cached nor in trouble is no problem: shown muted (–), not as a red ✗. */
const yes = (b: boolean, label: string, matters: boolean) => (
  <span class={b ? 'yes' : matters ? 'no' : 'muted'} aria-label={`${label}: ${b ? 'yes' : 'no'}`}>
    {b ? '✓' : matters ? '✗' : '–'}
  </span>
);

/**
 * A URI as the table, the Findings view and the timeline's labels show it: cut in the middle (see uriParts), its
 * control, bidirectional and invisible characters escaped (a line break too: a URI is one line).
 */
export function UriText({ uri }: { uri: string }) {
  const [head, tail] = uriParts(printableText(uri));
  return (
    <>
      <span class="uri-head">{head}</span>
      <span class="uri-tail">{tail}</span>
    </>
  );
}

function rowId(key: string): string {
  return elementId('uri-row-', key);
}

/** Everything a row shows, as strings and flags: equal cells → the row is not re-rendered. */
interface Cells {
  key: string;
  uri: string;
  endpoint: string;
  /** Which client, when the table shows several ('' otherwise). */
  client: string;
  status: UriRow['status'];
  problem: boolean;
  findings: string;
  titles: string;
  age: string;
  /** Cached, or with a finding: a "no" in its subscription columns matters. */
  matters: boolean;
  overAge: boolean;
  /** The open cache-age finding's severity, or 'pending' while none is open yet (within the grace). */
  ageSeverity: Severity | 'pending';
  ageTitle: string;
  believes: boolean;
  server: boolean;
  /** The Server cell's tooltip: who holds it, or that nobody does (and who did last). */
  serverTitle: string;
  channel: boolean;
  notify: string;
  read: string;
  /** The last read failed: why (its cell says so). */
  readFailed: string;
  selected: boolean;
}

function cellsOf(r: UriRow, now: number, selected: boolean, client: string, holders: ReadonlyMap<string, LastHolder>, ages: ReadonlyMap<string, Severity>, titles: ReadonlyMap<string, readonly string[]>, name: SessionIdName): Cells {
  const age = cacheAge(r, now);
  return {
    key: r.key,
    uri: r.uri,
    endpoint: r.endpoint,
    client,
    status: r.status,
    problem: isProblem(r),
    findings: r.findings.join(' '),
    // The findings' own titles (a reason's, as the Findings view shows them), not each id's catalogue title.
    titles: (titles.get(r.key) ?? r.findings.map((f) => CATALOGUE[f].title)).join(' · '),
    age: age === undefined ? (r.listed ? 'listed' : 'not cached') : formatAge(age),
    matters: age !== undefined || r.status !== 'ok',
    overAge: isOverAge(r, now),
    ageSeverity: ages.get(r.key) ?? 'pending',
    ageTitle: age === undefined ? '' : ageTitle(r),
    believes: r.clientBelievesSubscribed,
    server: r.serverHasSubscription,
    serverTitle: serverTitle(r, holders, now, name),
    channel: r.deliveryChannelOpen,
    notify: formatAgoCoarse(r.lastNotifyT, now),
    read: formatAgoCoarse(r.lastReadT, now),
    readFailed: r.lastReadFailed ?? '',
    selected,
  };
}

const sameCells = (a: { c: Cells; n: number }, b: { c: Cells; n: number }): boolean => {
  if (a.n !== b.n) return false;
  for (const k in a.c) if (a.c[k as keyof Cells] !== b.c[k as keyof Cells]) return false;
  return true;
};

const RowView = memo(function RowView({ c, n, onSelect, onOpen }: { c: Cells; n: number; onSelect: (k: string) => void; onOpen: (k: string) => void }) {
  return (
    <div
      id={rowId(c.key)}
      class={`uri-row status-${c.status}${c.problem ? ' problem' : ''}${c.selected ? ' selected' : ''}`}
      role="row"
      aria-rowindex={n}
      aria-selected={c.selected}
      data-uri={c.uri}
      data-key={c.key}
      data-findings={c.findings}
      data-status={c.status}
      data-client={c.client || undefined}
      title="Click selects; double-click or Enter opens the details"
      onClick={() => onSelect(c.key)}
      onDblClick={() => onOpen(c.key)}
    >
      <span class={`sev sev-${c.status}`} role="gridcell">
        {c.status}
      </span>
      {/* Named by the whole URI: the two parts it is shown in would be read with a space between them. */}
      <span role="gridcell" title={`${c.uri}\n${c.endpoint}${c.client ? `\nclient: ${c.client}` : ''}`} class="uri" aria-label={c.client ? `${c.uri} (${c.client})` : c.uri}>
        <UriText uri={c.uri} />
        {c.client ? <span class="client-tag">{c.client}</span> : null}
      </span>
      <span role="gridcell">
        <span class={c.overAge ? `over-age age-${c.ageSeverity}` : c.age === 'listed' || c.age === 'not cached' ? 'muted' : ''} title={c.ageTitle}>
          {c.age}
        </span>
      </span>
      <span role="gridcell">{yes(c.believes, 'client believes subscribed', c.matters)}</span>
      <span role="gridcell" title={c.serverTitle}>
        {yes(c.server, 'server has the subscription', c.matters)}
      </span>
      <span role="gridcell">{yes(c.channel, 'delivery channel open', c.matters)}</span>
      <span role="gridcell">{c.notify}</span>
      <span role="gridcell" data-read-failed={c.readFailed !== '' || undefined}>
        {c.readFailed ? (
          <span class="over-age" title={`The last read failed: ${c.readFailed}`}>
            {c.read} · failed
          </span>
        ) : (
          c.read
        )}
      </span>
      <span role="gridcell" class="finding-cell" title={c.titles.split(' · ').join('\n')}>
        {c.titles}
      </span>
    </div>
  );
}, sameCells);

const COLUMNS: readonly Column[] = [
  { label: 'Status' },
  { label: 'URI' },
  { label: 'Cache age', title: 'Since the answer that wrote the cache arrived' },
  { label: 'Client', title: 'The client believes it is subscribed' },
  { label: 'Server', title: 'The server side (reconstructed) holds the subscription' },
  { label: 'Channel', title: 'An open stream could deliver a notification' },
  { label: 'Last notify' },
  { label: 'Last read', title: 'Since the last resources/read was sent ("failed" when it got no content)' },
  { label: 'Findings' },
];

function UriTableView({ rows, now, selected, onSelect, onOpen, total, tags, sessions, findings, imported }: Props) {
  const holders = lastHolders(sessions);
  const name = sessionIdNamer(sessions);
  const ages = ageSeverities(findings);
  const titles = rowFindingTitles(findings);
  const index = selected === null ? -1 : rows.findIndex((r) => r.key === selected);
  return (
    <div class="uri-table" data-rows={rows.length}>
      {rows.length === 0 ? (
        <>
          <HeadRow columns={COLUMNS} class="uri-row head" inGrid={false} />
          <div class="uri-empty muted">{total === 0 ? (imported ? 'No resource URIs in this trace: the client read no resource and subscribed to none.' : 'No resource URIs yet: the table fills as the client reads and subscribes.') : 'No URI matches the filter.'}</div>
        </>
      ) : (
        <VirtualList
          label="Resource URIs"
          class="uri-grid"
          doubleClickOpens
          count={rows.length}
          rowHeight={ROW_HEIGHT}
          version={rows.length}
          reveal={index >= 0 ? index : undefined}
          keyOf={(i) => rows[i]!.key}
          tabIndex={0}
          activeId={index >= 0 ? rowId(selected!) : undefined}
          columns={COLUMNS}
          headClass="uri-row head"
          onMove={(to) => onSelect(rows[to]!.key)}
          onOpen={(i) => onOpen(rows[i]!.key)}
          renderRow={(i) => {
            const r = rows[i]!;
            return <RowView key={r.key} c={cellsOf(r, now, r.key === selected, tags.get(clientKeyOf(r)) ?? '', holders, ages, titles, name)} n={i + 2} onSelect={onSelect} onOpen={onOpen} />;
          }}
        />
      )}
    </div>
  );
}

/** Re-renders when its rows, clock, selection or total changed (handlers ignored: they reach the same store). */
export const UriTable = memo(UriTableView, (a, b) => a.rows === b.rows && a.now === b.now && a.selected === b.selected && a.total === b.total && a.tags === b.tags && a.sessions === b.sessions && a.findings === b.findings && a.imported === b.imported);
