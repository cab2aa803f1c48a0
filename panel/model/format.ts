// Number and time formatting for the panel: dense, devtools-like, and the same everywhere (table, drawer, timeline).
// Pure; no Intl beyond what every Chromium has.

// The duration formatter is shared: the findings' details (shared/findings) say their durations as the panel does.
import { formatDuration } from '../../shared/duration.ts';
export { formatDuration };

/** "3 s ago" relative to now; "—" for never. */
export function formatAgo(t: number | undefined, now: number): string {
  if (t === undefined) return '—';
  return `${formatDuration(Math.max(0, now - t))} ago`;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Local wall-clock time with milliseconds: 10:27:51.123 */
export function formatClock(t: number): string {
  const d = new Date(t);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatShare(x: number | null): string {
  return x === null ? '—' : `${Math.round(x * 100)} %`;
}

/** A long id shortened for a cell (the full id goes in the title). */
export function shortId(id: string, n = 8): string {
  return id.length <= n + 1 ? id : `${id.slice(0, n)}…`;
}

/**
 * A long id shortened in the middle for a narrow cell (the full id goes in the title): its head and its tail stay, as
 * ids that share a start differ at the end — every WebSocket of a page is `<document id>.<n>`, and a 2026 listen's
 * `listen:12` must not read `listen:1`.
 */
export function middleId(id: string, n = 9): string {
  if (id.length <= n) return id;
  const tail = Math.ceil((n - 1) / 2) + 1;
  const head = n - 1 - tail;
  return `${id.slice(0, head)}…${id.slice(id.length - tail)}`;
}

/**
 * An age for a ticking table cell: whole seconds (the cell changes at most once a second), rounded as formatDuration
 * rounds — truncated, the table read `33 s` while the drawer read `34 s` for the same age (a UX audit). Under 10 s the
 * drawer shows a tenth (`3.6 s`), the cell the nearest second (`4 s`).
 */
export function formatAge(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1000) return '< 1 s';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return formatDuration(ms);
}

/** "just now" / "12 s ago" for a ticking table cell. */
export function formatAgoCoarse(t: number | undefined, now: number): string {
  if (t === undefined) return '—';
  const d = Math.max(0, now - t);
  return d < 1000 ? 'just now' : `${formatAge(d)} ago`;
}

/**
 * A DOM id for a row of `key`, one to one: every character but letters, digits and '-' is spelled as `_<hex>_`
 * (replacing them all with '_' gave file:///x/a.b and file:///x/a/b the same id, and the keyboard's active row
 * pointed at the other one: an audit, 2026-12-05).
 */
export function elementId(prefix: string, key: string): string {
  return prefix + key.replace(/[^a-zA-Z0-9-]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`);
}
