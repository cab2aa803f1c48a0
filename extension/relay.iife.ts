// The isolated-world bridge: page hook → background. It trusts nothing from the page: only CustomEvents dispatched on
// this document with a string detail carrying our tag pass; everything else is counted and dropped. It forwards the
// hook's JSON strings untouched — parsing and shape validation happen in the background, so the page's thread pays
// nothing for them. Each batch is kept until the background acknowledges it was persisted, and re-sent after the port
// reconnects (the service worker may be stopped at any moment). Nothing flows back to the page but the capture
// settings' body cap (the extra secret headers are redacted in the background: the page is not told their names).
import browser from 'webextension-polyfill';
import { Backoff } from '../shared/backoff.ts';
import { batchLength } from '../shared/batch.ts';
import {
  HOOK_EVENT,
  HOOK_HELLO_EVENT,
  HOOK_MESSAGE_PREFIX,
  HOOK_WAKE_EVENT,
  PAGE_TAG,
  RELAY_PORT,
  RELAY_READY_EVENT,
  CAPTURE_CONFIG_EVENT,
  RELAY_GONE_EVENT,
  type RelayAck,
  type RelayBatch,
  type RelayConfig,
  type RelayPace,
} from '../shared/messages.ts';

/** Forwarding delay while a panel shows this tab (see RelayPace). */
const LIVE_DELAY_MS = 10;
/** Forwarding delay while none does: a few messages a second instead of dozens (see RelayPace). */
const IDLE_DELAY_MS = 500;
const MAX_PAYLOADS_PER_BATCH = 50;
/**
 * A batch is closed at this many characters (one payload may be alone over it): Chrome refuses a runtime message over
 * 64 MiB, and a batch's serialized form may be a few times its characters (escaped JSON in JSON, UTF-8).
 */
const MAX_BATCH_CHARS = 8 * 1024 * 1024;
/** Unacknowledged data kept while the background is unreachable; beyond it the oldest goes, counted as lost. */
const MAX_UNACKED_CHARS = 32 * 1024 * 1024;

const relayId = crypto.randomUUID();
let port: browser.Runtime.Port | undefined;
let nextBatch = 1;
const unacked: RelayBatch[] = [];
let unackedChars = 0;
let lost = 0;
let orphaned = false;
let pending: string[] = [];
let rejected = 0;
let rejectedWhy: string | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
/** A reconnect waits for its backoff: until it runs, batches only queue (each connect re-sends every one unacknowledged). */
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
/** The page has gone (its page-end passed): every message is forwarded at once. */
let pageGone = false;
/** Whether a panel shows this tab (the background says so on connect and on every change). */
let live = false;
const backoff = new Backoff(50, 2000);

function reject(why: string): void {
  rejected++;
  rejectedWhy ??= why;
  schedule();
}

function onHookEvent(event: Event): void {
  if (event.target !== document || !(event instanceof CustomEvent) || typeof event.detail !== 'string') {
    return reject('not a string message on this document');
  }
  const detail = event.detail;
  if (!detail.startsWith(HOOK_MESSAGE_PREFIX)) return reject('missing or wrong protocol tag');
  pending.push(detail);
  // After pagehide no timer may run: a batch holding the page's end goes now, and so does everything after it (what
  // the page's own pagehide and unload handlers send), until the page comes back from the back/forward cache.
  if (pageGone || detail.includes('"kind":"page-end"')) {
    pageGone = true;
    flush();
  } else schedule();
}

function schedule(): void {
  if (timer === undefined) timer = setTimeout(flush, live ? LIVE_DELAY_MS : IDLE_DELAY_MS);
}

function flush(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  while (pending.length > 0 || rejected > 0 || lost > 0) {
    const payloads = pending.splice(0, batchLength(pending, MAX_PAYLOADS_PER_BATCH, MAX_BATCH_CHARS, lengthOf));
    const batch: RelayBatch = { type: 'frames', relay: relayId, batch: nextBatch++, payloads, rejected };
    if (rejectedWhy) batch.rejectedWhy = rejectedWhy;
    if (lost > 0) batch.lost = lost;
    rejected = 0;
    rejectedWhy = undefined;
    lost = 0;
    unacked.push(batch);
    unackedChars += sizeOf(batch);
    while (unackedChars > MAX_UNACKED_CHARS && unacked.length > 1) {
      const old = unacked.shift()!;
      unackedChars -= sizeOf(old);
      forget(old);
    }
    send(batch);
  }
}

/**
 * A batch that will never reach the background: its frames are counted as lost (said in the next batch) and what it
 * counted as rejected is carried on, so nothing goes uncounted.
 */
function forget(b: RelayBatch): void {
  lost += b.payloads.reduce((n, p) => n + countFrames(p), 0) + (b.lost ?? 0);
  rejected += b.rejected;
  if (b.rejectedWhy) rejectedWhy ??= b.rejectedWhy;
}

function lengthOf(payload: string): number {
  return payload.length;
}

function sizeOf(b: RelayBatch): number {
  return b.payloads.reduce((n, p) => n + p.length, 0);
}

/** Frames in a hook message, counted without parsing it (each frame has exactly one "kind" key at its top level). */
function countFrames(payload: string): number {
  return payload.split('"kind":"').length - 1;
}

/** The extension was reloaded or removed: this content script can do nothing more. Stop, and tell the hook to stop. */
function orphan(): void {
  if (orphaned) return;
  orphaned = true;
  port = undefined;
  unacked.length = 0;
  pending = [];
  document.removeEventListener(HOOK_EVENT, onHookEvent);
  document.removeEventListener(HOOK_HELLO_EVENT, announce);
  document.removeEventListener(HOOK_WAKE_EVENT, onWake);
  document.dispatchEvent(new CustomEvent(RELAY_GONE_EVENT, { detail: PAGE_TAG }));
}

/**
 * A prerendered page (speculation rules, the address bar's predictions) is not the tab's page yet, and may never be:
 * none of its frames reach the log until it is shown. The relay connects (the capture settings must come before the
 * hook's first frames go), but what the page sends waits here; at activation it goes on a new port, opened by the page
 * the tab now shows. A prerender thrown away sends nothing.
 */
function prerendering(): boolean {
  return (document as Document & { prerendering?: boolean }).prerendering === true;
}
if (prerendering()) {
  // Only the browser's own event, once the page is shown (a page script can dispatch one of its own).
  const onActivated = (e: Event) => {
    if (!e.isTrusted || prerendering()) return;
    document.removeEventListener('prerenderingchange', onActivated);
    reconnectFresh();
  };
  document.addEventListener('prerenderingchange', onActivated);
}

/**
 * A new port, if this document had one (a page that never spoke MCP stays unconnected); connect() re-sends what was not
 * acknowledged.
 */
function reconnectFresh(): void {
  const hadPort = port !== undefined || reconnectTimer !== undefined || unacked.length > 0;
  dropPort();
  if (hadPort && !orphaned) connect();
}

function send(batch: RelayBatch): void {
  if (prerendering()) return;
  if (!port) {
    // Waiting out a backoff: the batch goes with the re-send when it ends. Not once the page is going: no timer runs
    // then, so connect now.
    if (pageGone && reconnectTimer !== undefined) {
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
    }
    if (reconnectTimer === undefined) connect();
    return;
  }
  post(port, batch);
}

/** Posts a batch; one too large for the runtime is dropped (counted as lost), a dead port is closed and reconnected. */
function post(p: browser.Runtime.Port, batch: RelayBatch): boolean {
  try {
    p.postMessage(batch);
    return true;
  } catch (e) {
    // Chromium's words for a message over its limit ("…exceeded maximum allowed size…", older "…length exceeded…").
    if (/exceed|too large/i.test(String(e))) {
      const i = unacked.indexOf(batch);
      if (i >= 0) {
        unacked.splice(i, 1);
        unackedChars -= sizeOf(batch);
      }
      forget(batch);
      schedule();
      return true;
    }
    dropPort();
    reconnectLater();
    return false;
  }
}

/** Closes the port for good on our side (a port left open would stay registered in the background). */
function dropPort(): void {
  const p = port;
  port = undefined;
  try {
    p?.disconnect();
  } catch {
    // Already gone.
  }
}

function reconnectLater(): void {
  if (reconnectTimer !== undefined || orphaned) return;
  reconnectTimer = setTimeout(() => {
    reconnectTimer = undefined;
    connect();
  }, backoff.next());
}

function connect(): void {
  if (port || orphaned) return;
  try {
    port = browser.runtime.connect({ name: RELAY_PORT });
  } catch {
    return orphan();
  }
  port.onMessage.addListener((m: unknown) => {
    const msg = m as RelayAck | RelayConfig | RelayPace;
    if (msg?.type === 'pace') {
      live = msg.live === true;
      // A panel just opened: what waits goes now, and from now on within LIVE_DELAY_MS.
      if (live && timer !== undefined) flush();
      return;
    }
    if (msg?.type === 'config') {
      // The only thing that ever flows towards the page: how much to capture (the background sends no header names).
      document.dispatchEvent(new CustomEvent(CAPTURE_CONFIG_EVENT, { detail: JSON.stringify({ tag: PAGE_TAG, config: msg.config }) }));
      return;
    }
    if (msg?.type !== 'ack') return;
    backoff.reset();
    while (unacked.length > 0 && unacked[0]!.batch <= msg.batch) unackedChars -= sizeOf(unacked.shift()!);
  });
  const mine = port;
  port.onDisconnect.addListener(() => {
    if (port !== mine) return;
    port = undefined;
    // An invalidated extension context has no runtime id any more: nothing will ever answer again.
    if (!chrome.runtime?.id) return orphan();
    // The service worker stopped (or restarted): reconnect with backoff; connect() re-sends what was not acknowledged.
    reconnectLater();
  });
  if (prerendering()) return;
  for (const b of [...unacked]) if (!post(mine, b)) return;
}

document.addEventListener(HOOK_EVENT, onHookEvent);
// The page-end frame says it too, but a document that never spoke MCP sends none: its own pagehide or unload handler
// may still speak MCP first, after which no timer runs.
window.addEventListener('pagehide', (e) => {
  if (e.isTrusted) pageGone = true;
});
window.addEventListener('pageshow', (e) => {
  if (!e.isTrusted || !e.persisted) return;
  pageGone = false;
  // Back from the back/forward cache: Chrome closed the port on the background's side when the page went in, without
  // telling us (posting on it fails silently).
  reconnectFresh();
});
// The document spoke MCP for the first time: connect now, so the capture settings come before its first batch goes.
document.addEventListener(HOOK_WAKE_EVENT, onWake);
function onWake(event: Event): void {
  if (event.target !== document || !(event instanceof CustomEvent) || event.detail !== PAGE_TAG) return;
  connect();
}
// Whichever of hook and relay starts second completes the handshake.
document.addEventListener(HOOK_HELLO_EVENT, announce);
function announce(): void {
  document.dispatchEvent(new CustomEvent(RELAY_READY_EVENT, { detail: PAGE_TAG }));
}
announce();
