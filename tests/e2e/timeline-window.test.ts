// The timeline's window in the built panel: what "Back to live" keeps after a replay, "Follow live" during a replay and
// when it is unticked, the window and lane scroll across a switch of views (and not into another source), a drag
// released outside the canvas, a change of the screen's pixel ratio; hovering a re-read right after a notification
// finds the read. One browser for the file; the panel is opened without a tab and fed frames whose times end just
// before now (as live).
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FrameLog } from '../support/frame-log.ts';
import { StreamableClient } from '../support/mcp-clients.ts';
import { startBrowser, waitFor, type Browser } from '../support/extension.ts';
import { formatClock } from '../../panel/model/format.ts';
import { CATALOGUE } from '../../shared/findings/catalogue.ts';
import { LANE_H, MARK_BOTTOM, MARK_TOP, READ_ROW_H, readRowTop } from '../../panel/model/timeline.ts';
import { AXIS_H } from '../../panel/components/timeline-draw.ts';

let browser: Browser;

const CANVAS = 'canvas.timeline-canvas';
const SLIDER = 'input[aria-label="Replay up to"]';
const FOLLOW = 'input[aria-label="Follow live"]';

const windowOf = async (p: Page) => (await p.getAttribute(CANVAS, 'data-window'))!.split('-').map(Number) as [number, number];
const following = (p: Page) => p.isChecked(FOLLOW);
const nowOf = (p: Page) => p.evaluate(() => (globalThis as any).mcpPanel.now.value as number);
const scrubTOf = (p: Page) => p.evaluate(() => (globalThis as any).mcpPanel.scrubT.value as number | null);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `minutes` of traffic on `uris` URIs (a notification and a re-read of the first every 15 s), ending 2 s ago. */
function liveFrames(minutes: number, uris = 1) {
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (let u = 0; u < uris; u++) c.read(`file:///r${u}`, 'v1');
  c.subscribe('file:///r0');
  for (let i = 0; i < minutes * 4; i++) {
    log.wait(15_000);
    get.updated('file:///r0');
    log.wait(20);
    c.read('file:///r0', `v${i + 2}`);
  }
  const shift = Date.now() - 2000 - log.t;
  return log.frames.map((f, i) => ({ ...f, t: f.t + shift, seq: i + 1, segment: 1 }));
}

/** A panel without a tab, fed the frames; "Follow live" on. */
async function livePanel(minutes: number, uris = 1): Promise<Page> {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 820 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  await p.evaluate((fs) => (globalThis as any).mcpPanel.add(fs), liveFrames(minutes, uris));
  await p.waitForSelector(`${CANVAS}[data-lanes]`);
  // A lane per session and per URI (the labels are only those in view).
  await p.waitForSelector(`${CANVAS}[data-lanes="${uris + 1}"]`);
  expect(await following(p)).toBe(true);
  return p;
}

/** Presses keys on the canvas and waits for the window to change. */
async function onCanvas(p: Page, ...keys: string[]): Promise<[number, number]> {
  const before = (await windowOf(p)).join('-');
  await p.focus(CANVAS);
  for (const k of keys) await p.keyboard.press(k);
  await p.waitForFunction(([sel, w]) => document.querySelector(sel!)?.getAttribute('data-window') !== w, [CANVAS, before] as const);
  return windowOf(p);
}

/** Steps the scrubber from the keyboard (ArrowLeft: one message back; Home: the first) and waits for the replay. */
async function scrub(p: Page, key: 'ArrowLeft' | 'Home'): Promise<number> {
  await p.focus(SLIDER);
  await p.keyboard.press(key);
  await p.waitForSelector('.scrub-banner');
  const t = await waitFor(async () => (await scrubTOf(p)) ?? undefined, 10_000, 'the replay');
  // The timeline brings the cursor into view in the next frame or so.
  await waitFor(async () => {
    const [start, end] = await windowOf(p);
    return start <= t && t <= end;
  }, 5_000, 'the cursor in view');
  return t;
}

async function backToLive(p: Page, name = 'Back to live'): Promise<void> {
  await p.click(`button.scrub-back[aria-label="${name}"]`);
  await p.waitForSelector('.scrub-banner', { state: 'detached' });
  // The timeline's effects run after the store's change: a frame or two.
  await pause(300);
}

beforeAll(async () => {
  browser = await startBrowser({ extensionDir: resolve('dist') });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

it('"Back to live" keeps the zoom and pan of a window that was not following (it went back to fitting all)', async () => {
  const p = await livePanel(2);
  // A pan stops following (a zoom no longer does: it stays anchored at now).
  await onCanvas(p, 'ArrowLeft');
  expect(await following(p)).toBe(false);
  // Replaying, the user zooms and pans: that is the window after the replay.
  await scrub(p, 'Home');
  const zoomed = await onCanvas(p, '+', '+', 'ArrowLeft');
  await backToLive(p);
  expect(await windowOf(p)).toEqual(zoomed);
  expect(await following(p)).toBe(false);
  // Following before the replay: following again after it.
  await onCanvas(p, 'f');
  await scrub(p, 'Home');
  await backToLive(p);
  expect(await following(p)).toBe(true);
  expect((await nowOf(p)) - (await windowOf(p))[1]).toBeLessThan(5_000);
  await p.close();
});

it('the banner says until when a replayed stop stood (its ages and findings are judged at the end of its quiet span)', async () => {
  const p = await livePanel(1);
  // The last message's stop stood until now (the traffic ended 2 s ago).
  await scrub(p, 'ArrowLeft');
  const banner = () => p.textContent('.scrub-banner [data-scrub-until]');
  expect(await banner()).toMatch(/^Showing the state at \d\d:\d\d:\d\d\.\d{3}, as it stood until \d\d:\d\d:\d\d\.\d{3} \(replayed\)\.$/);
  // The first stop, the page's start, is followed at once by the next: no span to speak of.
  await scrub(p, 'Home');
  await p.waitForSelector('.scrub-banner [data-scrub-until]', { state: 'detached' });
  expect(await p.textContent('.scrub-banner')).toMatch(/Showing the state at \d\d:\d\d:\d\d\.\d{3} \(replayed\)\./);
  await p.close();
});

it('"Back to the end" of an import keeps its zoom', async () => {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 820 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.setInputFiles('input[type="file"]', resolve('tests/fixtures/sdk-v1-streamable.trace.json'));
  await p.waitForSelector('.status-bar[data-status="imported"]');
  await p.waitForSelector(`${CANVAS}[data-lanes]`);
  const zoomed = await onCanvas(p, '+', '+');
  const note = () => p.$eval('.imported-note', (n) => ({ asOf: n.getAttribute('data-ages-as-of'), text: n.textContent }));
  expect((await note()).text).toContain('ages and “ago” are as of the export');
  await scrub(p, 'ArrowLeft');
  // Replaying, the note says the instant its ages are as of: the replayed state's, as the banner (it said "the export").
  const shownNow = await p.evaluate(() => (globalThis as any).mcpPanel.shown.value.now as number);
  await expect.poll(note, { timeout: 5_000 }).toEqual({ asOf: String(shownNow), text: expect.stringContaining(`ages and “ago” are as of ${formatClock(shownNow)} (the replayed state)`) });
  const whileReplaying = await windowOf(p);
  await backToLive(p, 'Back to the end');
  expect(await note()).toMatchObject({ asOf: 'export' });
  expect(await windowOf(p)).toEqual(whileReplaying);
  expect(whileReplaying[1] - whileReplaying[0]).toBeCloseTo(zoomed[1] - zoomed[0], 0);
  await p.close();
});

it('ticking "Follow live" (or F) while replaying goes back to live, following (the cursor left the view for good)', async () => {
  const p = await livePanel(10);
  await onCanvas(p, 'ArrowLeft');
  expect(await following(p)).toBe(false);
  // The first stop is ten minutes back.
  const cursor = await scrub(p, 'Home');
  const w = await windowOf(p);
  expect(cursor).toBeGreaterThanOrEqual(w[0]);
  expect(cursor).toBeLessThanOrEqual(w[1]);
  await p.check(FOLLOW);
  await p.waitForSelector('.scrub-banner', { state: 'detached' });
  await pause(300);
  expect(await scrubTOf(p)).toBeNull();
  // The user's choice stands: following (not the "not following" of before the replay).
  expect(await following(p)).toBe(true);
  expect((await nowOf(p)) - (await windowOf(p))[1]).toBeLessThan(5_000);
  // F on the canvas does the same.
  await scrub(p, 'Home');
  expect(await following(p)).toBe(false);
  await p.focus(CANVAS);
  await p.keyboard.press('f');
  await p.waitForSelector('.scrub-banner', { state: 'detached' });
  await pause(300);
  expect(await following(p)).toBe(true);
  expect((await nowOf(p)) - (await windowOf(p))[1]).toBeLessThan(5_000);
  await p.close();
});

it('unticking "Follow live" freezes the live tail in view (it jumped back to an old pan position)', async () => {
  const p = await livePanel(10);
  // Pan well back (following stops), then follow again.
  await onCanvas(p, 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', '+');
  await onCanvas(p, 'f');
  const tail = await windowOf(p);
  await p.uncheck(FOLLOW);
  await pause(300);
  const frozen = await windowOf(p);
  expect(frozen[1] - frozen[0]).toBeCloseTo(tail[1] - tail[0], -2);
  expect(Math.abs(frozen[1] - tail[1])).toBeLessThan(3_000);
  // Frozen: it no longer moves with now.
  await pause(1500);
  expect(await windowOf(p)).toEqual(frozen);
  await p.close();
});

it('zooming while following live keeps following, anchored at now (zooming out from the middle walked the live edge off)', async () => {
  const p = await livePanel(10);
  const [s0, e0] = await windowOf(p);
  const span0 = e0 - s0;
  const liveEdge = async () => {
    const [s, e] = await windowOf(p);
    const now = await nowOf(p);
    // followLive: now sits 3 % of the span from the right edge.
    expect(Math.abs(e - 0.03 * (e - s) - now)).toBeLessThan(1500);
    return e - s;
  };
  await p.click('button[aria-label="Zoom out"]');
  expect(await following(p)).toBe(true);
  expect(await liveEdge()).toBeCloseTo(span0 * 2, -3);
  await onCanvas(p, '-');
  expect(await following(p)).toBe(true);
  expect(await liveEdge()).toBeCloseTo(span0 * 4, -3);
  // Still at now a while later: the window moves with it.
  await pause(1500);
  expect(await liveEdge()).toBeCloseTo(span0 * 4, -3);
  await p.click('button[aria-label="Zoom in"]');
  await onCanvas(p, '+', '+');
  expect(await following(p)).toBe(true);
  expect(await liveEdge()).toBeCloseTo(span0 / 2, -3);
  await p.close();
});

it('keeps the window, "Follow live" and the lane scroll across a switch of views; another source starts fresh', async () => {
  const p = await livePanel(2, 30);
  const zoomed = await onCanvas(p, '+', '+', 'ArrowLeft');
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowDown');
  await p.waitForSelector('.lanes-more[data-lanes-above="2"]');
  await p.keyboard.press('Alt+2');
  await p.waitForSelector(CANVAS, { state: 'detached' });
  await p.keyboard.press('Alt+1');
  await p.waitForSelector(CANVAS);
  await pause(300);
  expect(await windowOf(p)).toEqual(zoomed);
  expect(await following(p)).toBe(false);
  expect(await p.getAttribute('.lanes-more', 'data-lanes-above')).toBe('2');
  // Following live is kept too.
  await onCanvas(p, 'f');
  await p.keyboard.press('Alt+2');
  await p.waitForSelector(CANVAS, { state: 'detached' });
  await p.keyboard.press('Alt+1');
  await p.waitForSelector(CANVAS);
  expect(await following(p)).toBe(true);
  // An import is another source: fitted, lanes from the top, whatever the tab's timeline showed.
  await onCanvas(p, '+', '+');
  await p.keyboard.press('ArrowDown');
  await p.setInputFiles('input[type="file"]', resolve('tests/fixtures/sdk-v1-streamable.trace.json'));
  await p.waitForSelector('.status-bar[data-status="imported"]');
  await pause(300);
  const fitted = await windowOf(p);
  await p.focus(CANVAS);
  await p.keyboard.press('0');
  await pause(200);
  expect(await windowOf(p)).toEqual(fitted);
  expect(await p.$('.lanes-more[data-lanes-above]:not([data-lanes-above="0"])')).toBeNull();
  await p.close();
});

it('a drag released outside the canvas is over: a later press elsewhere moved over the canvas does not pan', async () => {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 820 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.setInputFiles('input[type="file"]', resolve('tests/fixtures/sdk-v1-streamable.trace.json'));
  await p.waitForSelector('.status-bar[data-status="imported"]');
  const box = (await p.locator(CANVAS).boundingBox())!;
  const legend = (await p.locator('.timeline-legend').boundingBox())!;
  const y = box.y + box.height / 2;
  // Drag from the canvas out over the lane names and let go there: a pan.
  const fitted = await windowOf(p);
  await p.mouse.move(box.x + box.width / 2, y);
  await p.mouse.down();
  await p.mouse.move(box.x - 50, y, { steps: 5 });
  await p.mouse.up();
  const panned = await windowOf(p);
  expect(panned).not.toEqual(fitted);
  // Press on the legend and move over the canvas, button held.
  await p.mouse.move(legend.x + 5, legend.y + legend.height / 2);
  await p.mouse.down();
  await p.mouse.move(box.x + box.width / 2, y, { steps: 5 });
  await p.mouse.move(box.x + box.width * 0.8, y, { steps: 5 });
  await pause(200);
  expect(await windowOf(p)).toEqual(panned);
  await p.mouse.up();
  await p.close();
});

it('draws again at a new pixel ratio (another screen, browser zoom) without waiting for something else to change', async () => {
  const p = await browser.context.newPage();
  // Headless Chromium changes the ratio on emulation but sends no media query change: the page's resolution queries
  // are kept, to send it as a browser does.
  await p.addInitScript(() => {
    const match = globalThis.matchMedia.bind(globalThis);
    const kept: MediaQueryList[] = ((globalThis as any).resolutionQueries = []);
    globalThis.matchMedia = (q: string) => {
      const mq = match(q);
      if (q.includes('resolution')) kept.push(mq);
      return mq;
    };
  });
  await p.setViewportSize({ width: 1400, height: 820 });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.setInputFiles('input[type="file"]', resolve('tests/fixtures/sdk-v1-streamable.trace.json'));
  await p.waitForSelector('.status-bar[data-status="imported"]');
  const pixels = () => p.$eval(CANVAS, (c) => (c as HTMLCanvasElement).width / c.getBoundingClientRect().width);
  await waitFor(async () => Math.abs((await pixels()) - 1) < 0.01, 5_000, 'the canvas at ratio 1');
  const cdp = await browser.context.newCDPSession(p);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 820, deviceScaleFactor: 2, mobile: false });
  await p.evaluate(() => {
    // (A copy: a listener asks a new query, for the new ratio.)
    for (const mq of [...((globalThis as any).resolutionQueries as MediaQueryList[])]) mq.dispatchEvent(new Event('change'));
  });
  await waitFor(async () => Math.abs((await pixels()) - 2) < 0.01, 5_000, 'the canvas at ratio 2');
  await cdp.detach();
  await p.close();
});

it('offers a stop for a stream that ends after the last message, as it comes in', async () => {
  const p = await livePanel(1);
  const max = async () => Number(await p.getAttribute(SLIDER, 'max'));
  const before = await max();
  // The GET stream fails now: no message comes with it, but the state changed (the URI has no channel).
  await p.evaluate(() => {
    const store = (globalThis as any).mcpPanel;
    const frames = store.frames as any[];
    const get = frames.find((f) => f.kind === 'http-request' && f.method === 'GET');
    const end = frames.find((f) => f.kind === 'http-end');
    const last = frames.at(-1);
    store.add([{ ...end, conn: get.conn, outcome: 'failed', bytes: 0, t: Date.now(), seq: last.seq + 1 }]);
  });
  await waitFor(async () => (await max()) === before + 1, 5_000, 'a stop for the stream end');
  // The slider's last stop before the end is the stream's end: there the stream is closed.
  await p.evaluate((k) => {
    const input = document.querySelector<HTMLInputElement>('input[aria-label="Replay up to"]')!;
    input.value = String(k);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, before);
  await waitFor(() => p.evaluate(() => (globalThis as any).mcpPanel.shown.value.streams.some((s: any) => s.kind === 'get' && !s.open)), 5_000, 'the stream closed at its stop');
  await p.close();
});

it('hovering a re-read sent just after a notification finds the read in its row, and the notification above it', async () => {
  const p = await livePanel(2);
  // Fitted (two minutes): the notification and the re-read 20 ms after it fall on one pixel.
  const [start, end] = await onCanvas(p, '0');
  expect(await following(p)).toBe(false);
  const { read, notify } = await p.evaluate(() => {
    const frames = (globalThis as any).mcpPanel.frames as Array<{ kind: string; t: number; body?: { text?: string }; data?: { text?: string } }>;
    const has = (f: (typeof frames)[number], s: string) => (f.body ?? f.data)?.text?.includes(s) === true;
    return {
      read: frames.filter((f) => f.kind === 'http-request' && has(f, '"resources/read"')).at(-1)!.t,
      notify: frames.filter((f) => f.kind === 'sse-event' && has(f, 'notifications/resources/updated')).at(-1)!.t,
    };
  });
  expect(read - notify).toBeLessThan(100);
  const box = (await p.locator(CANVAS).boundingBox())!;
  expect(((read - notify) / (end - start)) * box.width).toBeLessThan(1);
  // The URI lane is the second (the session's first); the read starts at its request's x.
  const x = box.x + ((read - start) / (end - start)) * box.width + 1;
  const laneTop = box.y + AXIS_H + LANE_H;
  const title = () => p.getAttribute(CANVAS, 'title');
  // Before, the notification's diamond covered the read and hover found only the notification, anywhere in the lane.
  await p.mouse.move(x, laneTop + readRowTop(0) + READ_ROW_H / 2);
  await expect.poll(title, { timeout: 5_000 }).toMatch(new RegExp(`^read at ${formatClock(read)}, answered after .+ — click for the request$`));
  await p.mouse.move(x, laneTop + (MARK_TOP + MARK_BOTTOM) / 2);
  await expect.poll(title, { timeout: 5_000 }).toBe(`notification at ${formatClock(notify)} — click for the message`);
  await p.close();
});

it("a hidden panel that gets a frame now and then (a screenshot) shows the table, the lane names and the canvas in one order, and hover finds that order (and names a stale band's finding)", async () => {
  const p = await browser.context.newPage();
  await p.setViewportSize({ width: 1400, height: 820 });
  // Animation frames as a hidden page gets them: none, except one the test forces (as a screenshot of it does).
  await p.addInitScript(() => {
    const g = globalThis as any;
    const raf = globalThis.requestAnimationFrame.bind(globalThis);
    let queue: Array<[number, FrameRequestCallback]> = [];
    let id = 1e6;
    g.hiddenFrames = { on: false };
    g.forceFrame = () => {
      const run = queue;
      queue = [];
      const ts = performance.now();
      for (const [, cb] of run) cb(ts);
    };
    globalThis.requestAnimationFrame = (cb) => {
      if (!g.hiddenFrames.on) return raf(cb);
      queue.push([++id, cb]);
      return id;
    };
    const caf = globalThis.cancelAnimationFrame.bind(globalThis);
    globalThis.cancelAnimationFrame = (n) => {
      queue = queue.filter(([k]) => k !== n);
      caf(n);
    };
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (g.hiddenFrames.on ? 'hidden' : 'visible') });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => g.hiddenFrames.on });
  });
  await p.goto(`chrome-extension://${browser.extensionId}/panel.html`);
  await p.waitForSelector('.status-bar[data-status="offline"]');
  // Four subscribed URIs; later r3 and r2 are updated and not read again: past the grace they become warnings and
  // go to the top of the table.
  const log = new FrameLog('doc1');
  log.pageStart('http://localhost:8080/');
  const c = new StreamableClient(log, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  for (let u = 0; u < 4; u++) c.read(`file:///r${u}`, 'v1');
  for (let u = 0; u < 4; u++) c.subscribe(`file:///r${u}`);
  const first = log.frames.length;
  log.wait(500);
  get.updated('file:///r3');
  get.updated('file:///r2');
  const shift = Date.now() - 100 - log.t;
  const frames = log.frames.map((f, i) => ({ ...f, t: f.t + shift, seq: i + 1, segment: 1 }));
  await p.evaluate((fs) => (globalThis as any).mcpPanel.add(fs), frames.slice(0, first));
  const order = ['S1', 'file:///r0', 'file:///r1', 'file:///r2', 'file:///r3'].join(' ');
  await p.waitForSelector(`${CANVAS}[data-drawn-lanes="${order}"]`);

  const seen = () =>
    p.evaluate(() => ({
      rows: [...document.querySelectorAll('.uri-row[data-uri]')].map((r) => r.getAttribute('data-uri')).join(' '),
      names: [...document.querySelectorAll('.lane-label')].map((l) => l.getAttribute('data-session') ?? l.getAttribute('data-uri')).join(' '),
      drawn: document.querySelector('canvas.timeline-canvas')!.getAttribute('data-drawn-lanes'),
    }));
  await p.evaluate(() => ((globalThis as any).hiddenFrames.on = true));
  await p.evaluate((fs) => (globalThis as any).mcpPanel.add(fs), frames.slice(first));
  // Past the engine's grace: the next snapshot has the warnings.
  await pause(3000);
  const reordered = ['S1', 'file:///r2', 'file:///r3', 'file:///r0', 'file:///r1'].join(' ');
  let last = await seen();
  for (let i = 0; i < 6 && last.drawn !== reordered; i++) {
    await p.evaluate(() => (globalThis as any).forceFrame());
    last = await seen();
    // After every frame, whatever it got to: the lane names are the table's rows, and the canvas draws those lanes.
    expect(last.names).toBe(`S1 ${last.rows}`);
    expect(last.drawn).toBe(last.names);
  }
  expect(last.drawn).toBe(reordered);

  // Hover names the lane drawn there (the second URI lane is r3's).
  const box = (await p.locator(CANVAS).boundingBox())!;
  await p.mouse.move(box.x + 2, box.y + AXIS_H + 2 * LANE_H + LANE_H - 2);
  await expect.poll(() => p.getAttribute(CANVAS, 'title'), { timeout: 5_000 }).toMatch(/^file:\/\/\/r3/);
  // Visible again: over r3's stale band (half-way between the finding's start and now), hover names the finding, not
  // only the URI.
  await p.evaluate(() => ((globalThis as any).hiddenFrames.on = false));
  await pause(1500);
  const hoverBand = async () => {
    const t = await p.evaluate(() => {
      const snap = (globalThis as any).mcpPanel.snapshot.value;
      const f = snap.findings.find((x: { uri?: string }) => x.uri === 'file:///r3');
      return (f.firstT + snap.now) / 2;
    });
    const [start, end] = await windowOf(p);
    const x = box.x + ((t - start) / (end - start)) * box.width;
    await p.mouse.move(x - 1, box.y + AXIS_H + 2 * LANE_H + LANE_H - 2);
    await p.mouse.move(x, box.y + AXIS_H + 2 * LANE_H + LANE_H - 2);
    return p.getAttribute(CANVAS, 'title');
  };
  await expect.poll(hoverBand, { timeout: 5_000 }).toBe(`file:///r3: ${CATALOGUE['notified-not-reread'].title} (warning) — click to select`);
  await p.close();
});
