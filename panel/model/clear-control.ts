// The Clear button's state. Clear is a message to the background (it empties the tab's log, and every panel of the
// tab with it): while the panel's port is reconnecting (the service worker restarted) there is nowhere to send it.

import type { PanelStatus } from '../store.ts';

/** Said when Clear could not be sent (the port went down between the render and the click). */
export const NOT_CLEARED_RECONNECTING = 'Not cleared: the panel is reconnecting to the extension (its service worker restarted). Clear again once the status line says Live.';

/**
 * What a Clear that could not be sent says, by the status at the click: on the first connect the port is not up yet
 * (it said "reconnecting (its service worker restarted)" there too, which nothing had).
 */
export function notClearedText(status: PanelStatus): string {
  if (status === 'connecting') return 'Not cleared: the panel is still connecting to the extension. Clear again once the status line says Live.';
  return NOT_CLEARED_RECONNECTING;
}

/**
 * Enabled on an import (it closes it) and on a tab panel that can reach the background. While reconnecting it is
 * disabled and its tooltip says why: a click used to be dropped without a word, and the status came back Live with the
 * same frames (a live review, 2026-12).
 */
export function clearControl(o: { imported: boolean; tabPanel: boolean; offline: boolean; status: PanelStatus }): { enabled: boolean; title: string } {
  if (o.imported) return { enabled: true, title: 'Close the imported trace' };
  if (!o.tabPanel || o.offline) return { enabled: false, title: 'No tab: nothing to clear' };
  if (o.status === 'reconnecting') return { enabled: false, title: "Clear is not sent while reconnecting: the panel is reconnecting to the extension (its service worker restarted); clear once the status line says Live" };
  return { enabled: true, title: "Clear the tab's log" };
}
