// Traces of one URI held by two clients, whose rows and findings read alike but for their client: two endpoints (an
// HTTP server and a WebSocket one, whose socket drops and reconnects), and a page reloaded with the log kept.
import { FrameLog } from './frame-log.ts';
import { StreamableClient, WsClient } from './mcp-clients.ts';

export const POLICY = 'file:///docs/policy.md';
export const HTTP = 'http://localhost:3000/mcp';
export const WS = 'ws://localhost:3002/ws';
export const PAGE = 'http://localhost:8080/kb';

/**
 * One page, two servers, both caching POLICY: over HTTP (session S1) it is read and never subscribed (a warning);
 * over a WebSocket it is subscribed, the socket closes and the client reconnects (a second socket) without
 * subscribing again (errors, whose detail names the first socket's session). Ends 5 s after its last frame.
 */
export function twoEndpointLog(): FrameLog {
  const log = new FrameLog('doc-1');
  log.pageStart(PAGE);
  const http = new StreamableClient(log, HTTP);
  http.initialize({ sessionId: 'S1' });
  http.openGet();
  http.read(POLICY, 'v1');
  const ws = new WsClient(log, WS);
  ws.connect();
  ws.initialize();
  ws.call('resources/read', { uri: POLICY }, { contents: [{ uri: POLICY, text: 'v1' }] });
  ws.call('resources/subscribe', { uri: POLICY });
  ws.close();
  const again = new WsClient(log, WS);
  again.connect();
  again.initialize();
  log.wait(5000);
  return log;
}

/** The same page twice (a reload, the log kept), each reading POLICY over HTTP and never subscribing it. */
export function reloadedLog(): FrameLog[] {
  const page1 = new FrameLog('doc-1');
  page1.pageStart(PAGE);
  const a = new StreamableClient(page1, HTTP);
  a.initialize({ sessionId: 'S1' });
  a.read(POLICY, 'v1');
  page1.wait(10_000);
  page1.pageEnd(PAGE);
  const page2 = new FrameLog('doc-2', page1.t + 10, page1.lastSeq);
  page2.pageStart(PAGE);
  const b = new StreamableClient(page2, HTTP);
  b.initialize({ sessionId: 'S2' });
  b.read(POLICY, 'v2');
  page2.wait(10_000);
  return [page1, page2];
}

/** One page, one server: POLICY read and never subscribed. */
export function oneClientLog(): FrameLog {
  const log = new FrameLog('doc-1');
  log.pageStart(PAGE);
  const http = new StreamableClient(log, HTTP);
  http.initialize({ sessionId: 'S1' });
  http.read(POLICY, 'v1');
  log.wait(5000);
  return log;
}
