// A windowed list with fixed-height rows: only the visible rows are in the DOM, so 100k rows scroll smoothly. With
// `follow`, it keeps to the end while the user is scrolled to the bottom (live tail) and stays put otherwise;
// `reveal` is the selected row, scrolled into view when the selection changes (another row, by `keyOf`), not when
// rows come or go around it; the keyboard moves it (`onMove`) and opens it (`onOpen`). Rows that come or go above
// the view (live, or the log trimmed at its cap) leave the rows in view where they are, as in Chrome's Network panel;
// scrolled to the top it stays at the top and shows the new rows there. The
// `columns` heads are the grid's first row, inside the grid for assistive technology and sticky at the top: they
// scroll sideways with the rows, never up and away. Rows are numbered from 2 (`aria-rowindex`, by the caller) then.
import type { AriaRole, ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { isNavKey, moveIndex } from '../model/uri-table.ts';

export interface Column {
  label: string;
  title?: string;
}

/** A grid's row of column heads (`inGrid`: its first row, sticky; else a plain heading above an empty grid). */
export function HeadRow({ columns, class: cls, inGrid = true }: { columns: readonly Column[]; class: string; inGrid?: boolean }) {
  return (
    <div class={inGrid ? `${cls} vlist-head` : cls} role={inGrid ? 'row' : undefined} aria-rowindex={inGrid ? 1 : undefined} aria-hidden={inGrid ? undefined : 'true'}>
      {columns.map((c) => (
        <span key={c.label} role={inGrid ? 'columnheader' : undefined} title={c.title}>
          {c.label}
        </span>
      ))}
    </div>
  );
}

interface Props {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ComponentChildren;
  /** Changes whenever the content changes (to re-follow the tail). */
  version: number;
  label: string;
  follow?: boolean;
  /** The selected row's index: scrolled into view (the least needed) when the selection moves to another row. */
  reveal?: number | undefined;
  /** A row's identity (stable while rows are inserted, removed or re-sorted around it). */
  keyOf: (index: number) => string;
  class?: string;
  tabIndex?: number;
  /** The keyboard moved the selection to row `index` (arrows, Home/End, PgUp/PgDn by the rows in sight). */
  onMove?: (index: number) => void;
  /** Enter on the selected row (`reveal`). */
  onOpen?: (index: number) => void;
  role?: AriaRole;
  activeId?: string | undefined;
  /** A double click on a row opens it: its second press selects no text. */
  doubleClickOpens?: boolean;
  /** The column heads: the grid's first row, `rowHeight` tall, with class `headClass`. */
  columns?: readonly Column[];
  headClass?: string;
}

const OVERSCAN = 8;

export function VirtualList({ count, rowHeight, renderRow, version, label, follow = false, reveal, keyOf, class: cls, tabIndex, onMove, onOpen, role = 'grid', activeId, columns, headClass = '', doubleClickOpens = false }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const height = useClientHeight(ref);
  // At the end and to stay there (`follow`): said by each scroll event, and by this list when it scrolls itself.
  const following = useRef(true);
  const atEnd = (el: HTMLElement) => atEndOf(el, rowHeight);

  // The rows in view at the last render, by key, from index `at`: after a change, the shift most of them moved by
  // (rows inserted or removed above) is scrolled by, so they stay in place. The most, not one anchor: a row in view
  // that moved on its own (its status turned into a problem and it sorts to the top) must not take the view along.
  const inView = useRef<{ at: number; keys: string[] } | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const before = inView.current;
    // A followed tail is the effect below's; at the top the view stays at the top (new rows show there). The tail is
    // asked first: el.scrollTop makes the browser lay the page out, rows just drawn and all.
    if (before && !(follow && following.current) && el.scrollTop > 0) {
      let moved = false;
      for (let j = 0; j < before.keys.length && !moved; j++) moved = before.at + j >= count || keyOf(before.at + j) !== before.keys[j];
      if (moved) {
        // Rarely (the rows in view moved): one pass over the rows, not a search per key.
        const was = new Map(before.keys.map((k, j) => [k, before.at + j]));
        const votes = new Map<number, number>();
        for (let i = 0; i < count; i++) {
          const old = was.get(keyOf(i));
          if (old !== undefined) votes.set(i - old, (votes.get(i - old) ?? 0) + 1);
        }
        let shift = 0;
        let most = 0;
        for (const [d, n] of votes) if (n > most || (n === most && Math.abs(d) < Math.abs(shift))) [shift, most] = [d, n];
        if (shift !== 0) {
          el.scrollTop += shift * rowHeight;
          following.current = atEnd(el);
          setScrollTop(el.scrollTop);
        }
      }
    }
  });

  // The effects kept from one render to a later one (those with dependencies) are set up by hooks of their own, below:
  // a closure made in this render holds its scope, `keyOf` and `renderRow` with it, and they hold the caller's render
  // and its engine snapshot. The Sessions view's list, whose count and selection hardly change, kept an engine the
  // panel had replaced after a trim at the log's cap alive that way (tests/bench/panel-heap.ts, docs/panel.md).
  useFollowTail(ref, following, setScrollTop, follow, [version, count, follow, height]);
  const revealKey = reveal !== undefined && reveal >= 0 && reveal < count ? keyOf(reveal) : undefined;
  useReveal(ref, following, setScrollTop, revealKey, reveal, rowHeight, columns === undefined ? 0 : rowHeight);

  // Noted last, once the effects above have scrolled: the rows in view now (below the sticky header, if any).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const at = Math.floor(el.scrollTop / rowHeight);
    const keys: string[] = [];
    for (let i = at; i < Math.min(count, at + Math.ceil(el.clientHeight / rowHeight)); i++) keys.push(keyOf(i));
    inView.current = { at, keys };
  });

  // A list that just shrank (a filter) is still scrolled where the longer one was until the browser clamps it and says
  // so in a scroll event: clamped here, the rows are there in this very render, not one scroll event later. A followed
  // tail is drawn at the end the effect above scrolls to: drawn where the view was, then again at the end once that
  // scroll is in the state, each commit drew its rows twice and laid the page out twice (live, at 1,000 frames/s the
  // window moves by more than its rows each commit: every row is new each time).
  const end = Math.max(0, (count + (columns === undefined ? 0 : 1)) * rowHeight - height);
  const top = follow && following.current ? end : Math.min(scrollTop, end);
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + height) / rowHeight) + OVERSCAN);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(i));

  return (
    <div
      ref={ref}
      class={`vlist${cls ? ` ${cls}` : ''}`}
      role={role}
      aria-label={label}
      aria-rowcount={columns === undefined ? count : count + 1}
      aria-activedescendant={activeId}
      tabIndex={tabIndex}
      onKeyDown={(e) => {
        const selected = reveal ?? -1;
        if (isNavKey(e.key) && onMove) {
          e.preventDefault();
          const page = Math.max(1, Math.floor(height / rowHeight) - (columns === undefined ? 0 : 1));
          const to = moveIndex(count, selected, e.key, page);
          if (to >= 0) onMove(to);
        } else if (e.key === 'Enter' && onOpen && selected >= 0) {
          e.preventDefault();
          onOpen(selected);
        }
      }}
      // Where a double click opens a row's details (the URI table), it selected the word under the pointer as well:
      // there the second press of a double click selects nothing; a drag still selects. Elsewhere (Messages: an id or
      // a session double-clicked to copy it) words select as usual.
      onMouseDown={
        doubleClickOpens
          ? (e) => {
              if (e.detail > 1) e.preventDefault();
            }
          : undefined
      }
      onScroll={(e) => {
        const el = e.currentTarget;
        following.current = atEnd(el);
        setScrollTop(el.scrollTop);
      }}
    >
      {columns === undefined ? null : <HeadRow columns={columns} class={headClass} />}
      <div class="vlist-sizer" style={{ height: `${count * rowHeight}px`, position: 'relative' }}>
        <div style={{ position: 'absolute', top: `${first * rowHeight}px`, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
}

/** At the end of the list (within a row): a followed tail stays there. */
function atEndOf(el: HTMLElement, rowHeight: number): boolean {
  return el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight;
}

/** The list's height, followed as it is resized. */
function useClientHeight(ref: { readonly current: HTMLElement | null }): number {
  const [height, setHeight] = useState(400);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return height;
}

/**
 * The tail is drawn where it will be (see `top` in VirtualList), so this scroll finds its rows in place. Also on a
 * resize: a shorter view would be left above the tail drawn for it.
 */
function useFollowTail(ref: { readonly current: HTMLElement | null }, following: { current: boolean }, setScrollTop: (t: number) => void, follow: boolean, deps: unknown[]): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && follow && following.current) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, deps);
}

/**
 * The selection is revealed when it is another row than the one last revealed (a click, the keyboard, a finding
 * opened elsewhere), or back in the list (a filter had hidden it) — not when its index changes because rows were
 * inserted above it or it was re-sorted live: that scrolled the view away from where the user was reading. The sticky
 * header (`headerHeight`) covers the top of the view: a row is in view below it.
 */
function useReveal(
  ref: { readonly current: HTMLElement | null },
  following: { current: boolean },
  setScrollTop: (t: number) => void,
  revealKey: string | undefined,
  reveal: number | undefined,
  rowHeight: number,
  headerHeight: number,
): void {
  const revealed = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (revealKey === revealed.current) return;
    revealed.current = revealKey;
    if (!el || revealKey === undefined) return;
    const top = headerHeight + reveal! * rowHeight;
    if (top < el.scrollTop + headerHeight) el.scrollTop = top - headerHeight;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    following.current = atEndOf(el, rowHeight);
    setScrollTop(el.scrollTop);
  }, [revealKey]);
}
