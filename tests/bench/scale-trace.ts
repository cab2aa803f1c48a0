// A client at scale, live: one 2025 Streamable HTTP client that read and subscribed `uris` URIs (all cached, all
// subscribed), then receives `notificationsPerS` notifications a second spread over them, each followed by a re-read
// (5 frames each: the SSE event, and request, response, body, end of the re-read), for `seconds`.
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';

export interface ScaleTrace {
  /** Initialize, the GET stream, and every URI subscribed and read. */
  setup: Frame[];
  /** The live part: notifications and re-reads. */
  live: Frame[];
}

export function scaleTrace(uris: number, notificationsPerS: number, seconds: number): ScaleTrace {
  const log = new FrameLog('bench-doc');
  log.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet({ ids: 's1' });
  const doc = (i: number, v: number) => `# Doc ${i}\n\nRevision ${v}. ` + 'Knowledge base text. '.repeat(10);
  for (let i = 0; i < uris; i++) {
    c.read(`file:///docs/doc-${i}.md`, doc(i, 0));
    c.subscribe(`file:///docs/doc-${i}.md`);
  }
  const setupEnd = log.frames.length;
  const total = notificationsPerS * seconds;
  // Spread over the URIs (a stride coprime with common counts, so neighbours are not updated together).
  for (let n = 0; n < total; n++) {
    log.wait(1000 / notificationsPerS);
    const uri = `file:///docs/doc-${(n * 7919) % uris}.md`;
    get.updated(uri);
    c.read(uri, doc(n, n + 1));
  }
  return { setup: log.frames.slice(0, setupEnd), live: log.frames.slice(setupEnd) };
}
