// Sessions whose delivery stream drops, shared by the per-URI resume-gap tests (tests/unit/engine/uri-gap-doubt.test.ts
// and gap-review/): a subscribed session with a resumable GET stream, and one whose idle GET stream (no ids) is cut
// together with a per-request stream that carried an id.
import type { FrameLog } from './frame-log.ts';
import { StreamableClient, type PendingCall, type SseStream } from './mcp-clients.ts';

export const GAP_URL = 'http://127.0.0.1:3000/mcp';
export const GAP_POLICY = 'file:///docs/policy.md';
export const GAP_FAQ = 'file:///docs/faq.md';

/** Session S1 (2025-11-25) read and subscribed `uris`; its GET stream `first` carries event ids (primed). */
export function subscribedWithIds(log: FrameLog, uris = [GAP_POLICY]): { c: StreamableClient; first: SseStream } {
  const c = new StreamableClient(log, GAP_URL, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  const first = c.openGet({ ids: 'ev' });
  first.priming();
  for (const u of uris) {
    c.read(u, 'v1');
    c.subscribe(u);
  }
  log.wait(100);
  return { c, first };
}

/**
 * Session S1 read and subscribed the policy; its GET stream carried no ids, and a read of the FAQ (`p`) was answering
 * on its own stream, which had sent an event id: both are cut together, and 300 ms pass. What the client sends next is
 * the test's.
 */
export function cutWithPerRequestStream(log: FrameLog): { c: StreamableClient; p: PendingCall } {
  const c = new StreamableClient(log, GAP_URL, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet(); // no ids: nothing can resume it
  c.read(GAP_POLICY, 'v1');
  c.subscribe(GAP_POLICY);
  const p = c.beginRead(GAP_FAQ);
  log.httpResponse(p.conn, 200, GAP_URL, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' });
  log.sseEvent(p.conn, '', { id: 'p-1' });
  get.close('failed');
  log.httpEnd(p.conn, 'failed');
  log.wait(300);
  return { c, p };
}

/**
 * A lapsed subscription: S1 (2025-11-25, at `url`) read and subscribed `uri`; the client re-initialized as S2, opened
 * its GET stream and subscribed again, and never read it again (resume-gap, subscription-lapsed). Shared by the panel's
 * unit and e2e tests of how the finding is titled.
 */
export function lapsedLog(log: FrameLog, url = GAP_URL, uri = GAP_POLICY): StreamableClient {
  const c = new StreamableClient(log, url, '2025-11-25');
  c.initialize({ sessionId: 'S1' });
  c.read(uri, 'v1');
  c.subscribe(uri);
  log.wait(1000);
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  log.wait(800);
  c.subscribe(uri);
  return c;
}
