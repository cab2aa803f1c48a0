// Writing a trace file. The caller passes the time (shared code never reads a clock) and what it knows about the page
// and the capture; the result is plain JSON, one frame per line so a trace diffs well in a repository.
import { frameJson } from '../frame-shape.ts';
import type { Frame } from '../frames.ts';
import { redactFrame } from '../redact-frame.ts';
import { redactUrl } from '../redact.ts';
import { TRACE_FORMAT, TRACE_VERSION, type TraceAnalysis, type TraceFileV1 } from './format.ts';

export interface ExportInput {
  frames: readonly Frame[];
  /** Epoch ms or an ISO string. */
  createdAt: number | string;
  pageUrl: string;
  pageTitle?: string;
  tool?: { name: string; version: string };
  redaction?: TraceFileV1['redaction'];
  dropped?: TraceFileV1['dropped'];
  /** The analysis settings in effect (what the exporting view was analysed with). */
  analysis?: TraceAnalysis;
  /** Header names redacted in addition to the built-in list (lower-case), when `redaction.enabled` (the default). */
  extraSecretHeaders?: readonly string[];
  /**
   * Top-level properties this version does not know, kept on a re-export (an imported trace's: `extraTopLevel`).
   * Written after the header fields, before `frames`; a name this version knows is never taken from here.
   */
  extra?: Readonly<Record<string, unknown>>;
}

/** The top-level properties format v1 defines (shared/trace/format.ts). */
const KNOWN_TOP_LEVEL = new Set(['format', 'version', 'tool', 'createdAt', 'page', 'redaction', 'dropped', 'analysis', 'frames']);

/** A trace's top-level properties that this version does not know (a newer writer's additions), in their order. */
export function extraTopLevel(trace: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(trace)) if (!KNOWN_TOP_LEVEL.has(k)) out[k] = v;
  return out;
}

export const TOOL = { name: 'mcp-devtools', version: '0.1.0' };

/**
 * The trace file. With redaction on (the default) every frame gets the rules again (redact-frame.ts): values already
 * redacted stay, so only a secret the capture let through (an extra header named later, a trace from elsewhere) changes.
 */
export function exportTrace(input: ExportInput): TraceFileV1 {
  const redaction = input.redaction ?? { enabled: true };
  const extra = (input.extraSecretHeaders ?? []).map((h) => h.toLowerCase());
  const page: TraceFileV1['page'] = { url: redaction.enabled ? redactUrl(input.pageUrl) : input.pageUrl };
  if (input.pageTitle !== undefined) page.title = input.pageTitle;
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    tool: input.tool ?? TOOL,
    createdAt: typeof input.createdAt === 'number' ? new Date(input.createdAt).toISOString() : input.createdAt,
    page,
    redaction,
    dropped: input.dropped ?? { frames: 0 },
    ...(input.analysis ? { analysis: input.analysis } : {}),
    ...(input.extra ? extraTopLevel(input.extra) : {}),
    frames: redaction.enabled ? input.frames.map((f) => redactFrame(f, extra)) : [...input.frames],
  };
}

/** JSON text with the header first and one frame per line. */
export function serializeTrace(trace: TraceFileV1): string {
  const { frames, ...head } = trace;
  const header = JSON.stringify(head).slice(0, -1);
  if (frames.length === 0) return `${header},"frames":[]}\n`;
  return `${header},"frames":[\n${frames.map(frameJson).join(',\n')}\n]}\n`;
}
