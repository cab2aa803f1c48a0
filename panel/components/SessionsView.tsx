// The sessions view: every session (2025) and listen stream (2026) with protocol version, capabilities, start, end
// and cause, subscriptions and streams; beside it the seed's metrics (DESIGN §1.6), server side and client side.
import { useRef } from 'preact/hooks';
import type { EngineSnapshot } from '../../shared/engine/index.ts';
import { matchesSessionView, type Filter } from '../model/filter.ts';
import { formatClock, formatDuration } from '../model/format.ts';
import { metricRows, midWayNote, NOT_INITIALIZED, sessionEntries } from '../model/sessions-view.ts';

interface Props {
  snapshot: EngineSnapshot;
  filter: Filter;
  onOpen: (key: string) => void;
}

export function SessionsView({ snapshot, filter, onOpen }: Props) {
  // Capabilities never change once seen: parse each initialize answer once per engine.
  const caps = useRef<{ messages: unknown; map: Map<string, string[] | undefined> }>({ messages: null, map: new Map() });
  if (caps.current.messages !== snapshot.messages.store) caps.current = { messages: snapshot.messages.store, map: new Map() };
  const all = sessionEntries(snapshot, caps.current.map);
  // By what a row shows (its id), not its key: a listen's holds its page and endpoint.
  const entries = all.filter((e) => matchesSessionView(filter, e.session));
  const metrics = metricRows(snapshot.metrics);
  return (
    <div class="sessions-view">
      <section class="sessions" aria-label="Sessions and listen streams">
        <table class="sessions-table">
          <thead>
            <tr>
              <th>Session / listen</th>
              <th>Endpoint</th>
              <th>Transport</th>
              <th>Version</th>
              <th>Capabilities</th>
              <th>Started</th>
              <th>Ended</th>
              <th>Lived</th>
              <th>Subscriptions</th>
              <th>Channel</th>
              <th>Streams</th>
            </tr>
          </thead>
          <tbody>
            {entries.length === 0 ? (
              <tr>
                <td colSpan={11} class="muted">
                  {all.length === 0 ? 'No sessions yet.' : 'No session matches the filter.'}
                </td>
              </tr>
            ) : (
              entries.map((e) => {
                const s = e.session;
                return (
                  <tr
                    key={e.key}
                    class={`session-row${s.open ? ' open' : ' ended'}`}
                    data-session={e.key}
                    data-kind={s.kind}
                    data-end-cause={s.endCause ?? ''}
                    tabIndex={0}
                    onClick={() => onOpen(e.key)}
                    onKeyDown={(k) => {
                      // Enter or Space, as a button (the row opens the session's drawer).
                      if (k.key === 'Enter' || k.key === ' ') {
                        k.preventDefault();
                        onOpen(e.key);
                      }
                    }}
                  >
                    <td title={e.key}>
                      {s.kind === 'listen' ? '⇶ ' : '◆ '}
                      {e.label}
                    </td>
                    <td title={s.endpoint}>{s.endpoint}</td>
                    <td>
                      {s.transport} <span class="muted">{s.generation}</span>
                    </td>
                    <td>
                      {s.notInitialized ? (
                        <span class="no" title={NOT_INITIALIZED}>
                          not initialized
                        </span>
                      ) : (
                        (s.version ?? '—')
                      )}
                    </td>
                    <td>{e.capabilities ? e.capabilities.join(', ') || '(none)' : s.kind === 'listen' ? `subscribe: ${e.client?.serverSubscribe ?? '?'}` : '—'}</td>
                    <td>
                      {formatClock(s.startT)}
                      {s.observedFromStart ? '' : ' *'}
                    </td>
                    <td>{s.open ? <span class="yes">open</span> : `${formatClock(s.endT ?? s.startT)} · ${s.endCause ?? '?'}`}</td>
                    <td>{formatDuration(e.durationMs)}</td>
                    <td title={s.subscriptions.join('\n')}>{s.subscriptions.length}</td>
                    <td>{s.deliveryChannelOpen ? <span class="yes">open</span> : <span class="no">none</span>}</td>
                    <td>{e.streams.map((st) => `${st.kind}${st.open ? '' : ` (${st.outcome ?? 'closed'})`}`).join(', ') || '—'}</td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
        {entries.some((e) => !e.session.observedFromStart) ? (
          <p class="muted note" data-note="mid-way">
            {midWayNote(entries.filter((e) => !e.session.observedFromStart).map((e) => e.session.kind))}
          </p>
        ) : null}
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
                    <td>{m.value}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        ))}
      </section>
    </div>
  );
}

