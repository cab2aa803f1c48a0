// DevTools' own Find (Ctrl/⌘+F in the devtools window) drives the panel's filter. Inside devtools the key never
// reaches the panel's own handler in time: DevTools opens its Find bar over every extension panel (ExtensionPanel is a
// SearchableView) and tells the extension what is typed there through `ExtensionPanel.onSearch`. The devtools page
// (extension/devtools.ts) forwards those calls to the panel's window (given by `onShown`) as a message; the panel
// (App.tsx) applies them: the query becomes the filter, Enter / Shift+Enter in the bar step the view's selection, and
// closing the bar clears the filter when it still holds what Find put there. As a tab the panel has no Find bar and its
// own Ctrl/⌘+F focuses the filter, as before.

export const DEVTOOLS_SEARCH = 'mcp-devtools-search';

export type SearchAction = 'performSearch' | 'cancelSearch' | 'nextSearchResult' | 'previousSearchResult';

export interface SearchMessage {
  type: typeof DEVTOOLS_SEARCH;
  action: SearchAction;
  query: string;
}

const ACTIONS: readonly string[] = ['performSearch', 'cancelSearch', 'nextSearchResult', 'previousSearchResult'];

/** A search call as a message, or null for an action this panel does not know. */
export function searchMessage(action: string, query?: string): SearchMessage | null {
  return ACTIONS.includes(action) ? { type: DEVTOOLS_SEARCH, action: action as SearchAction, query: typeof query === 'string' ? query : '' } : null;
}

export function isSearchMessage(data: unknown): data is SearchMessage {
  const m = data as Partial<SearchMessage> | null;
  return typeof m === 'object' && m !== null && m.type === DEVTOOLS_SEARCH && typeof m.action === 'string' && ACTIONS.includes(m.action) && typeof m.query === 'string';
}

interface ListenerEvent<F> {
  addListener(f: F): void;
}

/** The part of chrome.devtools.panels.ExtensionPanel used here. */
export interface SearchablePanel {
  onShown: ListenerEvent<(win: Window) => void>;
  onSearch: ListenerEvent<(action: string, query?: string) => void>;
}

/**
 * Forwards the panel's search calls to its window (the last one `onShown` gave: devtools may load the panel's page
 * afresh). A call before the panel was first shown has no window to go to and is dropped (there is no Find bar then).
 */
export function forwardSearch(panel: SearchablePanel, origin: string): void {
  let win: Window | undefined;
  panel.onShown.addListener((w) => (win = w));
  panel.onSearch.addListener((action, query) => {
    const m = searchMessage(action, query);
    if (m && win && !win.closed) win.postMessage(m, origin);
  });
}

/** What a search message does in the panel. */
export interface SearchTarget {
  /** The filter's text now. */
  filterText(): string;
  setFilterText(text: string): void;
  /** Moves the view's selection one row on (+1) or back (-1). */
  step(dir: 1 | -1): void;
}

/**
 * Applies search messages in order. It remembers what Find last put in the filter, so that closing the Find bar
 * clears only that: a filter the user has typed into since (or cleared) is theirs and stays.
 */
export function searchApplier(target: SearchTarget): (m: SearchMessage) => void {
  let fromFind: string | null = null;
  return (m) => {
    switch (m.action) {
      case 'performSearch':
        fromFind = m.query;
        target.setFilterText(m.query);
        break;
      case 'cancelSearch':
        if (fromFind !== null && target.filterText() === fromFind) target.setFilterText('');
        fromFind = null;
        break;
      case 'nextSearchResult':
        target.step(1);
        break;
      case 'previousSearchResult':
        target.step(-1);
        break;
    }
  };
}
