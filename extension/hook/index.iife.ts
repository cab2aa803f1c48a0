// The MAIN-world hook, injected at document_start in every frame as a self-contained IIFE (an async loader would miss
// the page's first requests). Installs the taps once per document and never throws into the page.
import { createConfig } from './config.ts';
import { Emitter } from './emitter.ts';
import { installEventSourceTap } from './eventsource-tap.ts';
import { installFetchTap } from './fetch-tap.ts';
import { installPageTap } from './page-tap.ts';
import { installWebSocketTap } from './websocket-tap.ts';

const INSTALLED = Symbol.for('mcp-devtools.hook');

function install(): void {
  const w = window as unknown as Record<symbol, unknown>;
  if (w[INSTALLED]) return;
  Object.defineProperty(w, INSTALLED, { value: true, enumerable: false });
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
