// A 2026-07-28 page with two listens whose request ids are numbers, 3 and 31 (3's id is a part of 31's: `session:3`
// must not find 31), and one numbered as the TypeScript SDK numbers them (`listen:12`, the longest name a narrow cell
// shows whole): the views name each `listen <request id>`.
import { FrameLog } from './frame-log.ts';
import { ModernClient } from './mcp-clients.ts';

export const LISTENED = 'file:///docs/a.md';
export const HELD = 'file:///docs/b.md';
export const SDK_HELD = 'file:///docs/c.md';
export const MODERN_URL = 'http://localhost:4000/mcp';

/**
 * LISTENED is listened for on listen 3, updated there and never read again, and listen 3 drops (its findings: lost
 * with the stream, phantom, notified and not re-read — that one's session is `3`); HELD is held by listen 31 and
 * SDK_HELD by listen `listen:12`, both open to the end. Ends 5 s after its last frame.
 */
export function listenLog(): FrameLog {
  const log = new FrameLog('doc-1');
  log.pageStart('http://localhost:8080/kb');
  const m = new ModernClient(log, MODERN_URL);
  m.discover();
  for (const uri of [LISTENED, HELD, SDK_HELD]) m.read(uri, 'v1');
  const three = m.listen([LISTENED], { id: 3 });
  m.listen([HELD], { id: 31 });
  m.listen([SDK_HELD], { id: 'listen:12' });
  three.updated(LISTENED);
  three.drop();
  log.wait(5000);
  return log;
}

export const REUSED = 'file:///docs/d.md';
export const PLAIN = 'file:///docs/e.md';

/**
 * Two SDK clients of one page, one after the other (a fresh client after a reconnect), each numbering its listen
 * `listen:1`: the engine labels the second stream `listen:1 #2`. The first client's listen ends gracefully; the
 * second's is acknowledged, delivers an update of REUSED and stays open; a plain read of PLAIN follows on a POST of its
 * own (no listen, no session). `second`: the seq of the second client's listen request. Ends 5 s after its last frame.
 */
export function reusedListenLog(): { log: FrameLog; second: number } {
  const log = new FrameLog('doc-1');
  log.pageStart('http://localhost:8080/kb');
  const a = new ModernClient(log, MODERN_URL);
  a.discover();
  a.read(REUSED, 'v1');
  a.listen([REUSED]).complete();
  const b = new ModernClient(log, MODERN_URL);
  b.discover();
  const second = log.lastSeq + 1;
  const listen = b.listen([REUSED]);
  listen.updated(REUSED);
  b.read(PLAIN, 'p1');
  log.wait(5000);
  return { log, second };
}
