// A subscribed URI notified in a quick burst and re-read after each notification: what teaches the engine a short
// cadence (tests/unit/engine/freshness.test.ts, tests/unit/panel/age-limit.test.ts).
import type { FrameLog } from './frame-log.ts';
import { StreamableClient, type SseStream } from './mcp-clients.ts';

/** Session S1 read `uri` and subscribed it, with its GET stream open. */
export function subscribedWithGet(log: FrameLog, uri: string): { c: StreamableClient; get: SseStream } {
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  c.read(uri, 'v0');
  c.subscribe(uri);
  return { c, get };
}

/** `n` notifications of `uri` `gapMs` apart, each re-read (content v1…vn). */
export function notifiedBurst(log: FrameLog, s: { c: StreamableClient; get: SseStream }, uri: string, n = 5, gapMs = 700): void {
  for (let i = 1; i <= n; i++) {
    log.wait(gapMs);
    s.get.updated(uri);
    s.c.read(uri, `v${i}`);
  }
}
