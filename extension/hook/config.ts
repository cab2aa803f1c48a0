// The hook's capture settings: defaults at install, replaced when the relay forwards the user's settings. A page can
// forge the event too, which only changes how much of its own traffic it lets us see; values are range-checked so a
// forged config cannot break the taps.
import { CAPTURE_CONFIG_EVENT, PAGE_TAG } from '../../shared/messages.ts';
import { DEFAULT_BODY_CAP_BYTES } from '../../shared/payload.ts';
import { LIMITS } from '../../shared/settings.ts';
import type { TapConfig } from './fetch-tap.ts';
import { natives } from './natives.ts';

/** `onUpdate` is called after each accepted config (the emitter holds the first frames until the first one). */
export function createConfig(onUpdate: (config: TapConfig) => void = () => undefined): TapConfig {
  const config: TapConfig = { capBytes: DEFAULT_BODY_CAP_BYTES, extraSecretHeaders: [] };
  natives.addEventListener.call(document, CAPTURE_CONFIG_EVENT, (e: Event) => {
    try {
      const detail = (e as CustomEvent).detail;
      if (typeof detail !== 'string') return;
      const m = JSON.parse(detail) as { tag?: unknown; config?: { bodyCapBytes?: unknown; extraSecretHeaders?: unknown } };
      if (m.tag !== PAGE_TAG || !m.config) return;
      const cap = m.config.bodyCapBytes;
      if (typeof cap === 'number' && cap >= LIMITS.bodyCapBytes[0] && cap <= LIMITS.bodyCapBytes[1]) config.capBytes = cap;
      const extra = m.config.extraSecretHeaders;
      if (Array.isArray(extra) && extra.every((h) => typeof h === 'string')) config.extraSecretHeaders = extra.map((h) => h.toLowerCase());
      onUpdate(config);
    } catch {
      // Ignore a malformed config; keep the current one.
    }
  });
  return config;
}
