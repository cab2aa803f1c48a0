// UriState keeps the times of its last read sent, last notification and last subscribe sent as plain numbers, NaN until
// set (a `number | undefined` field boxed every write, and the URI row kept that box until the next scavenge promoted
// it). The NaN must never show: a row has no lastNotifyT / lastReadT until there is one, then the frame's time.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../shared/engine/index.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

describe('times a URI row may not have yet', () => {
  it('are absent until set, then the time of their frame', () => {
    const log = new FrameLog('doc-1');
    const c = new StreamableClient(log, 'http://h/mcp', '2025-06-18');
    c.initialize({ sessionId: 'S1' });
    const g = c.openGet({ ids: 'e1' });
    g.priming();
    c.subscribe('file:///a');
    const e = new Engine();
    e.applyAll(log.frames);
    const now = log.frames.at(-1)!.t;
    const row0 = e.snapshot(now).uris.find((r) => r.uri === 'file:///a')!;
    expect(row0).toBeDefined();
    expect('lastNotifyT' in row0).toBe(false);
    expect('lastReadT' in row0).toBe(false);
    expect(JSON.stringify(row0)).not.toContain('null');

    const before = log.frames.length;
    c.read('file:///a', 'a 0');
    const readT = log.frames[before]!.t;
    log.wait(5_000);
    const at = log.frames.length;
    g.updated('file:///a');
    const notifyT = log.frames.slice(at).find((f) => f.kind === 'sse-event')!.t;
    log.wait(5_000);
    g.updated('file:///a');
    for (const f of log.frames.slice(before)) e.apply(f);
    const row = e.snapshot(log.frames.at(-1)!.t).uris.find((r) => r.uri === 'file:///a')!;
    expect(row.lastReadT).toBe(readT);
    expect(row.lastNotifyT).toBeGreaterThan(notifyT);
    expect(Number.isFinite(row.lastNotifyT)).toBe(true);
  });
});
