// The toolbar badge: the count of open error-level findings for each tab's current page segment. The background runs
// the same engine as the panel over the same frames; after a worker restart the engine is rebuilt from the log the
// first time the tab gets frames again (the badge text itself stays with the tab meanwhile); after a settings change
// at once. Time-dependent findings are re-evaluated while the worker lives.
import browser from 'webextension-polyfill';
import { Engine, type EngineOptions } from '../shared/engine/index.ts';
import type { Settings } from '../shared/settings.ts';
import type { SettingsStore } from './settings.ts';
import type { Frame } from '../shared/frames.ts';
import type { Tabs } from './tabs.ts';

const REFRESH_MS = 5_000;
/** Findings are recomputed at most this often while frames stream in (it is the costly part, and a badge need not flicker). */
const UPDATE_MIN_MS = 1_000;
const REBUILD_CHUNK = 20_000;
/**
 * The log keeps at most its cap of frames; the badge's engine, fed every frame of the page, would keep what the log
 * dropped long ago (and a page that forges a new URI in every frame would grow this worker without bound). Past the
 * cap by this factor, and holding more URIs and sessions than real pages name, it is rebuilt from what the log holds,
 * as an open panel does. (Not for every page past the cap: a rebuild replays up to the whole capped log.)
 */
const OVER_CAP = 1.2;
const LARGE_STATE = 10_000;

interface TabEngine {
  engine: Engine;
  segment: number;
  shown: number | undefined;
}

export class Badge {
  private readonly engines = new Map<number, TabEngine>();
  private readonly rebuilding = new Map<number, Promise<TabEngine>>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly due = new Map<number, ReturnType<typeof setTimeout>>();
  /** Bumped by each settings change: a rebuild that began under older rules builds again. */
  private epoch = 0;
  /** Bumped per tab by forget and clear: a rebuild that began before them is not kept. */
  private readonly tabEpochs = new Map<number, number>();

  /** The badge needs findings only: its engines keep no messages, so a long-lived page does not grow this worker's heap. */
  private options: EngineOptions = { retainMessages: false };

  constructor(
    private readonly tabs: Tabs,
    settings: SettingsStore,
  ) {
    const apply = (s: Settings) => {
      this.options = { freshnessRules: s.freshnessRules, defaultMaxAgeMs: s.defaultMaxAgeMs, retainMessages: false };
      this.epoch++;
      // Engines built with the old rules are rebuilt from the log now, up to where they were (frames that come
      // meanwhile wait for the same rebuild, see onFrames), so the badge follows the new rules without new traffic.
      // A rebuild under way sees the new epoch and builds again.
      const known = [...this.engines];
      this.engines.clear();
      for (const [tabId, old] of known) {
        this.rebuild(tabId, old.engine.lastSeq).then(
          (te) => {
            te.shown ??= old.shown;
            if (this.engines.get(tabId) === te) this.update(tabId, te);
          },
          (e: unknown) => console.error('mcp-devtools: badge rebuild failed', e),
        );
      }
    };
    void settings.get().then(apply);
    settings.onChange(apply);
  }

  /** Feed newly persisted frames of a tab (in seq order). */
  async onFrames(tabId: number, frames: Frame[]): Promise<void> {
    if (frames.length === 0) return;
    let te = this.engines.get(tabId) ?? (await this.rebuild(tabId, frames[0]!.seq - 1));
    // A clear while it was rebuilt set the engine to go on with.
    te = this.engines.get(tabId) ?? te;
    for (const f of frames) {
      if (f.segment !== te.segment) {
        // A new page: the badge is about what the user looks at now. Chrome cleared the tab's badge text when the tab
        // navigated: nothing is shown (a new page with as many errors as the last one got no text).
        te = { engine: new Engine(this.options), segment: f.segment, shown: undefined };
        this.engines.set(tabId, te);
      } else if (f.kind === 'page-start') {
        // A page started again in its segment: back from the back/forward cache, with the errors it had. Chrome
        // cleared the text when the tab navigated to it (and to the page in between): it is set again. Any document's
        // (a silent top page's MCP iframe is the only one that says so), not only the top one's.
        te.shown = undefined;
      }
      if (f.seq > te.engine.lastSeq) te.engine.apply(f);
    }
    if (te.engine.frameCount > this.tabs.caps.maxFrames * OVER_CAP && te.engine.stateSize > LARGE_STATE) this.rebuildWithinCap(tabId, te);
    if (!this.due.has(tabId)) {
      this.due.set(
        tabId,
        setTimeout(() => {
          this.due.delete(tabId);
          const current = this.engines.get(tabId);
          if (current) this.update(tabId, current);
        }, UPDATE_MIN_MS),
      );
    }
    this.timer ??= setInterval(() => this.refreshAll(), REFRESH_MS);
  }

  private rebuildWithinCap(tabId: number, te: TabEngine): void {
    if (this.engines.get(tabId) !== te) return;
    this.engines.delete(tabId);
    // Frames that come meanwhile wait for this rebuild and go on from where it stops (onFrames).
    this.rebuild(tabId, te.engine.lastSeq).then(
      (fresh) => {
        fresh.shown ??= te.shown;
        if (this.engines.get(tabId) === fresh) this.update(tabId, fresh);
      },
      (e: unknown) => console.error('mcp-devtools: badge rebuild failed', e),
    );
  }

  forget(tabId: number): void {
    this.bumpTab(tabId);
    this.engines.delete(tabId);
  }

  private bumpTab(tabId: number): void {
    this.tabEpochs.set(tabId, (this.tabEpochs.get(tabId) ?? 0) + 1);
  }

  /** The log was cleared: start over from what it kept (the frames of the exchanges still open). */
  clear(tabId: number, kept: readonly Frame[] = [], segment = this.engines.get(tabId)?.segment ?? 0): void {
    this.bumpTab(tabId);
    const te = this.engines.get(tabId);
    const fresh: TabEngine = { engine: new Engine(this.options), segment, shown: te?.shown };
    for (const f of kept) if (f.segment === segment) fresh.engine.apply(f);
    this.engines.set(tabId, fresh);
    this.update(tabId, fresh);
  }

  /** Replays the tab's current segment from the log, up to `upToSeq`. */
  private rebuild(tabId: number, upToSeq: number): Promise<TabEngine> {
    let p = this.rebuilding.get(tabId);
    if (!p) {
      // One tab at a time (after a worker restart, or a settings change, every tab with a log rebuilds): the reads of
      // all of them at once held hundreds of MiB.
      // Forgotten or cleared from now on is after the request: taken now, not when its turn comes.
      const tabEpoch = this.tabEpochs.get(tabId) ?? 0;
      const turn = this.rebuildQueue.then(() => this.replayTab(tabId, upToSeq, tabEpoch));
      this.rebuildQueue = turn.catch(() => undefined);
      p = (async () => {
        try {
          return await turn;
        } finally {
          // A failed rebuild must not stick: the next frames try again.
          this.rebuilding.delete(tabId);
        }
      })();
      this.rebuilding.set(tabId, p);
    }
    return p;
  }

  private rebuildQueue: Promise<unknown> = Promise.resolve();

  /**
   * The engine for the tab's current segment up to `upToSeq`, kept as the tab's unless the tab was forgotten or cleared
   * meanwhile (then it is handed back unkept); settings changed meanwhile build it again under the new rules.
   */
  private async replayTab(tabId: number, upToSeq: number, tabEpoch: number): Promise<TabEngine> {
    // Forgotten or cleared while it waited for its turn: nothing to read (and a closed tab's log is not brought back).
    if ((this.tabEpochs.get(tabId) ?? 0) !== tabEpoch) return { engine: new Engine(this.options), segment: 0, shown: undefined };
    for (;;) {
      const epoch = this.epoch;
      const engine = new Engine(this.options);
      const log = this.tabs.get(tabId);
      const stats = await log.ensureLoaded();
      // From the current page's first frame: the earlier pages' frames are not the badge's business.
      let after = log.segmentFirstSeq - 1;
      for (;;) {
        const frames = await this.tabs.store.readAfter(tabId, after, REBUILD_CHUNK);
        for (const f of frames) if (f.segment === stats.segment && f.seq <= upToSeq) engine.apply(f);
        const last = frames.at(-1);
        if (!last || frames.length < REBUILD_CHUNK || last.seq >= upToSeq) break;
        after = last.seq;
      }
      const te: TabEngine = { engine, segment: stats.segment, shown: undefined };
      if ((this.tabEpochs.get(tabId) ?? 0) !== tabEpoch) return te;
      if (this.epoch !== epoch) continue;
      this.engines.set(tabId, te);
      return te;
    }
  }

  private refreshAll(): void {
    for (const [tabId, te] of this.engines) this.update(tabId, te);
  }

  private update(tabId: number, te: TabEngine): void {
    let errors: number;
    try {
      errors = te.engine.findings(Date.now()).filter((f) => f.open && f.severity === 'error').length;
    } catch (e) {
      console.error('mcp-devtools: badge could not evaluate findings', e);
      return;
    }
    this.tabs.get(tabId).errors = errors;
    if (errors === te.shown) return;
    te.shown = errors;
    const text = errors === 0 ? '' : errors > 99 ? '99+' : String(errors);
    void browser.action.setBadgeText({ tabId, text }).catch(() => undefined);
    void browser.action.setBadgeBackgroundColor({ tabId, color: '#d93025' }).catch(() => undefined);
    void browser.action.setTitle({ tabId, title: errors === 0 ? 'MCP Subscription Devtools' : `MCP: ${errors} open error${errors === 1 ? '' : 's'}` }).catch(() => undefined);
  }
}
