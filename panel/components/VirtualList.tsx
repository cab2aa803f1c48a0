// A windowed list with fixed-height rows: only the visible rows are in the DOM, so 100k rows scroll smoothly. With
// `follow`, it keeps to the end while the user is scrolled to the bottom (live tail) and stays put otherwise;
// `reveal` scrolls a row into view (keyboard selection). `header` is the grid's first row (its column heads), inside
// the grid for assistive technology and sticky at the top: it scrolls sideways with the rows, never up and away.
// Rows are numbered from 2 (`aria-rowindex`, by the caller) when there is a header.
import type { AriaRole, ComponentChildren, TargetedKeyboardEvent } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

interface Props {
  count: number;
  rowHeight: number;
  renderRow: (index: number) => ComponentChildren;
  /** Changes whenever the content changes (to re-follow the tail). */
  version: number;
  label: string;
  follow?: boolean;
  /** Index to keep visible (scrolls the least needed). */
  reveal?: number | undefined;
  class?: string;
  tabIndex?: number;
  /** `pageRows`: how many rows a page is (what PgUp / PgDn move by): the rows in sight. */
  onKeyDown?: (e: TargetedKeyboardEvent<HTMLDivElement>, pageRows: number) => void;
  role?: AriaRole;
  activeId?: string | undefined;
  /** The row of column heads (role="row" with role="columnheader" cells, class `vlist-head`), `rowHeight` tall. */
  header?: ComponentChildren;
}

const OVERSCAN = 8;

export function VirtualList({ count, rowHeight, renderRow, version, label, follow = false, reveal, class: cls, tabIndex, onKeyDown, role = 'grid', activeId, header }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const following = useRef(true);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el && follow && following.current) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [version, count, follow]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || reveal === undefined || reveal < 0) return;
    // The sticky header covers the top of the view: a row is in view below it.
    const headerHeight = header === undefined ? 0 : rowHeight;
    const top = headerHeight + reveal * rowHeight;
    if (top < el.scrollTop + headerHeight) el.scrollTop = top - headerHeight;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    setScrollTop(el.scrollTop);
  }, [reveal, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(i));

  return (
    <div
      ref={ref}
      class={`vlist${cls ? ` ${cls}` : ''}`}
      role={role}
      aria-label={label}
      aria-rowcount={header === undefined ? count : count + 1}
      aria-activedescendant={activeId}
      tabIndex={tabIndex}
      onKeyDown={onKeyDown && ((e) => onKeyDown(e, Math.max(1, Math.floor(height / rowHeight) - (header === undefined ? 0 : 1))))}
      onScroll={(e) => {
        const el = e.currentTarget;
        following.current = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight;
        setScrollTop(el.scrollTop);
      }}
    >
      {header}
      <div class="vlist-sizer" style={{ height: `${count * rowHeight}px`, position: 'relative' }}>
        <div style={{ position: 'absolute', top: `${first * rowHeight}px`, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
}
