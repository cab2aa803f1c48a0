// The findings view: every finding of the view (open ones first, worst first), including those about a session rather
// than a URI (an expired session never re-initialized, a missing protocol header, a version regression). A click
// opens the finding — explanation, evidence, fix — in the drawer.
import type { Finding, SessionView } from '../../shared/engine/index.ts';
import { COVERAGE_REASONS } from '../../shared/findings/catalogue.ts';
import type { Filter } from '../model/filter.ts';
import { findingMatches, sortFindings } from '../model/findings-view.ts';
import { formatClock } from '../model/format.ts';

/** The reason in words ("lost on re-initialize"), not its code. */
function reasonLabel(reason: string): string {
  return (COVERAGE_REASONS as Record<string, { label: string } | undefined>)[reason]?.label ?? reason;
}

export function FindingsView({ findings, sessions, filter, onOpen }: { findings: readonly Finding[]; sessions: readonly SessionView[]; filter: Filter; onOpen: (key: string) => void }) {
  const shown = sortFindings(findings).filter((f) => findingMatches(f, filter, sessions));
  return (
    <div class="findings-view">
      <table class="findings-table" aria-label="Findings">
        <thead>
          <tr>
            <th>Severity</th>
            <th>Finding</th>
            <th>URI</th>
            <th>Session</th>
            <th>Detail</th>
            <th>First</th>
            <th>Last</th>
            <th>Count</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={9} class="muted">
                {findings.length === 0 ? 'No findings: nothing looks wrong so far.' : 'No finding matches the filter.'}
              </td>
            </tr>
          ) : (
            shown.map((f) => (
              <tr
                key={f.key}
                class={`finding-row finding-${f.severity}${f.open ? ' open' : ' closed'}`}
                data-finding-id={f.id}
                data-severity={f.severity}
                data-uri={f.uri ?? ''}
                data-open={f.open}
                tabIndex={0}
                onClick={() => onOpen(f.key)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') onOpen(f.key);
                }}
              >
                <td class={`sev sev-${f.severity}`}>{f.severity}</td>
                <td title={f.id}>{f.title}</td>
                <td class="uri" title={f.uri ?? ''}>
                  {f.uri ?? '—'}
                </td>
                <td title={f.session ?? ''}>{f.session ?? '—'}</td>
                <td title={f.detail ?? ''}>{f.reason ? `${reasonLabel(f.reason)}: ` : ''}{f.detail ?? ''}</td>
                <td>{formatClock(f.firstT)}</td>
                <td>{formatClock(f.lastT)}</td>
                <td>{f.count}</td>
                <td>{f.open ? 'open' : 'past'}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
