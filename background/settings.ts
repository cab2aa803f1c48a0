// The persisted settings, loaded once per worker life. Changes go to IndexedDB, to the tab logs (caps) and to every
// live relay (capture config), and are announced to every panel.
import { DEFAULT_SETTINGS, LIMITS, validateSettings, type Settings } from '../shared/settings.ts';
import type { LogStore } from './log-store.ts';

/**
 * Settings saved when the body cap could be larger (up to 64 MiB, before 2026-12-04) keep everything else: the cap is
 * brought within today's limit instead of the whole object being refused (which dropped the user's secret headers).
 */
function clampBodyCap(raw: unknown): unknown {
  const capture = (raw as { capture?: { bodyCapBytes?: unknown } } | null)?.capture;
  const cap = capture?.bodyCapBytes;
  const max = LIMITS.bodyCapBytes[1];
  if (typeof cap !== 'number' || cap <= max) return raw;
  return { ...(raw as object), capture: { ...capture, bodyCapBytes: max } };
}

export class SettingsStore {
  private current: Promise<Settings>;
  private readonly listeners = new Set<(s: Settings) => void>();

  constructor(private readonly store: LogStore) {
    this.current = store.loadSettings().then((raw) => {
      if (raw === undefined) return DEFAULT_SETTINGS;
      const v = validateSettings(clampBodyCap(raw));
      // Settings written by another version that no longer validate fall back to the defaults rather than break capture.
      return v.ok ? v.settings : DEFAULT_SETTINGS;
    });
  }

  get(): Promise<Settings> {
    return this.current;
  }

  /** Validates and stores; resolves with the error text when invalid (nothing changes then). */
  async set(raw: unknown): Promise<{ ok: true; settings: Settings } | { ok: false; error: string }> {
    const v = validateSettings(raw);
    if (!v.ok) return v;
    await this.store.saveSettings(v.settings);
    this.current = Promise.resolve(v.settings);
    for (const l of this.listeners) l(v.settings);
    return v;
  }

  onChange(listener: (s: Settings) => void): void {
    this.listeners.add(listener);
  }
}
