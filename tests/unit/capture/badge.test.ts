// The toolbar badge (background/badge.ts) on the real LogStore over an in-memory IndexedDB, with a stand-in for
// chrome.action: a settings change rebuilds the tabs' engines at once, so a time-dependent error that opens after it
// still reaches the badge without new traffic (found by an audit, 2026-12-04: the engines were only dropped).
import 'fake-indexeddb/auto';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../shared/settings.ts';
import { PAGE_TAG } from '../../../shared/messages.ts';
import { asPageFrames, FrameLog } from '../../support/frame-log.ts';
import { StreamableClient } from '../../support/mcp-clients.ts';

const badgeText = new Map<number, string>();
let Badge: typeof import('../../../background/badge.ts').Badge;
let Tabs: typeof import('../../../background/tabs.ts').Tabs;
let LogStore: typeof import('../../../background/log-store.ts').LogStore;

beforeAll(async () => {
  const done = (_d: unknown, cb?: () => void) => {
    cb?.();
    return Promise.resolve();
  };
  (globalThis as Record<string, unknown>).chrome = {
    runtime: { id: 'test', lastError: undefined },
    action: {
      setBadgeText: (d: { tabId: number; text: string }, cb?: () => void) => {
        badgeText.set(d.tabId, d.text);
        return done(d, cb);
      },
      setBadgeBackgroundColor: done,
      setTitle: done,
    },
  };
  ({ Badge } = await import('../../../background/badge.ts'));
  ({ Tabs } = await import('../../../background/tabs.ts'));
  ({ LogStore } = await import('../../../background/log-store.ts'));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a settings change rebuilds the engines: an error that opens after it still shows, with no new frames', async () => {
  const listeners: Array<(s: Settings) => void> = [];
  const settings = { onChange: (l: (s: Settings) => void) => listeners.push(l), get: async () => DEFAULT_SETTINGS };
  const tabs = new Tabs(new LogStore('badge-test-1'));
  const badge = new Badge(tabs, settings as never);
  await sleep(10);
  // Subscribed with no GET stream: no-delivery-channel (an error) opens once the grace is over.
  // Stamped a little ahead, so the grace is still running when the settings change.
  const script = new FrameLog('doc-1', Date.now() + 1500);
  script.pageStart('http://localhost:8080/');
  const c = new StreamableClient(script, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  c.read('file:///a', 'one');
  c.subscribe('file:///a');
  const frames = asPageFrames(script.frames);
  const { frames: stored } = await tabs.get(7).accept('relay', 1, [JSON.stringify({ tag: PAGE_TAG, frames })], 0, 0);
  await badge.onFrames(7, stored);
  await sleep(1100);
  expect(badgeText.get(7) ?? '').toBe('');
  for (const l of listeners) l({ ...DEFAULT_SETTINGS, freshnessRules: [{ pattern: 'file:///x', maxAgeMs: 1000 }] });
  await sleep(6500);
  expect(badgeText.get(7)).toBe('1');
}, 20_000);

/** A badge over a fresh store, and the tab's frames of a session that read file:///a (stored and fed to it). */
async function badgeWithTab(name: string, tabId: number) {
  const listeners: Array<(s: Settings) => void> = [];
  const settings = { onChange: (l: (s: Settings) => void) => listeners.push(l), get: async () => DEFAULT_SETTINGS };
  const tabs = new Tabs(new LogStore(name));
  const badge = new Badge(tabs, settings as never);
  await sleep(10);
  const script = new FrameLog('doc-1');
  script.pageStart('http://localhost:8080/');
  const c = new StreamableClient(script, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  c.read('file:///a', 'one');
  const frames = asPageFrames(script.frames);
  const { frames: stored } = await tabs.get(tabId).accept('relay', 1, [JSON.stringify({ tag: PAGE_TAG, frames })], 0, 0);
  await badge.onFrames(tabId, stored);
  const change = (s: Settings) => listeners.forEach((l) => l(s));
  const engines = (badge as unknown as { engines: Map<number, { engine: { core: { defaultMaxAgeMs: number } } }> }).engines;
  return { badge, tabs, change, engines };
}

it('two settings changes in a row: the engine ends up with the second rules (the rebuild under way builds again)', async () => {
  const { change, engines } = await badgeWithTab('badge-test-2', 7);
  change({ ...DEFAULT_SETTINGS, defaultMaxAgeMs: 1111 });
  change({ ...DEFAULT_SETTINGS, defaultMaxAgeMs: 2222 });
  await sleep(300);
  expect(engines.get(7)?.engine.core.defaultMaxAgeMs).toBe(2222);
});

it('a tab closed while its engine is rebuilt does not come back', async () => {
  const { badge, tabs, change, engines } = await badgeWithTab('badge-test-3', 8);
  change({ ...DEFAULT_SETTINGS, defaultMaxAgeMs: 3333 });
  badge.forget(8);
  void tabs.remove(8);
  await sleep(300);
  expect(engines.has(8)).toBe(false);
});

it('a rebuild reads the current page only, one tab at a time', async () => {
  const listeners: Array<(s: Settings) => void> = [];
  const settings = { onChange: (l: (s: Settings) => void) => listeners.push(l), get: async () => DEFAULT_SETTINGS };
  const store = new LogStore('badge-test-4');
  const tabs = new Tabs(store);
  const badge = new Badge(tabs, settings as never);
  await sleep(10);
  const pageOf = (doc: string) => {
    const script = new FrameLog(doc);
    script.pageStart(`http://localhost:8080/${doc}`);
    const c = new StreamableClient(script, 'http://localhost:3000/mcp');
    c.initialize({ sessionId: doc });
    c.read('file:///a', 'one');
    return asPageFrames(script.frames);
  };
  // Each tab: a first page, then a second (a new segment); the badge only cares about the second.
  const firstOfSecondPage = new Map<number, number>();
  for (const tabId of [11, 12, 13]) {
    await tabs.get(tabId).accept('relay', 1, [JSON.stringify({ tag: PAGE_TAG, frames: pageOf(`p1-${tabId}`) })], 0, 0);
    const { frames: stored } = await tabs.get(tabId).accept('relay', 2, [JSON.stringify({ tag: PAGE_TAG, frames: pageOf(`p2-${tabId}`) })], 0, 0);
    firstOfSecondPage.set(tabId, stored[0]!.seq);
    await badge.onFrames(tabId, stored);
  }
  let inFlight = 0;
  let most = 0;
  const reads: Array<[number, number]> = [];
  const readAfter = store.readAfter.bind(store);
  store.readAfter = async (tabId, after, limit) => {
    reads.push([tabId, after]);
    most = Math.max(most, ++inFlight);
    try {
      return await readAfter(tabId, after, limit);
    } finally {
      inFlight--;
    }
  };
  for (const l of listeners) l({ ...DEFAULT_SETTINGS, defaultMaxAgeMs: 4444 });
  await sleep(300);
  expect(reads.map(([t]) => t).sort()).toEqual([11, 12, 13]);
  for (const [tabId, after] of reads) expect(after).toBe(firstOfSecondPage.get(tabId)! - 1);
  expect(most).toBe(1);
});

it("keeps the badge's engine within the log's cap when a page names ever more URIs: rebuilt from what the log holds (forged URIs grew it without end)", async () => {
  const settings = { onChange: () => undefined, get: async () => DEFAULT_SETTINGS };
  const tabs = new Tabs(new LogStore('badge-test-cap'));
  tabs.caps = { maxFrames: 1000, maxBytes: 1e9 };
  // Watched: each batch is written within 100 ms, not the idle second.
  tabs.watch(21, 1);
  const badge = new Badge(tabs, settings as never);
  await sleep(10);
  const script = new FrameLog('doc-cap');
  script.pageStart('http://localhost:8080/');
  const c = new StreamableClient(script, 'http://localhost:3000/mcp');
  c.initialize({ sessionId: 'S1' });
  const get = c.openGet();
  // A new URI in every frame, 14,000 of them (more than real pages name: a rebuild replays the whole capped log).
  for (let i = 0; i < 14_000; i++) get.updated(`file:///u/${i}`);
  const frames = asPageFrames(script.frames);
  const engineOf = () => (badge as unknown as { engines: Map<number, { engine: { frameCount: number } }> }).engines.get(21)?.engine;
  for (let i = 0, batch = 1; i < frames.length; i += 1000, batch++) {
    const { frames: stored } = await tabs.get(21).accept('relay', batch, [JSON.stringify({ tag: PAGE_TAG, frames: frames.slice(i, i + 1000) })], 0, 0);
    await badge.onFrames(21, stored);
  }
  await sleep(300);
  // Rebuilt from the capped log once past 10,000 URIs: it never holds much more (without: all 14,000 frames).
  expect(tabs.get(21).stats().frames).toBeLessThanOrEqual(1100);
  expect(engineOf()!.frameCount).toBeLessThanOrEqual(10_000 + 1000);
  expect((engineOf() as unknown as { stateSize: number }).stateSize).toBeLessThanOrEqual(10_000 + 1000);
});
