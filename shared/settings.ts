// User settings, persisted by the background and edited in the panel: freshness rules for the engine, the log caps,
// and capture settings (body cap, extra header names to redact) that travel relay → hook. Defined once; validated
// wherever they arrive, because a bad value must never break capture.
import type { FreshnessRule } from './engine/types.ts';
import { DEFAULT_BODY_CAP_BYTES } from './payload.ts';

export interface CaptureConfig {
  /** Bodies and messages above this keep a prefix, their size and a hash. */
  bodyCapBytes: number;
  /** Header names (lower-case) redacted in addition to the built-in list. */
  extraSecretHeaders: string[];
}

export interface Settings {
  freshnessRules: FreshnessRule[];
  defaultMaxAgeMs: number;
  maxFrames: number;
  maxBytes: number;
  capture: CaptureConfig;
}

export const DEFAULT_SETTINGS: Settings = {
  freshnessRules: [],
  defaultMaxAgeMs: 10 * 60_000,
  maxFrames: 250_000,
  maxBytes: 128 * 1024 * 1024,
  capture: { bodyCapBytes: DEFAULT_BODY_CAP_BYTES, extraSecretHeaders: [] },
};

export const LIMITS = {
  defaultMaxAgeMs: [1_000, 30 * 24 * 3600_000],
  maxFrames: [1_000, 5_000_000],
  maxBytes: [1024 * 1024, 2 * 1024 * 1024 * 1024],
  // At most 8 MiB: a frame must fit a runtime message (Chrome refuses one over 64 MiB), and a body is escaped twice on
  // its way (JSON in JSON): quote-heavy text grows up to 4×.
  bodyCapBytes: [1024, 8 * 1024 * 1024],
  ruleMaxAgeMs: [1, 30 * 24 * 3600_000],
} as const;

/** An HTTP header name (an RFC 9110 token). */
export function isHeaderName(h: string): boolean {
  return /^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(h);
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; error: string };

function inRange(v: unknown, [lo, hi]: readonly [number, number]): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
}

/** Checks a settings object from an untrusted place (a message, storage written by an older version). */
export function validateSettings(v: unknown): SettingsResult {
  if (typeof v !== 'object' || v === null) return { ok: false, error: 'settings must be an object' };
  const s = v as Record<string, unknown>;
  if (!Array.isArray(s.freshnessRules)) return { ok: false, error: 'freshnessRules must be a list' };
  const rules: FreshnessRule[] = [];
  for (const [i, r] of s.freshnessRules.entries()) {
    const rule = r as Partial<FreshnessRule>;
    if (typeof rule?.pattern !== 'string' || rule.pattern.trim() === '') return { ok: false, error: `freshnessRules[${i}].pattern must be a non-empty glob` };
    if (!inRange(rule.maxAgeMs, LIMITS.ruleMaxAgeMs)) return { ok: false, error: `freshnessRules[${i}].maxAgeMs must be between 1 ms and 30 days` };
    rules.push({ pattern: rule.pattern.trim(), maxAgeMs: Math.round(rule.maxAgeMs) });
  }
  if (!inRange(s.defaultMaxAgeMs, LIMITS.defaultMaxAgeMs)) return { ok: false, error: 'defaultMaxAgeMs must be between 1 s and 30 days' };
  if (!inRange(s.maxFrames, LIMITS.maxFrames)) return { ok: false, error: 'maxFrames must be between 1,000 and 5,000,000' };
  if (!inRange(s.maxBytes, LIMITS.maxBytes)) return { ok: false, error: 'maxBytes must be between 1 MiB and 2 GiB' };
  const c = s.capture as Partial<CaptureConfig> | undefined;
  if (typeof c !== 'object' || c === null) return { ok: false, error: 'capture must be an object' };
  if (!inRange(c.bodyCapBytes, LIMITS.bodyCapBytes)) return { ok: false, error: 'capture.bodyCapBytes must be between 1 KiB and 8 MiB' };
  if (!Array.isArray(c.extraSecretHeaders) || !c.extraSecretHeaders.every((h) => typeof h === 'string' && isHeaderName(h))) {
    return { ok: false, error: 'capture.extraSecretHeaders must be a list of header names' };
  }
  return {
    ok: true,
    settings: {
      freshnessRules: rules,
      defaultMaxAgeMs: Math.round(s.defaultMaxAgeMs),
      maxFrames: Math.round(s.maxFrames),
      maxBytes: Math.round(s.maxBytes),
      capture: { bodyCapBytes: Math.round(c.bodyCapBytes), extraSecretHeaders: [...new Set(c.extraSecretHeaders.map((h) => h.toLowerCase()))] },
    },
  };
}
