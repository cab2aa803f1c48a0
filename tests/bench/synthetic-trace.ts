// A large synthetic trace for the engine benchmark, written with the same scripted clients as the unit tests so its
// frames look like the hook's: a 2025 Streamable HTTP client and a 2026-07-28 listen client on one page, 500 URIs
// between them, markdown documents (sizes cycling 0.5 / 1 / 2 / 4 KB by URI, or one fixed size), notifications
// followed by re-reads (some out of order), and 20 reconnects (10 re-initializations after a 404, 10 re-listens
// after a dropped listen stream).
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { ModernClient, StreamableClient, type ListenStream, type SseStream } from '../support/mcp-clients.ts';

export interface SyntheticTrace {
  frames: Frame[];
  /** Every JSON payload text in the trace: what JSON.parse alone would have to read. */
  payloads: string[];
}

/** A markdown document of about `size` characters (headings, paragraphs, quotes, lists: JSON escapes newlines and quotes). */
export function markdownDoc(seed: number, size: number): string {
  const lines = [`# Policy ${seed}`, ''];
  let n = lines[0]!.length;
  for (let k = 0; n < size; k++) {
    const line =
      k % 5 === 0
        ? `## Section ${k}`
        : k % 5 === 1
          ? `- item ${k}: "quoted" rule, see file:///docs/doc-${(seed + k) % 97}.md`
          : `Paragraph ${k} of the knowledge base: employees must follow the rule within ${k} days.`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

export const DOC_SIZES = [512, 1024, 2048, 4096];

/** Every JSON payload text of these frames, in order: what JSON.parse alone would read. */
export function payloadsOf(frames: readonly Frame[]): string[] {
  const out: string[] = [];
  for (const f of frames) {
    const text =
      f.kind === 'http-request' ? f.body?.text : f.kind === 'http-body' ? f.body.text : f.kind === 'sse-event' ? f.data.text : f.kind === 'ws-message' ? f.data.text : undefined;
    if (text && (text[0] === '{' || text[0] === '[')) out.push(text);
  }
  return out;
}

/** `docSize` fixes every document's size; by default sizes cycle through DOC_SIZES by URI. */
export function syntheticTrace(targetFrames = 200_000, uris = 500, reconnects = 20, docSize?: number): SyntheticTrace {
  const docs = new Map<string, string>();
  const doc = (uri: string, i: number): string => {
    let d = docs.get(uri);
    if (d === undefined) docs.set(uri, (d = markdownDoc(i, docSize ?? DOC_SIZES[i % DOC_SIZES.length]!)));
    return d;
  };
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
  oldUris.forEach((uri, k) => old.read(uri, `${doc(uri, k)}\nv0`));
  modern.discover();
  newUris.forEach((uri, k) => modern.read(uri, `${doc(uri, half + k)}\nv0`));
  connectModern();

  const perGeneration = reconnects / 2;
  const reconnectEvery = Math.floor(targetFrames / (reconnects + 1));
  let nextReconnect = reconnectEvery;
  let done = 0;
  let i = 0;
  while (log.frames.length < targetFrames) {
    log.wait(50);
    i++;
    const ai = i % half;
    const bi = (i * 7) % half;
    const a = oldUris[ai]!;
    const b = newUris[bi]!;
    const da = doc(a, ai);
    const db = doc(b, half + bi);
    version++;
    get.updated(a);
    if (i % 97 === 0) {
      // Two quick notifications, two reads, answered out of order.
      get.updated(a);
      const first = old.beginRead(a);
      const second = old.beginRead(a);
      second.respond({ contents: [{ uri: a, mimeType: 'text/markdown', text: `${da}\nv${version}` }] });
      first.respond({ contents: [{ uri: a, mimeType: 'text/markdown', text: `${da}\nv${version - 1}` }] });
    } else old.read(a, `${da}\nv${version}`);
    listen.updated(b);
    modern.read(b, `${db}\nv${version}`);
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
