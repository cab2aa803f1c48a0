// Page lifecycle frames: page-start when the hook installs (one per document), page-end on pagehide, flushing at once
// because no timer runs after it — also for what the page's own pagehide and unload handlers send after it.
import { redactUrl } from '../../shared/redact.ts';
import type { Emitter } from './emitter.ts';
import { natives, web } from './natives.ts';

export function installPageTap(emitter: Emitter): void {
  emitter.emit({ kind: 'page-start', url: redactUrl(location.href), top: window === window.top });
  natives.addEventListener.call(window, 'pagehide', (ev: Event) => {
    // A page script's own PageTransitionEvent is not the page going.
    if (!ev.isTrusted) return;
    try {
      emitter.pageEnding();
      emitter.emit({ kind: 'page-end', url: redactUrl(location.href), persisted: web.pagePersisted.call(ev as PageTransitionEvent) });
    } catch (e) {
      emitter.captureError('page-end', e);
    } finally {
      // No timer runs after pagehide: what is queued goes now, whatever happened above, and so will later frames.
      emitter.pageGone();
    }
  });
  natives.addEventListener.call(window, 'pageshow', (ev: Event) => {
    // Back from the back/forward cache: the same document lives again.
    if (!ev.isTrusted || !web.pagePersisted.call(ev as PageTransitionEvent)) return;
    emitter.pageBack();
    emitter.emit({ kind: 'page-start', url: redactUrl(location.href), top: window === window.top });
  });
}
