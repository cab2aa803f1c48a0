// Parses and validates one hook → relay message (a JSON string from the page, so untrusted). Valid frames pass,
// everything else is counted with the first reason, never thrown. Only the fields a frame has are kept: the hook sends
// no others, and a forged one could hold anything (nested too deep to store or export, say).
import { knownFields, pageFrameProblem } from './frame-shape.ts';
import type { PageFrame } from './frames.ts';
import { PAGE_TAG } from './messages.ts';

export interface ParsedHookMessage {
  frames: PageFrame[];
  rejected: number;
  why?: string;
  /** Length of the JSON text, for the log's byte accounting. */
  bytes: number;
}

export function parseHookMessage(text: string): ParsedHookMessage {
  const bad = (why: string): ParsedHookMessage => ({ frames: [], rejected: 1, why, bytes: 0 });
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return bad('not JSON');
  }
  if (typeof message !== 'object' || message === null || (message as { tag?: unknown }).tag !== PAGE_TAG) {
    return bad('missing or wrong protocol tag');
  }
  const list = (message as { frames?: unknown }).frames;
  if (!Array.isArray(list)) return bad('no frames array');
  const out: ParsedHookMessage = { frames: [], rejected: 0, bytes: text.length };
  for (const f of list) {
    const problem = pageFrameProblem(f);
    if (problem) {
      out.rejected++;
      out.why ??= `bad frame: ${problem}`;
    } else out.frames.push(knownFields(f as PageFrame));
  }
  return out;
}
