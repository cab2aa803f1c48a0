// A large synthetic trace for the engine benchmark, written with the same scripted clients as the unit tests so its
// frames look like the hook's: a 2025 Streamable HTTP client and a 2026-07-28 listen client on one page, 500 URIs
// between them, ~1 KB documents, notifications followed by re-reads (some out of order), and 20 reconnects
// (10 re-initializations after a 404, 10 re-listens after a dropped listen stream).
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { ModernClient, StreamableClient, type ListenStream, type SseStream } from '../support/mcp-clients.ts';

export interface SyntheticTrace {
  frames: Frame[];
  /** Every JSON payload text in the trace: what JSON.parse alone would have to read. */
  payloads: string[];
}

const DOC = 'Policy text. '.repeat(80); // ~1 KB

function payloadsOf(frames: readonly Frame[]): string[] {
  const out: string[] = [];
  for (const f of frames) {
    const text =
      f.kind === 'http-request' ? f.body?.text : f.kind === 'http-body' ? f.body.text : f.kind === 'sse-event' ? f.data.text : f.kind === 'ws-message' ? f.data.text : undefined;
    if (text && (text[0] === '{' || text[0] === '[')) out.push(text);
  }
  return out;
}

export function syntheticTrace(targetFrames = 200_000, uris = 500, reconnects = 20): SyntheticTrace {
  const log = new FrameLog('bench-doc');
  log.pageStart('http://localhost:8080/kb');
  const half = uris / 2;
  const old = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
  const modern = new ModernClient(log, 'http://localhost:3000/mcp2026');
  const oldUris = Array.from({ length: half }, (_, i) => `file:///docs/doc-${i}.md`);
  const newUris = Array.from({ length: half }, (_, i) => `postgres://kb/articles/${i}`);
  let version = 0;
  let session = 0;

  let get!: SseStream;
  const connectOld = (): void => {
    old.initialize({ sessionId: `S${++session}` });
    get = old.openGet({ ids: `s${session}` });
    for (const uri of oldUris) old.subscribe(uri);
  };
  let listen!: ListenStream;
  const connectModern = (): void => {
    listen = modern.listen(newUris);
  };

  connectOld();
  for (const uri of oldUris) old.read(uri, `${DOC} ${uri} v0`);
  modern.discover();
  for (const uri of newUris) modern.read(uri, `${DOC} ${uri} v0`);
  connectModern();

  const perGeneration = reconnects / 2;
  const reconnectEvery = Math.floor(targetFrames / (reconnects + 1));
  let nextReconnect = reconnectEvery;
  let done = 0;
  let i = 0;
  while (log.frames.length < targetFrames) {
    log.wait(50);
    i++;
    const a = oldUris[i % half]!;
    const b = newUris[(i * 7) % half]!;
    version++;
    get.updated(a);
    if (i % 97 === 0) {
      // Two quick notifications, two reads, answered out of order.
      get.updated(a);
      const first = old.beginRead(a);
      const second = old.beginRead(a);
      second.respond({ contents: [{ uri: a, mimeType: 'text/markdown', text: `${DOC} ${a} v${version}` }] });
      first.respond({ contents: [{ uri: a, mimeType: 'text/markdown', text: `${DOC} ${a} v${version - 1}` }] });
    } else old.read(a, `${DOC} ${a} v${version}`);
    listen.updated(b);
    modern.read(b, `${DOC} ${b} v${version}`);
    if (log.frames.length >= nextReconnect && done < reconnects) {
      nextReconnect += reconnectEvery;
      if (done % 2 === 0 && done / 2 < perGeneration) {
        get.close('failed');
        old.beginRead(a).httpStatus(404, -32001, 'Session not found');
        connectOld();
      } else {
        listen.drop();
        connectModern();
      }
      done++;
    }
  }
  const frames = log.frames.slice(0, targetFrames);
  return { frames, payloads: payloadsOf(frames) };
}
