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
