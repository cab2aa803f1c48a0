// Status line: connection state and the tab's counters. Dropped and rejected counts are always visible: never silent loss.
import type { TabStats } from '../../shared/messages.ts';

const LABEL = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline' } as const;

export function StatusBar({ status, stats }: { status: keyof typeof LABEL; stats: TabStats | null }) {
  return (
    <div class="status-bar" role="status" data-status={status}>
      <span class={`status-dot ${status}`} aria-hidden="true" />
      <span class="status-text">{LABEL[status]}</span>
      <span data-count="frames">{stats?.frames ?? 0} frames</span>
      <span data-count="dropped" class={stats?.dropped ? 'warn' : ''}>
        {stats?.dropped ?? 0} dropped
      </span>
      <span data-count="rejected" class={stats?.rejected ? 'warn' : ''} title={stats?.rejectedWhy ?? ''}>
        {stats?.rejected ?? 0} rejected
      </span>
    </div>
  );
}
