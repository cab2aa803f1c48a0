// Clear while the panel's port is reconnecting (the service worker restarted): a live review, 2026-12, found the
// click dropped without a word (connectToTab threw away send's false; the button was enabled). Now the button is
// disabled while reconnecting, its tooltip says why, and a clear that could not be sent says so (clear() is false).
import { describe, expect, it, vi } from 'vitest';

type Listener = (...a: unknown[]) => void;
const ports: Array<{ sent: unknown[]; disconnect: () => void; drop: () => void; onMessage: Listener[] }> = [];

vi.mock('webextension-polyfill', () => ({
  default: {
    runtime: {
      connect: () => {
        const onMessage: Listener[] = [];
        const onDisconnect: Listener[] = [];
        const port = {
          sent: [] as unknown[],
          onMessage,
          postMessage: (m: unknown) => port.sent.push(m),
          disconnect: () => {},
          drop: () => onDisconnect.forEach((l) => l()),
        };
        ports.push(port);
        return { postMessage: port.postMessage, disconnect: port.disconnect, onMessage: { addListener: (l: Listener) => onMessage.push(l) }, onDisconnect: { addListener: (l: Listener) => onDisconnect.push(l) } };
      },
    },
  },
}));

const { connectToTab } = await import('../../../panel/connection.ts');
const { clearControl, notClearedText, NOT_CLEARED_RECONNECTING } = await import('../../../panel/model/clear-control.ts');

describe('Clear while reconnecting', () => {
  it('connectToTab: clear() is true when sent, false (nothing sent) while the port is down', () => {
    vi.useFakeTimers();
    try {
      const statuses: string[] = [];
      const conn = connectToTab(7, () => 0, () => {}, (s) => statuses.push(s));
      const first = ports.at(-1)!;
      expect(conn.clear()).toBe(true);
      expect(first.sent).toContainEqual({ type: 'clear' });
      first.drop();
      expect(statuses.at(-1)).toBe('reconnecting');
      expect(conn.clear()).toBe(false);
      expect(first.sent.filter((m) => (m as { type: string }).type === 'clear')).toHaveLength(1);
      conn.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the button: disabled while reconnecting, with a tooltip that says why; enabled when live or on an import', () => {
    const tab = { imported: false, tabPanel: true, offline: false };
    expect(clearControl({ ...tab, status: 'live' })).toEqual({ enabled: true, title: "Clear the tab's log" });
    const r = clearControl({ ...tab, status: 'reconnecting' });
    expect(r.enabled).toBe(false);
    expect(r.title).toMatch(/not sent while reconnecting/);
    expect(clearControl({ ...tab, offline: true, status: 'offline' }).enabled).toBe(false);
    expect(clearControl({ imported: true, tabPanel: true, offline: false, status: 'imported' })).toEqual({ enabled: true, title: 'Close the imported trace' });
  });

  it('a Clear not sent says why by state: still connecting on the first connect, reconnecting after a restart', () => {
    const first = notClearedText('connecting');
    expect(first).toMatch(/still connecting/);
    expect(first).not.toMatch(/reconnecting|service worker restarted/);
    expect(notClearedText('reconnecting')).toBe(NOT_CLEARED_RECONNECTING);
  });
});
