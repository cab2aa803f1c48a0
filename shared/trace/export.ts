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
  const { trace, frameOut } = traceHead(input);
  return { ...trace, frames: frameOut === null ? [...input.frames] : input.frames.map(frameOut) };
}

/** The trace without its frames, and what each frame becomes in it (null: as it is). */
function traceHead(input: ExportInput): { trace: TraceFileV1; frameOut: ((f: Frame) => Frame) | null } {
  const redaction = input.redaction ?? { enabled: true };
  const extra = (input.extraSecretHeaders ?? []).map((h) => h.toLowerCase());
  const page: TraceFileV1['page'] = { url: redaction.enabled ? redactUrl(input.pageUrl) : input.pageUrl };
  if (input.pageTitle !== undefined) page.title = input.pageTitle;
  const trace: TraceFileV1 = {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    tool: input.tool ?? TOOL,
    createdAt: typeof input.createdAt === 'number' ? new Date(input.createdAt).toISOString() : input.createdAt,
    page,
    redaction,
    dropped: input.dropped ?? { frames: 0 },
    ...(input.analysis ? { analysis: input.analysis } : {}),
    ...(input.extra ? extraTopLevel(input.extra) : {}),
    frames: [],
  };
  return { trace, frameOut: redaction.enabled ? (f) => redactFrame(f, extra) : null };
}

/** JSON text with the header first and one frame per line. */
export function serializeTrace(trace: TraceFileV1): string {
  const { frames, ...head } = trace;
  const header = JSON.stringify(head).slice(0, -1);
  if (frames.length === 0) return `${header},"frames":[]}\n`;
  return `${header},"frames":[\n${frames.map(frameJson).join(',\n')}\n]}\n`;
}

/** How many frames traceTextSteps writes between two yields. */
const TRACE_STEP = 256;

/**
 * `serializeTrace(exportTrace(input))` in pieces, a frame at a time: the pieces yielded, joined in order, are that text
 * byte for byte. Yields every few hundred frames (with how many are written), so a large export is made over several
 * tasks and its text never held as one string (the panel turns each batch into a Blob).
 */
export function* traceTextSteps(input: ExportInput): Generator<{ parts: string[]; frames: number }, void, void> {
  const { trace, frameOut } = traceHead(input);
  const frames = input.frames;
  const header = serializeTrace(trace).slice(0, -',"frames":[]}\n'.length);
  if (frames.length === 0) {
    yield { parts: [header, ',"frames":[]}\n'], frames: 0 };
    return;
  }
  let parts: string[] = [header, ',"frames":[\n'];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    parts.push(`${i === 0 ? '' : ',\n'}${frameJson(frameOut === null ? f : frameOut(f))}`);
    if ((i + 1) % TRACE_STEP === 0 && i + 1 < frames.length) {
      yield { parts, frames: i + 1 };
      parts = [];
    }
  }
  parts.push('\n]}\n');
  yield { parts, frames: frames.length };
}
