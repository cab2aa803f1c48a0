// Expected freshness of a cached URI, first match wins: a user rule for a URI pattern, the server's ttlMs
// (2026-07-28), the learned notification cadence (about 3× the median interval once a few were seen), a global default.
// ttlMs 0 is the SDK's default when the server author set nothing (DEFAULT_CACHE_TTL_MS = 0 in
// @modelcontextprotocol/server), so it is read as "no hint", not as "stale immediately".
import type { FreshnessRule, FreshnessSource } from './types.ts';

/** Notifications needed before a cadence is learned. */
export const LEARN_AFTER = 3;
/** Intervals kept per URI for the median. */
export const CADENCE_WINDOW = 15;
/**
 * Notifications closer together than this (to the first of their burst) are one burst, not a cadence (a resumed
 * stream replaying what it stored, a server announcing one change three times): three in 2 ms taught "expected every
 * 3 ms". A clock going back, too. A steady ticker faster than this is learned at the burst's width.
 */
export const BURST_MS = 250;

export interface CompiledRule {
  re: RegExp;
  maxAgeMs: number;
  /** The glob as the user wrote it: said where the rule applies (the panel's age tooltip and drawer). */
  pattern: string;
}

function escape(ch: string): string {
  return /[\\^$.+()|{}[\]]/.test(ch) ? `\\${ch}` : ch;
}

// `*` within a path segment, `**` across segments (followed by a slash, also across none: `a/**/b` matches `a/b`, as
// in gitignore), `?` one character; everything else literal.
export function globToRegExp(glob: string): RegExp {
  let out = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          out += '(?:.*/)?';
          i++;
        } else out += '.*';
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else out += escape(ch);
  }
  return new RegExp(out + '$');
}

export function compileRules(rules: readonly FreshnessRule[] | undefined): CompiledRule[] {
  return (rules ?? []).map((r) => ({ re: globToRegExp(r.pattern), maxAgeMs: r.maxAgeMs, pattern: r.pattern }));
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Freshness {
  maxAgeMs: number;
  source: FreshnessSource;
  /** source 'rule': the pattern of the rule that matched (the first, in the rules' order). */
  rule?: string;
}

export function expectedFreshness(
  uri: string,
  rules: readonly CompiledRule[],
  ttlMs: number | undefined,
  notifyCount: number,
  intervals: readonly number[],
  defaultMaxAgeMs: number,
): Freshness {
  for (const r of rules) if (r.re.test(uri)) return { maxAgeMs: r.maxAgeMs, source: 'rule', rule: r.pattern };
  if (ttlMs !== undefined && ttlMs > 0) return { maxAgeMs: ttlMs, source: 'ttl' };
  if (notifyCount >= LEARN_AFTER && intervals.length >= LEARN_AFTER - 1) return { maxAgeMs: Math.max(1, Math.round(3 * median(intervals))), source: 'learned' };
  return { maxAgeMs: defaultMaxAgeMs, source: 'default' };
}
