// Stamps frames (doc, n, t) and hands them to the relay in batches, as a JSON string in a CustomEvent on `document`.
// Frames wait in a queue until the relay has said it listens (handshake), so the page's first requests are never lost.
// A document's page-start is held until its first MCP frame: pages that never speak MCP send nothing at all.
// Never throws into the page; never changes what the page sees.
import type { FrameDraft, PageFrame } from '../../shared/frames.ts';
import { HOOK_EVENT, HOOK_HELLO_EVENT, HOOK_WAKE_EVENT, PAGE_TAG, RELAY_GONE_EVENT, RELAY_READY_EVENT, type HookToRelay } from '../../shared/messages.ts';
import { batchLength } from '../../shared/batch.ts';
import { DEFAULT_BODY_CAP_BYTES, recapPayload } from '../../shared/payload.ts';
import { isRedacted, redactUrlsIn, redactValue } from '../../shared/redact.ts';
import type { TapConfig } from './fetch-tap.ts';
import { natives, now, randomId } from './natives.ts';

// Batching window: long enough to amortize the cross-world hop, far below the 1 s "live" budget.
const FLUSH_DELAY_MS = 40;
const MAX_BATCH = 500;
/** Payload text per message: the relay must be able to post it (a runtime message is at most 64 MiB, escaping included). */
const MAX_MESSAGE_CHARS = 4 * 1024 * 1024;

/** The payload text a frame carries (its body, event data or message), the part of its size that can be large. */
function textChars(f: PageFrame): number {
  if (f.kind === 'http-request') return f.body?.text.length ?? 0;
  if (f.kind === 'http-body') return f.body.text.length;
  if (f.kind === 'sse-event' || f.kind === 'ws-message') return f.data.text.length;
  return 0;
}
/** Frames kept while no relay answers (e.g. the extension is reloading); beyond it the oldest go, and we say so. */
const MAX_WAITING = 20_000;
/** How long the first frames wait for the user's capture settings before they go with the defaults. */
const CONFIG_WAIT_MS = 1000;

export class Emitter {
  readonly doc = randomId();
  private n = 0;
  private conns = 0;
  private queue: PageFrame[] = [];
  private relayReady = false;
  private timer: number | undefined;
  private lostWhileWaiting = 0;
  /** The extension went away: taps pass everything through and nothing is queued. */
  disabled = false;
  /** This document has emitted something besides its page lifecycle. */
  private spoke = false;
  private heldStart: PageFrame | undefined;
  /**
   * The page has gone (pagehide): no timer will run any more, but the page's own pagehide and unload handlers still
   * may speak MCP (a DELETE of the session, a cancellation). Until the document comes back from the back/forward
   * cache, every frame goes at once.
   */
  private ended = false;
  /**
   * The user's capture settings arrive once the relay has connected, which it does when this document first speaks
   * MCP. Until then (or CONFIG_WAIT_MS) nothing is sent: the frames already taken get the settings applied first (the
   * body cap: the user's extra secret headers are redacted in the background, which does not tell the page their names).
   */
  private configured = false;
  private configTimer: number | undefined;
  /** The user's settings once they came: applied to every frame, also those a tap built earlier and held. */
  private config: TapConfig | undefined;

  constructor() {
    natives.addEventListener.call(document, RELAY_READY_EVENT, (e: Event) => {
      if ((e as CustomEvent).detail !== PAGE_TAG) return;
      this.relayReady = true;
      // The relay started after this document first spoke MCP: it missed the wake-up.
      if (this.spoke && !this.configured) this.dispatch(HOOK_WAKE_EVENT, PAGE_TAG);
      this.flush();
    });
    natives.addEventListener.call(document, RELAY_GONE_EVENT, (e: Event) => {
      if ((e as CustomEvent).detail !== PAGE_TAG) return;
      // Say so first: when the relay is really gone nobody hears it, but when a page script forged the signal the relay
      // is still there and the log shows why capture stopped.
      this.captureError('hook', new Error('capture stopped: the relay said it is gone (extension reloaded or removed, or a page script sent the signal)'));
      this.flush(true);
      this.disabled = true;
      this.queue = [];
    });
    this.dispatch(HOOK_HELLO_EVENT, PAGE_TAG);
  }

  newConn(): string {
    return `${this.doc}.${++this.conns}`;
  }

  emit(draft: FrameDraft): void {
    if (this.disabled) return;
    // Drafts are fresh objects made by the taps: stamp in place rather than copy.
    const frame = draft as PageFrame;
    frame.doc = this.doc;
    frame.n = ++this.n;
    frame.t = now();
    if (!this.spoke) {
      // A document that never speaks MCP leaves nothing in the log (no URL of every page browsed, no worker woken on
      // every navigation): its page-start waits here, stamped with its own time, until its first MCP frame.
      if (frame.kind === 'page-start') {
        this.heldStart = frame;
        return;
      }
      if (frame.kind === 'page-end') return;
      this.spoke = true;
      if (this.heldStart) this.queue.push(this.heldStart);
      this.heldStart = undefined;
      if (!this.configured) {
        this.dispatch(HOOK_WAKE_EVENT, PAGE_TAG);
        this.configTimer = natives.setTimeout(() => {
          this.configTimer = undefined;
          this.configured = true;
          this.flush();
        }, CONFIG_WAIT_MS);
      }
    }
    // A tap may have built this frame before the settings came and held it (an undecided SSE GET, a WebSocket not yet
    // known to be MCP): it gets them now. On a frame built with them, applyConfig finds nothing to change.
    if (this.config) applyConfig(frame, this.config);
    this.queue.push(frame);
    if (!this.relayReady && this.queue.length > MAX_WAITING) {
      this.queue.shift();
      this.lostWhileWaiting++;
    }
    if (this.ended) this.flush(true);
    else if (this.queue.length >= MAX_BATCH) this.flush();
    else if (this.timer === undefined) this.timer = natives.setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  /** A tap failed: say so in the log, never in the page. */
  captureError(where: string, error: unknown, conn?: string): void {
    try {
      const message = redactUrlsIn(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      this.emit({ kind: 'capture-error', where, message, ...(conn ? { conn } : {}) });
    } catch {
      // Nothing left to report with.
    }
  }

  /** The relay forwarded the capture settings: what waits for them gets them, then goes. */
  configArrived(config: TapConfig): void {
    if (!this.config) for (const f of this.queue) applyConfig(f, config);
    this.config = config;
    this.configured = true;
    if (this.configTimer !== undefined) {
      natives.clearTimeout(this.configTimer);
      this.configTimer = undefined;
    }
    this.flush();
  }

  /** Sends everything queued now; `final` (pagehide, capture stopping: no timer will run) also if the settings never came. */
  flush(final = false): void {
    if (this.timer !== undefined) {
      natives.clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.configured && !final) return;
    if (!this.relayReady || this.queue.length === 0) return;
    if (this.lostWhileWaiting > 0) {
      const lost = this.lostWhileWaiting;
      this.lostWhileWaiting = 0;
      this.captureError('emitter', new Error(`${lost} frames dropped while no relay was listening`));
    }
    while (this.queue.length > 0) {
      const frames = this.queue.splice(0, batchLength(this.queue, MAX_BATCH, MAX_MESSAGE_CHARS, textChars));
      const message: HookToRelay = { tag: PAGE_TAG, frames };
      this.dispatch(HOOK_EVENT, natives.stringify(message));
    }
  }

  private enders: Array<() => void> = [];

  /** `fn` runs on pagehide before the page-end is logged (a tap with frames still waiting logs them first). */
  beforePageEnd(fn: () => void): void {
    this.enders.push(fn);
  }

  /** Called by the page tap just before it logs the page-end. */
  pageEnding(): void {
    for (const fn of this.enders) {
      try {
        fn();
      } catch (e) {
        this.captureError('page-end', e);
      }
    }
  }

  /** The page is going (pagehide): what is queued goes now, and so will every later frame (see `ended`). */
  pageGone(): void {
    this.flush(true);
    this.ended = true;
  }

  /** The document is shown again from the back/forward cache: batching resumes. */
  pageBack(): void {
    this.ended = false;
  }

  private dispatch(type: string, detail: string): void {
    natives.dispatchEvent.call(document, new natives.CustomEvent(type, { detail }));
  }
}

/** The settings for a frame taken before they were known: the body cap (and extra secret headers, which our background no longer sends). */
function applyConfig(f: PageFrame, config: TapConfig): void {
  if (f.kind === 'http-request' || f.kind === 'http-response') {
    for (const name of config.extraSecretHeaders) {
      const v = f.headers[name];
      // Already redacted: a built-in secret header, or a frame taken with the settings.
      if (v !== undefined && !isRedacted(v)) f.headers[name] = redactValue(v);
    }
  }
  const cap = config.capBytes;
  // Frames taken before the settings were cut at the default cap: only a smaller cap has anything to cut (and frames
  // taken with a smaller cap are within it, so checking them costs at most that cap).
  if (cap >= DEFAULT_BODY_CAP_BYTES) return;
  if (f.kind === 'http-request' && f.body) f.body = recapPayload(f.body, cap);
  else if (f.kind === 'http-body') f.body = recapPayload(f.body, cap);
  else if (f.kind === 'sse-event' || f.kind === 'ws-message') f.data = recapPayload(f.data, cap);
}
