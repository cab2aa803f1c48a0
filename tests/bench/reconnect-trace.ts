// A client at scale that never resubscribes: it subscribes and reads `uris` URIs in its first session, then reconnects
// `reconnects` times (DELETE, initialize, GET stream, ten reads), every 10 s. Each reconnect re-checks every cached
// URI; the engine's cost must grow with URIs × reconnects, not with the sessions each check looks back on.
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';

export function neverResubscribingTrace(uris: number, reconnects: number): Frame[] {
  const log = new FrameLog('bench-doc');
  log.pageStart('http://localhost:8080/kb');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
  c.initialize({ sessionId: 'S0' });
  c.openGet();
  for (let i = 0; i < uris; i++) {
    c.subscribe(`file:///docs/${i}.md`);
    c.read(`file:///docs/${i}.md`, `# Doc ${i}\nversion 1\n`);
  }
  for (let r = 1; r <= reconnects; r++) {
    log.wait(10_000);
    c.delete();
    c.initialize({ sessionId: `S${r}` });
    c.openGet();
    for (let k = 0; k < 10; k++) c.read(`file:///docs/${(r * 10 + k) % uris}.md`, `# Doc\nversion ${r + 1}\n`);
  }
  return log.frames;
}
