// The first-version frame list: time, direction, transport, session, method, id, error, URI (or a transport note).
import type { FrameRow } from '../frame-rows.ts';
import { VirtualList } from './VirtualList.tsx';

const ROW_HEIGHT = 20;

function time(t: number): string {
  const d = new Date(t);
  return `${d.toLocaleTimeString(undefined, { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function FrameList({ rows, version }: { rows: FrameRow[]; version: number }) {
  return (
    <div class="frame-list">
      <div class="frame-row head" role="row">
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
      <VirtualList
        label="MCP frames"
        count={rows.length}
        rowHeight={ROW_HEIGHT}
        version={version}
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
            >
              <span>{r.seq}</span>
              <span>{time(r.t)}</span>
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
