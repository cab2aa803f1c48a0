// A finding's evidence links say what each frame is: its message's method, else what the transport did; the drawer
// reads it from the message list's columns (frameLabelAt), which must say what the decoded messages say.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import type { Frame } from '../../../shared/frames.ts';
import { parseTrace } from '../../../shared/trace/index.ts';
import { frameLabel, frameLabelAt } from '../../../panel/model/frame-label.ts';
import { messageIndexAtSeq } from '../../../panel/model/sessions-view.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { request, result, StreamableClient } from '../../support/mcp-clients.ts';

const base = { seq: 1, t: 0, segment: 0, frameId: 0 };

describe('frameLabel', () => {
  it('names a frame by its message: a request or notification by method, an answer with result/error, a batch by its first', () => {
    expect(frameLabel(undefined, [{ kind: 'request', method: 'resources/read' }])).toBe('resources/read');
    expect(frameLabel(undefined, [{ kind: 'notification', method: 'notifications/resources/updated' }])).toBe('notifications/resources/updated');
    expect(frameLabel(undefined, [{ kind: 'result', method: 'resources/read' }])).toBe('resources/read result');
    expect(frameLabel(undefined, [{ kind: 'error', method: undefined }])).toBe('error');
    expect(frameLabel(undefined, [{ kind: 'request', method: 'a' }, { kind: 'request', method: 'b' }, { kind: 'notification', method: 'c' }])).toBe('a +2');
  });
  it('names a transport frame by what happened; nothing for a frame not in view', () => {
    expect(frameLabel({ ...base, kind: 'http-response', conn: 'c', status: 404, headers: {} } as unknown as Frame, [])).toBe('HTTP 404');
    expect(frameLabel({ ...base, kind: 'http-request', conn: 'c', method: 'GET', url: 'u', headers: {} } as unknown as Frame, [])).toBe('HTTP GET');
    expect(frameLabel({ ...base, kind: 'ws-close', conn: 'c', code: 1006, reason: '', wasClean: false } as unknown as Frame, [])).toBe('WebSocket close 1006');
    expect(frameLabel(undefined, [])).toBe('');
  });
  it("names a response head by its request's method when known: what the exchange was", () => {
    // A live review, 2026-12: a phantom subscription's evidence read `#37 HTTP 200` for the DELETE that ended the session.
    const resp = { ...base, kind: 'http-response', conn: 'c', status: 200, headers: {} } as unknown as Frame;
    expect(frameLabel(resp, [], 'DELETE')).toBe('DELETE → 200');
    expect(frameLabel(resp, [])).toBe('HTTP 200');
  });
});

/** Every frame's label both ways: from its decoded messages (as the drawer built them before), and from the columns. */
function labelsBothWays(frames: readonly Frame[]): { decoded: string[]; columns: string[] } {
  const engine = Engine.replay(frames, {});
  const list = engine.messageList(engine.messageCount);
  const decoded: string[] = [];
  const columns: string[] = [];
  // Every frame, and a seq past the last (no frame, no message: '').
  for (const seq of [...frames.map((f) => f.seq), frames.at(-1)!.seq + 1]) {
    const f = frames.find((x) => x.seq === seq);
    const msgs = [];
    for (let i = messageIndexAtSeq(list, seq); i < list.count && list.store.seqAt(i) === seq; i++) msgs.push(engine.message(i)!);
    decoded.push(`#${seq} ${frameLabel(f, msgs)}`);
    columns.push(`#${seq} ${frameLabelAt(list, seq, f)}`);
  }
  return { decoded, columns };
}

describe('frameLabelAt (the columns) labels as frameLabel on the decoded messages', () => {
  const dir = fileURLToPath(new URL('../../fixtures/', import.meta.url));
  const traces = readdirSync(dir).filter((f) => f.endsWith('.trace.json')).sort();

  it('on every frame of the recorded traces (tests/fixtures), findings\' evidence among them', () => {
    expect(traces.length).toBeGreaterThan(0);
    let evidence = 0;
    const all: string[] = [];
    for (const file of traces) {
      const parsed = parseTrace(readFileSync(join(dir, file), 'utf8'));
      if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
      const frames = parsed.trace.frames;
      const { decoded, columns } = labelsBothWays(frames);
      expect(columns, file).toEqual(decoded);
      all.push(...decoded);
      const snap = Engine.replay(frames, {}).snapshot(frames.at(-1)!.t + 60_000);
      evidence += snap.findings.reduce((n, f) => n + f.evidence.length, 0);
    }
    // Labels of each sort were compared: messages' (an answer's too) and transport frames'; evidence links are frames
    // of these traces.
    for (const sort of [/ resources\/read$/, / resources\/read result$/, / notifications\/resources\/updated$/, / HTTP \d{3}$/, / WebSocket /, / SSE event$/]) {
      expect(all.some((l) => sort.test(l)), String(sort)).toBe(true);
    }
    expect(evidence).toBeGreaterThan(0);
  });

  it('on a batch (a count after the first) and an invalid element', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, 'http://localhost:3000/mcp', '2025-03-26');
    c.initialize({ sessionId: 'S1' });
    const k = log.newConn('post');
    const headers = { 'content-type': 'application/json', 'mcp-session-id': 'S1', 'mcp-protocol-version': '2025-03-26' };
    log.httpRequest(k, 'POST', 'http://localhost:3000/mcp', headers, `[${request('resources/read', { uri: 'file:///a' }, 3)},{"jsonrpc":"2.0","method":1},${request('resources/read', { uri: 'file:///b' }, 4)}]`);
    log.httpResponse(k, 200, 'http://localhost:3000/mcp', { 'content-type': 'application/json', 'mcp-session-id': 'S1' });
    log.httpBody(k, `[${result(3, { contents: [] })},${result(4, { contents: [] })}]`);
    log.httpEnd(k);
    const { decoded, columns } = labelsBothWays(log.frames);
    expect(columns).toEqual(decoded);
    expect(decoded.filter((l) => l.includes('+'))).toEqual([expect.stringMatching(/ resources\/read \+2$/), expect.stringMatching(/ resources\/read result \+1$/)]);
  });
});
