// DevTools' Find bar over the MCP panel (real devtools window) drives the panel's filter: extension/devtools.ts
// forwards ExtensionPanel.onSearch to the panel's window, the panel applies it (review 2026-12-06: Ctrl+F there opened
// DevTools' own Find bar and the filter stayed empty).
import { describe, expect, it } from 'vitest';
import { forwardSearch, isSearchMessage, searchApplier, searchMessage, type SearchablePanel, type SearchMessage } from '../../../panel/devtools-search.ts';

function fakePanel() {
  let shown: ((w: Window) => void) | undefined;
  let search: ((action: string, query?: string) => void) | undefined;
  const panel: SearchablePanel = {
    onShown: { addListener: (f) => (shown = f) },
    onSearch: { addListener: (f) => (search = f) },
  };
  return { panel, show: (w: Window) => shown!(w), search: (a: string, q?: string) => search!(a, q) };
}

function fakeWindow() {
  const posted: [unknown, string][] = [];
  return { posted, win: { closed: false, postMessage: (m: unknown, o: string) => posted.push([m, o]) } as unknown as Window };
}

describe('forwardSearch', () => {
  it('posts each search call to the window the panel was last shown in, for the extension origin only', () => {
    const p = fakePanel();
    forwardSearch(p.panel, 'chrome-extension://abc');
    // Not shown yet: nowhere to go (no Find bar either), nothing thrown.
    p.search('performSearch', 'early');
    const a = fakeWindow();
    p.show(a.win);
    p.search('performSearch', 'policy');
    p.search('nextSearchResult');
    p.search('cancelSearch');
    p.search('somethingNew', 'x');
    expect(a.posted).toEqual([
      [{ type: 'mcp-devtools-search', action: 'performSearch', query: 'policy' }, 'chrome-extension://abc'],
      [{ type: 'mcp-devtools-search', action: 'nextSearchResult', query: '' }, 'chrome-extension://abc'],
      [{ type: 'mcp-devtools-search', action: 'cancelSearch', query: '' }, 'chrome-extension://abc'],
    ]);
    // Devtools loaded the panel's page afresh: the new window gets them.
    const b = fakeWindow();
    p.show(b.win);
    p.search('performSearch', 'uri:file:///**');
    expect(b.posted).toHaveLength(1);
    expect(a.posted).toHaveLength(3);
  });

  it('accepts only well-formed search messages', () => {
    expect(isSearchMessage(searchMessage('previousSearchResult'))).toBe(true);
    expect(isSearchMessage({ type: 'mcp-devtools-search', action: 'eval', query: '' })).toBe(false);
    expect(isSearchMessage({ type: 'other', action: 'performSearch', query: 'x' })).toBe(false);
    expect(isSearchMessage(null)).toBe(false);
  });
});

describe('searchApplier', () => {
  function target(initial = '') {
    let text = initial;
    const steps: number[] = [];
    return { steps, get: () => text, t: { filterText: () => text, setFilterText: (s: string) => (text = s), step: (d: 1 | -1) => steps.push(d) } };
  }
  const m = (action: SearchMessage['action'], query = ''): SearchMessage => searchMessage(action, query)!;

  it('puts the query in the filter and clears it when the Find bar closes', () => {
    const x = target();
    const apply = searchApplier(x.t);
    apply(m('performSearch', 'pol'));
    apply(m('performSearch', 'policy'));
    expect(x.get()).toBe('policy');
    apply(m('cancelSearch'));
    expect(x.get()).toBe('');
  });

  it('leaves a filter the user typed since, or that Find never set', () => {
    const x = target('is:error');
    const apply = searchApplier(x.t);
    apply(m('cancelSearch'));
    expect(x.get()).toBe('is:error');
    apply(m('performSearch', 'policy'));
    x.t.setFilterText('policy method:resources/read');
    apply(m('cancelSearch'));
    expect(x.get()).toBe('policy method:resources/read');
  });

  it('steps the selection on Enter / Shift+Enter', () => {
    const x = target();
    const apply = searchApplier(x.t);
    apply(m('nextSearchResult'));
    apply(m('nextSearchResult'));
    apply(m('previousSearchResult'));
    expect(x.steps).toEqual([1, 1, -1]);
  });
});
