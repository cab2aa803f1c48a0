// The messages view: every JSON-RPC message and transport event in view, one row each — time, direction, transport,
// session, method, id, error, URI (or a transport note). Filtered with the same language as the URI table; a click
// opens the frame in the detail drawer. Follows the tail while scrolled to the bottom.
import type { FrameRow } from '../frame-rows.ts';
import { formatClock } from '../model/format.ts';
import { VirtualList } from './VirtualList.tsx';

const ROW_HEIGHT = 20;

export function FrameList({ rows, version, total, onOpen }: { rows: FrameRow[]; version: number; total: number; onOpen: (seq: number) => void }) {
  return (
    <div class="frame-list">
      <div class="frame-row head" role="row" aria-hidden="true">
        <span>#</span>
        <span>time</span>
        <span>dir</span>
        <span>transport</span>
        <span>session</span>
        <span>method</span>
        <span>id</span>
        <span>error</span>
        <span>URI / note</span>
      </div>
      {rows.length === 0 && total > 0 ? <div class="uri-empty muted">No message matches the filter.</div> : null}
      <VirtualList
        label="MCP messages and transport events"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        version={version}
        follow
        renderRow={(i) => {
          const r = rows[i]!;
          return (
            <div
              key={`${r.seq}:${i}`}
              class={`frame-row${r.error ? ' has-error' : ''}`}
              role="row"
              data-seq={r.seq}
              data-method={r.method}
              data-session={r.session}
              data-frame-id={r.frameId}
              onClick={() => onOpen(r.seq)}
            >
              <span>{r.seq}</span>
              <span>{formatClock(r.t)}</span>
              <span>{r.dir === 'out' ? '↑' : r.dir === 'in' ? '↓' : ''}</span>
              <span>{r.transport}</span>
              <span title={r.session}>{r.session.slice(0, 8)}</span>
              <span>{r.method}</span>
              <span>{r.id}</span>
              <span>{r.error}</span>
              <span title={r.uri || r.note}>{r.uri || r.note}</span>
            </div>
          );
        }}
      />
    </div>
  );
}
