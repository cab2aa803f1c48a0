// The views' event handlers, made once per store, outside any component. The views are memoized and keep the handlers
// of the render in which they last changed (Timeline, its lane labels, the URI table, Findings and Sessions ignore
// handler props on purpose). A handler written inline in a component's render holds that render's scope, and with it
// that render's engine snapshot — whose message list is the whole of an engine the panel has since replaced after a
// trim at the log's cap. A lane label nobody re-rendered kept one such engine alive each: measured, the panel's heap grew
// 530 KB per 1,000 frames with the log at its default caps (tests/bench/panel-heap.ts, docs/panel.md). These close over
// the store only.
import type { PanelStore } from '../store.ts';

export interface ViewHandlers {
  /** Selects a URI row (null: none); an open URI drawer follows the selection. */
  selectUri: (key: string | null) => void;
  /** Selects a URI and opens it in the drawer. */
  openUri: (key: string) => void;
  openFinding: (key: string) => void;
  openSession: (key: string) => void;
  openMessage: (index: number) => void;
  openFrame: (seq: number) => void;
  selectMessage: (key: string) => void;
  scrub: (t: number | null) => void;
  closeDrawer: () => void;
}

const made = new WeakMap<PanelStore, ViewHandlers>();

export function viewHandlers(store: PanelStore): ViewHandlers {
  let h = made.get(store);
  if (!h) made.set(store, (h = handlersOf(store)));
  return h;
}

function handlersOf(store: PanelStore): ViewHandlers {
  return {
    selectUri: (key) => {
      store.selected.value = key;
      if (key !== null && store.drawer.value?.kind === 'uri') store.drawer.value = { kind: 'uri', key };
    },
    openUri: (key) => {
      store.selected.value = key;
      store.drawer.value = { kind: 'uri', key };
    },
    openFinding: (key) => (store.drawer.value = { kind: 'finding', key }),
    openSession: (key) => (store.drawer.value = { kind: 'session', key }),
    openMessage: (index) => (store.drawer.value = { kind: 'message', index }),
    openFrame: (seq) => (store.drawer.value = { kind: 'frame', seq }),
    selectMessage: (key) => (store.messageSelected.value = key),
    scrub: (t) => store.requestScrub(t),
    closeDrawer: () => (store.drawer.value = null),
  };
}
