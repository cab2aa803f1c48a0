// Reads a response clone incrementally with the stream reader — never `await text()` on a stream, which would hang on
// an SSE response that never ends. SSE bodies are parsed event by event with eventsource-parser (what the SDK uses),
// so each event is emitted the moment it arrives; other bodies are emitted once complete, capped.
import { createParser } from 'eventsource-parser';
import type { FrameDraft, Payload } from '../../shared/frames.ts';
import { makePayload, opaquePayload, PayloadBuilder } from '../../shared/payload.ts';
import { redactUrl, redactUrlsIn } from '../../shared/redact.ts';
import { ignore, natives } from './natives.ts';

export type BodyKind = 'sse' | 'text' | 'binary';

export interface BodySink {
  emit(draft: FrameDraft): void;
  /** Called for the first SSE event before it is emitted; returning false stops reading (not MCP after all). */
  decideOnFirstEvent?(event: string | undefined, data: string): boolean;
  /** Called for every chunk read (see link-cancel.ts). */
  onChunk?(): void;
  /** Whether the page cancelled its side of the body (then the end is the page's abort, not the body's end). */
  cancelledByPage?(): boolean;
  capBytes: number;
}

function errorInfo(e: unknown): { name: string; message: string } {
  if (e && typeof e === 'object' && 'name' in e) return { name: String(e.name), message: redactUrlsIn(String((e as Error).message ?? '')) };
  return { name: 'Error', message: redactUrlsIn(String(e)) };
}

/** Reads `stream` to its end (or error) and emits sse-event/sse-comment or http-body frames, then one http-end. */
export async function readBody(
  conn: string,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  kind: BodyKind,
  sink: BodySink,
): Promise<void> {
  const decoder = new natives.TextDecoder();
  let bytes = 0;
  let stopped = false;
  // A non-SSE body is kept only up to the cap (prefix + running hash), however large it is.
  const body = new PayloadBuilder(sink.capBytes);
  let sawText = false;
  let pendingRetry: number | undefined;
  let decided = sink.decideOnFirstEvent === undefined;

  const parser =
    kind === 'sse'
      ? createParser({
          onEvent(ev) {
            if (stopped) return;
            if (!decided) {
              decided = true;
              if (!sink.decideOnFirstEvent!(ev.event, ev.data)) {
                stopped = true;
                return;
              }
            }
            // The legacy endpoint event announces the POST URL: its secrets go as a request URL's do.
            const data: Payload = makePayload(ev.event === 'endpoint' ? redactUrl(ev.data) : ev.data, sink.capBytes);
            sink.emit({
              kind: 'sse-event',
              conn,
              ...(ev.id !== undefined ? { id: ev.id } : {}),
              ...(ev.event !== undefined ? { event: ev.event } : {}),
              data,
              ...(pendingRetry !== undefined ? { retry: pendingRetry } : {}),
            });
            pendingRetry = undefined;
          },
          onRetry(ms) {
            pendingRetry = ms;
          },
          onComment(text) {
            if (!stopped && decided) sink.emit({ kind: 'sse-comment', conn, text });
          },
        })
      : undefined;

  try {
    for (;;) {
      // (The native read: a page that patches the readers' read sees none of ours.)
      const { done, value } = await natives.readerRead.call(reader);
      if (done) break;
      sink.onChunk?.();
      bytes += value.byteLength;
      if (kind === 'binary') continue;
      const text = decoder.decode(value, { stream: true });
      if (parser) parser.feed(text);
      else {
        body.add(text);
        sawText = true;
      }
      if (stopped) {
        ignore(natives.readerCancel.call(reader));
        return;
      }
    }
    const tail = decoder.decode();
    if (parser) parser.feed(tail);
    else body.add(tail);
    if (stopped || !decided) return;
    if (kind === 'text') sink.emit({ kind: 'http-body', conn, body: body.build() });
    if (kind === 'binary') sink.emit({ kind: 'http-body', conn, body: opaquePayload(`[binary body, ${bytes} bytes]`) });
    if (sink.cancelledByPage?.()) {
      sink.emit({ kind: 'http-end', conn, outcome: 'aborted', phase: 'body', error: { name: 'AbortError', message: 'the page cancelled the body' }, bytes });
    } else sink.emit({ kind: 'http-end', conn, outcome: 'complete', phase: 'body', bytes });
  } catch (e) {
    if (stopped || !decided) return;
    const error = errorInfo(e);
    // What arrived before the failure is still evidence (a JSON body cut short).
    if (kind === 'text' && sawText) {
      body.add(decoder.decode());
      sink.emit({ kind: 'http-body', conn, body: body.build() });
    }
    sink.emit({ kind: 'http-end', conn, outcome: error.name === 'AbortError' ? 'aborted' : 'failed', phase: 'body', error, bytes });
  }
}
