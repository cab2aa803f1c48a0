// The seed's flow chart as SVG, live: counts on every edge, the selected URI's path and current node, failure nodes
// (H, K, M, Q) red once reached, and a short pulse on each new step. Labels are short English; the full English and
// the Chinese original are the hover text, and a list under the chart (for the keyboard and screen readers).
import { memo } from 'preact/compat';
import type { FlowSnapshot } from '../../shared/engine/index.ts';
import { EDGES, NODES, nodeById, type NodeId } from '../../shared/flow/index.ts';
import { BOXES, EDGE_PATHS, HEIGHT, NODE_H, NODE_W, SHORT_LABEL, WIDTH, jumpPoints, pointsAttr } from '../model/flow-layout.ts';
import { flowView, jumpsByPair, type FlowJump, type FlowJumpKind, type FlowView, type SessionSteps } from '../model/flow-view.ts';
import { multiLine } from '../printable-dom.ts';

const JUMP_KINDS: readonly FlowJumpKind[] = ['failure', 'unsolicited'];

/** How the chart says a node is known only by inference (legend and hover text). */
const INFERRED = 'only ever inferred, never seen on the wire';

const horizontal = (points: ReadonlyArray<[number, number]>): boolean => points.length === 2 && points[0]![1] === points[1]![1];

interface Props {
  flow: FlowSnapshot | undefined;
  selectedKey: string | null;
  selectedUri: string | undefined;
  /** A and B, the session's steps (flowView). */
  steps?: SessionSteps;
}

/** What the chart shows, as one string: the SVG is only re-rendered when it changed. */
function signature(v: FlowView, selectedUri: string | undefined): string {
  let s = `${selectedUri ?? ''}|${v.current ?? ''}|${v.lastStep}|`;
  for (const e of v.edges) s += `${e.count}${e.onPath ? '*' : ''},`;
  for (const n of Object.values(v.nodes)) s += `${n.reached ? 1 : 0}${n.onPath ? 1 : 0}${n.current ? 1 : 0}`;
  for (const c of Object.values(v.at)) s += `,${c}`;
  for (const j of v.jumps) s += `|${j.from}${j.to}${j.count}${j.reason ?? ''}`;
  return s;
}

function FlowChartView({ flow, selectedKey, selectedUri, steps }: Props) {
  const v = flowView(flow, selectedKey, steps);
  return <FlowSvg v={v} sig={signature(v, selectedUri)} selectedKey={selectedKey} selectedUri={selectedUri} />;
}

function FlowSvgView({ v, selectedKey, selectedUri }: { v: FlowView; sig: string; selectedKey: string | null; selectedUri: string | undefined }) {
  return (
    <section class="flow" aria-label="Flow chart">
      <header class="pane-head">
        <span>Flow</span>
        <span class="muted flow-scope" title={selectedUri ?? ''}>
          {selectedUri ?? 'all URIs (select a row for its path)'}
        </span>
      </header>
      <svg
        class="flow-svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Seed flow chart${selectedUri ? ` for ${selectedUri}` : ''}${v.current ? `, now at ${v.current}` : ''}`}
        data-current={v.current ?? ''}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" class="arrow-head" />
          </marker>
          {/* In user units: a path edge is drawn thicker, and a marker scaled with it would cover the edge's count. */}
          <marker id="arrow-on" viewBox="0 0 8 8" refX="7" refY="4" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
            <path d="M0,0 L8,4 L0,8 z" class="arrow-head on" />
          </marker>
          {/* One head per jump kind (FlowJumpKind), in its colour. */}
          {JUMP_KINDS.map((kind) => (
            <marker key={kind} id={`arrow-jump-${kind}`} viewBox="0 0 8 8" refX="7" refY="4" markerUnits="userSpaceOnUse" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
              <path d="M0,0 L8,4 L0,8 z" class={`arrow-head jump jump-${kind}`} />
            </marker>
          ))}
        </defs>
        {EDGE_PATHS.map((p) => (
          <FlowEdgeView key={p.index} index={p.index} count={v.edges[p.index]!.count} onPath={v.edges[p.index]!.onPath} />
        ))}
        {jumpsByPair(v.jumps).map(([j, ...also]) => (
          <FlowJumpView key={`${j!.from}-${j!.to}`} jump={j!} also={also} />
        ))}
        {NODES.map((n) => {
          const s = v.nodes[n.id];
          return (
            <FlowNodeView
              key={n.id}
              id={n.id}
              reached={s.reached}
              current={s.current}
              onPath={s.onPath}
              at={selectedKey ? 0 : v.at[n.id]}
              pulse={s.current ? v.lastStep : ''}
            />
          );
        })}
      </svg>
      {/* The hover texts, for the keyboard and screen readers too: every node's full sentence and the Chinese original. */}
      <details class="flow-legend">
        <summary>Node labels (English and Chinese)</summary>
        <ol>
          {NODES.map((n) => {
            const s = v.nodes[n.id];
            const state = [s.current ? 'current' : '', s.reached ? 'reached' : 'not reached', !selectedKey && v.at[n.id] ? `${v.at[n.id]} URI(s) here now` : '', n.failure ? 'failure node' : '', n.inferred ? INFERRED : ''].filter(Boolean).join(', ');
            return (
              <li key={n.id} data-legend-node={n.id}>
                <b>{n.id}</b> {n.en} — <span lang="zh">{n.zh}</span>
                {state ? <span class="muted"> ({state})</span> : null}
              </li>
            );
          })}
        </ol>
      </details>
    </section>
  );
}

const FlowSvg = memo(FlowSvgView, (a, b) => a.sig === b.sig);

/** Nothing to do until the flow data or the selection changed. */
export const FlowChart = memo(FlowChartView);

/** Whether "X label" fits in a node at the label font (≈ 6.2 px per character at 10.5 px, bold when reached); longer ones get a smaller font. */
function labelFits(id: NodeId): boolean {
  return (2 + SHORT_LABEL[id].length) * 6.2 <= NODE_W - 10;
}

// Edges and nodes re-render one by one, only when what they show changed (a live stream moves a few counts).
const FlowEdgeView = memo(function FlowEdgeView({ index, count, onPath }: { index: number; count: number; onPath: boolean }) {
  const p = EDGE_PATHS[index]!;
  const e = EDGES[index]!;
  const failure = nodeById(e.to).failure;
  return (
    <g class={`edge${onPath ? ' on-path' : ''}${count > 0 ? ' taken' : ''}${failure ? ' to-failure' : ''}`} data-edge={`${e.from}-${e.to}`} data-count={count}>
      <polyline points={pointsAttr(p.points)} marker-end={onPath ? 'url(#arrow-on)' : 'url(#arrow)'} />
      {e.label ? (
        <text x={p.branchAt[0]} y={p.branchAt[1]} class="edge-label branch" text-anchor={p.branchAnchor}>
          {e.label.en.split(' ')[0]}
          <title>{`${e.label.en} (${e.label.zh})`}</title>
        </text>
      ) : null}
      {count > 0 ? (
        <text x={p.labelAt[0]} y={p.labelAt[1] + (e.label && horizontal(p.points) ? 14 : 0)} class="edge-label count" text-anchor={horizontal(p.points) ? 'middle' : 'start'}>
          {count}
          <title>{`${e.from} → ${e.to}${e.label ? ` (${e.label.en})` : ''}: taken ${count}×`}</title>
        </text>
      ) : null}
    </g>
  );
});

/** Why a URI can reach a failure node by a step the seed's chart draws no arrow for. */
function jumpReason(j: FlowJump): string {
  if (j.from === 'L' && j.to === 'M') return 'an older read answer overwrote newer content (stale-overwrite)';
  if (j.to === 'Q') return 'the server lost the subscription while the client still believes in it';
  return "the traffic implies it, though the seed's chart has no arrow for it";
}

/** What a jump's tooltip says: why the path goes there without taking one of the chart's arrows. */
export function jumpTitle(j: FlowJump): string {
  // F —yes→ G says the server found a session subscribed to the URI; F —no→ H that nothing was sent. Neither happened.
  if (j.kind === 'unsolicited') {
    return `F ⇢ G${j.count > 1 ? `, taken ${j.count}×` : ''}: the server sent notifications/resources/updated though no session or listen of it held a subscription for this URI (unsolicited-update); the chart's F → G is for an update to a subscribed session`;
  }
  // The chart has an arrow I → K, but it means a notification lost when the connection broke. The engine jumps
  // instead when that is not what happened (FlowJumpReason): this one arrived and was not re-read; or none came
  // (missed-update) while the delivery stream stayed open, or while none was open to break.
  if (j.from === 'I' && j.to === 'K') {
    const arrow = "the chart's arrow I → K is for one lost when the connection broke";
    if (j.reason === 'lost-channel-open') {
      return `I ⇢ K, taken ${j.count}×: the content changed but no notification came (missed-update), though the stream that delivers notifications stayed open the whole time: the server never sent it, or it was lost without the connection breaking; ${arrow}`;
    }
    if (j.reason === 'lost-no-channel') {
      return `I ⇢ K, taken ${j.count}×: the content changed but no notification came (missed-update), and no stream that delivers notifications was open when it was first due (one opened only later, or never; none broke); ${arrow}`;
    }
    return `I ⇢ K, taken ${j.count}×: the notification arrived but the client did not re-read (notified-not-reread); ${arrow}`;
  }
  return `${j.from} → ${j.to}, taken ${j.count}×: not an arrow of the seed's chart; ${jumpReason(j)}`;
}

/**
 * A drawn jump: dashed, styled by its kind (red into a failure node, the warning colour for an unsolicited update).
 * `also`: the same pair's jumps for other reasons (jumpsByPair), on the same arrow: its count is theirs summed, and its
 * hover text says each (`data-jump-reason`: their reasons, space-separated, when any has one).
 */
export function FlowJumpView({ jump, also = [] }: { jump: FlowJump; also?: readonly FlowJump[] }) {
  const all = [jump, ...also];
  const reasons = all.map((j) => j.reason).filter((r) => r !== undefined);
  const count = all.reduce((n, j) => n + j.count, 0);
  return (
    <g class={`jump jump-${jump.kind}`} data-jump={`${jump.from}-${jump.to}`} data-jump-kind={jump.kind} data-jump-reason={reasons.length > 0 ? reasons.join(' ') : undefined} data-count={count}>
      <polyline points={pointsAttr(jumpPoints(jump.from, jump.to))} marker-end={`url(#arrow-jump-${jump.kind})`} />
      <title>{multiLine(all.map(jumpTitle).join('\n'))}</title>
    </g>
  );
}

const FlowNodeView = memo(function FlowNodeView(props: { id: NodeId; reached: boolean; current: boolean; onPath: boolean; at: number; pulse: string }) {
  const { id, reached, current, onPath, at, pulse } = props;
  const n = nodeById(id);
  const b = BOXES[id];
  const cls = ['node', n.decision ? 'decision' : '', n.failure ? 'failure' : '', n.inferred ? 'inferred' : '', reached ? 'reached' : '', current ? 'current' : '', onPath ? 'on-path' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <g class={cls} data-node={id} data-reached={reached} data-current={current} data-failure={n.failure}>
      <title>{multiLine(`${id}: ${n.en}\n${n.zh}\n${reached ? 'reached' : 'not reached'}${n.inferred ? ` (${INFERRED})` : ''}${at ? `\n${at} URI(s) here now` : ''}`)}</title>
      <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={n.decision ? 12 : 3} />
      <text x={b.x + 6} y={b.y + NODE_H / 2 + 4} class={labelFits(id) ? 'node-label' : 'node-label long'}>
        <tspan class="node-id">{id}</tspan> {SHORT_LABEL[id]}
      </text>
      {at > 0 ? (
        // A badge on the node's corner (a filled pill, not a bare number an edge count could be taken for).
        <g class="node-at" data-at={at}>
          <rect x={b.x + b.w - 6 - 5.5 * String(at).length} y={b.y - 6} width={8 + 5.5 * String(at).length} height={12} rx={6} />
          <text x={b.x + b.w - 2 - 2.75 * String(at).length} y={b.y + 3} text-anchor="middle">
            {at}
          </text>
        </g>
      ) : null}
      {pulse ? <rect key={pulse} class="pulse" x={b.x} y={b.y} width={b.w} height={b.h} rx={n.decision ? 12 : 3} /> : null}
    </g>
  );
});
