// The typed message protocol between the runtime contexts, defined once. Hook → relay travels as a JSON string in a
// CustomEvent on the page's document (a name page scripts do not listen to, so the page never sees a stray `message`
// event); relay → background and panel ↔ background travel on long-lived runtime ports.
import type { Frame, PageFrame } from './frames.ts';
import type { CaptureConfig, Settings } from './settings.ts';

/** Protocol tag carried by every hook → relay message; the relay drops anything without it. */
export const PAGE_TAG = 'mcp-devtools/1';
/** CustomEvent type the hook dispatches on `document` with a JSON string detail (HookToRelay). */
export const HOOK_EVENT = 'mcp-devtools:hook';
/** CustomEvent type the hook dispatches when it installs, so a relay that started first answers with RELAY_READY_EVENT. */
export const HOOK_HELLO_EVENT = 'mcp-devtools:hook-hello';
/** CustomEvent type the relay dispatches on `document` when it is listening (detail: PAGE_TAG). */
export const RELAY_READY_EVENT = 'mcp-devtools:relay-ready';
/** CustomEvent type the relay dispatches when the extension went away (reloaded, removed): the hook stops capturing. */
export const RELAY_GONE_EVENT = 'mcp-devtools:relay-gone';
/**
 * CustomEvent type the hook dispatches once, when its document first speaks MCP (detail: PAGE_TAG): the relay then
 * connects to the background, which answers with the capture settings. (Until then a page costs the worker nothing.)
 */
export const HOOK_WAKE_EVENT = 'mcp-devtools:hook-wake';
/** CustomEvent type the relay dispatches with the capture settings (detail: JSON of { tag, config: CaptureConfig }). */
export const CAPTURE_CONFIG_EVENT = 'mcp-devtools:config';

export interface HookToRelay {
  tag: typeof PAGE_TAG;
  frames: PageFrame[];
}

export const RELAY_PORT = 'mcp-devtools/relay';
export const PANEL_PORT = 'mcp-devtools/panel';

/**
 * Relay → background: hook messages exactly as the page sent them (JSON strings of HookToRelay). The relay only checks
 * where they came from and their tag prefix; parsing and shape validation happen in the background, off the page's
 * thread. `batch` counts up per relay so the background can acknowledge it and drop re-sends.
 */
export interface RelayBatch {
  type: 'frames';
  /** Random id of the relay instance (isolated world: the page cannot forge it); with `batch` it makes re-sends idempotent. */
  relay: string;
  batch: number;
  payloads: string[];
  /** Messages the relay dropped since its last batch (wrong target, type or tag), for the tab's counters. */
  rejected: number;
  /** First problem seen among the rejected ones, for the panel's status line. */
  rejectedWhy?: string;
  /** Frames the relay had to drop (its buffer overflowed while the background was unreachable): counted as dropped. */
  lost?: number;
}

/** The exact prefix JSON.stringify gives a HookToRelay (property order is insertion order). */
export const HOOK_MESSAGE_PREFIX = `{"tag":"${PAGE_TAG}","frames":`;

/** Background → relay: every frame of `batch` (and all before it) is persisted; the relay may forget them. */
export interface RelayAck {
  type: 'ack';
  batch: number;
}

/**
 * Background → relay, on connect and whenever it changes: whether a panel shows this tab. While one does, the relay
 * forwards within 10 ms (the panel is live); while none does, it gathers for 500 ms, since each message wakes the
 * worker and leads to an IndexedDB transaction in the browser process, which competes with the page for CPU
 * (docs/architecture.md, "Pace").
 */
export interface RelayPace {
  type: 'pace';
  live: boolean;
}

/** Background → relay, on connect and whenever the settings change: what the hook should apply. */
export interface RelayConfig {
  type: 'config';
  config: CaptureConfig;
}

/** Counters shown in the panel's status line; never silent loss. */
export interface TabStats {
  tabId: number;
  /** Frames currently in the log. */
  frames: number;
  /** Bytes (approximate, JSON length) currently in the log. */
  bytes: number;
  /** Frames removed because the log hit its cap (oldest first). */
  dropped: number;
  /** Messages from the page the relay or the background refused (forged / malformed). */
  rejected: number;
  rejectedWhy?: string;
  /** The last sequence number handed out. */
  lastSeq: number;
  /**
   * Frames the cap's trim kept of those it dropped (the openers of exchanges still going on, the current page's
   * page-start; background/trim-keep.ts), by seq: the log holds these and every seq from lastSeq - (frames -
   * kept.length) + 1 on. Absent when none.
   */
  kept?: number[];
  /** The current page segment. */
  segment: number;
  /** Open error-level findings (also on the badge). */
  errors: number;
}

/** Panel → background. `since` = the last seq the panel already has (0 for none): the backlog starts after it. */
export type PanelToBackground =
  | { type: 'hello'; tabId: number; since: number }
  | { type: 'clear' }
  /** Replace the settings (validated by the background; answered with `settings` or `settings-error`). */
  | { type: 'settings-set'; settings: Settings }
  /** A panel without a tab (offline, for an imported trace) asks for the saved settings; answered with `settings`. */
  | { type: 'settings-get' };

/** Background → panel. The backlog arrives in chunks; `done` marks the last one, after which live frames follow. */
export type BackgroundToPanel =
  | { type: 'backlog'; frames: Frame[]; done: boolean }
  | { type: 'frames'; frames: Frame[] }
  /**
   * `keptUnchanged`: `stats.kept` is left out, being what the last stats sent to this panel said (it changes only at a
   * trim; up to ~1,000 seqs went out with every batch's stats). The panel takes it from those.
   */
  | { type: 'stats'; stats: TabStats; keptUnchanged?: true }
  /** `kept`: how many exchanges still open the clear kept the opening frames of (they follow as 'frames'). */
  | { type: 'cleared'; stats: TabStats; kept?: number }
  /** The current settings: sent after hello and to every panel whenever they change. */
  | { type: 'settings'; settings: Settings }
  | { type: 'settings-error'; error: string }
  /** The background failed at something the panel asked for (reading the log, clearing it): shown as a banner. */
  | { type: 'error'; error: string; /** The panel's tab does not exist: nothing will ever be captured there. */ noTab?: boolean };
