// Trace file format v1: the lossless export of a tab's frame log, re-analyzable by any later engine. The JSON schema
// is trace.schema.json next to this file; docs/trace-format.md describes it for humans. Pure types and constants.
import type { FreshnessRule } from '../engine/types.ts';
import type { Frame } from '../frames.ts';

/**
 * The analysis settings the exporting view was analysed with (the panel's freshness rules and default max age, and
 * the grace): a reader analyses the frames with them by default, so a finding seen before the export is found again.
 * Optional: traces written before 2026-12-06 lack it (readers then use their own settings).
 */
export interface TraceAnalysis {
  /** First match wins (shared/engine, freshness). */
  freshnessRules: FreshnessRule[];
  defaultMaxAgeMs: number;
  /** Absent: the engine's default (2 s). */
  graceMs?: number;
}

export const TRACE_FORMAT = 'mcp-devtools-trace';
export const TRACE_VERSION = 1;

export interface TraceFileV1 {
  format: typeof TRACE_FORMAT;
  version: typeof TRACE_VERSION;
  /** The tool that wrote the file. */
  tool: { name: string; version: string };
  /** When the file was written, ISO 8601. */
  createdAt: string;
  /** The inspected page (its top-level URL when the export was made). */
  /** `title` is reserved: nothing writes it (an imported trace's is carried over). */
  page: { url: string; title?: string };
  /** What was done to secrets and large bodies before the frames were stored. */
  redaction: {
    /** Secret headers and token-like query parameters were replaced by `[redacted:<hash>]`. */
    enabled: boolean;
    /** The body cap set when the trace was exported; each body cut at capture carries its own `truncated`. */
    bodyCapBytes?: number;
    /** Reserved: nothing writes it; files that have it import (docs/trace-format.md). */
    redactedValues?: number;
  };
  /** Frames the capture lost before the export: the analysis of such a trace is partial. */
  dropped: {
    /** Removed from the log when it hit its cap (oldest first). */
    frames: number;
    /** Refused because the page sent something malformed or forged. */
    rejected?: number;
  };
  /** The analysis settings in effect when it was exported (optional). */
  analysis?: TraceAnalysis;
  /** Stamped frames, in seq order (strictly increasing). */
  frames: Frame[];
}
