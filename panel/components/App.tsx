// The panel's root (first version): status line and the live frame list, with an empty state that says what to do.
import type { PanelStore } from '../store.ts';
import { FrameList } from './FrameList.tsx';
import { StatusBar } from './StatusBar.tsx';

export function App({ store, onClear }: { store: PanelStore; onClear: () => void }) {
  const version = store.version.value;
  const rows = store.rows.rows;
  return (
    <div class="app">
      <div class="toolbar">
        <button type="button" onClick={onClear} aria-label="Clear log" title="Clear log">
          ⊘ Clear
        </button>
        <StatusBar status={store.status.value} stats={store.stats.value} />
      </div>
      {rows.length === 0 ? (
        <div class="empty" data-empty="true">
          No MCP traffic captured in this tab yet. Reload the page to capture from its first request.
        </div>
      ) : (
        <FrameList rows={rows} version={version} />
      )}
    </div>
  );
}
