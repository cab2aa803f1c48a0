// The messages view: every JSON-RPC message and transport event in view, one row each — time, direction, transport,
// session, method, id, error, URI (or a transport note). Filtered with the same language as the URI table; a click,
// or the arrow keys and Enter (as in the URI table), opens the frame in the detail drawer. Follows the tail while
// scrolled to the bottom. Sessions are named as in the other views: a WebSocket's (no session id) `WebSocket #2`,
// its id in the tooltip; a 2026 listen's rows (filed under its request id) `listen 3`.
import { rowIndexOf, rowKey, type FrameRow } from '../frame-rows.ts';
import { formatClock, middleId } from '../model/format.ts';
import { sessionIdOn, sessionIdTitle, shortSessionName, type SessionIdName } from '../model/session-label.ts';
import { VirtualList, type Column } from './VirtualList.tsx';

const ROW_HEIGHT = 20;
const TITLES: Record<string, string> = { dir: 'Direction: ↑ sent by the page (client), ↓ received from the server' };
const COLUMNS: readonly Column[] = ['#', 'time', 'dir', 'transport', 'session', 'method', 'id', 'error', 'URI / note'].map((label) => (TITLES[label] ? { label, title: TITLES[label] } : { label }));
/** The transport cell of a row whose connection's opening frames went at the cap (FrameRow.transportInferred). */
const INFERRED_TITLE =
  "This connection's opening frames were dropped at the log's frame cap: its transport is inferred from this frame's kind " +
  '(HTTP ?: a fetch exchange, method unknown; SSE ?: a fetch stream or an EventSource)';

interface Props {
  rows: readonly FrameRow[];
  version: number;
  total: number;
  /**
   * The row the keyboard is on, as `seq.part` (FrameRow.part: its place among its frame's rows, fixed when built; a
   * JSON-RPC batch is one frame, several rows). Rows are appended while live, in seq order; a key stays where it is. Owned by the store (messageSelected).
   */
  selected: string | null;
  /** How the views name sessions (the shown snapshot's sessionIdNamer). */
  name: SessionIdName;
  onSelect: (key: string) => void;
  onOpen: (seq: number) => void;
}

export function FrameList({ rows, version, total, selected, name, onSelect: setSelected, onOpen }: Props) {
  const index = selected === null ? -1 : rowIndexOf(rows, selected);
  return (
    <div class="frame-list">
      {rows.length === 0 && total > 0 ? <div class="uri-empty muted">No message matches the filter.</div> : null}
      <VirtualList
        label="MCP messages and transport events"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        version={version}
        follow
        class="frame-grid"
        tabIndex={0}
        reveal={index >= 0 ? index : undefined}
        keyOf={(i) => rowKey(rows, i)}
        activeId={index >= 0 ? `frame-row-${selected}` : undefined}
        columns={COLUMNS}
        headClass="frame-row head"
        onMove={(to) => setSelected(rowKey(rows, to))}
        onOpen={(i) => onOpen(rows[i]!.seq)}
        renderRow={(i) => {
          const r = rows[i]!;
          const key = rowKey(rows, i);
          const isSelected = key === selected;
          // A listen's rows by its connection: the engine's label for that listen (`listen:1 #2`), not the bare request id.
          const session = sessionIdOn(r.session, r.conn, name);
          return (
            <div
              key={key}
              id={`frame-row-${key}`}
              class={`frame-row${r.error ? ' has-error' : ''}${isSelected ? ' selected' : ''}`}
              role="row"
              aria-rowindex={i + 2}
              aria-selected={isSelected}
              data-seq={r.seq}
              data-method={r.method}
              data-session={session}
              data-frame-id={r.frameId}
              onClick={() => {
                setSelected(key);
                onOpen(r.seq);
              }}
            >
              <span role="gridcell">{r.seq}</span>
              <span role="gridcell">{formatClock(r.t)}</span>
              <span role="gridcell">{r.dir === 'out' ? '↑' : r.dir === 'in' ? '↓' : ''}</span>
              {r.transportInferred ? (
                <span role="gridcell" class="inferred" data-inferred="true" title={INFERRED_TITLE} aria-label={`${r.transport} (inferred: its opening frames were dropped)`}>
                  {r.transport}
                </span>
              ) : (
                <span role="gridcell">{r.transport}</span>
              )}
              {/* A name the views give: `WebSocket #12` whole (cut, it lost its number), an id (a listen's too) cut in the middle. */}
              <span role="gridcell" title={sessionIdTitle(session, name)}>
                {shortSessionName(session, name, middleId)}
              </span>
              <span role="gridcell">{r.method}</span>
              <span role="gridcell">{r.id}</span>
              <span role="gridcell">{r.error}</span>
              {/* A note beside a URI too: a read answer cut at the body cap names its URI and says it was cut. */}
              <span role="gridcell" title={[r.uris.length > 1 ? r.uris.join('\n') : r.uri, r.note].filter(Boolean).join('\n')}>
                {r.uris.length > 1 ? `${r.uri} +${r.uris.length - 1}` : r.uri}
                {r.uri && r.note ? <span class="muted"> · {r.note}</span> : r.note}
              </span>
            </div>
          );
        }}
      />
    </div>
  );
}
