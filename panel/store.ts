// The panel's state. Frames come in (from the background port, or from an imported trace); the panel runs its own
// engine over the frames in view and publishes snapshots as signals the components render. Work is batched per
// animation frame: a burst of frames costs one engine catch-up, at most one snapshot (every SNAPSHOT_MS while frames
// stream) and one render. Components never compute protocol logic; they read snapshots and the view models.
import { batch, computed, signal } from '@preact/signals';
import { DEFAULT_GRACE_MS, DEFAULT_MAX_AGE_MS, Engine, type EngineOptions, type EngineSnapshot, type FlowSnapshot, type SessionView } from '../shared/engine/index.ts';
import type { Frame } from '../shared/frames.ts';
import type { BackgroundToPanel, TabStats } from '../shared/messages.ts';
import { printableText } from '../shared/printable-text.ts';
import { DEFAULT_SETTINGS, type Settings } from '../shared/settings.ts';
import type { TraceAnalysis, TraceFileV1 } from '../shared/trace/index.ts';
import type { ConnectionStatus } from './connection.ts';
import { FrameRows, type FrameRow } from './frame-rows.ts';
import { BacklogLoad, framesAfter } from './model/backlog-load.ts';
import { shortUrl } from './model/client-tags.ts';
import { parseFilter } from './model/filter.ts';
import { TimelineIndex } from './model/timeline.ts';
import { capLoss } from './model/cap-note.ts';
import { carriedUris, carryFrom, namedIn, withCarried, type Carried } from './carried-findings.ts';
import { probe } from './perf.ts';
import { ScrubEngines } from './scrub-engines.ts';
import { readPref, writePref } from './prefs.ts';
import { nextTask } from './next-task.ts';

export type PanelStatus = ConnectionStatus | 'offline' | 'imported';
export type ViewName = 'resources' | 'findings' | 'sessions' | 'messages';

/** What the detail drawer shows. */
export type DrawerTarget =
  | { kind: 'uri'; key: string }
  | { kind: 'finding'; key: string }
  | { kind: 'message'; index: number }
  | { kind: 'frame'; seq: number }
  | { kind: 'session'; key: string };

export interface ImportedTrace {
  name: string;
  trace: TraceFileV1;
  /**
   * What it is analysed with: `trace`, the settings recorded in it (its `analysis`: what the exporting view used, so
   * a finding seen before the export is found again); `panel`, this panel's (a trace that records none, or once
   * settings that change the analysis were saved while it is shown). docs/panel.md, Import.
   */
  analysedWith: 'trace' | 'panel';
}

/** What an imported trace is analysed with at first: its own settings when it records them. */
function importMode(trace: TraceFileV1): ImportedTrace['analysedWith'] {
  return trace.analysis ? 'trace' : 'panel';
}

/** The engine options a trace's recorded analysis settings stand for. */
export function traceEngineOptions(a: TraceAnalysis): EngineOptions {
  return { freshnessRules: a.freshnessRules, defaultMaxAgeMs: a.defaultMaxAgeMs, ...(a.graceMs !== undefined ? { graceMs: a.graceMs } : {}) };
}

/** Frames the panel may hold beyond what the log has before it trims (see trimToLog). */
const TRIM_SLACK = 1000;

/**
 * While frames stream, a snapshot at most this often (the engine applies every frame at once regardless): five
 * updates a second read as live, and leave most animation frames to input and scrolling.
 */
export const SNAPSHOT_MS = 200;
/** Ages tick and time-based findings are re-evaluated this often while live. */
export const TICK_MS = 1000;
/** Fired on the window when the panel's theme class changes (the devtools theme switched): canvases draw again. */
export const THEME_CHANGE = 'mcp-devtools-theme';

/** A trace is judged as of its export, never before its last frame (as `npm run analyze` does). */
export function importClock(trace: TraceFileV1): number {
  const exported = Date.parse(trace.createdAt);
  const last = trace.frames.at(-1)?.t ?? exported;
  return Math.max(last, exported);
}

/** An analysed import not shown yet (see PanelStore.prepareTrace). */
export interface PreparedTrace {
  name: string;
  trace: TraceFileV1;
  analysedWith: ImportedTrace['analysedWith'];
  engine: Engine;
  timeline: TimelineIndex;
  snap: EngineSnapshot;
  now: number;
}

/** An import's analysis yields to the event loop only once it has run this long, then every slice. */
const SLICING = { unslicedMs: 1000, sliceMs: 100 };
/** An import is analysed in slices of 100 ms from the start of a long analysis (see importSlicing). */
const IMPORT_SLICING = { unslicedMs: 100, sliceMs: 100 };
/** A live panel's scrubber replays in slices this long (a frame's budget, less what the live view needs). */
const LIVE_SCRUB_SLICE_MS = 12;
/** Frames between two looks at the clock while analysing. */
const ANALYSE_CHECK_FRAMES = 1024;
/** The live view looks at the clock every this many frames (a power of two) while it applies a backlog. */
const CATCH_UP_CHECK_FRAMES = 64;
/**
 * How near in time the tab's navigation and the end of the last iframe document in view must reach the panel for the
 * page to have left (either may come first: the frames come through the background's writes, 100 ms and more apart).
 * Both times are the panel's Date.now() when each was heard (not when applied: a hidden panel applies on animation
 * frames, which it does not get). Not the page's own frame times either: performance.timeOrigin + now() of a page
 * that lived through a sleep of the machine lags the wall clock.
 */
const NAVIGATION_WINDOW_MS = 5000;
/** Receipt times kept for iframes' page-ends (the latest; a page has few). */
const PAGE_END_RECEIPTS = 256;
/** How far back from a response head its request is looked for (requestMethodOf): it is usually a few frames back. */
const REQUEST_LOOKBACK = 5000;

/** The index, from `from` on, of the first of `frames` (in seq order) at or after `firstKept`. */
function keptFrom(frames: readonly Frame[], firstKept: number, from: number): number {
  let i = from;
  while (i < frames.length && frames[i]!.seq < firstKept) i++;
  return i;
}

/**
 * The first seq of the run the log holds without gaps, to lastSeq (a seq is given once per stored frame); before it
 * the log holds only the frames its trim kept (`stats.kept`: the openers of exchanges going on, the page-start).
 */
function firstKeptOf(stats: TabStats): number {
  return stats.lastSeq - (stats.frames - (stats.kept?.length ?? 0)) + 1;
}

/** The frames of `frames` from index `from` to `end` that the log's trim kept (`stats.kept`), in order. */
function trimKept(frames: readonly Frame[], from: number, end: number, stats: TabStats): Frame[] {
  if (!stats.kept?.length) return [];
  const kept = new Set(stats.kept);
  const out: Frame[] = [];
  for (let i = from; i < end; i++) if (kept.has(frames[i]!.seq)) out.push(frames[i]!);
  return out;
}

function engineOptions(s: Settings): EngineOptions {
  return { freshnessRules: s.freshnessRules, defaultMaxAgeMs: s.defaultMaxAgeMs };
}

/** The analysis settings a trace export records for a view analysed with these options (the engine's grace when unset). */
export function analysisOf(o: EngineOptions): TraceAnalysis {
  return { freshnessRules: o.freshnessRules ?? [], defaultMaxAgeMs: o.defaultMaxAgeMs ?? DEFAULT_MAX_AGE_MS, graceMs: o.graceMs ?? DEFAULT_GRACE_MS };
}

/** What of the settings an analysis depends on, comparable: equal keys, same analysis. */
function engineKey(s: Settings | null): string {
  return JSON.stringify(engineOptions(s ?? DEFAULT_SETTINGS));
}

export class PanelStore {
  /** Every frame received from the background for the inspected tab, in seq order (tests read it). */
  frames: Frame[] = [];
  imported: ImportedTrace | null = null;
  /** Frames the engine has applied (prefix of the source) and where the shown segments start. */
  private applied = 0;
  private viewStart = 0;
  private engineSegment = -1;
  /** The top-level document of the page in view (its page-start applied), and the segment of a page that left. */
  private viewTopDoc: string | undefined;
  private leftSegment: number | undefined;
  /** The page that left was known by its iframes' documents alone (its top never spoke MCP): only theirs are hidden. */
  private leftDocs: ReadonlySet<string> | undefined;
  /**
   * With no top-level document in view (only iframes spoke MCP), the documents in view: the seq of each one's first
   * frame applied and its page-end once it ended (not into the cache). Their page going is known only by a navigation
   * of the tab (topNavigated): an iframe that reloads ends its document too (a review: the host page left, and the view
   * kept the iframe's old session, its messages and Export on).
   */
  private iframeDocs = new Map<string, { first: number; end?: Frame & { kind: 'page-end' } }>();
  /**
   * The tab's last top-level navigation not yet used: the last seq received when it was heard (the documents whose
   * frames came before are those of the page that navigated; a new page's iframe is not) and Date.now() then.
   */
  private navigation: { seq: number; at: number } | undefined;
  /** The last seq received (a Clear empties `frames`, not this). */
  private heardSeq = 0;
  /** When (Date.now()) iframes' page-ends were received, by seq (see NAVIGATION_WINDOW_MS). */
  private pageEndsHeard = new Map<number, number>();
  /** A page of iframes only that left, by its segment (a rebuilt view knows it left). */
  private iframesLeft: { segment: number; url: string; docs: ReadonlySet<string> } | undefined;
  private engine: Engine;
  timeline = new TimelineIndex();
  private rows: FrameRows | null = null;
  private rowsApplied = 0;
  private scheduled = false;
  /** A snapshot computed in one frame, committed (rendered) in the next: each frame does one of the two. */
  private prepared: { snap: EngineSnapshot; now: number } | null = null;
  /** The latest counters from the background, shown once per frame (they arrive with every batch). */
  private pendingStats: TabStats | null = null;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;
  private lastSnapshotAt = -Infinity;
  /** The scrubber's replays (null until the first stop, and after anything that changes what is in view). */
  private scrubEngines: ScrubEngines | null = null;
  /** The clock that paces the scrubber's saves (tests set a ticking one). */
  scrubClock: () => number = () => performance.now();
  readonly probe = probe;

  /** Bumped when frames were applied or the view was reset (once per animation frame at most). */
  readonly version = signal(0);
  /** The engine's view of everything in view, at `now`. */
  readonly snapshot = signal<EngineSnapshot | null>(null);
  /**
   * The flow chart's and the timeline's copies of the snapshot, updated one and two animation frames after the
   * table's while frames stream, so no single frame re-renders every view (they catch up within ~50 ms).
   */
  readonly flowSnap = signal<FlowSnapshot | null>(null);
  readonly laneSnap = signal<EngineSnapshot | null>(null);
  private stage = 0;
  /** The state replayed up to the scrubber's instant (null when not scrubbing). */
  readonly scrubSnapshot = signal<EngineSnapshot | null>(null);
  readonly scrubT = signal<number | null>(null);
  /**
   * A stop asked for with the scrubber whose replay is still under way (it runs in slices of `scrubSliceMs`, one per
   * animation frame): its instant and how far the replay got (0–1). The views keep the last stop until it is done.
   */
  readonly scrubPending = signal<{ t: number; progress: number } | null>(null);
  /**
   * Main-thread time a scrubber replay takes per animation frame (tests set 0: one slice of frames per frame). On an
   * import, a step is best done in one go; live, at most LIVE_SCRUB_SLICE_MS (scrubSlice): at 100 ms a replay of a
   * long live recording held the page for 100 ms a frame while frames kept coming (steps of 44–556 ms, long tasks up
   * to 373 ms: an audit, 2026-12-05).
   */
  scrubSliceMs = SLICING.sliceMs;

  private scrubSlice(): number {
    return this.imported ? this.scrubSliceMs : Math.min(this.scrubSliceMs, LIVE_SCRUB_SLICE_MS);
  }
  /** The page in view left and no page since spoke MCP (Preserve log off): the view is empty and says so. */
  readonly pageLeft = signal<{ url: string; frames: number } | null>(null);
  /**
   * The inspected tab's page, as its log knows it: the URL of its latest top-level page that spoke MCP, else (only
   * its iframes did) of the latest document that did. Null before any. Names the panel opened as a tab (its title,
   * the tab-closed notice): every such panel read "MCP", and "Tab 1947178434 was closed" (a review).
   */
  readonly inspectedPage = signal<string | null>(null);
  private inspectedTop: { segment: number; url: string } | undefined;
  /** Exchanges still open whose opening frames the last Clear kept (0 once a new page starts the view). */
  readonly keptOnClear = signal(0);
  /** The clock the views use: wall time while live, the trace's own time when imported. */
  readonly now = signal(Date.now());
  readonly stats = signal<TabStats | null>(null);
  readonly status = signal<PanelStatus>('connecting');
  /** Status of the tab connection while an import is shown (to go back to it). */
  private tabStatus: PanelStatus = 'connecting';
  /** The background said the tab does not exist: the port stays up (it is harmless), but the panel is "No tab". */
  private noTab = false;
  readonly settings = signal<Settings | null>(null);
  readonly settingsError = signal<string | null>(null);
  /** A failure the background reported (reading or clearing the log); shown as a banner until dismissed. */
  readonly backgroundError = signal<string | null>(null);
  readonly importError = signal<string | null>(null);
  /** The file being imported right now (what the notice names while it is read and analysed), or null. */
  readonly importing = signal<string | null>(null);
  /** How far the step under way of a long import got (0–1), while it runs in slices; null otherwise. */
  readonly importProgress = signal<number | null>(null);
  /**
   * The step of the import under way (the notice names it): reading the file (in slices), parsing its JSON (one call
   * that cannot be interrupted: Cancel lands when it ends), checking its frames and analysing them (in slices).
   */
  readonly importStep = signal<'reading' | 'parsing' | 'checking' | 'analysing' | null>(null);
  /** The imported trace being analysed again with new settings (its name), and how far that got. */
  readonly reanalysing = signal<string | null>(null);
  readonly reanalyseProgress = signal<number | null>(null);
  /** Sliced analyses that stopped early (cancelled, or replaced by another file): tests wait on it. */
  readonly importsStopped = signal(0);
  readonly paused = signal(false);
  readonly preserveLog = signal(readPref('preserveLog', false));
  readonly filterText = signal('');
  readonly filter = computed(() => parseFilter(this.filterText.value));
  readonly selected = signal<string | null>(null);
  /**
   * The Messages view's selected row (`seq.part`, frame-rows.ts rowKey): kept here, not in the view, so going to another
   * view and back finds it selected and in sight (the list was back at its end with nothing selected).
   */
  readonly messageSelected = signal<string | null>(null);
  readonly drawer = signal<DrawerTarget | null>(null);
  /**
   * The drawer targets before the one shown, when it was opened from inside the drawer (an evidence link, a frame's
   * message): what "← Back" goes to. Only meant while `drawerVia` is the target shown: a drawer opened or closed from
   * anywhere else (a row, Esc, a clear) leaves the stack stale, and it counts as empty (see drawerBackTarget).
   */
  readonly drawerHistory = signal<readonly DrawerTarget[]>([]);
  private drawerVia: DrawerTarget | null = null;

  /** Opens `t` in the drawer from the drawer's own links: what it showed is kept for Back (at most 20 steps). */
  openFromDrawer(t: DrawerTarget): void {
    const cur = this.drawer.value;
    const kept = this.drawerBackTarget() ? this.drawerHistory.value : [];
    this.drawerHistory.value = cur ? [...kept, cur].slice(-20) : [];
    this.drawerVia = t;
    this.drawer.value = t;
  }

  /** What Back returns to: the last target before the one shown, when that one was opened from the drawer. */
  drawerBackTarget(): DrawerTarget | undefined {
    const d = this.drawer.value;
    return d !== null && d === this.drawerVia ? this.drawerHistory.value.at(-1) : undefined;
  }

  /** Back to what the drawer showed before; false when there is nothing to go back to. */
  drawerBack(): boolean {
    const prev = this.drawerBackTarget();
    if (!prev) return false;
    this.drawerHistory.value = this.drawerHistory.value.slice(0, -1);
    this.drawerVia = prev;
    this.drawer.value = prev;
    return true;
  }
  readonly view = signal<ViewName>('resources');
  /**
   * The drawer belongs to the view it was opened in (review 2026-12-06: a frame's drawer stayed open over Findings,
   * and at 400 px covered it). Going to another view hides it with its Back steps; coming back shows it again, as
   * devtools' Network panel keeps its request open while the Console is in front. Kept only while the engine it was
   * opened on is the one in view: Clear, a new page, an import, a trim or new settings (a new engine, whose messages and
   * sessions are numbered afresh) drop the hidden drawers, as they close the one in front.
   */
  private hiddenDrawers = new Map<ViewName, { d: DrawerTarget; history: readonly DrawerTarget[]; via: DrawerTarget | null; engine: Engine }>();
  private drawerView: ViewName = 'resources';
  /** The drawer a view brought back with it (not opened by the user now): it does not take the focus (DetailDrawer). */
  restoredDrawer: DrawerTarget | null = null;

  private drawerFollowsView(v: ViewName): void {
    if (v === this.drawerView) return;
    const d = this.drawer.value;
    if (d) this.hiddenDrawers.set(this.drawerView, { d, history: this.drawerHistory.value, via: this.drawerVia, engine: this.engine });
    else this.hiddenDrawers.delete(this.drawerView);
    this.drawerView = v;
    const back = this.hiddenDrawers.get(v);
    this.hiddenDrawers.delete(v);
    const again = back && back.engine === this.engine ? back : undefined;
    this.restoredDrawer = again?.d ?? null;
    batch(() => {
      this.drawerHistory.value = again?.history ?? [];
      this.drawerVia = again?.via ?? null;
      this.drawer.value = again?.d ?? null;
    });
  }
  /**
   * Frames received but not yet in view: paused, those held for the resume (the status line shows them only then);
   * otherwise those still being caught up with, which the loading or catch-up notice accounts for.
   */
  readonly waiting = signal(0);
  /**
   * Loading the tab's log after the port came up (the panel opened, or reconnected): how many of the frames the log
   * announced at connect the view has applied, of how many. Null otherwise (model/backlog-load.ts).
   */
  readonly loading = signal<{ loaded: number; total: number } | null>(null);
  /**
   * Settings saved with caps below what the log holds: the log drops its oldest frames now, which takes the background
   * a moment (it reads the chunks it deletes: ~3 s for 28,000 frames, a stress review). Until the counters show the
   * trim, the status line says it is under way (the count stayed as it was ~3 s after Save, which had promised "Save
   * drops its oldest frames now"). Null otherwise.
   */
  readonly capDrop = signal<{ maxFrames: number; maxBytes: number; by: 'frames' | 'bytes' } | null>(null);
  private capDropFrom = 0;
  private capDropTimer: ReturnType<typeof setTimeout> | undefined;

  private endCapDrop(): void {
    clearTimeout(this.capDropTimer);
    this.capDropTimer = undefined;
    if (this.capDrop.value !== null) this.capDrop.value = null;
  }

  /** The load under way, from the log's counters on connect until the view has applied its last backlog chunk. */
  private load: BacklogLoad | null = null;
  /** Connecting: the next counters the background sends start a load (it sends them before the backlog). */
  private loadAwaited = false;
  /**
   * How far the view got in catching up with the tab's log (0–1), while that takes longer than one slice: a large
   * backlog when the panel opens, or the whole log again after a settings change. Null otherwise.
   */
  readonly catchUp = signal<number | null>(null);
  /** Where the catch-up under way started (its progress counts from there). */
  private catchUpFrom = 0;
  /** The longest a frame spends applying the tab's frames before it yields to the page (tests shorten it). */
  catchUpSliceMs = SLICING.sliceMs;

  /** What the views render: the scrubbed state when scrubbing, else the live one. */
  readonly shown = computed(() => this.scrubSnapshot.value ?? this.snapshot.value);

  constructor() {
    this.engine = new Engine(engineOptions(DEFAULT_SETTINGS));
    this.view.subscribe((v) => this.drawerFollowsView(v));
  }

  // ---- sources ----------------------------------------------------------------------------------------------------

  /** The frames the view is built from: the imported trace, or the tab's log. */
  get source(): Frame[] {
    return this.imported ? this.imported.trace.frames : this.frames;
  }

  /** The frames in view (after the segment cut, up to what is applied). */
  shownFrames(): Frame[] {
    const shown = this.source.slice(this.viewStart, this.applied);
    return this.leftDocs === undefined ? shown : shown.filter((f) => !this.hiddenLeft(f));
  }

  /**
   * The seqs of the frames in view's range that the view hides on purpose (hiddenLeft): the holes they leave in the
   * frames in view are no loss (the HAR's gaps, droppedLacking; code review 3, item 2).
   */
  hiddenSeqs(): Set<number> {
    const hidden = new Set<number>();
    if (this.leftDocs === undefined) return hidden;
    const src = this.source;
    for (let i = this.viewStart; i < this.applied; i++) if (this.hiddenLeft(src[i]!)) hidden.add(src[i]!.seq);
    return hidden;
  }

  /**
   * A frame of an iframe document of a page that left, in the segment in view: applied past, not shown (its page's
   * frames may be interleaved with a new page's iframe that landed in the same segment).
   */
  private hiddenLeft(f: Frame): boolean {
    return this.leftDocs !== undefined && f.segment === this.leftSegment && this.leftDocs.has(f.doc) && !this.preserveLog.value && !this.imported;
  }

  /**
   * With earlier pages left out of the view (Preserve log off), the frames of the page in view, waiting ones included;
   * undefined when the view leaves nothing out. The status line puts it beside the log's count.
   */
  framesInView(): number | undefined {
    return this.imported || this.viewStart === 0 ? undefined : this.source.length - this.viewStart;
  }

  /** Something to export: the view holds frames (not a view emptied by a page that left, nor one not applied yet). */
  hasFramesInView(): boolean {
    return this.applied > this.viewStart;
  }

  lastSeq(): number {
    return this.frames.at(-1)?.seq ?? 0;
  }

  get isImported(): boolean {
    return this.imported !== null;
  }

  /** When the view was paused: its clock stops there too (ages and timed findings as they were), until resumed. */
  private pausedAt: number | undefined;
  /**
   * The last frame the view showed when it was paused. A view rebuilt while paused (settings saved, preserve log
   * switched) is rebuilt up to it: what was on screen stays, re-analysed; only what came since waits for the resume.
   */
  private pausedSeq: number | undefined;

  /** Where applying stops: the end of the source, or while paused the first frame that came after the pause. */
  private applyLimit(): number {
    const src = this.source;
    const upTo = this.imported ? undefined : this.pausedSeq;
    if (upTo === undefined) return src.length;
    let lo = 0;
    let hi = src.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (src[mid]!.seq <= upTo) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The time the views are judged at: wall time while live, the pause's time while paused; for an import, see importClock. */
  clock(): number {
    return this.imported ? importClock(this.imported.trace) : (this.pausedAt ?? Date.now());
  }

  /** No tab to capture: none given, or the one given does not exist (closed, or a wrong id). */
  tabStatusIsOffline(): boolean {
    return this.tabStatus === 'offline' || this.noTab;
  }

  setTabStatus(s: ConnectionStatus | 'offline'): void {
    const shown = this.noTab && (s === 'live' || s === 'connecting') ? 'offline' : s;
    this.tabStatus = shown;
    if (s === 'connecting' || s === 'reconnecting') {
      this.loadAwaited = true;
      this.endLoad();
    }
    if (!this.imported) this.status.value = shown;
  }

  receive(m: BackgroundToPanel): void {
    switch (m.type) {
      case 'backlog': {
        const before = this.frames.length;
        this.add(m.frames);
        this.load?.receive(this.frames.length - before, m.done);
        if (this.load) this.schedule();
        return;
      }
      case 'frames':
        this.add(m.frames);
        return;
      case 'stats': {
        // Counters come with every batch; they are shown with the next snapshot (at most every SNAPSHOT_MS). What the
        // log's trim kept comes only when it changed: else it is the last stats' (keptUnchanged).
        const kept = m.keptUnchanged ? this.logStats?.kept : m.stats.kept;
        const stats: TabStats = { ...m.stats };
        delete stats.kept;
        if (kept?.length) stats.kept = kept;
        if (this.loadAwaited) {
          this.loadAwaited = false;
          const total = framesAfter(stats, this.lastSeq());
          if (total > 0) {
            this.load = new BacklogLoad(this.frames.length, total);
            this.loading.value = this.load.progress(this.applied);
          }
        }
        this.pendingStats = stats;
        this.trimToLog(stats);
        this.schedule(true);
        return;
      }
      case 'cleared':
        this.endCapDrop();
        // What was being loaded went with the log (the backlog goes on with what the clear kept).
        this.endLoad();
        this.frames = [];
        this.pendingStats = null;
        this.stats.value = m.stats;
        this.logStats = m.stats;
        this.keptOnClear.value = m.kept ?? 0;
        if (!this.imported) {
          // What the drawer showed went with the log (as Chrome's Network panel closes its details on Clear).
          this.drawer.value = null;
          this.reset();
        }
        return;
      case 'settings': {
        const before = this.settings.value;
        batch(() => {
          this.settings.value = m.settings;
          this.settingsError.value = null;
        });
        {
          // New caps below what the log holds (not the settings a panel gets on connect: no counters yet then). Only a
          // cap that went down: the same settings again (every reconnect) or another setting saved, with a log its
          // newest chunk keeps over its cap, is no drop of the user's (code review 3, item 5).
          const st = this.pendingStats ?? this.stats.value;
          const overFrames = before !== null && m.settings.maxFrames < before.maxFrames && !!st && st.frames > m.settings.maxFrames;
          const overBytes = before !== null && m.settings.maxBytes < before.maxBytes && !!st && st.bytes > m.settings.maxBytes;
          if (overFrames || overBytes) {
            this.capDrop.value = { maxFrames: m.settings.maxFrames, maxBytes: m.settings.maxBytes, by: overFrames ? 'frames' : 'bytes' };
            this.capDropFrom = st!.dropped;
            clearTimeout(this.capDropTimer);
            // Never said for good: a log its newest batch keeps just over the cap is trimmed only at its next write.
            this.capDropTimer = setTimeout(() => this.endCapDrop(), 30_000);
          }
        }
        if (engineKey(before) !== engineKey(m.settings)) {
          // An import analysed with its own settings changes to the panel's when the user saves some (the first
          // settings after the panel opened are no change of theirs: it keeps its own then).
          if (this.imported) {
            if (this.imported.analysedWith === 'panel' || before !== null) void this.reanalyseImport();
          } else this.reset();
        }
        return;
      }
      case 'settings-error':
        this.settingsError.value = m.error;
        return;
      case 'error':
        this.backgroundError.value = m.noTab ? namePageIn(m.error, this.inspectedPage.value) : m.error;
        if (m.noTab) {
          this.noTab = true;
          this.setTabStatus('live');
        }
        return;
    }
  }

  add(frames: Frame[]): void {
    const t0 = this.probe.enabled ? performance.now() : 0;
    let last = this.lastSeq();
    let added = 0;
    for (const f of frames) {
      // Defensive: a reconnect must never duplicate what we have.
      if (f.seq <= last) continue;
      this.frames.push(f);
      last = f.seq;
      if (f.seq > this.heardSeq) this.heardSeq = f.seq;
      added++;
      if (f.kind === 'page-start') this.notePage(f);
      else if (f.kind === 'page-end' && f.frameId !== 0 && !f.persisted) this.notePageEndHeard(f.seq);
    }
    if (added > 0 && !this.imported) this.schedule();
    if (this.probe.enabled) this.probe.ingest(performance.now() - t0);
  }

  private notePageEndHeard(seq: number): void {
    this.pageEndsHeard.set(seq, Date.now());
    if (this.pageEndsHeard.size > PAGE_END_RECEIPTS) this.pageEndsHeard.delete(this.pageEndsHeard.keys().next().value!);
  }

  private notePage(f: Frame & { kind: 'page-start' }): void {
    const top = this.inspectedTop;
    if (f.top && f.frameId === 0) this.inspectedTop = { segment: f.segment, url: f.url };
    else if (top !== undefined && top.segment >= f.segment) return;
    this.inspectedPage.value = f.url;
  }

  /**
   * The log drops its oldest frames at its caps (frames and bytes, background/tab-log.ts); an open panel follows it,
   * so a devtools window left open on a busy page does not grow without bound either. Once the panel holds a tenth
   * more frames than the log (and at least TRIM_SLACK more), it drops those the log no longer has and rebuilds its
   * engine from the rest: the view a panel opened now would build. Not while paused or scrubbing (the user is looking
   * at that moment); the next stats after that trim.
   */
  private trimToLog(stats: TabStats): void {
    this.logStats = stats;
    if (this.paused.value) return this.dropQueuedGone(stats);
    if (this.scrubT.value !== null) return;
    const extra = this.frames.length - stats.frames;
    if (extra <= Math.max(TRIM_SLACK, stats.frames * 0.1)) return;
    const firstKept = firstKeptOf(stats);
    const end = this.goneUntil(firstKept, 0);
    // What the log's trim kept of them stays too (an export of the view has the method and URL of what goes on).
    const kept = trimKept(this.frames, 0, end, stats);
    const cut = end - kept.length;
    if (cut === 0) return;
    // Where the view began: kept frames before it stay before it.
    const viewSeq = this.frames[this.viewStart]?.seq ?? Infinity;
    // What the engine in view lost, counted over the frames it took (before they go): until the rebuild is swapped in.
    const lostInView = this.capLost();
    // Frames that go before the engine took them: what they said about a URI the view's findings name is unknown.
    if (end > this.applied && !this.imported) this.noteNamedGone(this.applied, end);
    this.frames = [...kept, ...this.frames.slice(end)];
    this.load?.shift(cut);
    if (this.imported) return;
    if (end <= this.viewStart) {
      // Only frames before the view went (earlier pages, without "preserve log"): the engine saw none of them.
      this.viewStart -= cut;
      this.applied -= cut;
      this.rowsApplied = Math.max(this.viewStart, this.rowsApplied - cut);
      this.scrubEngines = null;
      return;
    }
    this.closeGoneFrameDrawer(firstKept, stats);
    // Frames the engine had not taken yet went too (a hidden panel gets no animation frames; a resume before the
    // first one): nothing to keep live over, rebuilt in place.
    if (end > this.applied) return this.resetCarrying();
    // The live engine stays in view, over what is left of its frames, while the rebuild runs beside it. The message
    // rows are the frames', so they go with them. Kept frames that were before the view stay before it.
    this.viewStart = kept.filter((f) => f.seq < viewSeq).length;
    this.applied -= cut;
    this.rowsApplied = Math.max(this.viewStart, this.rowsApplied - cut);
    this.rows?.dropBefore(firstKept, new Set(stats.kept));
    this.scrubEngines = null;
    this.lostInView = lostInView;
    // Trims faster than a rebuild catches up (a tiny cap on a flood): rebuilt in place, as before.
    if (this.aside && ++this.asideRestarts >= 3) return this.resetCarrying();
    this.startAside();
  }

  /**
   * Open findings about URIs carried across a trim's rebuild, shown while the rebuilt engine has no row for their URI
   * (carried-findings.ts). Set at the swap (or a trim's rebuild in place); dropped by any other rebuild and a new page.
   */
  private carried: Carried | null = null;

  /**
   * URIs of the view's open findings that frames the log dropped before the view's engine took them named (a hidden
   * panel's trim in place, a pause's queue): the view's snapshot predates what those frames said of them (a review: a
   * phantom-subscription carried that a replay of the log no longer had), so the next rebuild does not carry them.
   */
  private namedGone = new Set<string>();

  private noteNamedGone(from: number, to: number): void {
    for (const u of namedIn(this.frames, from, to, carriedUris(this.snapshot.value))) this.namedGone.add(u);
  }

  /**
   * A trim's rebuild in place (or a resume's after frames went while paused): the view's open URI findings are carried
   * into it, but those about a URI that dropped frames it never took named, and none into a view that is empty or
   * whose page left.
   */
  private resetCarrying(): void {
    const carried = carryFrom(this.snapshot.value, this.engineSegment);
    const named = this.namedGone;
    this.namedGone = new Set();
    if (carried) carried.findings = carried.findings.filter((f) => !named.has(f.uri!));
    this.reset();
    const empty = this.viewStart >= this.applyLimit() || this.pageLeft.value !== null;
    this.carried = empty || !carried?.findings.length ? null : carried;
  }

  /** The engine's snapshot, with the findings carried across a trim (carried-findings.ts). */
  private engineSnapshot(now: number): EngineSnapshot {
    const snap = this.engine.snapshot(now);
    const c = this.carried;
    if (!c) return snap;
    if (this.engineSegment >= 0 && this.engineSegment !== c.segment) {
      this.carried = null;
      return snap;
    }
    const shown = withCarried(snap, c);
    if (c.findings.length === 0) this.carried = null;
    return shown;
  }

  private asideRestarts = 0;

  /** The index, from `from` on, of the first frame the log still holds (the frames before it were dropped). */
  private goneUntil(firstKept: number, from: number): number {
    return keptFrom(this.frames, firstKept, from);
  }

  /** A frame drawer on a frame the log dropped closes. */
  private closeGoneFrameDrawer(firstKept: number, stats: TabStats): void {
    const d = this.drawer.value;
    if (d && d.kind === 'frame' && d.seq < firstKept && !stats.kept?.includes(d.seq)) this.drawer.value = null;
  }

  /**
   * Which source the timeline shows: bumped when the view starts over (reset, import, a new page), not when a trim's
   * rebuild is swapped in — the timeline keeps its zoom, pan and lane scroll across that.
   */
  timelineSource = 0;

  /** Main-thread time the rebuild beside the live view takes per animation frame (tests set Infinity: at once). */
  asideSliceMs = 6;
  /**
   * A rebuild after a trim at the log's cap, built beside the live engine from what the log holds, a few ms per
   * animation frame, and swapped in once it has caught up with it: the view stays live meanwhile. (Rebuilt in place,
   * the view froze behind an 'Analysing' notice for 1.5 s or more every tenth of the cap: every 25 s at 1,000
   * frames/s.) Dropped by anything that rebuilds the view anyway (reset, a new page without preserve log).
   */
  private aside: { engine: Engine; timeline: TimelineIndex; start: number; applied: number } | null = null;

  private startAside(): void {
    // The frames the live engine holds from (a new page queued behind them restarts the view anyway).
    const start = this.viewStart;
    this.aside = { engine: new Engine(engineOptions(this.settings.value ?? DEFAULT_SETTINGS)), timeline: new TimelineIndex(), start, applied: start };
    this.schedule();
  }

  /** Applies frames to the rebuild until `deadline`; swaps it in once it has all the live view has. Not while paused. */
  private buildAside(deadline: number, force = false): void {
    const a = this.aside;
    if (!a || this.imported || (this.paused.value && !force)) return;
    const src = this.frames;
    let n = 0;
    while (a.applied < this.applied) {
      if ((++n & (CATCH_UP_CHECK_FRAMES - 1)) === 0 && performance.now() >= deadline) break;
      a.engine.apply(src[a.applied++]!);
    }
    a.timeline.update(a.engine.messageList(a.engine.messageCount));
    if (a.applied < this.applied || (this.scrubT.value !== null && !force)) return void this.schedule();
    this.aside = null;
    this.asideRestarts = 0;
    // What the view showed about URIs the rebuild has no frame of stays shown, marked (carried-findings.ts).
    this.carried = carryFrom(this.snapshot.value, this.engineSegment);
    this.engine = a.engine;
    this.timeline = a.timeline;
    this.viewStart = a.start;
    this.scrubEngines = null;
    // A scrub asked for meanwhile replays on the new engine (the same frames in view): its request stays.
    this.prepared = null;
    // A message is shown by its index in the engine's list: the new engine numbers them afresh.
    this.closeMessageDrawer();
    // Shown at once (also paused: nothing else would flush), so the views and the scrubber's steps are the new engine's.
    this.lastSnapshotAt = -Infinity;
    this.schedule(true);
  }

  /** The log's latest counters (trimToLog). */
  private logStats: TabStats | undefined;
  /** Paused, the panel dropped queued frames the log no longer has: the view is rebuilt from the log on resume. */
  private droppedWhilePaused = false;

  /**
   * Paused, the view keeps what it shows (the frames applied), but frames queued for the resume that the log has
   * dropped since would only be dropped then: they go now. A panel paused for an hour on a busy page held every frame
   * of it (1,000 frames/s: 3.6 million); now at most what it shows and what the log holds.
   */
  private dropQueuedGone(stats: TabStats): void {
    if (this.imported) return;
    // From the first frame that came after the pause: a view being rebuilt while paused (applied below it, between
    // catch-up slices) keeps what it is rebuilding (a review, 2026-12-05).
    const from = Math.max(this.applied, this.applyLimit());
    const end = this.goneUntil(firstKeptOf(stats), from);
    // With the trim's slack: not a copy of the queue on every batch.
    if (end - from <= Math.max(TRIM_SLACK, stats.frames * 0.1)) return;
    this.noteNamedGone(from, end);
    this.frames.splice(from, end - from, ...trimKept(this.frames, from, end, stats));
    this.droppedWhilePaused = true;
  }

  /**
   * Analyses a trace without touching the view: a fresh engine over its frames, its snapshot and timeline. The
   * result is shown by `showPrepared` (once the trace is known valid) or simply dropped.
   */
  prepareTrace(name: string, trace: TraceFileV1): PreparedTrace {
    const mode = importMode(trace);
    const engine = new Engine(this.importOptions(trace, mode));
    engine.applyAll(trace.frames);
    return this.analysed(name, trace, engine, mode);
  }

  /** What an import is analysed with (see ImportedTrace.analysedWith). */
  private importOptions(trace: TraceFileV1, mode: ImportedTrace['analysedWith']): EngineOptions {
    return mode === 'trace' && trace.analysis ? traceEngineOptions(trace.analysis) : engineOptions(this.settings.value ?? DEFAULT_SETTINGS);
  }

  /** What the view in place is analysed with: the import's settings (see analysedWith), or the panel's. */
  analysisInEffect(): TraceAnalysis {
    return analysisOf(this.viewOptions());
  }

  private viewOptions(): EngineOptions {
    return this.imported ? this.importOptions(this.imported.trace, this.imported.analysedWith) : engineOptions(this.settings.value ?? DEFAULT_SETTINGS);
  }

  /** The rest of an import's analysis, once the engine has every frame: snapshot and timeline. */
  private analysed(name: string, trace: TraceFileV1, engine: Engine, analysedWith: ImportedTrace['analysedWith']): PreparedTrace {
    this.probe.importPhase('engine');
    const now = importClock(trace);
    const snap = engine.snapshot(now);
    this.probe.importPhase('snapshot');
    const timeline = new TimelineIndex();
    timeline.update(snap.messages);
    this.probe.importPhase('timeline');
    return { name, trace, analysedWith, engine, timeline, snap, now };
  }

  /**
   * When an import's analysis slices (tests shorten it): after 100 ms, so that Cancel lands within a slice (it ran a
   * second in one piece first: a click on Cancel then waited for it, a stress review).
   */
  importSlicing = IMPORT_SLICING;

  /**
   * prepareTrace for a file the user imports. An analysis that runs past `slicing.unslicedMs` goes on in slices of
   * `slicing.sliceMs` with the event loop in between: the panel stays responsive, says how far it got (`progress`),
   * and the import can be cancelled or replaced by another file (`current()` false: null back). Below that, nothing
   * yields (a typical trace is analysed in one go, as fast as before).
   */
  async prepareTraceSliced(
    name: string,
    trace: TraceFileV1,
    current: () => boolean,
    slicing = this.importSlicing,
    progress = this.importProgress,
    mode = importMode(trace),
  ): Promise<PreparedTrace | null> {
    // With the trace's own settings, the panel's changing meanwhile changes nothing here.
    const key = mode === 'panel' ? engineKey(this.settings.value) : null;
    const engine = new Engine(this.importOptions(trace, mode));
    const frames = trace.frames;
    const started = performance.now();
    let sliceStart = started;
    for (let i = 0; i < frames.length; ) {
      const stop = Math.min(frames.length, i + ANALYSE_CHECK_FRAMES);
      for (; i < stop; i++) engine.apply(frames[i]!);
      const t = performance.now();
      if (i < frames.length && t - started >= slicing.unslicedMs && t - sliceStart >= slicing.sliceMs) {
        progress.value = i / frames.length;
        await nextTask();
        if (!current()) {
          this.importsStopped.value++;
          return null;
        }
        // What the engine is built with changed meanwhile (freshness rules, default max age): it starts over with
        // them, in slices from the start (other settings messages change nothing here).
        if (key !== null && engineKey(this.settings.value) !== key) {
          progress.value = 0;
          return this.prepareTraceSliced(name, trace, current, { ...slicing, unslicedMs: 0 }, progress, mode);
        }
        sliceStart = performance.now();
      }
    }
    progress.value = null;
    return this.analysed(name, trace, engine, mode);
  }

  private reanalysis = 0;

  /**
   * The settings changed what the engine is built with while an import is shown: the trace is analysed again, in
   * slices like an import (`reanalysing` says so), and the new analysis replaces the old one when it is done, keeping
   * what the user is looking at (view, selection, filter, an open message: the numbering is the same). Until then the
   * old analysis stays in view. Closing the import, another import or another settings change stops it.
   */
  private async reanalyseImport(): Promise<void> {
    const imported = this.imported;
    if (!imported) return;
    const token = ++this.reanalysis;
    const current = () => token === this.reanalysis && this.imported === imported;
    this.reanalysing.value = imported.name;
    try {
      // The panel's settings from now on (a trace with its own: the user saved settings while it was shown).
      const p = await this.prepareTraceSliced(imported.name, imported.trace, current, this.importSlicing, this.reanalyseProgress, 'panel');
      if (!p || !current()) return;
      imported.analysedWith = 'panel';
      this.adopt(p);
      batch(() => {
        this.scrubT.value = null;
        this.scrubSnapshot.value = null;
      });
      this.commit(p.snap, p.now, true);
    } finally {
      if (token === this.reanalysis) {
        this.reanalysing.value = null;
        this.reanalyseProgress.value = null;
      }
    }
  }

  /** An analysis becomes the one in view; what was built on the engine before goes. */
  private adopt(p: PreparedTrace): void {
    this.aside = null;
    this.timelineSource++;
    this.engine = p.engine;
    this.timeline = p.timeline;
    this.rows = null;
    this.scrubEngines = null;
    // A stop asked for on the view before (it lands on the next animation frame) is not one on this analysis.
    this.dropScrubRequest();
    this.prepared = null;
    this.dirty = false;
  }

  /** Shows a prepared (and validated) trace instead of the tab: offline analysis, status "imported". */
  showPrepared(p: PreparedTrace): void {
    this.imported = { name: p.name, trace: p.trace, analysedWith: p.analysedWith };
    this.adopt(p);
    this.viewStart = 0;
    this.applied = p.trace.frames.length;
    this.engineSegment = p.trace.frames.at(-1)?.segment ?? -1;
    this.lastSnapshotAt = performance.now();
    batch(() => {
      this.importError.value = null;
      this.status.value = 'imported';
      this.selected.value = null;
      this.messageSelected.value = null;
      this.drawer.value = null;
      this.scrubT.value = null;
      this.scrubSnapshot.value = null;
      this.paused.value = false;
      this.pausedAt = undefined;
      this.pausedSeq = undefined;
      this.waiting.value = 0;
      // The tab's frames are kept for when the import closes: without the hole a pause may have left in them.
      this.dropPauseHole();
    });
    this.commit(p.snap, p.now, true);
  }

  /** Leaves the imported trace and shows the tab again (or nothing, when there is no tab). */
  closeImport(): void {
    if (!this.imported) return;
    this.imported = null;
    this.status.value = this.tabStatus;
    this.selected.value = null;
    this.messageSelected.value = null;
    this.drawer.value = null;
    this.reset();
  }

  // ---- view controls ----------------------------------------------------------------------------------------------

  setPaused(p: boolean): void {
    this.paused.value = p;
    this.pausedAt = p ? Date.now() : undefined;
    this.pausedSeq = p ? (this.applied > 0 ? this.source[this.applied - 1]!.seq : -1) : undefined;
    if (p) return;
    if (this.dropPauseHole()) {
      // Frames went between what the view shows and what came since: the engine cannot go on over that hole, so the
      // view is rebuilt in place from what the log holds (a scrub under way ends: it replayed the old view).
      // A trim-caused rebuild like the others: the paused view's open URI findings are carried (resetCarrying).
      if (this.scrubT.value !== null) this.setScrub(null);
      this.resetCarrying();
      return;
    }
    this.schedule(true);
  }

  /** Frames queued during a pause went (dropQueuedGone): keeps only what the log holds, with no hole. True if it did. */
  private dropPauseHole(): boolean {
    if (!this.droppedWhilePaused || !this.logStats) return false;
    this.droppedWhilePaused = false;
    const stats = this.logStats;
    const firstKept = firstKeptOf(stats);
    const end = this.goneUntil(firstKept, 0);
    const kept = trimKept(this.frames, 0, end, stats);
    this.frames = [...kept, ...this.frames.slice(end)];
    this.load?.shift(end - kept.length);
    this.closeGoneFrameDrawer(firstKept, stats);
    return true;
  }

  setPreserveLog(on: boolean): void {
    this.preserveLog.value = on;
    writePref('preserveLog', on);
    // An import shows its whole trace either way: nothing to rebuild (closing it builds the tab's view with the setting).
    if (!this.imported) this.reset();
  }

  private scrubRequest: { t: number | null } | null = null;

  /**
   * Like setScrub, coalesced to one replay per animation frame (a dragged slider fires many input events), and in
   * slices: a replay that needs longer than a slice goes on in the next animation frame, towards the latest stop asked
   * for, with `scrubPending` saying how far it got.
   */
  requestScrub(t: number | null): void {
    this.scrubRequest = { t };
    // One chain of animation frames at a time, whatever cancelled the last request in between.
    if (this.scrubScheduled) return;
    this.scrubScheduled = true;
    requestAnimationFrame(() => this.runScrubRequest());
  }

  private scrubScheduled = false;

  /** A stop asked for (or being replayed) on the view before is not one on the view now. */
  private dropScrubRequest(): void {
    this.scrubRequest = null;
    this.scrubPending.value = null;
  }

  private runScrubRequest(): void {
    this.scrubScheduled = false;
    const r = this.scrubRequest;
    // Cancelled: back to live, or the view changed under it.
    if (!r) return;
    const a = this.aside;
    if (a && r.t !== null) {
      // A trim's rebuild under way: the replay runs on the engine it swaps in, so that goes on first, in slices too
      // (at once it took up to 1.5 s at 250,000 frames in one animation frame).
      this.buildAside(performance.now() + this.scrubSlice(), true);
      if (this.aside) {
        this.scrubPending.value = { t: r.t, progress: 0.5 * ((a.applied - a.start) / Math.max(1, this.applied - a.start)) };
        this.scrubScheduled = true;
        requestAnimationFrame(() => this.runScrubRequest());
        return;
      }
    }
    if (this.setScrub(r.t, this.scrubClock() + this.scrubSlice()) && this.scrubRequest === r) {
      this.scrubRequest = null;
      return;
    }
    // Not done yet, or a later stop was asked for meanwhile.
    this.scrubScheduled = true;
    requestAnimationFrame(() => this.runScrubRequest());
  }

  /**
   * The time of the scrubber's next stop after `t` in the view (Infinity when none): the first message or change of
   * state without one (MessageStore.turns) after it. Where the stop at `t` ends.
   */
  private nextStopT(t: number): number {
    const list = this.engine.messageList(this.engine.messageCount);
    let next = Infinity;
    // Not a binary search: the clocks of several documents interleave, so times are not in order.
    for (let i = 0; i < list.count; i++) {
      const x = list.store.tAt(i);
      if (x > t && x < next) next = x;
    }
    for (const turn of list.store.turns) if (turn.t > t && turn.t < next) next = turn.t;
    return next;
  }

  /** Engines the scrubber holds saved (tests). */
  get scrubSaves(): number {
    return this.scrubEngines?.saved ?? 0;
  }

  /**
   * Replays the engine up to `t` (null = back to live). Moving forward continues the last replay. Past `deadline`
   * (performance.now()) the replay stops half-way and returns false, with `scrubPending` set; a later call goes on.
   */
  setScrub(t: number | null, deadline = Infinity): boolean {
    if (t === null) {
      this.scrubRequest = null;
      this.scrubEngines = null;
      batch(() => {
        this.scrubT.value = null;
        this.scrubSnapshot.value = null;
        this.scrubPending.value = null;
      });
      return true;
    }
    // The scrubber replays the frames in view as the engine in view took them: a rebuild under way is finished first.
    if (this.aside) this.buildAside(Infinity, true);
    const frames = this.source;
    // A stop is the instant of a message or of a change of state without one (a delivery stream opened or closed, a
    // session ended), and it stands until the next stop: the frames from the view's start up to it, taken in order as
    // live applied them. The frames in between change nothing a view shows (a POST's response head, its end), and the
    // last stop takes them all: it shows what live shows. (Stops were messages only, and a stream that closed half an
    // hour after a notification showed closed at the notification's stop: an audit, 2026-12-05.)
    const until = this.nextStopT(t);
    let end = this.viewStart;
    while (end < this.applied && frames[end]!.t < until) end++;
    this.scrubEngines ??= new ScrubEngines(this.viewOptions(), this.viewStart, this.scrubClock);
    const engine = this.scrubEngines.replayTo(frames, end, deadline);
    if (!engine) {
      const from = this.viewStart;
      this.scrubPending.value = { t, progress: Math.min(1, (this.scrubEngines.position - from) / Math.max(1, end - from)) };
      return false;
    }
    // A stop shows the state from its instant until the next frame came (or until now after the last one), judged at
    // the end of that span: a problem that held through a quiet minute shows at the stop before it, as it did live.
    // Judged at the instant itself, nothing would have had time to settle, and no stop would show what live shows.
    const next = end < this.applied ? frames[end]!.t - 0.001 : this.clock();
    const at = Math.max(t, next);
    // The scrub engines keep no messages; the live engine's list numbers them the same (same frames from the same start).
    const snap = engine.snapshot(at);
    const shown = { ...snap, messages: this.engine.messageList(engine.messageCount) };
    batch(() => {
      this.scrubT.value = t;
      this.scrubSnapshot.value = shown;
      this.scrubPending.value = null;
    });
    return true;
  }

  /**
   * What the tab's log dropped that `frames` (of the view, in seq order) lack: a panel keeps frames the log has dropped
   * until it holds a tenth more than the log, so after a cap was lowered an export said 799 frames were missing while
   * it held them all (an audit, 2026-12-05). By the latest stats received (those shown wait for the next snapshot,
   * while a trim already acted on them). Without "preserve log" the export covers the page in view only: the frames
   * dropped from earlier pages are not its loss (with the cut of a trace-wide count, a complete page read as partial to
   * the CLI's gate: a review, 2026-12-06); what it lacks is the seqs missing between its first frame (the page's
   * start, which the trim keeps) and its last. `rejected` is the tab's count since the last Clear, as the status line
   * shows it: messages the page sent malformed or forged, not frames of the view (docs/trace-format.md).
   */
  droppedLacking(frames: readonly Frame[]): { frames: number; rejected: number } {
    const stats = this.logStats ?? this.stats.value;
    if (!stats) return { frames: 0, rejected: 0 };
    // A view that does not begin at its page's start (a log written before the trim kept it) lacks what came before
    // too, unknown how much: the tab's count is said, as with "preserve log".
    if (!this.preserveLog.value && frames[0]?.kind === 'page-start') {
      // Less the frames the view hides on purpose between them (a left iframe page's, in the segment in view).
      const first = frames[0].seq;
      const last = frames.at(-1)!.seq;
      let hidden = 0;
      for (const seq of this.hiddenSeqs()) if (seq > first && seq < last) hidden++;
      const missing = last - first + 1 - frames.length - hidden;
      return { frames: Math.max(0, Math.min(stats.dropped, missing)), rejected: stats.rejected };
    }
    const before = keptFrom(frames, firstKeptOf(stats), 0);
    const held = before - trimKept(frames, 0, before, stats).length;
    return { frames: Math.max(0, stats.dropped - held), rejected: stats.rejected };
  }

  /** capLost() of the engine in view while a trim's rebuild is under way beside it (set at the trim). */
  private lostInView = 0;

  /** Frames of the view's history the log's cap dropped before the view's engine took them (model/cap-note.ts). */
  capLost(): number {
    const stats = this.logStats ?? this.stats.value;
    if (this.imported || !stats) return 0;
    // The engine in view until a trim's rebuild is swapped in is the one built before the trim: it still shows what
    // the dropped frames established (a review: the note said findings were gone while the view showed them).
    if (this.aside) return this.lostInView;
    return capLoss(this.frames, this.viewStart, this.applied, stats, this.preserveLog.value);
  }

  /** The message-list rows of the frames in view (built on first use, then incrementally). */
  messageRows(): FrameRow[] {
    if (!this.rows) {
      // Whether frames before the view went (dropped at the cap, cleared, or an earlier page's): a connection not seen
      // opening lost its opening frames then.
      const dropped = this.imported ? this.imported.trace.dropped.frames : ((this.logStats ?? this.stats.value)?.dropped ?? 0);
      this.rows = new FrameRows(this.viewStart > 0 || dropped > 0 || (this.source[this.viewStart]?.seq ?? 1) > 1);
      this.rowsApplied = this.viewStart;
    }
    const src = this.source;
    while (this.rowsApplied < this.applied) {
      const f = src[this.rowsApplied++]!;
      if (!this.hiddenLeft(f)) this.rows.add(f);
    }
    return this.rows.rows;
  }

  /** The frame with this seq among the frames in view, or undefined. */
  frameBySeq(seq: number): Frame | undefined {
    const i = this.indexOfSeq(seq);
    return i < 0 ? undefined : this.source[i];
  }

  /** The index in the source of the frame with this seq among the frames in view, or -1. */
  private indexOfSeq(seq: number): number {
    const src = this.source;
    let lo = this.viewStart;
    let hi = this.applied;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (src[mid]!.seq < seq) lo = mid + 1;
      else hi = mid;
    }
    const f = src[lo];
    return f && f.seq === seq && lo < this.applied && !this.hiddenLeft(f) ? lo : -1;
  }

  /**
   * The HTTP method of the request a response head (frame `seq`) answers, when that request is in view: looked for
   * backwards from the response, at most REQUEST_LOOKBACK frames (an evidence link's label, on every drawer render).
   */
  requestMethodOf(seq: number): string | undefined {
    let i = this.indexOfSeq(seq);
    const src = this.source;
    const f = i < 0 ? undefined : src[i];
    if (f?.kind !== 'http-response') return undefined;
    for (let n = 0; --i >= this.viewStart && n < REQUEST_LOOKBACK; n++) {
      const g = src[i]!;
      if (g.kind === 'http-request' && g.conn === f.conn) return g.method;
    }
    return undefined;
  }

  /** All frames in view of one connection (request, response, body, events, end), oldest first. */
  framesOfConn(conn: string): Frame[] {
    const out: Frame[] = [];
    const src = this.source;
    for (let i = this.viewStart; i < this.applied; i++) {
      const f = src[i]!;
      if ('conn' in f && f.conn === conn && !this.hiddenLeft(f)) out.push(f);
    }
    return out;
  }

  engineNow(): Engine {
    return this.engine;
  }

  // ---- the per-frame work -----------------------------------------------------------------------------------------

  /**
   * A new engine numbers messages afresh: a message drawer closes. It may key sessions otherwise too (a later session
   * with an earlier one's id is `<id> #2`, counted from where the view starts): a session drawer follows its session,
   * found again in the next snapshot by endpoint, id and first frame (it showed another session under the same title:
   * a drawer audit, 2026-12-05).
   */
  private closeMessageDrawer(): void {
    const d = this.drawer.value;
    if (d?.kind === 'message') this.drawer.value = null;
    else if (d?.kind === 'session') {
      const s = this.shown.value?.sessions.find((x) => x.key === d.key);
      if (s) this.sessionDrawerRef = { endpoint: s.endpoint, doc: s.doc, kind: s.kind, label: baseLabel(s.label), startSeq: s.startSeq, endSeq: s.endSeq };
      else this.drawer.value = null;
    }
  }

  /** The session a session drawer showed when the engine was replaced (see closeMessageDrawer). */
  private sessionDrawerRef: { endpoint: string; doc: string; kind: SessionView['kind']; label: string; startSeq: number; endSeq: number | undefined } | undefined;

  /** The session drawer's session in a new engine's first snapshot, or none (the drawer closes). */
  private refindSessionDrawer(snap: EngineSnapshot): void {
    const ref = this.sessionDrawerRef;
    if (!ref) return;
    this.sessionDrawerRef = undefined;
    if (this.drawer.value?.kind !== 'session') return;
    // The same session: its endpoint, page, kind and id (a listen's `#n` counts from the view's start); picked up
    // mid-way after a trim its first frame differs, so that decides only between sessions alike.
    const alike = snap.sessions.filter((x) => x.endpoint === ref.endpoint && x.doc === ref.doc && x.kind === ref.kind && baseLabel(x.label) === ref.label);
    const s =
      alike.find((x) => x.startSeq === ref.startSeq) ??
      (ref.endSeq !== undefined ? alike.find((x) => x.endSeq === ref.endSeq) : (alike.find((x) => x.open) ?? (alike.length === 1 ? alike[0] : undefined)));
    this.drawer.value = s ? { kind: 'session', key: s.key } : null;
  }

  /** A new engine, timeline and rows for the view (a rebuild beside it, scrub replays and a stop asked for go). */
  private freshEngine(): void {
    this.aside = null;
    this.carried = null;
    this.asideRestarts = 0;
    this.timelineSource++;
    this.engine = new Engine(this.viewOptions());
    this.timeline = new TimelineIndex();
    this.rows = null;
    this.scrubEngines = null;
    this.dropScrubRequest();
  }

  /** The view starts over at the next frame (a new page without "preserve log"): a fresh engine, nothing selected in it. */
  private startOver(): void {
    this.keptOnClear.value = 0;
    this.freshEngine();
    this.namedGone.clear();
    this.viewStart = this.applied;
    this.prepared = null;
    this.scrubT.value = null;
    this.scrubSnapshot.value = null;
    this.viewTopDoc = undefined;
    this.iframeDocs.clear();
    // The page the drawer was about is gone from the view (its rows, findings and sessions are the old page's).
    this.drawer.value = null;
  }

  /**
   * The page in view left (its top-level document ended, not into the back/forward cache) and, without "preserve
   * log", the view empties as Chrome's Network panel does at a navigation: a page that never speaks MCP sends no frame
   * to start a segment of its own, so the old page stayed in view (an audit, 2026-12-05). Its frames stay in the log.
   */
  private leavePage(url: string, segment: number, docs?: ReadonlySet<string>): void {
    if (docs && this.rebuildWithout(segment, url, docs)) return;
    const frames = this.applied - this.viewStart;
    this.startOver();
    this.engineSegment = -1;
    this.leftSegment = segment;
    this.leftDocs = docs;
    if (docs) this.iframesLeft = { segment, url, docs };
    this.pageLeftEnds = false;
    this.pageLeft.value = { url, frames };
  }

  /**
   * A page of iframes left while the view holds frames of another document too (a new page's iframe that landed in
   * the same segment: the background joins it to the old segment when the old one's page-end comes after its
   * page-start): the view is rebuilt from its start without the left documents' frames, as reset() does, instead of
   * emptied (a review: the new page's iframe went from the view, its later frames "picked up mid-way"). False when
   * only the left documents' frames are in view.
   */
  private rebuildWithout(segment: number, url: string, docs: ReadonlySet<string>): boolean {
    const src = this.source;
    const start = this.viewStart;
    let others = false;
    for (let i = start; i < this.applied && !others; i++) others = !docs.has(src[i]!.doc);
    if (!others) return false;
    this.freshEngine();
    this.applied = start;
    this.leftSegment = segment;
    this.leftDocs = docs;
    this.iframesLeft = { segment, url, docs };
    // Their documents are noted again as the frames are applied again (the left ones' frames are skipped).
    this.iframeDocs.clear();
    this.prepared = null;
    this.scrubT.value = null;
    this.scrubSnapshot.value = null;
    this.closeMessageDrawer();
    this.lastSnapshotAt = -Infinity;
    // A catch-up under way starts over from the rebuild's start, as reset()'s (code review 3, item 1).
    this.catchUp.value = null;
    this.catchUpFrom = start;
    this.stage = 0;
    this.schedule(true);
    return true;
  }

  /**
   * The inspected tab's top-level page navigated (devtools' onNavigated; as a tab, the tab loading). When only iframes
   * of the page in view spoke MCP, that and all their documents ending is the page leaving, in either order.
   */
  topNavigated(at = Date.now()): void {
    this.navigation = { seq: this.heardSeq, at };
    if (this.leaveIfIframesGone()) this.schedule(true);
  }

  /** Keeps count of the iframes' documents in view (no top-level one known) and leaves when those of the page went. */
  private noteIframeDoc(f: Frame): void {
    let d = this.iframeDocs.get(f.doc);
    // A document whose page-start is not in view (a Clear came after it) is older than any navigation heard since.
    if (!d) this.iframeDocs.set(f.doc, (d = { first: f.kind === 'page-start' ? f.seq : 0 }));
    if (f.kind === 'page-end' && !f.persisted && !d.end) {
      d.end = f;
      this.leaveIfIframesGone();
    }
  }

  /**
   * The page left when the tab navigated and every iframe document in view whose frames came before the navigation
   * ended, the last of them heard near the navigation. A document first heard after it is the new page's: neither
   * waited for nor hidden (a review: a new page's iframe that spoke and ended soon after the navigation was taken for
   * the old page leaving).
   */
  private leaveIfIframesGone(): boolean {
    const nav = this.navigation;
    if (!nav || this.imported || this.preserveLog.value || this.viewTopDoc !== undefined) return false;
    const docs = new Set<string>();
    let last: (Frame & { kind: 'page-end' }) | undefined;
    for (const [doc, d] of this.iframeDocs) {
      if (d.first > nav.seq) continue;
      if (!d.end) return false;
      docs.add(doc);
      if (!last || d.end.seq > last.seq) last = d.end;
    }
    if (!last) return false;
    const heard = this.pageEndsHeard.get(last.seq);
    if (heard === undefined || Math.abs(nav.at - heard) > NAVIGATION_WINDOW_MS) return false;
    this.navigation = undefined;
    this.leavePage(last.url, last.segment, docs);
    return true;
  }

  /** A frame of a new page was applied while the view said the page left: cleared when its snapshot is committed. */
  private pageLeftEnds = false;

  /** A fresh engine over the frames in view (after clear, import, settings, preserve-log changes). */
  private reset(now = false): void {
    this.freshEngine();
    // The view's snapshot they were about goes: a later trim's carry must not filter by them (code review 3, item 4a;
    // resetCarrying takes them before it calls this).
    this.namedGone.clear();
    const src = this.source;
    this.applied = 0;
    this.viewStart = 0;
    this.engineSegment = -1;
    this.viewTopDoc = undefined;
    this.leftSegment = undefined;
    this.leftDocs = undefined;
    this.iframeDocs.clear();
    this.pageLeftEnds = false;
    this.pageLeft.value = null;
    const limit = this.applyLimit();
    if (!this.preserveLog.value && !this.imported && limit > 0) {
      // Without "preserve log" the view starts at the current page segment (paused: the one shown at the pause).
      const seg = src[limit - 1]!.segment;
      let i = limit;
      while (i > 0 && src[i - 1]!.segment === seg) i--;
      this.viewStart = i;
      this.applied = i;
      // The frames Clear kept open the log: a view that starts past them does not show them.
      if (i > 0) this.keptOnClear.value = 0;
      // The page of that segment may have left already: then nothing of it is shown (see leavePage).
      const gone = this.iframesLeft;
      const left = leftPageIn(src, i, limit) ?? (gone?.segment === seg && src.slice(i, limit).every((f) => gone.docs.has(f.doc)) ? gone : undefined);
      if (!left && gone?.segment === seg) {
        // With another document's frames (a new page's iframe in the same segment): only the left ones' are skipped.
        this.leftSegment = seg;
        this.leftDocs = gone.docs;
      }
      if (left) {
        this.viewStart = this.applied = limit;
        this.leftSegment = seg;
        this.leftDocs = left === gone ? gone.docs : undefined;
        // Its frames: those up to its page-end and what it still sent after (all of the segment in view, hidden).
        this.pageLeft.value = { url: left.url, frames: limit - i };
      }
    }
    batch(() => {
      this.scrubT.value = null;
      this.scrubSnapshot.value = null;
      this.closeMessageDrawer();
    });
    this.lastSnapshotAt = -Infinity;
    this.prepared = null;
    this.stage = 0;
    // A catch-up under way starts over (its progress counts from the new start).
    this.catchUp.value = null;
    if (!now) this.schedule(true);
  }

  /** The load's progress after a flush; over once the last chunk came and the view applied what it may (not `behind`). */
  private noteLoad(behind: boolean): void {
    const load = this.load;
    if (!load) return;
    if (this.imported) return;
    if (load.done && !behind && this.applied >= this.applyLimit()) {
      // Over once the view shows it: with a snapshot on its way, at its commit (ended here, the status line said
      // "Live · 0 frames" for a frame: the log's counters come with that snapshot).
      if (this.dirty || this.prepared) load.caughtUp = true;
      else this.endLoad();
      return;
    }
    const p = load.progress(this.applied);
    const cur = this.loading.value;
    if (!cur || cur.loaded !== p.loaded || cur.total !== p.total) this.loading.value = p;
  }

  private endLoad(): void {
    this.load = null;
    if (this.loading.value !== null) this.loading.value = null;
  }

  /** Asks for a flush on the next animation frame; `dirty` = a snapshot is due even without new frames. */
  schedule(dirty = false): void {
    if (dirty) this.dirty = true;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame((ts) => this.flush(ts));
  }

  /** The live clock ticked: ages change, timing-dependent findings may open. */
  tick(): void {
    if (this.imported || this.paused.value) return;
    this.schedule(true);
  }

  private flush(ts: number, force = false): void {
    this.scheduled = false;
    this.probe.work(force ? -performance.now() : ts);
    const src = this.source;
    let changed = false;
    let behind = false;
    const limit = this.applyLimit();
    if (this.applied < limit) {
      const preserve = this.preserveLog.value || this.imported !== null;
      const from = this.applied;
      const deadline = force ? Infinity : performance.now() + this.catchUpSliceMs;
      let n = 0;
      while (this.applied < limit) {
        // A large backlog is applied over several frames: the panel stays responsive and says how far it got.
        if ((++n & (CATCH_UP_CHECK_FRAMES - 1)) === 0 && performance.now() >= deadline) {
          behind = true;
          break;
        }
        const f = src[this.applied]!;
        if (!preserve && f.segment === this.leftSegment && (this.leftDocs === undefined || this.leftDocs.has(f.doc))) {
          // What the page that left still sent (it is gone from the view): not shown, not in the Messages rows either.
          // Counted as its frames, as the status line counts it among the hidden (a stream's http-end after the
          // page-end: the line said 21 hidden, the view "Its 20 frames").
          // Past other documents' frames in view (a new page's iframe in the same segment), the view keeps its start:
          // the frame is skipped where the frames in view are listed (hiddenLeft).
          if (this.viewStart === this.applied) {
            this.viewStart = ++this.applied;
            this.rows = null;
          } else this.applied++;
          const left = this.pageLeft.value;
          if (left !== null) this.pageLeft.value = { ...left, frames: left.frames + 1 };
          changed = true;
          continue;
        }
        if (!preserve && f.segment > this.engineSegment && this.engineSegment >= 0) {
          // A new page segment without "preserve log": the view starts over at it. One that began after the tab's
          // navigation was heard is the new page: that navigation has nothing more in view to end.
          if (this.navigation && f.seq > this.navigation.seq) this.navigation = undefined;
          this.startOver();
        }
        // The page that left stays said until a snapshot of the new page is shown (commit): cleared here, the view
        // said "No MCP traffic captured in this tab yet" for a snapshot's time while the new page's frames were in.
        if (this.pageLeft.value !== null) this.pageLeftEnds = true;
        this.engineSegment = f.segment;
        this.engine.apply(f);
        this.applied++;
        changed = true;
        if (isTopStart(f) || (this.viewTopDoc === undefined && isTopFrame(f))) this.viewTopDoc = f.doc;
        else if (!preserve && f.kind === 'page-end' && !f.persisted && (f.doc === this.viewTopDoc || (this.viewTopDoc === undefined && f.frameId === 0))) {
          // (A Clear and then the idle page leaving: its page-end is the first frame in view.)
          this.leavePage(f.url, f.segment);
        } else if (!preserve && this.viewTopDoc === undefined) this.noteIframeDoc(f);
      }
      // A rebuild within the loop (rebuildWithout) moved `applied` back below `from`: it counts from there.
      if (behind && this.catchUp.value === null) this.catchUpFrom = Math.min(from, this.applied);
    }
    this.waiting.value = src.length - this.applied;
    if (changed) this.dirty = true;
    if (this.aside && !behind) this.buildAside(force ? Infinity : performance.now() + this.asideSliceMs, force);
    if (behind) {
      // No snapshot of a half-applied log: the view stays as it was until the engine caught up.
      this.catchUp.value = Math.min(1, Math.max(0, (this.applied - this.catchUpFrom) / Math.max(1, limit - this.catchUpFrom)));
      this.noteLoad(behind);
      if (changed) this.probe.did('ingest');
      this.schedule();
      return;
    }
    if (this.catchUp.value !== null) this.catchUp.value = null;
    this.noteLoad(behind);
    const prepared = this.prepared;
    if (changed) this.probe.did('ingest');
    // A hidden page gets an animation frame seldom (one a screenshot forces, say; none at all in a background tab):
    // spreading a snapshot over the next frames would leave the table, the flow chart and the timeline showing
    // different states until a later frame, seconds on. Hidden, each frame does it all; nobody sees it take longer.
    const hidden = pageHidden();
    if (this.stage > 0 && !force) {
      // The views that follow the table catch up, one per frame.
      const snap = this.snapshot.value;
      if (hidden) {
        batch(() => {
          this.flowSnap.value = snap?.flow ?? null;
          this.laneSnap.value = snap;
        });
        this.stage = 0;
      } else if (this.stage === 1) {
        this.probe.did('render-flow');
        this.flowSnap.value = snap?.flow ?? null;
        this.stage = 2;
      } else {
        this.probe.did('render-lanes');
        this.laneSnap.value = snap;
        this.stage = 0;
      }
      this.schedule();
    } else if (prepared && !force) {
      // The snapshot computed last frame is rendered in this one.
      this.probe.did('render');
      this.prepared = null;
      this.commit(prepared.snap, prepared.now, hidden);
      if (this.dirty) this.schedule();
    } else if (this.dirty && (force || ts - this.lastSnapshotAt >= SNAPSHOT_MS)) {
      this.dirty = false;
      this.lastSnapshotAt = ts;
      this.probe.did('snapshot');
      const now = this.clock();
      const snap = this.engineSnapshot(now);
      this.timeline.update(snap.messages);
      if (force || hidden) {
        this.prepared = null;
        this.commit(snap, now, true);
      } else {
        this.prepared = { snap, now };
        this.schedule();
      }
    } else if (this.dirty && this.snapshotTimer === undefined) {
      // Frames keep coming faster than snapshots: come back when the next one is due (not every frame).
      this.snapshotTimer = setTimeout(() => {
        this.snapshotTimer = undefined;
        this.schedule();
      }, Math.max(0, this.lastSnapshotAt + SNAPSHOT_MS - ts));
    }
  }

  /** Shows a snapshot: the table (and what reads `snapshot`) now; the flow chart and timeline next (or now, `all`). */
  private commit(snap: EngineSnapshot, now: number, all = false): void {
    const stats = this.pendingStats;
    this.pendingStats = null;
    batch(() => {
      if (stats) this.stats.value = stats;
      if (this.load?.caughtUp) this.endLoad();
      // The trim the new caps asked for is in the counters shown: no more "dropping".
      const drop = this.capDrop.value;
      if (stats && drop && (stats.dropped > this.capDropFrom || (stats.frames <= drop.maxFrames && stats.bytes <= drop.maxBytes))) this.endCapDrop();
      this.now.value = now;
      // The new page's first snapshot (not one computed before its frames came): the view shows it, not the notice.
      if (this.pageLeftEnds && snap.frames > 0) {
        this.pageLeftEnds = false;
        this.pageLeft.value = null;
      }
      this.refindSessionDrawer(snap);
      this.snapshot.value = snap;
      this.version.value++;
      if (all) {
        this.flowSnap.value = snap.flow;
        this.laneSnap.value = snap;
      }
    });
    this.stage = all ? 0 : 1;
    if (!all) this.schedule();
  }
}

/** The panel's page is hidden (another tab in front, devtools closed or minimised); false outside a page (tests). */
function pageHidden(): boolean {
  return globalThis.document?.visibilityState === 'hidden';
}

/** A top-level document's page-start (the tab's main frame: not an iframe, not a prerendered page). */
function isTopStart(f: Frame): boolean {
  return f.kind === 'page-start' && f.top && f.frameId === 0;
}

/**
 * A frame of a document in the tab's main frame: the page in view when its page-start is not in the panel (gone with
 * Clear or a trim of the log: a review, 2026-12-05).
 */
function isTopFrame(f: Frame): boolean {
  return f.frameId === 0 && f.kind !== 'page-end';
}

/** In `src[from, to)`: the top-level page's non-persisted page-end (its document known by its page-start, else its first frame). */
function leftPageIn(src: readonly Frame[], from: number, to: number): { url: string; index: number } | undefined {
  let top: string | undefined;
  for (let i = from; i < to; i++) {
    const f = src[i]!;
    if (isTopStart(f) || (top === undefined && isTopFrame(f))) top = f.doc;
    else if (f.kind === 'page-end' && !f.persisted && (f.doc === top || (top === undefined && f.frameId === 0))) return { url: f.url, index: i };
  }
  return undefined;
}

/** The background's "Tab 123 was closed: …" naming the page it showed too (its host and path), when known. */
export function namePageIn(error: string, url: string | null): string {
  if (url === null) return error;
  return error.replace(/^Tab (\d+) was closed/, (_, id: string) => `The tab of ${shortUrl(url)} (tab ${id}) was closed`);
}

/** The panel's title: "MCP — <the inspected page's host>" (a panel opened as a tab among others). */
export function panelTitle(url: string | null): string {
  if (url === null) return 'MCP';
  let name: string;
  try {
    name = new URL(url).host || shortUrl(url);
  } catch {
    name = url;
  }
  // document.title is no text node of the panel's (printable-dom.ts does not see it), and the page-start's URL is the
  // page's to forge: `\u202egoogle.com` in the tab strip read reversed (a review).
  return `MCP — ${printableText(name)}`;
}

/** A session's or listen's id without the ` #n` that tells apart those with the same id. */
function baseLabel(label: string): string {
  return label.replace(/ #\d+$/, '');
}
