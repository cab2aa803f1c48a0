// The text a VNode tree of plain elements renders (no components to call: StatusBar and the like, called as functions).
import type { ComponentChildren, VNode } from 'preact';

export function vnodeText(c: ComponentChildren): string {
  if (c === null || c === undefined || typeof c === 'boolean') return '';
  if (typeof c === 'string' || typeof c === 'number' || typeof c === 'bigint') return String(c);
  if (Array.isArray(c)) return c.map(vnodeText).join('');
  return vnodeText((c as VNode<{ children?: ComponentChildren }>).props.children);
}
