// Low-level frame emission for scripted traces: stamps frames exactly as the hook (doc, n, t) and the background (seq,
// frameId, segment) would, with a clock the script moves explicitly. Higher-level clients live in mcp-clients.ts.
import type { Frame, FrameDraft, HeaderMap, PageFrame, Payload } from '../../shared/frames.ts';

export const T0 = Date.UTC(2026, 7, 1, 9, 0, 0);

export class FrameLog {
  readonly frames: Frame[] = [];
  t: number;
  private n = 0;
  private connCount = 0;

  constructor(
    readonly doc = 'doc-1',
    t0 = T0,
    private seq0 = 0,
  ) {
    this.t = t0;
  }

  /** Move the clock forward. */
  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  get lastSeq(): number {
    return this.frames.at(-1)?.seq ?? this.seq0;
  }

  newConn(prefix = 'c'): string {
    return `${this.doc}:${prefix}${++this.connCount}`;
  }

  emit(draft: FrameDraft): Frame {
    // Every frame takes a little time, so times are strictly increasing like the real hook's performance.now().
    this.t += 1;
    const frame = { ...draft, doc: this.doc, n: ++this.n, t: this.t, seq: this.lastSeq + 1, frameId: 0, segment: 1 } as Frame;
    this.frames.push(frame);
    return frame;
  }

  text(text: string): Payload {
    return { text };
  }

  httpRequest(conn: string, method: string, url: string, headers: HeaderMap, body?: string): Frame {
    const d: FrameDraft = { kind: 'http-request', conn, method, url, headers };
    if (body !== undefined) (d as { body?: Payload }).body = { text: body };
    return this.emit(d);
  }

  httpResponse(conn: string, status: number, url: string, headers: HeaderMap): Frame {
    return this.emit({ kind: 'http-response', conn, status, statusText: STATUS_TEXT[status] ?? '', url, redirected: false, headers });
  }

  httpBody(conn: string, body: string | Payload): Frame {
    return this.emit({ kind: 'http-body', conn, body: typeof body === 'string' ? { text: body } : body });
  }

  sseEvent(conn: string, data: string | Payload, opts: { id?: string; event?: string; retry?: number } = {}): Frame {
    const d = { kind: 'sse-event', conn, data: typeof data === 'string' ? { text: data } : data } as FrameDraft & { id?: string; event?: string; retry?: number };
    if (opts.id !== undefined) d.id = opts.id;
    if (opts.event !== undefined) d.event = opts.event;
    if (opts.retry !== undefined) d.retry = opts.retry;
    return this.emit(d);
  }

  httpEnd(conn: string, outcome: 'complete' | 'aborted' | 'failed' = 'complete', phase: 'request' | 'body' = 'body', bytes = 0): Frame {
    const d = { kind: 'http-end', conn, outcome, phase, bytes } as FrameDraft & { error?: { name: string; message: string } };
    if (outcome === 'failed') d.error = { name: 'TypeError', message: 'Failed to fetch' };
    if (outcome === 'aborted') d.error = { name: 'AbortError', message: 'The user aborted a request.' };
    return this.emit(d);
  }

  pageStart(url: string, top = true): Frame {
    return this.emit({ kind: 'page-start', url, top });
  }

  pageEnd(url: string, persisted = false): Frame {
    return this.emit({ kind: 'page-end', url, persisted });
  }
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  500: 'Internal Server Error',
};

/** Frames as a page sends them: without what the background stamps (seq, browser frame, page segment). */
export function asPageFrames(frames: readonly Frame[]): PageFrame[] {
  return frames.map(({ seq: _s, frameId: _f, segment: _g, ...pf }) => pf as PageFrame);
}
