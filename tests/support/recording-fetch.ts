// A fetch wrapper for Node that records what the page hook would: http-request, http-response, then the body read
// from a clone (SSE parsed event by event with eventsource-parser, like the SDK and the hook), then http-end. Lets
// unit tests run the real SDK clients against real SDK servers and feed the engine genuine wire traffic.
import { createParser } from 'eventsource-parser';
import type { Frame, FrameDraft, HeaderMap } from '../../shared/frames.ts';

export class FrameRecorder {
  readonly frames: Frame[] = [];
  private n = 0;
  private conns = 0;
  private pending = new Set<Promise<void>>();

  constructor(readonly doc = 'sdk-doc') {}

  emit(draft: FrameDraft): void {
    const seq = this.frames.length + 1;
    this.frames.push({ ...draft, doc: this.doc, n: ++this.n, t: performance.timeOrigin + performance.now(), seq, frameId: 0, segment: 1 } as Frame);
  }

  /** Resolves once every body being read has been recorded to its end (or the caller gives up waiting). */
  async settle(): Promise<void> {
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((r) => setTimeout(r, 200))]);
  }

  fetch: typeof fetch = async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    const conn = `${this.doc}:f${++this.conns}`;
    const headers: HeaderMap = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const body = init?.body !== undefined && init.body !== null ? String(init.body) : undefined;
    this.emit(body === undefined ? { kind: 'http-request', conn, method: req.method, url: req.url, headers } : { kind: 'http-request', conn, method: req.method, url: req.url, headers, body: { text: body } });
    let res: Response;
    try {
      res = await fetch(input as RequestInfo, init);
    } catch (e) {
      const error = e as Error;
      this.emit({ kind: 'http-end', conn, outcome: error.name === 'AbortError' ? 'aborted' : 'failed', phase: 'request', error: { name: error.name, message: error.message }, bytes: 0 });
      throw e;
    }
    const rh: HeaderMap = {};
    res.headers.forEach((v, k) => (rh[k] = v));
    this.emit({ kind: 'http-response', conn, status: res.status, statusText: res.statusText, url: res.url, redirected: res.redirected, headers: rh });
    const clone = res.clone();
    const p = this.read(conn, clone, (rh['content-type'] ?? '').includes('text/event-stream'));
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return res;
  };

  private async read(conn: string, res: Response, sse: boolean): Promise<void> {
    if (!res.body) {
      this.emit({ kind: 'http-end', conn, outcome: 'complete', phase: 'body', bytes: 0 });
      return;
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let bytes = 0;
    const parser = createParser({
      onEvent: (ev) => {
        const d: FrameDraft = { kind: 'sse-event', conn, data: { text: ev.data } };
        if (ev.id !== undefined) (d as { id?: string }).id = ev.id;
        if (ev.event !== undefined) (d as { event?: string }).event = ev.event;
        this.emit(d);
      },
      onComment: (c) => this.emit({ kind: 'sse-comment', conn, text: c }),
    });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        const chunk = decoder.decode(value, { stream: true });
        if (sse) parser.feed(chunk);
        else text += chunk;
      }
      if (!sse) this.emit({ kind: 'http-body', conn, body: { text } });
      this.emit({ kind: 'http-end', conn, outcome: 'complete', phase: 'body', bytes });
    } catch (e) {
      const error = e as Error;
      this.emit({ kind: 'http-end', conn, outcome: error.name === 'AbortError' ? 'aborted' : 'failed', phase: 'body', error: { name: error.name, message: error.message }, bytes });
    }
  }
}
