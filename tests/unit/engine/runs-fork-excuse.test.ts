// From a second review of the work runs (2026-12-05): see docs/engine.md, Runs of work.
import { expect, it } from 'vitest';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { Engine } from '../../../shared/engine/index.ts';
it('fork mid 503 blip: channelExcuse halves are the fork\'s own ledger/client runs; continuation == straight replay', () => {
  const log = new FrameLog();
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (let i = 0; i < 5; i++) { c.read(`file:///d${i}`, 'v1'); c.subscribe(`file:///d${i}`); }
  log.wait(200); get.close('failed');
  log.wait(1000); c.openGet({ status: 503 });
  const cut = log.frames.length;
  log.wait(1500); c.openGet();
  const a = new Engine(); a.applyAll(log.frames.slice(0, cut));
  a.snapshot(log.t);
  const f = a.fork();
  const ca = (a as any).core, cf = (f as any).core;
  let n = 0;
  for (const [i, l] of cf.ledgers.entries()) if (l.channelExcuse) {
    n++;
    expect(l.channelExcuse.a).toBe(l.reopening);
    expect(l.channelExcuse.a).not.toBe(ca.ledgers[i].reopening);
    const cm = [...cf.clients.values()][0];
    expect(l.channelExcuse.b).toBe(cm.reinitializing);
    for (const u of cm.uris.values()) if (u.conds['no-delivery-channel']) expect(u.conds['no-delivery-channel'].run).toBe(l.channelExcuse);
  }
  expect(n).toBeGreaterThan(0);
  f.applyAll(log.frames.slice(cut));
  const full = new Engine(); full.applyAll(log.frames);
  for (const dt of [0, 1000, 3000, 40_000]) expect(JSON.stringify(f.snapshot(log.t + dt))).toBe(JSON.stringify(full.snapshot(log.t + dt)));
});
