// The MAIN-world hook, injected at document_start in every frame as a self-contained IIFE (an async loader would miss
// the page's first requests). Installs the taps once per document and never throws into the page.
import { createConfig } from './config.ts';
import { Emitter } from './emitter.ts';
import { installEventSourceTap } from './eventsource-tap.ts';
import { installFetchTap } from './fetch-tap.ts';
import { installPageTap } from './page-tap.ts';
import { installWebSocketTap } from './websocket-tap.ts';
import { natives } from './natives.ts';

/**
 * Asked on the document, synchronously, before installing: a hook already here answers (a second run in the same
 * document taps nothing twice). An event rather than a mark on window: the page's own objects stay as they were.
 */
const PRESENT_EVENT = 'mcp-devtools:hook-present';

function alreadyInstalled(): boolean {
  const ask = new natives.CustomEvent<{ present: boolean }>(PRESENT_EVENT, { detail: { present: false } });
  natives.dispatchEvent.call(document, ask);
  return ask.detail.present;
}

function install(): void {
  if (alreadyInstalled()) return;
  natives.addEventListener.call(document, PRESENT_EVENT, (e: Event) => {
    // Anyone may dispatch this event: answer only a question shaped as ours, and never throw into the page.
    try {
      const detail: unknown = (e as CustomEvent).detail;
      if (detail !== null && typeof detail === 'object' && 'present' in detail) (detail as { present: boolean }).present = true;
    } catch {
      // A frozen or hostile detail: no answer.
    }
  });
  const emitter = new Emitter();
  const config = createConfig((c) => emitter.configArrived(c));
  installPageTap(emitter);
  for (const [name, tap] of [
    ['fetch', installFetchTap],
    ['eventsource', installEventSourceTap],
    ['websocket', installWebSocketTap],
  ] as const) {
    try {
      tap(emitter, config);
    } catch (e) {
      emitter.captureError(`install:${name}`, e);
    }
  }
}

try {
  install();
} catch {
  // Never break the page.
}
