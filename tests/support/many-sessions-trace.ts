// A client that re-initializes every half second (`sessions` sessions, S0 … S<n-1>, each with its GET stream, the
// previous stream dropped), plus a 2026-07-28 client on another endpoint with two listens: the Sessions view at scale
// (5,000 sessions are about 55k frames), with both kinds of row for the `session:` filter.
import type { Frame } from '../../shared/frames.ts';
import { FrameLog } from './frame-log.ts';
import { ModernClient, StreamableClient } from './mcp-clients.ts';

export const MANY_SESSIONS_PAGE = 'http://localhost:8080/kb';

export function manySessionsTrace(sessions: number): Frame[] {
  const log = new FrameLog('many-sessions-doc');
  log.pageStart(MANY_SESSIONS_PAGE);
  const modern = new ModernClient(log, 'http://localhost:3001/mcp');
  modern.discover();
  modern.listen(['file:///docs/a.md']).drop();
  modern.listen(['file:///docs/a.md']);
  const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-11-25');
  let get;
  for (let i = 0; i < sessions; i++) {
    if (i > 0) log.wait(500);
    get?.close('aborted');
    c.initialize({ sessionId: `S${i}` });
    get = c.openGet();
  }
  return log.frames;
}
