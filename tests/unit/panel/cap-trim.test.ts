// A trim at the log's cap that drops the frames an open error rested on (a review, 2026-12-06: 20 URIs cached in a
// session that ended, not subscribed in the next: "40 errors" became "0 errors" once the reads and the session's end
// were trimmed, the badge still at 40). The view's findings follow the rebuild; what it lost is counted and said.
import { describe, expect, it } from 'vitest';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import type { Frame } from '../../../shared/frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { capNote } from '../../../panel/model/cap-note.ts';
import { CARRIED_NOTE, carriedCount, isCarried } from '../../../panel/carried-findings.ts';
import { findingCounts } from '../../../panel/model/uri-table.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

timerAnimationFrames();

const URL = 'http://localhost:3000/mcp';
const BAD = 'file:///bad/a.md';

function reconnectLog() {
  const log = new FrameLog('cap');
  log.pageStart('http://localhost:8080/app');
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'S1' });
  c.openGet();
  c.read(BAD, 'v1');
  c.subscribe(BAD);
  // A reconnect that resubscribes everything but BAD: its state rests on the frames above.
  c.delete();
  c.initialize({ sessionId: 'S2' });
  c.openGet();
  c.subscribe('file:///ok.md');
  for (let i = 0; i < 1200; i++) c.read('file:///ok.md', `v${i}`);
  const all = log.frames.map((f) => ({ ...f, segment: 1 }));
  const last = all.at(-1)!.seq;
  const stats = (frames: number, errors: number) => ({ type: 'stats' as const, stats: { tabId: 1, frames, bytes: 0, dropped: all.length - frames, rejected: 0, lastSeq: last, kept: [all[0]!.seq], segment: 1, errors } });
  return { all, stats, client: c, log };
}

/** Frames the panel receives but has not applied yet, then the log's trim to its last 50 frames (keeping `kept`). */
function framesThenTrimToLast50(s: PanelStore, more: Frame[], kept: number): void {
  s.receive({ type: 'frames', frames: more });
  const last = more.at(-1)!.seq;
  s.receive({ type: 'stats', stats: { tabId: 1, frames: 50, bytes: 0, dropped: last - 50, rejected: 0, lastSeq: last, kept: [kept], segment: 1, errors: 0 } });
}

describe('a trim at the cap under an open panel', () => {
  it('carries an open error whose evidence went, marked, while the rebuilt engine has no row for its URI; counts the view’s lost frames', async () => {
    const { all, stats, client, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    const before = findingCounts(s.snapshot.value!.findings);
    const open = s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD);
    expect(open.map((f) => f.severity)).toContain('error');
    expect(s.capLost()).toBe(0);
    // The log dropped a few: within the panel's slack, the view holds them and has lost nothing.
    s.receive(stats(all.length - 500, before.error));
    await settle();
    expect(s.capLost()).toBe(0);
    expect(capNote(s.capLost(), before.error, before.error)).toBeNull();
    // The log dropped all but 2,000 (and kept the page-start): the view is rebuilt from them.
    s.asideSliceMs = Infinity;
    s.receive(stats(2000, before.error));
    await settle();
    const snap = s.snapshot.value!;
    // The rebuilt engine has no row for BAD (no frame it holds names it): the view's open findings about it stay, marked.
    expect(snap.uris.some((r) => r.uri === BAD)).toBe(false);
    const carried = snap.findings.filter((f) => f.uri === BAD);
    expect(carried.map((f) => [f.key, f.severity, f.open])).toEqual(open.map((f) => [f.key, f.severity, true]));
    expect(carried.every((f) => isCarried(f) && f.detail!.startsWith(CARRIED_NOTE))).toBe(true);
    const after = findingCounts(snap.findings);
    expect(after.error).toBe(before.error);
    const lost = s.capLost();
    expect(lost).toBe(all.length - 2000);
    const note = capNote(lost, after.error, before.error, carriedCount(snap.findings))!;
    expect(note.badgeDiffers).toBe(false);
    expect(note.text).toMatch(`dropped the oldest ${lost.toLocaleString('en-US')} frames of this view; ${carried.length} open finding`);
    // Named again (the client subscribes it in the new session): the engine's own analysis takes over, for good.
    const n = log.frames.length;
    client.subscribe(BAD);
    const more = log.frames.slice(n).map((f) => ({ ...f, segment: 1 }));
    s.receive({ type: 'frames', frames: more });
    await settle();
    expect(s.snapshot.value!.findings.filter(isCarried)).toEqual([]);
    expect(s.snapshot.value!.uris.some((r) => r.uri === BAD)).toBe(true);
    expect(s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD && (f.id === 'phantom-subscription' || f.id === 'cached-not-subscribed'))).toEqual([]);
  });

  it('a trim of frames the view had not taken yet (rebuilt in place) carries them too; a new page drops them', async () => {
    const { all, stats, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all.slice(0, all.length - 100), done: true });
    await settle();
    const open = s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD);
    expect(open.length).toBeGreaterThan(0);
    // No animation frame in between: the log dropped frames, and the last ones are still waiting here.
    s.receive({ type: 'frames', frames: all.slice(all.length - 100) });
    s.receive(stats(50, 0));
    await settle();
    expect(s.snapshot.value!.findings.filter((f) => f.uri === BAD && isCarried(f)).map((f) => f.key)).toEqual(open.map((f) => f.key));
    // A new page (no preserve log): the view starts over, nothing carried.
    const next = new FrameLog('cap2');
    next.pageStart('http://localhost:8080/other');
    const last = all.at(-1)!.seq;
    s.receive({ type: 'frames', frames: next.frames.map((f, i) => ({ ...f, seq: last + 1 + i, segment: 2 })) });
    await settle();
    expect(s.snapshot.value!.findings.filter(isCarried)).toEqual([]);
    void log;
  });

  it('a resume after a pause that spanned a trim carries the paused view’s open findings (a review, 2026-12-06)', async () => {
    const { all, client: c, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    const open = s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD);
    expect(open.length).toBeGreaterThan(0);
    s.setPaused(true);
    const m = log.frames.length;
    for (let i = 0; i < 3000; i++) c.read('file:///ok.md', `w${i}`);
    const more = log.frames.slice(m).map((f) => ({ ...f, segment: 1 }));
    s.receive({ type: 'frames', frames: more });
    const last = more.at(-1)!.seq;
    s.receive({ type: 'stats', stats: { tabId: 1, frames: 2000, bytes: 0, dropped: last - 2000, rejected: 0, lastSeq: last, kept: [all[0]!.seq], segment: 1, errors: open.length } });
    await settle();
    s.setPaused(false);
    await settle();
    const after = s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD);
    expect(after.map((f) => [f.key, isCarried(f)])).toEqual(open.map((f) => [f.key, true]));
  });

  it('a resume does not carry a finding about a URI that frames dropped while paused named', async () => {
    const { all, client: c, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    expect(s.snapshot.value!.findings.some((f) => f.open && f.uri === BAD)).toBe(true);
    s.setPaused(true);
    const m = log.frames.length;
    c.subscribe(BAD);
    for (let i = 0; i < 3000; i++) c.read('file:///ok.md', `w${i}`);
    const more = log.frames.slice(m).map((f) => ({ ...f, segment: 1 }));
    s.receive({ type: 'frames', frames: more });
    const last = more.at(-1)!.seq;
    s.receive({ type: 'stats', stats: { tabId: 1, frames: 2000, bytes: 0, dropped: last - 2000, rejected: 0, lastSeq: last, kept: [all[0]!.seq], segment: 1, errors: 0 } });
    s.setPaused(false);
    await settle();
    expect(s.snapshot.value!.findings.filter(isCarried)).toEqual([]);
  });

  it('a trim in place does not carry what frames the view never took resolved (a review: a stale snapshot)', async () => {
    const { all: first, client: c, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: first, done: true });
    await settle();
    expect(s.snapshot.value!.findings.some((f) => f.open && f.uri === BAD)).toBe(true);
    const m = log.frames.length;
    // Frames the (hidden) panel never applied: BAD subscribed again, so a replay of the log has no error about it.
    c.subscribe(BAD);
    for (let i = 0; i < 1500; i++) c.read('file:///ok.md', `w${i}`);
    const more = log.frames.slice(m).map((f) => ({ ...f, segment: 1 }));
    framesThenTrimToLast50(s, more, first[0]!.seq);
    await settle();
    expect(s.snapshot.value!.findings.filter(isCarried)).toEqual([]);
  });

  it('a trim in place whose page already left carries nothing into the toolbar counts', async () => {
    const { all, log } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    expect(s.snapshot.value!.findings.some((f) => f.open && f.uri === BAD)).toBe(true);
    // Frames not taken yet: more reads and the page's end, then the log drops what the view never took.
    const m = log.frames.length;
    const c2 = new StreamableClient(log, URL);
    c2.initialize({ sessionId: 'S3' });
    for (let i = 0; i < 1500; i++) c2.read('file:///ok.md', `x${i}`);
    log.pageEnd('http://localhost:8080/app');
    const more = log.frames.slice(m).map((f) => ({ ...f, segment: 1 }));
    framesThenTrimToLast50(s, more, all[0]!.seq);
    await settle();
    expect(s.pageLeft.value).not.toBeNull();
    expect(s.snapshot.value!.findings.filter(isCarried)).toEqual([]);
  });

  it('counts no loss while the engine in view (the rebuild not yet swapped in) still shows what the dropped frames established', async () => {
    const { all, stats } = reconnectLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await settle();
    const open = s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD);
    expect(open.length).toBeGreaterThan(0);
    s.receive(stats(2000, open.length));
    // The trim cut the panel's frames; the old engine is still the one in view (the swap comes with the rebuild).
    expect(s.snapshot.value!.findings.filter((f) => f.open && f.uri === BAD && !isCarried(f)).length).toBe(open.length);
    expect(s.capLost()).toBe(0);
    expect(capNote(s.capLost(), open.length, open.length)).toBeNull();
    s.asideSliceMs = Infinity;
    await settle();
    expect(s.capLost()).toBe(all.length - 2000);
  });
});
