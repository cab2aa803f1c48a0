// A URI is shown in two parts (its head, cut with an ellipsis, and its tail: UriText), laid out side by side as flex
// items. Chrome's selection text puts a line break between two flex items, so Ctrl+C on a URI gave
// "file:///docs\n/policy.md". The copy handler here puts the URI back in one piece, for a selection inside one URI
// and for one across rows: only the breaks between a head and its tail go; those between rows and cells stay.

/** The part of `el`'s text inside `range` (all of it when the range covers it). */
function selectedPart(el: Element, range: Range): string {
  const r = document.createRange();
  r.selectNodeContents(el);
  if (range.compareBoundaryPoints(Range.START_TO_START, r) > 0) r.setStart(range.startContainer, range.startOffset);
  if (range.compareBoundaryPoints(Range.END_TO_END, r) < 0) r.setEnd(range.endContainer, range.endOffset);
  return r.collapsed ? '' : r.toString();
}

/** The selection's text with no line break inside a URI; null when it crosses no URI's two parts. */
export function selectionTextWithWholeUris(sel: Selection): string | null {
  if (sel.rangeCount === 0 || sel.isCollapsed) return null;
  const range = sel.getRangeAt(0);
  const common = range.commonAncestorContainer;
  const root = common.nodeType === Node.ELEMENT_NODE ? (common as Element) : common.parentElement;
  if (!root) return null;
  const inside = root.closest('.uri');
  const heads = inside ? Array.from(inside.querySelectorAll('.uri-head')) : Array.from(root.querySelectorAll('.uri-head'));
  let text = sel.toString();
  let from = 0;
  let changed = false;
  for (const head of heads) {
    const tail = head.nextElementSibling;
    if (!tail?.classList.contains('uri-tail') || !range.intersectsNode(head) || !range.intersectsNode(tail)) continue;
    const h = selectedPart(head, range);
    const t = selectedPart(tail, range);
    if (h === '' || t === '') continue;
    const m = new RegExp(`${escapeRegExp(h)}(\\r?\\n)${escapeRegExp(t)}`, 'g');
    m.lastIndex = from;
    const found = m.exec(text);
    if (!found) continue;
    text = text.slice(0, found.index + h.length) + text.slice(found.index + h.length + found[1]!.length);
    from = found.index + h.length + t.length;
    changed = true;
  }
  return changed ? text : null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Copies (Ctrl+C, the context menu) a selection crossing URIs without the line breaks between their parts. */
export function installUriCopy(doc: Document): void {
  doc.addEventListener('copy', (e) => {
    const sel = doc.getSelection();
    const text = sel ? selectionTextWithWholeUris(sel) : null;
    if (text === null || !e.clipboardData) return;
    e.clipboardData.setData('text/plain', text);
    e.preventDefault();
  });
}
