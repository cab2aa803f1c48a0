// Without "preserve log", a page whose iframes alone spoke MCP leaving empties the view (the tab's navigation and the
// end of those documents, in either order). A review (2026-12-06): the check took a new page's iframe that spoke and
// ended soon after the navigation for the page leaving, and missed a real departure while the panel was hidden (it
// timed the page-end when applied, on animation frames a hidden panel does not get).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Frame } from '../../../shared/frames.ts';
import { PanelStore } from '../../../panel/store.ts';
import { harText } from '../../../panel/actions.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const URL = 'http://localhost:3000/mcp';
const HOST = 'http://localhost:44273/';

/** One iframe document that speaks MCP and then ends (its page-end last). */
function iframe(doc: string, segment: number, from: number, frameId = 10): Frame[] {
  const log = new FrameLog(doc);
  log.pageStart(HOST, false);
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: doc });
  log.pageEnd(HOST);
  return log.frames.map((f, i) => ({ ...f, frameId, segment, seq: from + i }));
}

// Animation frames by a timer, held back while the panel is "hidden"; both clocks moved on by `skew`.
const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };
let had: typeof g.requestAnimationFrame;
let hidden = false;
let held: ((t: number) => void)[] = [];
let skew = 0;
beforeEach(() => {
  had = g.requestAnimationFrame;
  hidden = false;
  held = [];
  skew = 0;
  g.requestAnimationFrame = (cb) => {
    if (hidden) held.push(cb);
    else setTimeout(() => cb(performance.now()), 1);
    return 0;
  };
  const perf = performance.now.bind(performance);
  const date = Date.now.bind(Date);
  vi.spyOn(performance, 'now').mockImplementation(() => perf() + skew);
  vi.spyOn(Date, 'now').mockImplementation(() => date() + skew);
});
afterEach(() => {
  g.requestAnimationFrame = had;
  vi.restoreAllMocks();
});
const frames = (): Promise<unknown> => new Promise((r) => setTimeout(r, 450));
function show(): void {
  hidden = false;
  const cbs = held;
  held = [];
  for (const cb of cbs) setTimeout(() => cb(performance.now()), 1);
}

/** A panel without "preserve log" showing the old page's iframe, its page-end not yet received. */
async function oldIframeShown(): Promise<{ s: PanelStore; one: Frame[] }> {
  const s = new PanelStore();
  s.setPreserveLog(false);
  const one = iframe('if1', 1, 1);
  s.add(one.slice(0, -1));
  await frames();
  return { s, one };
}

/** The new page's iframe: its page-start and an initialized session, in a log of its own. */
function newIframe(): { log: FrameLog; c: StreamableClient } {
  const log = new FrameLog('if2');
  log.pageStart(HOST, false);
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: 'if2' });
  return { log, c };
}

describe('the page of iframes leaving', () => {
  it('the normal case: the tab navigates and the iframe in view ends', async () => {
    const { s, one } = await oldIframeShown();
    expect(s.snapshot.value!.sessions).toHaveLength(1);
    s.topNavigated();
    s.add(one.slice(-1));
    await frames();
    expect(s.pageLeft.value).toEqual({ url: HOST, frames: one.length });
    expect(s.shownFrames()).toHaveLength(0);
  });

  it("a new page's iframe that speaks and ends soon after the navigation is not the page leaving", async () => {
    // The reproduction: the top-level page (no MCP) navigates; the new page's iframe speaks, then ends at once.
    const s = new PanelStore();
    s.setPreserveLog(false);
    s.topNavigated();
    const fresh = iframe('if2', 2, 1);
    s.add(fresh);
    await frames();
    expect([s.pageLeft.value, s.shownFrames().length]).toEqual([null, fresh.length]);
    // The same after a page of iframes that did leave: the next page's iframe is shown, its end included.
    const t = new PanelStore();
    t.setPreserveLog(false);
    const one = iframe('if1', 1, 1);
    t.add(one.slice(0, -1));
    await frames();
    t.topNavigated();
    t.add(one.slice(-1));
    await frames();
    expect(t.pageLeft.value?.url).toBe(HOST);
    const next = iframe('if3', 2, one.length + 1);
    t.add(next);
    await frames();
    expect([t.pageLeft.value, t.shownFrames().length]).toEqual([null, next.length]);
    // Its replacement speaking is shown too (the ended document hides nothing of it).
    const again = iframe('if4', 2, one.length + next.length + 1);
    t.add(again.slice(0, -1));
    await frames();
    expect([t.pageLeft.value, t.shownFrames().length]).toEqual([null, next.length + again.length - 1]);
  });

  it('a hidden panel that applies the page-end long after is still told the page left', async () => {
    const { s, one } = await oldIframeShown();
    expect(s.snapshot.value!.sessions).toHaveLength(1);
    // Hidden (a background tab, another devtools panel selected): no animation frames.
    hidden = true;
    s.topNavigated();
    s.add(one.slice(-1));
    await frames();
    expect(s.pageLeft.value).toBeNull();
    // Shown again a minute later: the frames are applied now.
    skew = 60_000;
    show();
    await frames();
    expect(s.pageLeft.value).toEqual({ url: HOST, frames: one.length });
    expect(s.shownFrames()).toHaveLength(0);
  });

  it('an iframe that reloads long after a navigation heard is not the page leaving', async () => {
    const { s, one } = await oldIframeShown();
    s.topNavigated();
    await frames();
    skew = 60_000;
    s.add(one.slice(-1));
    await frames();
    expect([s.pageLeft.value, s.shownFrames().length]).toEqual([null, one.length]);
  });

  it("a new page's iframe that landed in the old page's segment stays when the old iframe's end comes after it (a review, 2026-12-06)", async () => {
    const { s, one } = await oldIframeShown();
    s.topNavigated();
    // The background joined the new page's iframe to the old segment: its page-start came before the old one's page-end.
    const two = iframe('if2', 1, one.length, 11).slice(0, -1);
    s.add(two);
    await frames();
    expect(s.snapshot.value!.sessions).toHaveLength(2);
    let seq = two.at(-1)!.seq;
    s.add([{ ...one.at(-1)!, seq: ++seq }]);
    await frames();
    // The old page left: its frames go from the view, the new page's iframe stays (rebuilt without them).
    expect(s.snapshot.value!.sessions.map((x) => x.doc)).toEqual(['if2']);
    expect(s.shownFrames().map((f) => f.seq)).toEqual(two.map((f) => f.seq));
    expect(s.pageLeft.value).toBeNull();
    // A late frame of the old document (its exchange's end after its page-end), then the new iframe goes on.
    const late = { ...one.find((f) => f.kind === 'http-end')!, seq: ++seq };
    const log = new FrameLog('if2');
    const c = new StreamableClient(log, URL);
    c.read('file:///x.md', 'x');
    const next = log.frames.map((f, i) => ({ ...f, frameId: 11, segment: 1, seq: seq + 1 + i }));
    s.add([late, ...next]);
    await frames();
    // Not shown, and the view does not move its start past the new iframe's frames.
    expect(s.shownFrames().map((f) => f.seq)).toEqual([...two, ...next].map((f) => f.seq));
    expect(s.frameBySeq(late.seq)).toBeUndefined();
    expect(s.messageRows().length).toBeGreaterThan(0);
    expect(s.hasFramesInView()).toBe(true);
    // Rebuilt (a Preserve log switch): still without the left documents' frames.
    s.setPreserveLog(false);
    await frames();
    expect(s.shownFrames().map((f) => f.seq)).toEqual([...two, ...next].map((f) => f.seq));
    expect(s.snapshot.value!.sessions.map((x) => x.doc)).toEqual(['if2']);
  });
});

describe('a rebuild without the left documents inside a slice (code review 3, item 1)', () => {
  it('the catch-up it starts counts from the rebuild, never below 0 % or above 100 %', async () => {
    const { s, one } = await oldIframeShown();
    s.topNavigated();
    // The new page's iframe, in the old segment, with enough frames that applying them again takes several slices.
    const { log, c } = newIframe();
    for (let i = 0; i < 150; i++) c.read(`file:///${i}.md`, 'x');
    const two = log.frames.map((f, i) => ({ ...f, frameId: 11, segment: 1, seq: one.length + i }));
    s.add(two);
    await frames();
    expect(s.shownFrames()).toHaveLength(one.length - 1 + two.length);
    const seen: number[] = [];
    s.catchUp.subscribe((v) => {
      if (v !== null) seen.push(v);
    });
    s.catchUpSliceMs = 0;
    s.add([{ ...one.at(-1)!, seq: two.at(-1)!.seq + 1 }]);
    for (let i = 0; i < 20 && (seen.length === 0 || s.catchUp.value !== null); i++) await frames();
    expect(seen.length).toBeGreaterThan(0);
    for (const v of seen) expect(v).toBeGreaterThanOrEqual(0);
    for (const v of seen) expect(v).toBeLessThanOrEqual(1);
    expect(s.catchUp.value).toBeNull();
    expect(s.shownFrames().map((f) => f.seq)).toEqual(two.map((f) => f.seq));
  });
});

describe("the left page's frames hidden between the new iframe's (code review 3, item 2)", () => {
  it('are no loss: no HAR gap, not counted as dropped in the export', async () => {
    const { s, one } = await oldIframeShown();
    s.topNavigated();
    // The new page's iframe, in the old segment, with a GET stream going on across the old iframe's page-end.
    const { log, c } = newIframe();
    const st = c.openGet();
    st.notify('notifications/message', { i: 1 });
    let seq = one.length - 1;
    const take = (from: number): Frame[] => log.frames.slice(from).map((f) => ({ ...f, frameId: 11, segment: 1, seq: ++seq }));
    const two = take(0);
    s.add(two);
    await frames();
    const end = { ...one.at(-1)!, seq: ++seq };
    const late = { ...one.find((f) => f.kind === 'http-end')!, seq: ++seq };
    s.add([end, late]);
    await frames();
    const had = log.frames.length;
    st.notify('notifications/message', { i: 2 });
    s.add(take(had));
    await frames();
    expect(s.shownFrames().map((f) => f.doc)).not.toContain('if1');
    // The log dropped frames of earlier pages: none of them between the page's start and its last frame.
    s.receive({ type: 'stats', stats: { tabId: 1, frames: seq, bytes: 0, dropped: 40, rejected: 0, lastSeq: seq + 40, segment: 1, errors: 0 } });
    expect(s.droppedLacking(s.shownFrames()).frames).toBe(0);
    const har = JSON.parse(harText(s)) as { log: { comment?: string; entries: { _mcp: { gap?: unknown } }[] } };
    expect(har.log.entries.some((e) => e._mcp.gap)).toBe(false);
    expect(har.log.comment ?? '').not.toContain('_mcp.gap');
    expect([...s.hiddenSeqs()]).toEqual(expect.arrayContaining([end.seq, late.seq]));
    await frames();
  });
});
