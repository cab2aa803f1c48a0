// The panel store without a browser: frames in, snapshots out (two animation frames: computed, then committed), no
// duplicates, pause holds frames back, "preserve log" decides whether earlier page segments stay in view, an import
// is analysed aside and shown in one step, the scrubber replays up to an instant.
import { describe, expect, it } from 'vitest';
import { effect } from '@preact/signals';
import { settle, timerAnimationFrames } from '../../support/animation-frames.ts';
import { connOf, type Frame } from '../../../shared/frames.ts';
import { Engine, messagesSlice } from '../../../shared/engine/index.ts';
import { exportTrace, serializeTrace } from '../../../shared/trace/index.ts';
import { cancelImport, harText, importDropped, importFile, pageUrlOf, traceText } from '../../../panel/actions.ts';
import { namePageIn, panelTitle, PanelStore } from '../../../panel/store.ts';
import { frameLabelAt } from '../../../panel/model/frame-label.ts';
import { scrubSteps } from '../../../panel/model/timeline.ts';
import { DEFAULT_SETTINGS } from '../../../shared/settings.ts';
import { FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';
import { syntheticTrace } from '../../bench/synthetic-trace.ts';

timerAnimationFrames();
const frames = settle;
const g = globalThis as { requestAnimationFrame?: (cb: (t: number) => void) => number };

const URL = 'http://localhost:3000/mcp';
const POLICY = 'file:///docs/policy.md';

function page(segment: number, log = new FrameLog(`doc${segment}`)): Frame[] {
  log.pageStart(`http://localhost:8080/?s=${segment}`);
  const c = new StreamableClient(log, URL);
  c.initialize({ sessionId: `S${segment}` });
  c.openGet();
  c.read(POLICY, `v${segment}`);
  c.subscribe(POLICY);
  return log.frames.map((f) => ({ ...f, segment }));
}

function stamped(list: Frame[], from: number): Frame[] {
  return list.map((f, i) => ({ ...f, seq: from + i }));
}

describe('PanelStore', () => {
  it("keeps the drawer's own navigation for Back; a drawer opened from elsewhere starts afresh", () => {
    const s = new PanelStore();
    const finding = { kind: 'finding', key: 'F' } as const;
    const frame = { kind: 'frame', seq: 3 } as const;
    const message = { kind: 'message', index: 1 } as const;
    s.drawer.value = finding;
    expect(s.drawerBackTarget()).toBeUndefined();
    s.openFromDrawer(frame);
    expect(s.drawerBackTarget()).toBe(finding);
    s.openFromDrawer(message);
    expect(s.drawerBackTarget()).toBe(frame);
    expect(s.drawerBack()).toBe(true);
    expect(s.drawer.value).toBe(frame);
    expect(s.drawerBack()).toBe(true);
    expect(s.drawer.value).toBe(finding);
    expect(s.drawerBack()).toBe(false);
    expect(s.drawer.value).toBe(finding);
    // Opened from a row (or closed with Esc) in between: no Back to what came before.
    s.openFromDrawer(frame);
    s.drawer.value = null;
    s.drawer.value = { kind: 'uri', key: 'U' };
    expect(s.drawerBackTarget()).toBeUndefined();
    s.openFromDrawer(frame);
    expect(s.drawerBackTarget()).toEqual({ kind: 'uri', key: 'U' });
    expect(s.drawerHistory.value).toHaveLength(1);
  });

  it("names the exported page: the top-level page's URL, else the MCP iframe's (a page that never spoke MCP)", async () => {
    const s = new PanelStore();
    const log = new FrameLog('doc-frame');
    log.emit({ kind: 'page-start', url: 'http://localhost:8080/widget', top: false });
    new StreamableClient(log, URL).initialize({ sessionId: 'S1' });
    s.receive({ type: 'backlog', frames: stamped(log.frames, 1), done: true });
    await frames();
    expect(pageUrlOf(s)).toBe('http://localhost:8080/widget');
    const top = stamped(page(1), 100);
    s.receive({ type: 'frames', frames: top });
    await frames();
    expect(pageUrlOf(s)).toBe('http://localhost:8080/?s=1');
  });

  it('applies frames once, in a snapshot the views read; a resent batch changes nothing', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: a, done: true });
    s.receive({ type: 'frames', frames: a.slice(-3) });
    await frames();
    const snap = s.snapshot.value!;
    expect(snap.lastSeq).toBe(a.at(-1)!.seq);
    expect(s.frames.map((f) => f.seq)).toEqual(a.map((f) => f.seq));
    expect(snap.uris.map((u) => u.uri)).toContain(POLICY);
    expect(s.timeline.lanes.size).toBeGreaterThan(0);
    expect(s.messageRows().length).toBeGreaterThan(a.length / 2);
  });

  it('pause holds new frames back (counted as waiting) and resume applies them', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.add(a.slice(0, 5));
    await frames();
    s.setPaused(true);
    s.add(a.slice(5));
    await frames();
    expect(s.snapshot.value!.lastSeq).toBe(5);
    expect(s.waiting.value).toBe(a.length - 5);
    s.setPaused(false);
    await frames();
    expect(s.snapshot.value!.lastSeq).toBe(a.at(-1)!.seq);
    expect(s.waiting.value).toBe(0);
  });

  it('paused, a view rebuilt (new settings, preserve log switched) keeps what it showed, re-analysed; only what came since waits', async () => {
    const s = new PanelStore();
    s.setPreserveLog(true);
    const one = stamped(page(1), 1);
    const two = stamped(page(2), one.length + 1);
    s.add(one);
    s.add(two.slice(0, 4));
    await frames();
    s.setPaused(true);
    const shown = s.shownFrames().length;
    s.add(two.slice(4));
    await frames();
    expect(s.waiting.value).toBe(two.length - 4);
    // A freshness rule saved while paused: the same frames, judged with it (an audit, 2026-12-05: the view emptied,
    // every frame counted as waiting, and an export written then held no frame).
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: '**', maxAgeMs: 1 }] } });
    await frames();
    expect(s.shownFrames()).toHaveLength(shown);
    expect(s.waiting.value).toBe(two.length - 4);
    expect(s.snapshot.value!.lastSeq).toBe(two[3]!.seq);
    expect(s.snapshot.value!.findings.map((f) => f.id)).toContain('cache-age-exceeded');
    expect((JSON.parse(traceText(s)) as { frames: unknown[] }).frames).toHaveLength(shown);
    // Preserve log off while paused: the page shown at the pause (segment 2, its first 4 frames), not the one since.
    s.setPreserveLog(false);
    await frames();
    expect(s.shownFrames().map((f) => f.seq)).toEqual(two.slice(0, 4).map((f) => f.seq));
    expect(s.waiting.value).toBe(two.length - 4);
    s.setPaused(false);
    await frames();
    expect(s.shownFrames()).toHaveLength(two.length);
    expect(s.waiting.value).toBe(0);
    s.setPreserveLog(true);
  });

  it('without "preserve log" a new page segment starts the view over; with it, earlier segments stay', async () => {
    const s = new PanelStore();
    s.setPreserveLog(false);
    const one = stamped(page(1), 1);
    const two = stamped(page(2), one.length + 1);
    s.add(one);
    await frames();
    s.add(two);
    await frames();
    expect(s.shownFrames().every((f) => f.segment === 2)).toBe(true);
    expect(s.snapshot.value!.sessions.map((x) => x.label)).toEqual(['S2']);
    // The status line counts the page in view, beside the log.
    expect(s.framesInView()).toBe(two.length);
    s.setPreserveLog(true);
    await frames();
    expect(s.framesInView()).toBeUndefined();
    expect(s.shownFrames()).toHaveLength(one.length + two.length);
    expect(s.snapshot.value!.sessions.map((x) => x.label)).toEqual(['S1', 'S2']);
    s.setPreserveLog(false);
  });

  it('without "preserve log", the page in view leaving (to a page that never speaks MCP) empties the view; its frames stay in the log', async () => {
    const s = new PanelStore();
    s.setPreserveLog(false);
    const log = new FrameLog('doc1');
    const one = page(1, log);
    log.pageEnd('http://localhost:8080/?s=1');
    const left = stamped(log.frames.map((f) => ({ ...f, segment: 1 })), 1);
    s.add(left.slice(0, one.length));
    await frames();
    expect(s.snapshot.value!.uris.length).toBe(1);
    s.add(left.slice(one.length));
    await frames();
    expect(s.pageLeft.value).toEqual({ url: 'http://localhost:8080/?s=1', frames: left.length });
    expect([s.shownFrames().length, s.snapshot.value!.uris.length, s.framesInView()]).toEqual([0, 0, 0]);
    // Rebuilt (a settings change) it stays empty; with "preserve log" the page is back.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 60_000 } });
    await frames();
    expect([s.pageLeft.value?.frames, s.shownFrames().length]).toEqual([left.length, 0]);
    s.setPreserveLog(true);
    await frames();
    expect([s.pageLeft.value, s.shownFrames().length, s.snapshot.value!.sessions.length]).toEqual([null, left.length, 1]);
    s.setPreserveLog(false);
    await frames();
    expect(s.shownFrames().length).toBe(0);
    // The next page that speaks MCP is shown as usual.
    const two = stamped(page(2), left.length + 1);
    s.add(two);
    await frames();
    expect([s.pageLeft.value, s.shownFrames().length]).toEqual([null, two.length]);
    expect(s.snapshot.value!.sessions.map((x) => x.label)).toEqual(['S2']);
  });

  it('without "preserve log", a page whose iframes alone spoke MCP leaving empties the view as well; an iframe that reloads does not', async () => {
    const iframe = (doc: string, segment: number) => {
      const log = new FrameLog(doc);
      log.pageStart('http://localhost:44273/', false);
      const c = new StreamableClient(log, URL);
      c.initialize({ sessionId: doc });
      c.read(POLICY, 'v1');
      log.pageEnd('http://localhost:44273/');
      return log.frames.map((f) => ({ ...f, frameId: 10, segment }));
    };
    const s = new PanelStore();
    s.setPreserveLog(false);
    const first = stamped(iframe('if1', 1), 1);
    s.add(first.slice(0, -1));
    await frames();
    expect(s.snapshot.value!.sessions).toHaveLength(1);
    // The iframe reloads (its document ends, no navigation of the tab): the view stays.
    s.add(first.slice(-1));
    await frames();
    expect([s.pageLeft.value, s.shownFrames().length]).toEqual([null, first.length]);
    const second = stamped(iframe('if2', 1), first.length + 1);
    s.add(second.slice(0, -1));
    await frames();
    expect(s.snapshot.value!.sessions).toHaveLength(2);
    // The host page navigates: its iframe's document ends and the tab loads (in either order).
    s.topNavigated();
    await frames();
    expect(s.pageLeft.value).toBeNull();
    s.add(second.slice(-1));
    await frames();
    expect(s.pageLeft.value).toEqual({ url: 'http://localhost:44273/', frames: first.length + second.length });
    expect([s.shownFrames().length, s.snapshot.value!.sessions.length, s.framesInView(), s.hasFramesInView()]).toEqual([0, 0, 0, false]);
    // Rebuilt (a settings change) it stays so.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 60_000 } });
    await frames();
    expect([s.pageLeft.value?.url, s.shownFrames().length]).toEqual(['http://localhost:44273/', 0]);
    // The other order: the documents end, then the tab's navigation is heard.
    const t = new PanelStore();
    t.setPreserveLog(false);
    t.add(second.map((f, i) => ({ ...f, seq: i + 1 })));
    await frames();
    expect(t.pageLeft.value).toBeNull();
    t.topNavigated();
    await frames();
    expect([t.pageLeft.value?.url, t.shownFrames().length]).toEqual(['http://localhost:44273/', 0]);
  });

  it('names the inspected page: the title of a panel opened as a tab and the tab-closed notice say its host, not only the tab id', async () => {
    const s = new PanelStore();
    expect(panelTitle(s.inspectedPage.value)).toBe('MCP');
    // Only an iframe spoke: its page names the tab.
    const inner = new FrameLog('in1');
    inner.pageStart('http://localhost:44273/', false);
    s.add(inner.frames.map((f) => ({ ...f, frameId: 10 })));
    expect(panelTitle(s.inspectedPage.value)).toBe('MCP — localhost:44273');
    // The top-level page spoke: it names the tab; its iframes after it do not.
    const top = new FrameLog('top1');
    top.pageStart('http://127.0.0.1:8080/app?x=1');
    s.add(top.frames.map((f) => ({ ...f, seq: 2 })));
    const more = new FrameLog('in2');
    more.pageStart('http://localhost:44273/', false);
    s.add(more.frames.map((f) => ({ ...f, seq: 3, frameId: 11 })));
    expect(panelTitle(s.inspectedPage.value)).toBe('MCP — 127.0.0.1:8080');
    s.receive({ type: 'error', error: 'Tab 1947178434 was closed: its log is gone and nothing more will be captured here.', noTab: true });
    expect(s.backgroundError.value).toBe('The tab of 127.0.0.1:8080/app?x=1 (tab 1947178434) was closed: its log is gone and nothing more will be captured here.');
    expect(namePageIn('Tab 5 was closed: gone', null)).toBe('Tab 5 was closed: gone');
    await frames();
  });

  it("finds the request a response head answers (an evidence link's label: `#37 DELETE → 200`)", async () => {
    const s = new PanelStore();
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.delete();
    s.add(stamped(log.frames, 1));
    await frames();
    const all = s.shownFrames();
    const del = all.find((f) => f.kind === 'http-request' && f.method === 'DELETE')!;
    const resp = all.find((f) => f.kind === 'http-response' && f.conn === (del as { conn: string }).conn)!;
    expect(s.requestMethodOf(resp.seq)).toBe('DELETE');
    const engine = s.engineNow();
    expect(frameLabelAt(engine.messageList(engine.messageCount), resp.seq, s.frameBySeq(resp.seq), s.requestMethodOf(resp.seq))).toBe('DELETE → 200');
    // Not a response head: no method.
    expect(s.requestMethodOf(del.seq)).toBeUndefined();
  });

  it('keeps saying the page left until the next page\'s snapshot is shown: never "no MCP traffic yet" in between', async () => {
    // A live review, 2026-12: at a reload the view said "No MCP traffic captured in this tab yet" for ~80 ms between
    // "The page left" and the new page's table (pageLeft was cleared at the new page's first frame, a snapshot early).
    const s = new PanelStore();
    s.setPreserveLog(false);
    const log = new FrameLog('doc1');
    page(1, log);
    log.pageEnd('http://localhost:8080/?s=1');
    const left = stamped(log.frames.map((f) => ({ ...f, segment: 1 })), 1);
    s.add(left);
    await frames();
    expect(s.pageLeft.value?.url).toBe('http://localhost:8080/?s=1');
    // What App.tsx shows: "no traffic yet" when nothing says the page left and the shown snapshot has no frames.
    let sawNoTraffic = false;
    const stop = effect(() => {
      if (s.pageLeft.value === null && (s.snapshot.value?.frames ?? 0) === 0 && s.waiting.value === 0) sawNoTraffic = true;
    });
    s.add(stamped(page(2), left.length + 1));
    await frames();
    stop();
    expect([s.pageLeft.value, s.snapshot.value!.sessions.map((x) => x.label)]).toEqual([null, ['S2']]);
    expect(sawNoTraffic).toBe(false);
  });

  it("counts what the page that left still sent after its page-end (its stream's end) among its frames, as the status line does", async () => {
    // The status line said "21 of earlier pages hidden", the view "Its 20 frames are still in the tab's log".
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/?s=1');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    log.pageEnd('http://localhost:8080/?s=1');
    get.close('aborted');
    const all = stamped(log.frames.map((f) => ({ ...f, segment: 1 })), 1);
    const end = all.findIndex((f) => f.kind === 'page-end');
    expect(all.slice(end + 1).map((f) => f.kind)).toEqual(['http-end']);
    /** What the view says of the page that left, and what the status line hides (the log's `logged` frames less those in view). */
    const counts = (x: PanelStore, logged = all.length) => [x.pageLeft.value?.frames, x.shownFrames().length, logged - (x.framesInView() ?? logged)];
    // Live: the page-end, then the stream's end in a later batch.
    const s = new PanelStore();
    s.setPreserveLog(false);
    s.add(all.slice(0, end + 1));
    await frames();
    expect(counts(s, end + 1)).toEqual([end + 1, 0, end + 1]);
    s.add(all.slice(end + 1));
    await frames();
    expect(counts(s)).toEqual([all.length, 0, all.length]);
    // Rebuilt over the log (a settings change), and all in one batch.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 60_000 } });
    await frames();
    expect(counts(s)).toEqual([all.length, 0, all.length]);
    const t = new PanelStore();
    t.setPreserveLog(false);
    t.add(all);
    await frames();
    expect(counts(t)).toEqual([all.length, 0, all.length]);
    s.setPreserveLog(true);
  });

  it('the page leaving after a Clear (its page-start gone with it) empties the view too; a rebuild keeps it empty', async () => {
    const s = new PanelStore();
    s.setPreserveLog(false);
    const log = new FrameLog('doc1');
    const c = new StreamableClient(log, URL);
    log.pageStart('http://localhost:8080/app');
    c.initialize({ sessionId: 'S1' });
    const before = log.frames.length;
    c.read(POLICY, 'v1');
    log.pageEnd('http://localhost:8080/app');
    const all = stamped(log.frames, 1);
    s.add(all.slice(0, before));
    await frames();
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, lastSeq: before, segment: 1, errors: 0 } });
    s.add(all.slice(before, -1));
    await frames();
    expect(s.shownFrames().length).toBe(all.length - before - 1);
    s.add(all.slice(-1));
    await frames();
    expect(s.pageLeft.value).toEqual({ url: 'http://localhost:8080/app', frames: all.length - before });
    expect(s.shownFrames().length).toBe(0);
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 60_000 } });
    await frames();
    expect([s.pageLeft.value?.frames, s.shownFrames().length]).toEqual([all.length - before, 0]);
    // A Clear, and the idle page leaves: its page-end is the first frame in view.
    const t = new PanelStore();
    t.add(all.slice(0, -1));
    await frames();
    t.receive({ type: 'cleared', stats: { tabId: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, lastSeq: all.length - 1, segment: 1, errors: 0 } });
    t.add(all.slice(-1));
    await frames();
    expect([t.pageLeft.value?.url, t.shownFrames().length, t.hasFramesInView()]).toEqual(['http://localhost:8080/app', 0, false]);
    s.setPreserveLog(true);
  });

  it('a page going into the back/forward cache (persisted) or an iframe ending does not empty the view', async () => {
    const s = new PanelStore();
    s.setPreserveLog(false);
    const log = new FrameLog('doc1');
    page(1, log);
    log.pageEnd('http://localhost:8080/?s=1', true);
    const frame = new FrameLog('iframe', log.t + 1);
    frame.pageStart('http://localhost:8080/widget', false);
    frame.pageEnd('http://localhost:8080/widget');
    s.add(stamped([...log.frames, ...frame.frames].map((f) => ({ ...f, segment: 1 })), 1));
    await frames();
    expect(s.pageLeft.value).toBeNull();
    expect(s.snapshot.value!.uris.length).toBe(1);
    s.setPreserveLog(true);
  });

  it('after a clear that kept open exchanges: only their frames are in view, counted, until a new page starts', async () => {
    const s = new PanelStore();
    s.setPreserveLog(false);
    const one = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: one, done: true });
    await frames();
    // The GET stream of page 1 is still open: the clear kept its request and response head, renumbered.
    const getConn = connOf(one.find((x) => x.kind === 'http-request' && x.method === 'GET')!);
    const get = one.filter((f) => connOf(f) === getConn);
    const kept = stamped(get.slice(0, 2), one.length + 1);
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 2, bytes: 10, dropped: 0, rejected: 0, lastSeq: one.length + 2, segment: 1, errors: 0 }, kept: 1 });
    s.receive({ type: 'frames', frames: kept });
    await frames();
    expect(s.keptOnClear.value).toBe(1);
    expect(s.shownFrames().map((f) => f.seq)).toEqual(kept.map((f) => f.seq));
    expect(s.snapshot.value!.lastSeq).toBe(kept.at(-1)!.seq);
    s.add(stamped(page(2), one.length + 3));
    await frames();
    expect(s.keptOnClear.value).toBe(0);
  });

  it('shows an import in one step, judged as of its export, and goes back to the tab', async () => {
    const s = new PanelStore();
    s.setTabStatus('live');
    const live = stamped(page(1), 1);
    s.add(live);
    await frames();
    const t = stamped(page(1, new FrameLog('imported-doc')), 1);
    const trace = exportTrace({ frames: t, createdAt: t.at(-1)!.t + 60_000, pageUrl: 'http://x/' });
    const prepared = s.prepareTrace('t.json', trace);
    // Nothing changed yet.
    expect(s.status.value).toBe('live');
    expect(s.isImported).toBe(false);
    s.showPrepared(prepared);
    expect(s.status.value).toBe('imported');
    expect(s.snapshot.value!.now).toBe(t.at(-1)!.t + 60_000);
    expect(s.snapshot.value!.uris[0]!.doc).toBe('imported-doc');
    s.closeImport();
    await frames();
    expect(s.status.value).toBe('live');
    expect(s.snapshot.value!.uris[0]!.doc).toBe('doc1');
  });

  it('replays up to an instant with the scrubber, forward and back, and returns to live', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.add(a);
    await frames();
    const read = a.find((f) => f.kind === 'http-request' && f.body?.text.includes('resources/read'))!;
    s.setScrub(read.t - 1);
    expect(s.shown.value!.uris).toEqual([]);
    s.setScrub(a.at(-1)!.t);
    expect(s.shown.value!.uris.map((u) => u.uri)).toEqual([POLICY]);
    s.setScrub(read.t - 1);
    expect(s.shown.value!.uris).toEqual([]);
    s.setScrub(null);
    expect(s.shown.value).toBe(s.snapshot.value);
  });
});

describe('the drawer on a message', () => {
  it('closes when a new engine numbers the messages anew: after Clear, and at a new page without preserve-log', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: a, done: true });
    await frames();
    s.drawer.value = { kind: 'message', index: 3 };
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, lastSeq: a.length, segment: 1, errors: 0 } });
    expect(s.drawer.value).toBeNull();
    s.drawer.value = { kind: 'session', key: 'x' };
    s.add(stamped(page(2), a.length + 1));
    await frames();
    expect(s.drawer.value).toEqual({ kind: 'session', key: 'x' });
    s.drawer.value = { kind: 'message', index: 3 };
    s.add(stamped(page(3), a.length * 2 + 1));
    await frames();
    expect(s.drawer.value).toBeNull();
  });

  it('a drawer on a URI, a finding or a session closes at Clear and at a new page without preserve-log; a preserve-log change keeps it', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: a, done: true });
    await frames();
    const uri = s.snapshot.value!.uris[0]!.key;
    s.drawer.value = { kind: 'uri', key: uri };
    s.setPreserveLog(false);
    expect(s.drawer.value).toEqual({ kind: 'uri', key: uri });
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 0, bytes: 0, dropped: 0, rejected: 0, lastSeq: a.length, segment: 1, errors: 0 } });
    expect(s.drawer.value).toBeNull();
    const b = stamped(page(2), a.length + 1);
    s.add(b);
    await frames();
    s.drawer.value = { kind: 'finding', key: 'f' };
    s.add(stamped(page(3), a.length + b.length + 1));
    await frames();
    expect(s.drawer.value).toBeNull();
  });

  it('a session drawer follows its session when a rebuild keys sessions anew; one no longer in view closes', async () => {
    const log1 = new FrameLog('doc1');
    log1.pageStart('http://localhost:8080/');
    new StreamableClient(log1, URL).initialize({ sessionId: 'SAME' });
    log1.pageEnd('http://localhost:8080/');
    const log2 = new FrameLog('doc2', log1.t + 10, log1.lastSeq);
    log2.pageStart('http://localhost:8080/');
    const c2 = new StreamableClient(log2, URL);
    c2.sessionId = 'SAME'; // a reloaded page resuming its stored session id
    c2.negotiated = '2025-06-18';
    c2.read(POLICY, 'v1');
    const all = [...log1.frames.map((f) => ({ ...f, segment: 1 })), ...log2.frames.map((f) => ({ ...f, segment: 2 }))];
    for (const [open, after] of [['SAME #2', 'SAME'], ['SAME', null]] as const) {
      const s = new PanelStore();
      s.setPreserveLog(true);
      s.add(all);
      await frames();
      expect(s.snapshot.value!.sessions.map((x) => x.key)).toEqual(['SAME', 'SAME #2']);
      s.drawer.value = { kind: 'session', key: open };
      // Without "preserve log" the view is page 2's: its session is the only one, keyed SAME.
      s.setPreserveLog(false);
      await frames();
      expect(s.snapshot.value!.sessions.map((x) => [x.key, x.doc])).toEqual([['SAME', 'doc2']]);
      expect(s.drawer.value).toEqual(after === null ? null : { kind: 'session', key: after });
    }
  });

  it('"kept at Clear" goes once the view starts past the kept frames (preserve-log on, a new page, then off)', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: a, done: true });
    await frames();
    s.receive({ type: 'cleared', stats: { tabId: 1, frames: 2, bytes: 0, dropped: 0, rejected: 0, lastSeq: a.length, segment: 1, errors: 0 }, kept: 2 });
    s.add(a.slice(2, 4));
    await frames();
    expect(s.keptOnClear.value).toBe(2);
    s.setPreserveLog(true);
    s.add(stamped(page(2), a.length + 1));
    await frames();
    expect(s.keptOnClear.value).toBe(2);
    s.setPreserveLog(false);
    expect(s.keptOnClear.value).toBe(0);
  });
});

describe('pause', () => {
  it('freezes the view: the counters from the background still come, the clock (ages, timed findings) does not move', async () => {
    const s = new PanelStore();
    const a = stamped(page(1), 1);
    s.add(a);
    await frames();
    s.setPaused(true);
    const stats = (n: number) => ({ type: 'stats' as const, stats: { tabId: 1, frames: a.length + n, bytes: 0, dropped: 0, rejected: 0, lastSeq: a.at(-1)!.seq + n, segment: 1, errors: 0 } });
    s.receive(stats(1));
    await frames();
    const frozen = s.snapshot.value!.now;
    await frames(1100);
    s.receive(stats(5));
    await frames();
    expect(s.stats.value?.frames).toBe(a.length + 5);
    expect(s.snapshot.value!.now).toBe(frozen);
    s.setPaused(false);
    await frames();
    expect(s.snapshot.value!.now).toBeGreaterThan(frozen);
  });

  it('a trace exported while paused is dated at the pause, so its timed findings come back as they were shown', async () => {
    const s = new PanelStore();
    s.add(stamped(page(1), 1));
    await frames();
    s.setPaused(true);
    const pausedAt = s.clock();
    await frames(1100);
    const trace = JSON.parse(traceText(s)) as { createdAt: string };
    expect(Date.parse(trace.createdAt)).toBe(pausedAt);
    s.setPaused(false);
    expect(Date.parse(JSON.parse(traceText(s)).createdAt)).toBeGreaterThan(pausedAt);
  });

  it('an import ends the pause, clock included: after closing it, the live view ticks again', async () => {
    const s = new PanelStore();
    s.add(stamped(page(1), 1));
    await frames();
    s.setPaused(true);
    const other = page(2, new FrameLog('imported-doc'));
    s.showPrepared(s.prepareTrace('t.json', exportTrace({ frames: other, createdAt: other.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    expect(s.paused.value).toBe(false);
    s.closeImport();
    await frames();
    const before = s.snapshot.value!.now;
    await frames(1100);
    s.receive({ type: 'stats', stats: { tabId: 1, frames: 1, bytes: 0, dropped: 0, rejected: 0, lastSeq: 1, segment: 1, errors: 0 } });
    await frames();
    expect(s.snapshot.value!.now).toBeGreaterThan(before);
  });
});

describe('the scrubber', () => {
  it('live, a scrubber replay holds the page for a frame\'s budget at a time, not the 100 ms an import\'s does', async () => {
    const big = syntheticTrace(30_000, 40, 5).frames.map((f) => ({ ...f, segment: 1 }));
    /** Slices a stop's replay takes, on a clock that moves 1 ms per reading. */
    const slicesOf = async (s: PanelStore) => {
      let tick = 0;
      s.scrubClock = () => tick++;
      let slices = 0;
      const off = s.scrubPending.subscribe((p) => p && slices++);
      s.requestScrub(big[25_000]!.t);
      for (let i = 0; i < 2000 && s.scrubT.value === null; i++) await new Promise((r) => setTimeout(r, 2));
      off();
      expect(s.scrubT.value).toBe(big[25_000]!.t);
      return slices;
    };
    const live = new PanelStore();
    live.setPreserveLog(true);
    live.add(big);
    await frames();
    const imported = new PanelStore();
    imported.showPrepared(imported.prepareTrace('big.json', exportTrace({ frames: big, createdAt: big.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    const [liveSlices, importSlices] = [await slicesOf(live), await slicesOf(imported)];
    expect(importSlices).toBeGreaterThan(0);
    expect(liveSlices).toBeGreaterThan(5 * importSlices);
  });

  it('a scrubber stop that takes longer than a slice replays over several frames, saying how far, to the same state', async () => {
    const big = syntheticTrace(30_000, 40, 5).frames;
    const trace = exportTrace({ frames: big, createdAt: big.at(-1)!.t + 1000, pageUrl: 'http://x/' });
    const s = new PanelStore();
    s.showPrepared(s.prepareTrace('big.json', trace));
    s.scrubSliceMs = 0;
    const t = big[25_000]!.t;
    const seen: number[] = [];
    const off = s.scrubPending.subscribe((p) => p && seen.push(p.progress));
    s.requestScrub(t);
    for (let i = 0; i < 400 && s.scrubT.value === null; i++) await new Promise((r) => setTimeout(r, 5));
    off();
    expect(s.scrubT.value).toBe(t);
    expect(s.scrubPending.value).toBeNull();
    // Several slices, each further on.
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const sliced = s.scrubSnapshot.value!;
    const whole = new PanelStore();
    whole.showPrepared(whole.prepareTrace('big.json', trace));
    whole.setScrub(t);
    const strip = (x: object) => JSON.stringify(x, (k, v) => (k === 'messages' ? undefined : v));
    expect(strip(sliced)).toBe(strip(whole.scrubSnapshot.value!));
    // Back to the end while a replay is under way cancels it; a new request right after runs one chain, not two.
    s.setScrub(null);
    s.requestScrub(big[29_000]!.t);
    for (let i = 0; i < 100 && s.scrubPending.value === null; i++) await new Promise((r) => setTimeout(r, 1));
    expect(s.scrubPending.value).not.toBeNull();
    s.setScrub(null);
    expect(s.scrubPending.value).toBeNull();
    // Count the scrubber's callbacks waiting for an animation frame: never more than one (one chain).
    const raf = g.requestAnimationFrame!;
    let waiting = 0;
    let most = 0;
    g.requestAnimationFrame = (cb) => {
      if (!String(cb).includes('runScrubRequest')) return raf(cb);
      most = Math.max(most, ++waiting);
      return raf((ts) => {
        waiting--;
        cb(ts);
      });
    };
    s.requestScrub(big[29_000]!.t);
    s.setScrub(null);
    s.requestScrub(big[29_000]!.t);
    for (let i = 0; i < 400 && s.scrubT.value === null; i++) await new Promise((r) => setTimeout(r, 5));
    g.requestAnimationFrame = raf;
    expect(s.scrubT.value).toBe(big[29_000]!.t);
    expect(most).toBe(1);
    // A reset while a replay is under way leaves nothing pending.
    s.closeImport();
    s.showPrepared(s.prepareTrace('big.json', trace));
    s.requestScrub(big[29_500]!.t);
    for (let i = 0; i < 100 && s.scrubPending.value === null; i++) await new Promise((r) => setTimeout(r, 1));
    s.showPrepared(s.prepareTrace('big.json', trace));
    await frames(100);
    expect(s.scrubPending.value).toBeNull();
    expect(s.scrubT.value).toBeNull();
  });

  /** A client that subscribes, drops its session and initializes a new one without resubscribing. */
  function reconnectWithoutResubscribe() {
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    const get = c.openGet();
    c.read(POLICY, 'v1');
    c.subscribe(POLICY);
    get.close('aborted');
    c.initialize({ sessionId: 'S2' });
    return { log, c };
  }

  it('the last stop shows what live shows, also when frames without a message (a stream\'s end) follow the last message', async () => {
    const { log, c } = reconnectWithoutResubscribe();
    const lastMessage = log.t;
    c.openGet().close('failed');
    const s = new PanelStore();
    s.add(stamped(log.frames.map((f) => ({ ...f, segment: 1 })), 1));
    await frames();
    const live = s.snapshot.value!.findings.map((f) => f.id).sort();
    expect(live).toContain('phantom-subscription');
    // The stream's open and its end are stops of their own, after the last message's.
    const steps = scrubSteps(s.snapshot.value!.messages);
    const last = steps.t[steps.length - 1]!;
    expect(last).toBeGreaterThan(lastMessage);
    s.setScrub(last);
    expect(s.shown.value!.findings.map((f) => f.id).sort()).toEqual(live);
    expect(s.shown.value!.lastSeq).toBe(s.snapshot.value!.lastSeq);
  });

  it('shows at a stop what held until the next frame: a reconnect without resubscribe, then a quiet minute', async () => {
    const { log, c } = reconnectWithoutResubscribe();
    c.openGet();
    const reinit = log.t;
    log.wait(60_000);
    c.read('file:///docs/other.md', 'x');
    const s = new PanelStore();
    s.add(stamped(log.frames.map((f) => ({ ...f, segment: 1 })), 1));
    await frames();
    // The stop at the re-initialize: the minute after it, the policy was cached with nobody subscribed.
    s.setScrub(reinit);
    const row = s.shown.value!.uris.find((u) => u.uri === POLICY)!;
    expect(row.findings).toContain('cached-not-subscribed');
    expect(s.scrubT.value).toBe(reinit);
    // The stop at the end shows what live shows.
    s.setScrub(log.t);
    expect(s.shown.value!.findings.map((f) => f.id).sort()).toEqual(s.snapshot.value!.findings.map((f) => f.id).sort());
  });
});

describe('the scrubber on a long view', () => {
  it('shows, at every stop back and forth, what a replay up to it shows, messages included', async () => {
    const trace = syntheticTrace(8_000, 30, 4).frames.map((f) => ({ ...f, segment: 1 }));
    const s = new PanelStore();
    // 10 ms per look at the clock (one per 256 frames): a save every ~8 looks, so steps back start from saves.
    let ticks = 0;
    s.scrubClock = () => 10 * ticks++;
    s.add(trace);
    await frames();
    for (const i of [7_999, 2_000, 5_000, 4_999, 100, 7_000]) {
      const t = trace[i]!.t;
      s.setScrub(t);
      // A stop stands until the next message: the frames before it are in.
      const live = s.snapshot.value!.messages;
      let until = Infinity;
      for (let k = 0; k < live.count; k++) if (live.store.tAt(k) > t) until = Math.min(until, live.store.tAt(k));
      let end = 0;
      while (end < trace.length && trace[end]!.t < until) end++;
      const fresh = Engine.replay(trace.slice(0, end));
      const shown = s.shown.value!;
      expect(shown.lastSeq).toBe(fresh.lastSeq);
      const at = shown.now;
      const want = fresh.snapshot(at);
      expect(JSON.stringify({ ...shown, messages: messagesSlice(shown.messages) })).toBe(JSON.stringify({ ...want, messages: messagesSlice(want.messages) }));
    }
    expect(s.scrubSaves).toBeGreaterThan(2);
    // Anything that changes what is in view drops them (here: turning on "preserve log").
    s.setPreserveLog(true);
    expect(s.scrubSaves).toBe(0);
  });
});

describe('background errors', () => {
  it('keeps what the background could not do until the user dismisses it, and changes nothing else', () => {
    const store = new PanelStore();
    const before = store.status.value;
    store.receive({ type: 'error', error: "Could not read this tab's log: disk full" });
    expect(store.backgroundError.value).toBe("Could not read this tab's log: disk full");
    expect(store.status.value).toBe(before);
  });
  /** A long page log (1,200 reads), and the log's counters when it holds only its last `frames`. */
  function longLog() {
    const log = new FrameLog('long');
    log.pageStart('http://localhost:8080/app');
    const c = new StreamableClient(log, URL);
    c.initialize({ sessionId: 'S1' });
    c.openGet();
    c.subscribe(POLICY);
    for (let i = 0; i < 1200; i++) c.read(POLICY, `v${i}`);
    const all = log.frames.map((f) => ({ ...f, segment: 1 }));
    const last = all.at(-1)!.seq;
    const stats = (frames: number) => ({ type: 'stats' as const, stats: { tabId: 1, frames, bytes: 0, dropped: all.length - frames, rejected: 0, lastSeq: last, segment: 1, errors: 0 } });
    return { all, last, stats };
  }

  it('an import and closing it start the Messages view with nothing selected (its keys, seq.part, mean other frames there)', () => {
    const { all } = longLog();
    const s = new PanelStore();
    s.messageSelected.value = '5.0';
    s.showPrepared(s.prepareTrace('t.json', exportTrace({ frames: all, createdAt: all.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    expect(s.messageSelected.value).toBeNull();
    s.messageSelected.value = '7.0';
    s.closeImport();
    expect(s.messageSelected.value).toBeNull();
  });

  it('exports count as dropped only the frames they lack: not those the panel still holds after the log dropped them', async () => {
    const { all, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    // The log dropped 500 (a cap lowered): fewer than the panel's slack, so the panel keeps them, and exports hold them.
    s.receive(stats(all.length - 500));
    await frames();
    expect(s.stats.value!.dropped).toBe(500);
    expect(s.shownFrames()).toHaveLength(all.length);
    const trace = JSON.parse(traceText(s)) as { frames: unknown[]; dropped: { frames: number } };
    expect(trace.frames).toHaveLength(all.length);
    expect(trace.dropped.frames).toBe(0);
    expect((JSON.parse(harText(s)) as { log: { comment: string } }).log.comment).not.toMatch(/dropped/);
    // Counted by the latest stats, before they are shown (a trim already acted on them).
    s.receive(stats(2000));
    expect(s.droppedLacking(s.shownFrames()).frames).toBe(all.length - 2000);
    // Once the panel follows the log, what it lacks is counted.
    await frames();
    expect(s.shownFrames()).toHaveLength(2000);
    expect((JSON.parse(traceText(s)) as { dropped: { frames: number } }).dropped.frames).toBe(all.length - 2000);
    expect((JSON.parse(harText(s)) as { log: { comment: string } }).log.comment).toMatch(`${all.length - 2000} frames were dropped`);
  });

  it('without "preserve log" an export counts as dropped only the frames its page lacks, not those dropped from earlier pages', async () => {
    const p1 = stamped(page(1), 1);
    const p2 = stamped(page(2), p1.length + 1);
    const last = p2.at(-1)!.seq;
    // A panel opened after the log dropped all of page 1 (a cap): the page in view is whole.
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: p2, done: true });
    s.receive({ type: 'stats', stats: { tabId: 1, frames: p2.length, bytes: 0, dropped: p1.length, rejected: 4, lastSeq: last, segment: 2, errors: 0 } });
    await frames();
    expect(s.preserveLog.value).toBe(false);
    expect(s.droppedLacking(s.shownFrames())).toEqual({ frames: 0, rejected: 4 });
    expect(JSON.parse(traceText(s))).toMatchObject({ dropped: { frames: 0, rejected: 4 } });
    // The trim went into page 2 too (its page-start kept): what the page lacks is counted, not page 1's.
    const cut = 3;
    const t = new PanelStore();
    t.receive({ type: 'backlog', frames: [p2[0]!, ...p2.slice(1 + cut)], done: true });
    t.receive({ type: 'stats', stats: { tabId: 1, frames: p2.length - cut, bytes: 0, dropped: p1.length + cut, rejected: 0, lastSeq: last, kept: [p2[0]!.seq], segment: 2, errors: 0 } });
    await frames();
    expect(t.droppedLacking(t.shownFrames()).frames).toBe(cut);
    // With "preserve log" the export covers the tab: page 1's frames are its loss too.
    t.setPreserveLog(true);
    await frames();
    expect(t.droppedLacking(t.shownFrames()).frames).toBe(p1.length + cut);
  });

  it("follows the log's trim with the frames it kept (the open GET stream's openers, the page-start): an export has their method, URL and page", async () => {
    const { all, last } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    const pageStart = all.find((f) => f.kind === 'page-start')!;
    const getReq = all.find((f) => f.kind === 'http-request' && f.method === 'GET')!;
    const getHead = all.find((f) => f.kind === 'http-response' && 'conn' in getReq && f.conn === getReq.conn)!;
    const kept = [pageStart.seq, getReq.seq, getHead.seq];
    s.receive({ type: 'stats', stats: { tabId: 1, frames: 2003, bytes: 0, dropped: all.length - 2003, rejected: 0, lastSeq: last, kept, segment: 1, errors: 0 } });
    await frames();
    const shown = s.shownFrames();
    expect(shown).toHaveLength(2003);
    expect(shown.slice(0, 3).map((f) => f.seq)).toEqual(kept);
    expect(s.droppedLacking(shown).frames).toBe(all.length - 2003);
    const har = JSON.parse(harText(s)) as { log: { pages: { title: string }[]; entries: { request: { method: string; url: string }; _mcp: { conn: string; partial?: true } }[]; comment: string } };
    expect(har.log.pages.map((p) => p.title)).toEqual(['http://localhost:8080/app']);
    const get = har.log.entries.find((e) => 'conn' in getReq && e._mcp.conn === getReq.conn)!;
    expect([get.request.method, get.request.url, get._mcp.partial]).toEqual(['GET', URL, undefined]);
    expect(har.log.comment).toMatch(`${all.length - 2003} frames were dropped`);
    expect(pageUrlOf(s)).toBe('http://localhost:8080/app');
    // The message list shows the kept frames' rows too.
    expect(s.messageRows().some((r) => r.seq === getReq.seq)).toBe(true);
  });

  it("takes the trim's kept seqs from the last stats that had them when the next say they are unchanged", async () => {
    const { all, last } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    const getReq = all.find((f) => f.kind === 'http-request' && f.method === 'GET')!;
    const kept = [all[0]!.seq, getReq.seq];
    const base = { tabId: 1, bytes: 0, rejected: 0, lastSeq: last, segment: 1, errors: 0 };
    // A trim the panel does not follow yet (within its slack), then one it follows, its kept seqs left out.
    s.receive({ type: 'stats', stats: { ...base, frames: all.length - 10, dropped: 10, kept } });
    s.receive({ type: 'stats', stats: { ...base, frames: 2002, dropped: all.length - 2002 }, keptUnchanged: true });
    await frames();
    expect(s.shownFrames().slice(0, 2).map((f) => f.seq)).toEqual(kept);
    expect(s.shownFrames()).toHaveLength(2002);
    expect(s.droppedLacking(s.shownFrames()).frames).toBe(all.length - 2002);
  });

  it("exports a live stream in the HAR as open until the export's instant, not its last frame", async () => {
    const s = new PanelStore();
    const all = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    const lastT = all.at(-1)!.t;
    type Entry = { request: { method: string }; time: number; _mcp?: { outcome?: string } };
    const entries = (JSON.parse(harText(s, lastT + 60_000)) as { log: { entries: Entry[] } }).log.entries;
    const get = entries.find((e) => e.request.method === 'GET')!;
    expect(get._mcp?.outcome).toBe('open');
    expect(get.time).toBeGreaterThanOrEqual(60_000);
  });

  it("exports the HAR at the view's clock by default: the pause instant while paused; an import's clock, or a now passed", async () => {
    type Entry = { request: { method: string }; startedDateTime: string; time: number; _mcp?: { outcome?: string } };
    const getOf = (text: string) => (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries.find((e) => e.request.method === 'GET')!;
    const endOf = (e: Entry) => Date.parse(e.startedDateTime) + e.time;
    const s = new PanelStore();
    const all = stamped(page(1), 1);
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    s.setPaused(true);
    const pausedAt = s.clock();
    await new Promise((r) => setTimeout(r, 20));
    // No now passed: store.clock(), the pause instant (not the wall time 20 ms later).
    const paused = getOf(harText(s));
    expect(paused._mcp?.outcome).toBe('open');
    expect(Math.abs(endOf(paused) - pausedAt)).toBeLessThan(1);
    s.setPaused(false);
    // An imported trace: its import clock (createdAt here) by default, and a now passed is used, not ignored.
    const lastT = all.at(-1)!.t;
    const imp = new PanelStore();
    imp.showPrepared(imp.prepareTrace('t.json', exportTrace({ frames: all, createdAt: lastT + 60_000, pageUrl: 'http://x/' })));
    await frames();
    expect(imp.clock()).toBe(lastT + 60_000);
    expect(Math.abs(endOf(getOf(harText(imp))) - (lastT + 60_000))).toBeLessThan(1);
    expect(Math.abs(endOf(getOf(harText(imp, lastT + 5_000))) - (lastT + 5_000))).toBeLessThan(1);
  });

  it('requestMethodOf: nothing for a response whose request is not in view, is beyond the 5,000-frame lookback, or for a WebSocket or EventSource frame', async () => {
    // The request left the view (a page that left, Preserve log off): the response head alone names no method.
    const log = new FrameLog('doc1');
    log.pageStart('http://localhost:8080/');
    const conn = log.newConn('post');
    log.httpRequest(conn, 'DELETE', URL, {});
    const resp = log.httpResponse(conn, 200, URL, {});
    log.httpEnd(conn, 'complete', 'body', 0);
    const s = new PanelStore();
    s.add(stamped(log.frames.slice(2), 1));
    await frames();
    const head = s.shownFrames().find((f) => f.kind === 'http-response')!;
    expect(head).toBeDefined();
    expect(s.requestMethodOf(head.seq)).toBeUndefined();
    expect(s.requestMethodOf(999_999)).toBeUndefined();
    // Beyond the lookback: 5,000 other frames between the request and its response head.
    const far = new FrameLog('doc2');
    far.pageStart('http://localhost:8080/');
    const c = far.newConn('post');
    far.httpRequest(c, 'DELETE', URL, {});
    const w = far.newConn('ws');
    far.emit({ kind: 'ws-connect', conn: w, url: 'ws://localhost:3000/ws', protocols: [] });
    for (let i = 0; i < 5000; i++) far.emit({ kind: 'ws-message', conn: w, dir: 'in', data: { text: 'x' } });
    far.httpResponse(c, 200, URL, {});
    const near = far.newConn('post');
    far.httpRequest(near, 'PUT', URL, {});
    far.httpResponse(near, 204, URL, {});
    const t = new PanelStore();
    t.add(stamped(far.frames, 1));
    await frames();
    const shown = t.shownFrames();
    const heads = shown.filter((f) => f.kind === 'http-response');
    expect(heads).toHaveLength(2);
    expect(t.requestMethodOf(heads[0]!.seq)).toBeUndefined();
    expect(t.requestMethodOf(heads[1]!.seq)).toBe('PUT');
    // A WebSocket frame is not a response head.
    const wsFrame = shown.find((f) => f.kind === 'ws-message')!;
    expect(t.requestMethodOf(wsFrame.seq)).toBeUndefined();
    // Nor an EventSource's.
    const es = new FrameLog('doc3');
    es.pageStart('http://localhost:8080/');
    es.emit({ kind: 'es-connect', conn: 'e1', url: 'http://localhost:3000/sse', withCredentials: false });
    es.emit({ kind: 'es-open', conn: 'e1' });
    const u = new PanelStore();
    u.add(stamped(es.frames, 1));
    await frames();
    for (const f of u.shownFrames()) expect(u.requestMethodOf(f.seq)).toBeUndefined();
  });

  it('follows the log when it drops its oldest frames: keeps what the log has, not more (not while paused)', async () => {
    const { all, last, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    // A small difference (a batch in flight) is left alone.
    s.receive(stats(all.length - 500));
    expect(s.frames.length).toBe(all.length);
    // Paused: the user is looking at what is there.
    s.setPaused(true);
    s.receive(stats(2000));
    expect(s.frames.length).toBe(all.length);
    s.setPaused(false);
    await frames();
    // The rebuild runs beside the live view, which stays as it is meanwhile (no 'Analysing' notice, same numbering).
    s.asideSliceMs = 0;
    s.drawer.value = { kind: 'message', index: 5 };
    const shown = s.snapshot.value!;
    s.receive(stats(2000));
    expect(s.frames.length).toBe(2000);
    expect(s.frames[0]!.seq).toBe(last - 1999);
    await new Promise((r) => requestAnimationFrame(r));
    expect(s.catchUp.value).toBeNull();
    expect(s.drawer.value).toEqual({ kind: 'message', index: 5 });
    expect(s.snapshot.value!.metrics.frames).toBe(shown.metrics.frames);
    // The scrubber replays what the engine in view took: a rebuild under way is finished (and swapped in) first.
    expect(s.setScrub(s.frames[1500]!.t)).toBe(true);
    expect(s.drawer.value).toBeNull();
    expect(s.scrubSnapshot.value!.lastSeq).toBeLessThan(last);
    s.setScrub(null);
    s.asideSliceMs = 6;
    await frames();
    // Swapped in: a message is shown by its index, which the rebuild renumbers, so that drawer closed (a URI's stays).
    expect(s.drawer.value).toBeNull();
    const snap = s.snapshot.value!;
    expect(snap.lastSeq).toBe(last);
    // The rebuilt view is the one a panel opened on the trimmed log builds.
    expect(snap.metrics.frames).toBe(2000);
    expect(s.messageRows().length).toBeLessThanOrEqual(2000);
  });
  it('a session drawer stays on its session across a trim that took its initialize (picked up mid-way: another first frame)', async () => {
    const { all, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    const firstSeen = s.snapshot.value!.sessions[0]!.startSeq;
    s.drawer.value = { kind: 'session', key: 'S1' };
    s.asideSliceMs = 50;
    s.receive(stats(2000));
    await frames(1000);
    expect(s.snapshot.value!.sessions.map((x) => x.key)).toEqual(['S1']);
    expect(s.snapshot.value!.sessions[0]!.startSeq).toBeGreaterThan(firstSeen);
    expect(s.drawer.value).toEqual({ kind: 'session', key: 'S1' });
  });
  it('a trim of frames the view had not taken yet rebuilds in place (no index below zero: every flush threw)', async () => {
    const { all, last, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all.slice(0, 300), done: true });
    await frames();
    // No animation frame in between (a hidden panel gets none): the log dropped frames still waiting here.
    s.receive({ type: 'frames', frames: all.slice(300) });
    s.receive(stats(2000));
    await frames();
    const snap = s.snapshot.value!;
    expect([snap.lastSeq, snap.metrics.frames, s.shownFrames().length]).toEqual([last, 2000, 2000]);
  });

  it('a sliced scrub asked for while a trim is rebuilt beside the view completes on the new engine', async () => {
    const { all, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all, done: true });
    await frames();
    s.asideSliceMs = 0;
    s.receive(stats(3000));
    await new Promise((r) => requestAnimationFrame(r));
    let tick = 0;
    s.scrubClock = () => tick++;
    s.scrubSliceMs = 0;
    s.requestScrub(s.frames[2500]!.t);
    // The rebuild goes on in the scrub's slices, not all at once in its first animation frame.
    await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestAnimationFrame(r));
    expect(s.scrubPending.value).not.toBeNull();
    expect(s.engineNow().frameCount).toBeGreaterThan(3000);
    await frames(800);
    // It stayed 'replaying N %' for ever: the swap dropped the request it was replaying.
    expect([s.scrubT.value !== null, s.scrubPending.value]).toEqual([true, null]);
    expect(s.scrubSnapshot.value!.metrics.frames).toBeLessThanOrEqual(3000);
  });

  it('paused, holds what it shows and what the log holds, not every frame since (then rebuilds from the log on resume)', async () => {
    const { all, last, stats } = longLog();
    const shown = all.slice(0, 1000);
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: shown, done: true });
    await frames();
    const before = s.snapshot.value!;
    s.setPaused(true);
    s.receive({ type: 'frames', frames: all.slice(1000) });
    // The log kept its last 300 frames: the queued ones before them go; what the view shows stays.
    s.receive(stats(300));
    expect(s.frames.length).toBe(1000 + 300);
    expect(s.frames[1000]!.seq).toBe(last - 299);
    await frames();
    expect(s.snapshot.value!.lastSeq).toBe(before.lastSeq);
    // Scrubbing the paused view, then resuming: the scrub ends and the view is built from the log, with no hole.
    expect(s.setScrub(s.frames[500]!.t)).toBe(true);
    s.setPaused(false);
    expect(s.scrubT.value).toBeNull();
    await frames();
    expect(s.frames.length).toBe(300);
    expect(s.frames.every((f, i) => i === 0 || f.seq === s.frames[i - 1]!.seq + 1)).toBe(true);
    const snap = s.snapshot.value!;
    expect([snap.lastSeq, snap.metrics.frames]).toEqual([last, 300]);
  });

  it('paused and rebuilt (new settings), the log trimming before the rebuild ran keeps what the view is rebuilding', async () => {
    const { all, last, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all.slice(0, 1000), done: true });
    await frames();
    const before = s.snapshot.value!;
    s.setPaused(true);
    s.receive({ type: 'frames', frames: all.slice(1000) });
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 60_000 } });
    // Before the next animation frame (the rebuild has applied nothing yet): only queued frames the log lost go.
    s.receive(stats(300));
    expect(s.frames.length).toBe(1000 + 300);
    await frames();
    expect([s.shownFrames().length, s.snapshot.value!.lastSeq]).toEqual([1000, before.lastSeq]);
    s.setPaused(false);
    await frames();
    expect([s.frames.length, s.snapshot.value!.lastSeq]).toEqual([300, last]);
  });

  it('paused with queued frames the log lost, then an import: closing it shows the log without a hole', async () => {
    const { all, last, stats } = longLog();
    const s = new PanelStore();
    s.receive({ type: 'backlog', frames: all.slice(0, 1000), done: true });
    await frames();
    s.setPaused(true);
    s.receive({ type: 'frames', frames: all.slice(1000) });
    s.receive(stats(300));
    const other = page(2, new FrameLog('imported-doc'));
    s.showPrepared(s.prepareTrace('t.json', exportTrace({ frames: other, createdAt: other.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    s.closeImport();
    await frames();
    expect(s.frames.length).toBe(300);
    expect(s.frames.every((f, i) => i === 0 || f.seq === s.frames[i - 1]!.seq + 1)).toBe(true);
    expect(s.snapshot.value!.lastSeq).toBe(last);
  });

  it('several files dropped at once: none imported, a message says to drop one; one file is imported as picked', async () => {
    const s = new PanelStore();
    s.add(stamped(page(1), 1));
    await frames();
    const before = s.snapshot.value;
    const t = stamped(page(2, new FrameLog('imported-doc')), 1);
    const text = serializeTrace(exportTrace({ frames: t, createdAt: t.at(-1)!.t + 1000, pageUrl: 'http://x/' }));
    expect(await importDropped(s, [new File([text], 'a.json'), new File([text], 'b.json')])).toBe(false);
    expect(s.importError.value).toBe('2 files were dropped: drop one trace file at a time. The view is unchanged.');
    expect([s.isImported, s.snapshot.value]).toEqual([false, before]);
    expect(await importDropped(s, [])).toBe(false);
    expect(await importDropped(s, [new File([text], 'a.json')])).toBe(true);
    expect([s.isImported, s.importError.value]).toEqual([true, null]);
  });

  it('names the file it is importing while it reads and analyses it, and clears the notice after, also on a bad file', async () => {
    const s = new PanelStore();
    const t = stamped(page(1, new FrameLog('imported-doc')), 1);
    const text = serializeTrace(exportTrace({ frames: t, createdAt: t.at(-1)!.t + 60_000, pageUrl: 'http://x/' }));
    const good = importFile(s, new File([text], 'session.json'));
    expect(s.importing.value).toBe(`session.json (${(text.length / 1e3).toFixed(1)} kB)`);
    expect(await good).toBe(true);
    expect(s.importing.value).toBeNull();
    expect(s.isImported).toBe(true);
    const bad = importFile(s, new File(['{"not":"a trace"}'], 'foreign.json'));
    expect(s.importing.value).toBe('foreign.json (17 bytes)');
    expect(await bad).toBe(false);
    expect(s.importing.value).toBeNull();
    expect(s.importError.value).toMatch(/foreign\.json is not a trace/);
    // A file dropped while another is still being read replaces it: only the last one is shown, reported and noticed.
    s.importError.value = null;
    const slow = new File([text], 'slow.json');
    const slowText = slow.text.bind(slow);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    slow.text = async () => {
      await gate;
      return slowText();
    };
    const first = importFile(s, slow);
    const second = importFile(s, new File(['{"not":"a trace"}'], 'late.json'));
    expect(await second).toBe(false);
    expect(s.importError.value).toMatch(/late\.json is not a trace/);
    expect(s.importing.value).toBeNull();
    release();
    expect(await first).toBe(false);
    expect(s.importError.value).toMatch(/late\.json/);
  });
  it('analyses a long import in slices: progress shown, same result, and it can be cancelled leaving the view as it was', async () => {
    const trace = exportTrace({ frames: syntheticTrace(6_000, 20, 3).frames, createdAt: Date.now(), pageUrl: 'http://x/' });
    const s = new PanelStore();
    const seen: number[] = [];
    const stop = s.importProgress.subscribe((v) => void (v !== null && seen.push(v)));
    // Slices from the start (the real thresholds: after 1 s of work, every 100 ms).
    const p = await s.prepareTraceSliced('t.json', trace, () => true, { unslicedMs: 0, sliceMs: 0 });
    stop();
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(s.importProgress.value).toBeNull();
    const whole = s.prepareTrace('t.json', trace);
    expect(JSON.stringify(p!.snap.findings)).toBe(JSON.stringify(whole.snap.findings));
    expect(JSON.stringify(p!.snap.uris)).toBe(JSON.stringify(whole.snap.uris));
    // Cancelled after the first slice: nothing comes back, nothing is shown.
    let live = true;
    const cancelled = s.prepareTraceSliced('t.json', trace, () => live, { unslicedMs: 0, sliceMs: 0 });
    live = false;
    expect(await cancelled).toBeNull();
    expect(s.isImported).toBe(false);
  });

  it('an import being analysed in slices: Cancel stops it, another file replaces it, a settings message that changes no rule does not restart it', async () => {
    const text = serializeTrace(exportTrace({ frames: syntheticTrace(6_000, 20, 3).frames, createdAt: Date.now(), pageUrl: 'http://x/' }));
    const s = new PanelStore();
    s.importSlicing = { unslicedMs: 0, sliceMs: 0 };
    // (The analysis's progress: reading the file has its own.)
    const progressed = () => new Promise<void>((r) => { const stop = s.importProgress.subscribe((v) => { if (v !== null && v > 0.2 && s.importStep.value === 'analysing') { queueMicrotask(() => stop()); r(); } }); });
    // Cancel.
    const first = importFile(s, new File([text], 'big.json'));
    await progressed();
    cancelImport(s);
    expect(await first).toBe(false);
    expect(s.importsStopped.value).toBe(1);
    expect([s.isImported, s.importing.value, s.importProgress.value, s.importError.value]).toEqual([false, null, null, null]);
    // Replaced by a bad file: its error is shown, and no progress of the first is left behind.
    const again = importFile(s, new File([text], 'big.json'));
    await progressed();
    const bad = importFile(s, new File(['{"not":"a trace"}'], 'late.json'));
    expect(s.importProgress.value).toBeNull();
    expect(await bad).toBe(false);
    expect(await again).toBe(false);
    expect(s.importsStopped.value).toBe(2);
    expect([s.importing.value, s.importProgress.value]).toEqual([null, null]);
    expect(s.importError.value).toMatch(/late\.json is not a trace/);
    // A settings message that changes no rule (the background sends one on every reconnect): no restart.
    s.importError.value = null;
    const seen: number[] = [];
    const stop = s.importProgress.subscribe((v) => void (v !== null && s.importStep.value === 'analysing' && seen.push(v)));
    const third = importFile(s, new File([text], 'big.json'));
    await progressed();
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS } });
    expect(await third).toBe(true);
    stop();
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(s.isImported).toBe(true);
  });

  it('"preserve log" toggled while an import is shown does not analyse the import again; closing it applies the setting', async () => {
    const s = new PanelStore();
    s.add(stamped([...page(1), ...page(2)], 1));
    const other = page(3, new FrameLog('imported-doc'));
    s.showPrepared(s.prepareTrace('t.json', exportTrace({ frames: other, createdAt: other.at(-1)!.t + 1000, pageUrl: 'http://x/' })));
    const engine = s.engineNow();
    s.setPreserveLog(true);
    expect(s.engineNow() === engine).toBe(true);
    s.closeImport();
    await frames();
    expect(new Set(s.snapshot.value!.uris.map((u) => u.doc))).toEqual(new Set(['doc1', 'doc2']));
    s.setPreserveLog(false);
  });

  it('new settings while an import is shown: analysed again in slices, shown when done, keeping the selection', async () => {
    const frames = syntheticTrace(6_000, 20, 3).frames;
    const trace = exportTrace({ frames, createdAt: frames.at(-1)!.t + 2500, pageUrl: 'http://x/' });
    const s = new PanelStore();
    s.importSlicing = { unslicedMs: 0, sliceMs: 0 };
    s.showPrepared(s.prepareTrace('t.json', trace));
    const aged = () => s.snapshot.value!.findings.filter((f) => f.id === 'cache-age-exceeded').length;
    expect(aged()).toBe(0);
    const uri = s.snapshot.value!.uris[0]!.key;
    s.selected.value = uri;
    const old = s.engineNow();
    const notices: Array<string | null> = [];
    const stop = s.reanalysing.subscribe((v) => void notices.push(v));
    // A rule of 1 s for every URI: every cached URI is older than expected (for the grace) at the export time.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: '**', maxAgeMs: 1000 }] } });
    // The old analysis stays in view while the new one runs.
    expect(s.engineNow() === old).toBe(true);
    for (let i = 0; i < 100 && s.reanalysing.value !== null; i++) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(notices).toEqual([null, 't.json', null]);
    expect(s.engineNow() === old).toBe(false);
    expect(aged()).toBeGreaterThan(0);
    expect(s.selected.value).toBe(uri);
    expect(s.isImported).toBe(true);
    // Closing the import while it is analysed again stops that analysis, and the tab's view is built.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS } });
    const stopped = s.importsStopped.value;
    s.closeImport();
    await new Promise((r) => setTimeout(r, 100));
    expect(s.importsStopped.value).toBe(stopped + 1);
    expect(s.reanalysing.value).toBeNull();
    expect(s.isImported).toBe(false);
  });

  it('catches up with a large tab log over several frames: progress shown, the view kept until done, the same state as one replay', async () => {
    const log = syntheticTrace(6_000, 20, 3).frames.map((f, i) => ({ ...f, seq: i + 1 }));
    const s = new PanelStore();
    s.catchUpSliceMs = 0;
    const seen: number[] = [];
    const stop = s.catchUp.subscribe((v) => void (v !== null && seen.push(v)));
    s.receive({ type: 'backlog', frames: log, done: true });
    // Nothing half-applied is shown: no snapshot until the engine has every frame.
    await new Promise((r) => setTimeout(r, 5));
    expect(s.catchUp.value).not.toBeNull();
    expect(s.snapshot.value).toBeNull();
    expect(s.waiting.value).toBeGreaterThan(0);
    for (let i = 0; i < 200 && (s.catchUp.value !== null || s.snapshot.value === null); i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen.length).toBeGreaterThan(5);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeLessThan(1);
    expect(s.waiting.value).toBe(0);
    const one = new Engine({ freshnessRules: DEFAULT_SETTINGS.freshnessRules, defaultMaxAgeMs: DEFAULT_SETTINGS.defaultMaxAgeMs });
    one.applyAll(log);
    const snap = s.snapshot.value!;
    const direct = one.snapshot(s.now.value);
    expect(snap.lastSeq).toBe(log.length);
    expect(JSON.stringify(snap.uris)).toBe(JSON.stringify(direct.uris));
    expect(JSON.stringify(snap.findings)).toBe(JSON.stringify(direct.findings));

    // New rules: the log is analysed again, in slices from its start, and the old view stays until that is done.
    seen.length = 0;
    const before = s.snapshot.value;
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: '**', maxAgeMs: 1 }] } });
    await new Promise((r) => setTimeout(r, 5));
    expect(s.catchUp.value).not.toBeNull();
    expect(s.snapshot.value === before).toBe(true);
    for (let i = 0; i < 200 && (s.catchUp.value !== null || s.snapshot.value === before); i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    expect(seen.length).toBeGreaterThan(5);
    expect(seen[0]).toBeLessThan(0.2);
    expect(s.snapshot.value!.findings.some((f) => f.id === 'cache-age-exceeded')).toBe(true);
    expect(s.catchUp.value).toBeNull();
  });

  it('drops earlier pages the log no longer has without rebuilding the page in view', async () => {
    const s = new PanelStore();
    const first = stamped(page(1), 1);
    const filler = new FrameLog('doc1');
    const c = new StreamableClient(filler, URL);
    for (let i = 0; i < 400; i++) c.read(POLICY, `old ${i}`);
    const older = [...first, ...stamped(filler.frames.map((f) => ({ ...f, segment: 1 })), first.length + 1)];
    const current = stamped(page(2), older.length + 1);
    s.receive({ type: 'backlog', frames: [...older, ...current], done: true });
    await frames();
    const view = () => ({ frames: s.snapshot.value!.metrics.frames, rows: s.messageRows().map((r) => r.seq) });
    const before = view();
    expect(before.frames).toBe(current.length);
    s.drawer.value = { kind: 'message', index: 1 };
    const last = current.at(-1)!.seq;
    s.receive({ type: 'stats', stats: { tabId: 1, frames: current.length + 10, bytes: 0, dropped: older.length - 10, rejected: 0, lastSeq: last, segment: 2, errors: 0 } });
    expect(s.frames.length).toBe(current.length + 10);
    // The engine saw none of the dropped frames: same view, the message drawer still points at the same message.
    expect(s.drawer.value).toEqual({ kind: 'message', index: 1 });
    await frames();
    expect(view()).toEqual(before);
    expect(s.shownFrames().map((f) => f.seq)).toEqual(current.map((f) => f.seq));
  });
  it('says "No tab" for a tab that does not exist, whatever the port does, and shows no reload hint', () => {
    const s = new PanelStore();
    s.setTabStatus('live');
    s.receive({ type: 'error', error: 'There is no tab 999999 (it was closed, or the id is wrong)', noTab: true });
    expect(s.status.value).toBe('offline');
    s.setTabStatus('live');
    expect(s.status.value).toBe('offline');
    expect(s.backgroundError.value).toMatch(/There is no tab 999999/);
  });
});

describe('re-export of an imported trace', () => {
  it('keeps the top-level properties this version does not know (and a frame\'s), after the header, before frames', async () => {
    const s = new PanelStore();
    const t = stamped(page(1, new FrameLog('imported-doc')), 1);
    const file = JSON.parse(serializeTrace(exportTrace({ frames: t, createdAt: t.at(-1)!.t + 1000, pageUrl: 'http://x/' }))) as Record<string, unknown> & { frames: Record<string, unknown>[] };
    const { frames: list, ...head } = file;
    const withExtras = { ...head, x_top: { nested: [1, 2] }, x_flag: true, frames: list.map((f, i) => (i === 2 ? { ...f, x_vendor: 'v' } : f)) };
    expect(await importFile(s, new File([JSON.stringify(withExtras)], 'extras.json'))).toBe(true);
    const out = traceText(s);
    const again = JSON.parse(out) as Record<string, unknown> & { frames: Record<string, unknown>[] };
    expect(again.x_top).toEqual({ nested: [1, 2] });
    expect(again.x_flag).toBe(true);
    expect(again.frames[2]!.x_vendor).toBe('v');
    expect(Object.keys(again).at(-1)).toBe('frames');
    // A name this version knows is its own, never an extra's.
    expect(again.format).toBe('mcp-devtools-trace');
    // A live tab's export has none.
    s.closeImport();
    s.add(stamped(page(2), 100));
    await frames();
    expect(Object.keys(JSON.parse(traceText(s)))).not.toContain('x_top');
  });
});

describe('analysis settings and the trace (its "analysis" header)', () => {
  const RULE = { pattern: 'file:///docs/**', maxAgeMs: 1000 };
  const aged = (s: PanelStore) => s.snapshot.value!.findings.filter((f) => f.id === 'cache-age-exceeded').length;
  const settle = async (s: PanelStore) => {
    for (let i = 0; i < 100 && s.reanalysing.value !== null; i++) await new Promise((r) => setTimeout(r, 10));
  };
  function recordedTrace(analysis = { freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000 }) {
    const t = stamped(page(1, new FrameLog('imported-doc')), 1);
    return exportTrace({ frames: t, createdAt: t.at(-1)!.t + 5000, pageUrl: 'http://x/', analysis });
  }

  it('an export records the settings its view is analysed with: the panel\'s live, an import\'s own', async () => {
    const s = new PanelStore();
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, freshnessRules: [RULE], defaultMaxAgeMs: 60_000 } });
    s.add(stamped(page(1), 1));
    await frames();
    expect(JSON.parse(traceText(s)).analysis).toEqual({ freshnessRules: [RULE], defaultMaxAgeMs: 60_000, graceMs: 2000 });
    s.showPrepared(s.prepareTrace('t.json', recordedTrace({ freshnessRules: [], defaultMaxAgeMs: 5000, graceMs: 0 })));
    expect(JSON.parse(traceText(s)).analysis).toEqual({ freshnessRules: [], defaultMaxAgeMs: 5000, graceMs: 0 });
  });

  it('an import is analysed with the trace\'s own settings (the finding the exporting view showed), whatever the panel\'s', async () => {
    const s = new PanelStore();
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS } });
    expect(await importFile(s, new File([serializeTrace(recordedTrace())], 'rec.json'))).toBe(true);
    expect(s.imported!.analysedWith).toBe('trace');
    expect(aged(s)).toBe(1);
    // Scrubbing replays with them too.
    expect(s.analysisInEffect()).toEqual({ freshnessRules: [RULE], defaultMaxAgeMs: 600_000, graceMs: 2000 });
    // A trace that records none: the panel's, as before.
    const old = stamped(page(1, new FrameLog('old-doc')), 1);
    expect(await importFile(s, new File([serializeTrace(exportTrace({ frames: old, createdAt: old.at(-1)!.t + 5000, pageUrl: 'http://x/' }))], 'old.json'))).toBe(true);
    expect(s.imported!.analysedWith).toBe('panel');
    expect(aged(s)).toBe(0);
  });

  it('settings saved while it is shown: analysed again with the panel\'s (said so); the first settings the panel gets are no such change', async () => {
    const s = new PanelStore();
    s.importSlicing = { unslicedMs: 0, sliceMs: 0 };
    // Imported before the panel had its settings (opened offline, or the background slow to answer).
    s.showPrepared(s.prepareTrace('t.json', recordedTrace()));
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS } });
    await settle(s);
    expect([s.imported!.analysedWith, aged(s)]).toEqual(['trace', 1]);
    // The user saves settings that change the analysis.
    s.receive({ type: 'settings', settings: { ...DEFAULT_SETTINGS, defaultMaxAgeMs: 3_600_000 } });
    await settle(s);
    expect([s.imported!.analysedWith, aged(s)]).toEqual(['panel', 0]);
    expect(JSON.parse(traceText(s)).analysis).toEqual({ freshnessRules: [], defaultMaxAgeMs: 3_600_000, graceMs: 2000 });
  });
});
