// A fork taken in the middle of a work run (resubscribing one URI at a time) continues as a straight replay would: each
// WorkRun stays one object, shared by its client and the conditions it excuses (a review, 2026-12-05).
import { describe, expect, it } from 'vitest';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { Engine } from '../../../shared/engine/index.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const uris = Array.from({ length: 30 }, (_, i) => `file:///docs/d${i}.md`);

describe('fork keeps WorkRun shared between ClientModel and OpenCondition.run', () => {
  it('fork mid resubscribe loop, continue: same as a straight replay; original untouched', () => {
    const log = new FrameLog();
    const c = new StreamableClient(log, ENDPOINT);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    for (const u of uris) { c.read(u, 'v1'); c.subscribe(u); }
    log.wait(500); get.close('aborted');
    c.initialize({ sessionId: 'S2' }); c.openGet();
    uris.forEach((u, i) => { log.wait(120); if (i !== 5) c.subscribe(u); });
    const cut = Math.floor(log.frames.length - 40);
    const a = new Engine(); a.applyAll(log.frames.slice(0, cut));
    const before = JSON.stringify(a.findings(log.t + 3000));
    const f = a.fork();
    const core = (f as any).core;
    for (const cm of core.clients.values()) for (const u of cm.uris.values()) {
      const r = u.conds['phantom-subscription']?.run; if (r) expect(r).toBe(cm.resubscribing);
      expect(u.conds['phantom-subscription']?.run === undefined || u.conds['phantom-subscription']?.run !== (a as any).core.clients.get(cm.key ?? [...core.clients.keys()][0])?.resubscribing).toBe(true);
    }
    f.applyAll(log.frames.slice(cut));
    const full = new Engine(); full.applyAll(log.frames);
    for (const dt of [0, 500, 1500, 3000, 40000]) expect(JSON.stringify(f.snapshot(log.t + dt))).toBe(JSON.stringify(full.snapshot(log.t + dt)));
    expect(JSON.stringify(a.findings(log.t + 3000))).toBe(before);
  });
});
