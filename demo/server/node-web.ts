// Bridges node:http to the web-standard Request/Response the SDK transports speak (the v1 WebStandard Streamable HTTP
// transport and the v2 createMcpHandler), streaming SSE bodies through and cancelling them when the client goes away.
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limitBytes) throw new BodyTooLargeError(`request body larger than ${limitBytes} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** A web Request for the SDK; `signal` aborts when the HTTP connection closes. */
export function toWebRequest(req: IncomingMessage, url: URL, body: Buffer | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  const method = req.method ?? 'GET';
  const hasBody = body !== undefined && body.length > 0 && method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined, signal });
}

/**
 * Writes a web Response to `res`, streaming its body. Resolves when the body ended or the client went away;
 * `onEnd` runs once either way (used to track open SSE streams).
 */
export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string>,
  onEnd?: () => void,
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, { ...headers, ...extraHeaders });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd?.();
  };
  if (!response.body) {
    res.end();
    end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    reader.cancel().catch(() => undefined);
    end();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.writableEnded) res.write(value);
    }
  } catch {
    // The client went away or the server cancelled the stream; nothing to tell anyone.
  } finally {
    if (!res.writableEnded) res.end();
    end();
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}
