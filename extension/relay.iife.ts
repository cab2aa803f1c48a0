// The isolated-world bridge: page hook → background. It trusts nothing from the page: only CustomEvents dispatched on
// this document with our tag and a valid frame shape pass; everything else is counted and dropped. Batches travel on a
// runtime port; each batch is kept until the background acknowledges it was persisted, and re-sent after the port
// reconnects (the service worker may be stopped at any moment). Nothing flows back to the page.
import browser from 'webextension-polyfill';
import { pageFrameProblem } from '../shared/frame-shape.ts';
import type { PageFrame } from '../shared/frames.ts';
import {
  HOOK_EVENT,
  PAGE_TAG,
  RELAY_PORT,
  RELAY_READY_EVENT,
  HOOK_HELLO_EVENT,
  type RelayAck,
  type RelayBatch,
} from '../shared/messages.ts';
import { Backoff } from '../shared/backoff.ts';

const FLUSH_DELAY_MS = 10;
const MAX_FRAMES_PER_BATCH = 500;

const relayId = crypto.randomUUID();
let port: browser.Runtime.Port | undefined;
let nextBatch = 1;
const unacked: RelayBatch[] = [];
let pending: PageFrame[] = [];
let rejected = 0;
let rejectedWhy: string | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
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
  let message: unknown;
  try {
    message = JSON.parse(event.detail);
  } catch {
    return reject('not JSON');
  }
  if (typeof message !== 'object' || message === null || (message as { tag?: unknown }).tag !== PAGE_TAG) {
    return reject('missing or wrong protocol tag');
  }
  const frames = (message as { frames?: unknown }).frames;
  if (!Array.isArray(frames)) return reject('no frames array');
  let unloading = false;
  for (const f of frames) {
    const problem = pageFrameProblem(f);
    if (problem) reject(`bad frame: ${problem}`);
    else {
      pending.push(f as PageFrame);
      if ((f as PageFrame).kind === 'page-end') unloading = true;
    }
  }
  // After pagehide no timer may run: send now.
  if (unloading) flush();
  else schedule();
}

function schedule(): void {
  if (timer === undefined) timer = setTimeout(flush, FLUSH_DELAY_MS);
}

function flush(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  while (pending.length > 0 || rejected > 0) {
    const frames = pending.splice(0, MAX_FRAMES_PER_BATCH);
    const batch: RelayBatch = { type: 'frames', relay: relayId, batch: nextBatch++, frames, rejected };
    if (rejectedWhy) batch.rejectedWhy = rejectedWhy;
    rejected = 0;
    rejectedWhy = undefined;
    unacked.push(batch);
    send(batch);
  }
}

function send(batch: RelayBatch): void {
  if (!port) return connect();
  try {
    port.postMessage(batch);
  } catch {
    port = undefined;
    connect();
  }
}

function connect(): void {
  if (port) return;
  try {
    port = browser.runtime.connect({ name: RELAY_PORT });
  } catch {
    // The extension was reloaded or removed: this content script is orphaned and can do nothing more.
    return;
  }
  port.onMessage.addListener((m: unknown) => {
    const ack = m as RelayAck;
    if (ack?.type !== 'ack') return;
    backoff.reset();
    while (unacked.length > 0 && unacked[0]!.batch <= ack.batch) unacked.shift();
  });
  port.onDisconnect.addListener(() => {
    port = undefined;
    // The service worker stopped (or restarted): reconnect with backoff and re-send what was not acknowledged.
    setTimeout(connect, backoff.next());
  });
  for (const b of unacked) port.postMessage(b);
}

document.addEventListener(HOOK_EVENT, onHookEvent);
// Whichever of hook and relay starts second completes the handshake.
document.addEventListener(HOOK_HELLO_EVENT, () => announce());
function announce(): void {
  document.dispatchEvent(new CustomEvent(RELAY_READY_EVENT, { detail: PAGE_TAG }));
}
announce();
