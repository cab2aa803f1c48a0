// The timeline's data and its layout maths, pure so they are unit-tested without a canvas. TimelineIndex consumes the
// engine's decoded message list incrementally (each message once) into per-URI lanes: reads as request→response bars
// (each with the row it is stacked in), subscribes (and listen requests), unsubscribes and notifications as marks.
// Session lanes, channel gaps and stale intervals come from the snapshot (sessions, streams, findings), indexed once
// per update: a long recording holds thousands of sessions. The lane geometry (a band for marks, rows for reads under
// it) and the hit testing that matches it live here too.
import type { EngineSnapshot, Finding, MessageList, SessionView, Severity, StreamView } from '../../shared/engine/index.ts';
import { decodedJson, findingRowKey, messageAt } from '../../shared/engine/index.ts';
import { SEVERITY_RANK } from '../../shared/findings/types.ts';
import { matchesSession, STALE_FINDINGS, type Filter } from './filter.ts';
import { formatClock, formatDuration } from './format.ts';
import { sessionIdNamer, sessionLabel, sessionNames } from './session-label.ts';
import { streamsBySession } from './sessions-view.ts';

export interface ReadBar {
  t0: number;
  /** Response time; undefined while in flight. */
  t1: number | undefined;
  /** Message index of the request (for the drawer). */
  index: number;
  failed: boolean;
  /** Why it ended without an answer (its exchange failed or was aborted): t1 is when, and `failed` is set. */
  noAnswer?: string;
  /**
   * Its stacking slot: the lowest not taken by a read of the same lane still in flight when it was sent (0 when none
   * was). Two reads of a URI in flight at once (two notifications, two re-reads, answers out of order) are drawn in
   * different rows, not as one bar. Fixed when sent: panning or later reads never move a bar.
   */
  slot: number;
}

export type MarkKind = 'subscribe' | 'unsubscribe' | 'notify';

export interface Mark {
  t: number;
  index: number;
  kind: MarkKind;
  failed: boolean;
}

export class UriLane {
  readonly reads: ReadBar[] = [];
  readonly marks: Mark[] = [];
  /** Longest closed read (to find bars that start before a window but reach into it). */
  maxReadMs = 0;
  /** Reads still waiting, oldest first: they reach to now, however long before a window they began. */
  readonly open: ReadBar[] = [];
  constructor(
    /** Same as UriRow.key: `<doc> <endpoint> <uri>`. */
    readonly key: string,
    readonly uri: string,
  ) {}
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);

export class TimelineIndex {
  readonly lanes = new Map<string, UriLane>();
  firstT: number | undefined;
  lastT: number | undefined;
  private next = 0;
  /** Entries of the store's noAnswers consumed so far. */
  private nextNoAnswer = 0;
  private readonly openReads = new Map<number, { bar: ReadBar; lane: UriLane }>();
  private readonly openSubscribes = new Map<number, Mark[]>();
  /** Listens not acknowledged yet, by the connection of their stream: their marks by URI. */
  private readonly openListens = new Map<string, { request: number; byUri: Map<string, Mark> }>();
  /** doc → endpoint → uri → lane: no key string built per message. */
  private readonly byClient = new Map<string, Map<string, Map<string, UriLane>>>();

  /** Messages consumed so far. */
  get consumed(): number {
    return this.next;
  }

  private lane(doc: string, endpoint: string, uri: string): UriLane {
    let eps = this.byClient.get(doc);
    if (!eps) this.byClient.set(doc, (eps = new Map()));
    let uris = eps.get(endpoint);
    if (!uris) eps.set(endpoint, (uris = new Map()));
    let l = uris.get(uri);
    if (!l) {
      const key = `${doc} ${endpoint} ${uri}`;
      l = new UriLane(key, uri);
      uris.set(uri, l);
      this.lanes.set(key, l);
    }
    return l;
  }

  /** Consumes the messages added since the last call (reading the store's columns: no message objects). */
  update(list: MessageList): void {
    const st = list.store;
    for (let i = this.next; i < list.count; i++) {
      // The exchanges known to have ended before this message, first: a read sent after another one failed is not
      // stacked beside it (and is stacked alike whether the two came in one update or two).
      this.endNoAnswers(list, i);
      const t = st.tAt(i);
      this.firstT ??= t;
      this.lastT = t;
      const kind = st.kindAt(i);
      if (kind === 'request') {
        const method = st.methodAt(i);
        const uri = st.uriAt(i);
        if (method === 'resources/read' && uri !== undefined) {
          const info = st.infoAt(i);
          const lane = this.lane(info.doc, info.endpoint, uri);
          const bar: ReadBar = { t0: t, t1: undefined, index: i, failed: false, slot: freeSlot(lane.open) };
          lane.reads.push(bar);
          lane.open.push(bar);
          this.openReads.set(i, { bar, lane });
        } else if ((method === 'resources/subscribe' || method === 'resources/unsubscribe') && uri !== undefined) {
          const info = st.infoAt(i);
          const mark: Mark = { t, index: i, kind: method === 'resources/subscribe' ? 'subscribe' : 'unsubscribe', failed: false };
          this.lane(info.doc, info.endpoint, uri).marks.push(mark);
          if (mark.kind === 'subscribe') this.openSubscribes.set(i, [mark]);
        } else if (method === 'subscriptions/listen') {
          // 2026-07-28: the URIs are in the listen filter, not in `uri` (rare: parse this one message).
          const m = messageAt(list, i)!;
          const filter = obj(obj(obj(decodedJson(m))?.params)?.notifications);
          const uris = Array.isArray(filter?.resourceSubscriptions) ? filter.resourceSubscriptions : [];
          const marks: Mark[] = [];
          const byUri = new Map<string, Mark>();
          for (const u of uris) {
            if (typeof u !== 'string') continue;
            const mark: Mark = { t, index: i, kind: 'subscribe', failed: false };
            this.lane(m.doc, m.endpoint, u).marks.push(mark);
            marks.push(mark);
            byUri.set(u, mark);
          }
          if (marks.length) {
            this.openSubscribes.set(i, marks);
            // The acknowledgement comes on the listen's own stream: what it leaves out was refused.
            this.openListens.set(m.conn, { request: i, byUri });
          }
        }
      } else if (kind === 'result' || kind === 'error') {
        const pair = st.pairAt(i);
        if (pair < 0) continue;
        if (this.closeRead(pair, t, kind === 'error')) continue;
        const subs = this.openSubscribes.get(pair);
        if (subs) {
          if (kind === 'error') for (const s of subs) s.failed = true;
          this.openSubscribes.delete(pair);
        }
      } else if (kind === 'notification' && st.dirAt(i) === 'in' && st.methodAt(i) === 'notifications/subscriptions/acknowledged') {
        const info = st.infoAt(i);
        const asked = this.openListens.get(info.conn);
        if (!asked) continue;
        this.openListens.delete(info.conn);
        // Acknowledged: what it honoured is subscribed; an error ending the listen later does not undo that.
        this.openSubscribes.delete(asked.request);
        const m = messageAt(list, i)!;
        const accepted = obj(obj(obj(decodedJson(m))?.params)?.notifications)?.resourceSubscriptions;
        const honoured = new Set(Array.isArray(accepted) ? accepted : []);
        for (const [uri, mark] of asked.byUri) if (!honoured.has(uri)) mark.failed = true;
      } else if (kind === 'notification' && st.dirAt(i) === 'in') {
        const uri = st.uriAt(i);
        if (uri === undefined || st.methodAt(i) !== 'notifications/resources/updated') continue;
        const info = st.infoAt(i);
        this.lane(info.doc, info.endpoint, uri).marks.push({ t, index: i, kind: 'notify', failed: false });
      }
    }
    this.next = list.count;
    this.endNoAnswers(list, list.count);
  }

  /**
   * Requests whose exchange ended without their answer (a network failure, an abort) known once `count` messages were
   * stored: the read's bar ends there, failed, and a subscribe is marked refused.
   */
  private endNoAnswers(list: MessageList, count: number): void {
    const ends = list.store.noAnswers;
    for (; this.nextNoAnswer < ends.length && ends[this.nextNoAnswer]!.count <= count; this.nextNoAnswer++) {
      const e = ends[this.nextNoAnswer]!;
      // A page that left took its requests with it: they end there, not as failures (nor a subscribe as refused).
      if (this.closeRead(e.request, e.t, e.pageLeft !== true, e.why)) continue;
      const subs = this.openSubscribes.get(e.request);
      if (subs && e.pageLeft !== true) for (const m of subs) m.failed = true;
      this.openSubscribes.delete(e.request);
    }
  }

  /** Ends the open read of request `request`, if it is one. */
  private closeRead(request: number, t: number, failed: boolean, noAnswer?: string): boolean {
    const open = this.openReads.get(request);
    if (!open) return false;
    const { bar, lane } = open;
    bar.t1 = t;
    bar.failed = failed;
    if (noAnswer !== undefined) bar.noAnswer = noAnswer;
    lane.maxReadMs = Math.max(lane.maxReadMs, t - bar.t0);
    const k = lane.open.indexOf(bar);
    if (k >= 0) lane.open.splice(k, 1);
    this.openReads.delete(request);
    return true;
  }
}

/** The lowest slot no read in `open` holds (reads in flight at once are few: a scan is enough). */
function freeSlot(open: readonly ReadBar[]): number {
  // Only READ_ROWS rows are drawn: past them every read shares the last, so the search stops there (searching on grew
  // as the cube of the reads waiting: 2,000 unanswered reads of a hung server took 1.4 s — a review, 2026-12-05).
  for (let slot = 0; slot < READ_ROWS; slot++) if (!open.some((r) => r.slot === slot)) return slot;
  return READ_ROWS;
}

// ---- session lanes ------------------------------------------------------------------------------------------------

export interface Interval {
  t0: number;
  t1: number;
}

/** A stale interval: with the severity of the finding that held then (its band and its lane label take its colour). */
export interface StaleInterval extends Interval {
  severity: Severity;
  /** The finding that makes the cache stale (hover names it; always set by staleIntervals). */
  id?: Finding['id'];
  /** That finding's own title (its reason's, when it has one): what hover says. */
  title?: string;
}

export interface SessionLane {
  key: string;
  label: string;
  /** What `session:` matches (sessionNames). */
  names: string[];
  /** Its client (clientKeyOf: document and endpoint): what `client:` matches is that client's tag (sessionClientTags). */
  clientKey: string;
  kind: SessionView['kind'];
  start: number;
  /** End time, or undefined while open. */
  end: number | undefined;
  endCause: SessionView['endCause'];
  /** A later session of the same client follows it, or it follows an earlier one. */
  reconnectAfter: boolean;
  /** Open delivery channels within the session. */
  channels: Interval[];
  /** Parts of the session's life without a delivery channel. */
  gaps: Interval[];
}


/**
 * The session lanes the filter keeps: by the names each shows (`session:`, as the Sessions grid) and by its client's
 * tag (`client:`; `tags`: sessionClientTags, the grid's). The timeline ignored `client:` (a review): the grid kept one
 * client's sessions, the lanes all of them.
 */
export function sessionLanesMatching(lanes: readonly SessionLane[], f: Filter, tags: ReadonlyMap<string, string>): SessionLane[] {
  return lanes.filter((s) => matchesSession(f, s.names, tags.get(s.clientKey) ?? ''));
}

/** Merges overlapping intervals (sorted by t0) and returns the complement inside [from, to]. */
export function gapsWithin(from: number, to: number, covered: readonly Interval[]): Interval[] {
  const sorted = [...covered].sort((a, b) => a.t0 - b.t0);
  const gaps: Interval[] = [];
  let cursor = from;
  for (const c of sorted) {
    if (c.t1 <= cursor) continue;
    if (c.t0 > cursor) gaps.push({ t0: cursor, t1: Math.min(c.t0, to) });
    cursor = Math.max(cursor, c.t1);
    if (cursor >= to) break;
  }
  if (cursor < to) gaps.push({ t0: cursor, t1: to });
  return gaps.filter((g) => g.t1 > g.t0);
}

/**
 * A session lane's tooltip: what it is and whether it ended. `label` is the name the lane shows, which names a listen
 * already (`listen 3`, the SDK's `listen:0`): `listen listen:0` said it twice.
 */
export function sessionLaneTitle(kind: 'session' | 'listen', label: string, endCause: string): string {
  return `${kind === 'listen' ? label : `session ${label}`}${endCause ? ` — ended: ${endCause}` : ' — open'}`;
}

/**
 * `knownFrom`: EngineSnapshot.streamsKnownFrom (before it, a lane shows no gap: its channels are not known).
 * Linear in sessions + streams (indexed, not scanned per session): a long recording holds thousands of sessions and
 * the timeline computes its lanes on every live update.
 */
export function sessionLanes(sessions: readonly SessionView[], streams: readonly StreamView[], now: number, knownFrom?: number): SessionLane[] {
  const byClient = new Map<string, ClientSessions>();
  for (const s of sessions) {
    const k = `${s.doc} ${s.endpoint}`;
    let c = byClient.get(k);
    if (!c) byClient.set(k, (c = { firstStart: new Map(), listens: [] }));
    const first = c.firstStart.get(s.kind);
    if (first === undefined || s.startT < first) c.firstStart.set(s.kind, s.startT);
    if (s.kind === 'listen') c.listens.push(s);
  }
  for (const c of byClient.values()) c.ends = endedByEnd(c.listens);
  const bySession = streamsBySession(streams);
  const name = sessionIdNamer(sessions);
  return sessions.map((s) => {
    const end = s.open ? undefined : (s.endT ?? s.startT);
    const to = end ?? now;
    let channels: Interval[];
    if (s.kind === 'listen') channels = [{ t0: s.startT, t1: to }];
    else {
      channels = (bySession.get(`${s.key} ${s.endpoint}`) ?? [])
        .map((st) => ({ t0: Math.max(st.openT, s.startT), t1: Math.min(st.open ? now : (st.closeT ?? st.openT), to) }))
        .filter((i) => i.t1 >= i.t0);
    }
    const client = byClient.get(`${s.doc} ${s.endpoint}`)!;
    const lane: SessionLane = {
      key: s.key,
      label: sessionLabel(s, name),
      names: sessionNames(s, name),
      clientKey: `${s.doc} ${s.endpoint}`,
      kind: s.kind,
      start: s.startT,
      end,
      endCause: s.endCause,
      reconnectAfter: s.kind === 'listen' ? listenReconnects(s, client) : client.firstStart.get(s.kind)! < s.startT,
      channels,
      gaps: s.kind === 'listen' ? [] : gapsWithin(knownFrom !== undefined ? Math.max(s.startT, knownFrom) : s.startT, to, channels),
    };
    return lane;
  });
}

/** One client's (document + endpoint) sessions, as sessionLanes needs them. */
interface ClientSessions {
  /** Earliest start per kind: a session is a reconnect when one of its kind began before it. */
  firstStart: Map<SessionView['kind'], number>;
  /** Its listens, sorted by start once all are in. */
  listens: SessionView[];
  /** Its ended listens, sorted by end (endT, or startT without one). */
  ends?: Array<{ t: number; s: SessionView }>;
}

function endedByEnd(listens: SessionView[]): Array<{ t: number; s: SessionView }> {
  listens.sort((a, b) => a.startT - b.startT);
  return listens
    .filter((o) => !o.open)
    .map((o) => ({ t: o.endT ?? o.startT, s: o }))
    .sort((a, b) => a.t - b.t);
}

/**
 * A listen re-establishes (as the engine counts reconnects) when one of its client's listens ended since the client's
 * previous listen began: a second listen beside an open one is no reconnect, nor is one after a reconnect already made.
 */
function listenReconnects(s: SessionView, client: ClientSessions): boolean {
  // The previous listen's start: the latest start before this one's (listens are sorted by start).
  const { listens } = client;
  let lo = 0;
  let hi = listens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (listens[mid]!.startT < s.startT) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return false;
  const previous = listens[lo - 1]!.startT;
  // An ended listen (begun before this one) whose end lies in [previous, this one's start].
  const ends = client.ends!;
  lo = 0;
  hi = ends.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ends[mid]!.t < previous) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < ends.length && ends[i]!.t <= s.startT; i++) {
    const o = ends[i]!.s;
    if (o !== s && o.startT < s.startT) return true;
  }
  return false;
}

/**
 * Per URI lane key: intervals during which a staleness finding was open (event findings: a zero-length mark), mildest
 * first (in finding order within a severity): the order the lane paints them in, the worst last, on top, as its label
 * says. Put in that order as they are gathered, not sorted on every draw (nor each lane afterwards: on 5,000 lanes
 * that cost 1.6–4 ms a snapshot, more than the draws saved).
 */
export function staleIntervals(snapshot: Pick<EngineSnapshot, 'findings'>, now: number): Map<string, StaleInterval[]> {
  const out = new Map<string, StaleInterval[]>();
  for (const f of snapshot.findings as Finding[]) {
    const k = STALE_FINDINGS.has(f.id) ? findingRowKey(f) : undefined;
    if (k === undefined) continue;
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    // Mildest first: this finding's intervals go after those of its severity or milder, before any worse one (a
    // lane holds a few: found by walking back from the end).
    const rank = SEVERITY_RANK[f.severity];
    let at = list.length;
    while (at > 0 && SEVERITY_RANK[list[at - 1]!.severity] > rank) at--;
    // A finding that held several times is shaded where it held, not over the healthy times in between.
    // Coloured by its own severity, as the table's row: an info one (a TTL passed) was drawn red, as an error.
    const own: StaleInterval[] = f.spans ? f.spans.map(([t0, t1]) => ({ t0, t1, severity: f.severity, id: f.id, title: f.title })) : [{ t0: f.firstT, t1: f.lastT, severity: f.severity, id: f.id, title: f.title }];
    if (f.open) own[own.length - 1]!.t1 = Math.max(now, own[own.length - 1]!.t1);
    if (at === list.length) list.push(...own);
    else list.splice(at, 0, ...own);
  }
  return out;
}

/**
 * The instant the lanes are judged at (where open sessions and stale spans end, whether a label is red): now, or while
 * replaying, the replayed snapshot's own instant. A stop stands for the quiet time until the next stop and is judged
 * at its end (PanelStore.setScrub), as the table is: judged at the stop itself, a label disagreed with its row.
 */
export function laneNowOf(snapshot: Pick<EngineSnapshot, 'now'> | null, scrubT: number | null, now: number): number {
  return scrubT === null ? now : (snapshot?.now ?? scrubT);
}

/** The worst stale interval within `tol` of `t` (undefined: none): what a band under the pointer stands for. */
export function staleAt(intervals: readonly StaleInterval[], t: number, tol = 0): StaleInterval | undefined {
  let worst: StaleInterval | undefined;
  for (const s of intervals) if (s.t0 - tol <= t && s.t1 + tol >= t && (worst === undefined || SEVERITY_RANK[s.severity] > SEVERITY_RANK[worst.severity])) worst = s;
  return worst;
}

/** The worst severity among the stale intervals that reach `t` (undefined: none does): the lane label's colour. */
export function staleSeverityAt(intervals: readonly StaleInterval[], t: number): Severity | undefined {
  return staleAt(intervals, t)?.severity;
}

// ---- window maths -------------------------------------------------------------------------------------------------

export interface TimeWindow {
  start: number;
  end: number;
}

export const MIN_SPAN_MS = 5;
export const MAX_SPAN_MS = 7 * 24 * 3600_000;

export function xOf(w: TimeWindow, t: number, width: number): number {
  return ((t - w.start) / (w.end - w.start)) * width;
}

export function tOf(w: TimeWindow, x: number, width: number): number {
  return w.start + (x / width) * (w.end - w.start);
}

/** Zooms by `factor` (< 1 = in) keeping `anchor` (a time) at the same screen position. */
export function zoomAt(w: TimeWindow, factor: number, anchor: number, maxSpan = MAX_SPAN_MS): TimeWindow {
  const span = w.end - w.start;
  const next = Math.min(Math.min(MAX_SPAN_MS, Math.max(maxSpan, span)), Math.max(MIN_SPAN_MS, span * factor));
  const k = span > 0 ? (anchor - w.start) / span : 0.5;
  const start = anchor - k * next;
  return { start, end: start + next };
}

/** Moves by `dx` pixels (positive = drag right = earlier times come into view). */
export function panBy(w: TimeWindow, dx: number, width: number): TimeWindow {
  const dt = (dx / width) * (w.end - w.start);
  return { start: w.start - dt, end: w.end - dt };
}

/** Keeps the span, ends at `now` (live tail). */
export function followLive(w: TimeWindow, now: number): TimeWindow {
  const span = w.end - w.start;
  return { start: now - span * 0.97, end: now + span * 0.03 };
}

/**
 * Where the replay cursor is shown: the window as it is when the cursor is in it, else moved (same span) to show the
 * cursor near its right edge. Replaying an instant outside the window, e.g. while following live, must not leave an
 * empty view.
 */
export function withCursorInView(w: TimeWindow, cursor: number | null): TimeWindow {
  if (cursor === null || (cursor >= w.start && cursor <= w.end)) return w;
  const span = w.end - w.start;
  return { start: cursor - span * 0.8, end: cursor + span * 0.2 };
}

/** The whole data range with a little padding (at least one second wide). */
export function fitWindow(first: number, last: number): TimeWindow {
  const span = Math.max(1000, last - first);
  return { start: first - span * 0.02, end: first + span * 1.03 };
}

const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000];

const DAY = 86_400_000;
/** Past a day: weeks, months, quarters, half-years (in days), then years in 1-2-5 steps. */
const LONG_DAYS = [2, 7, 14, 30, 91, 182, 365];

/**
 * The smallest readable step that puts at least `minPx` between ticks: so a window of any span (a trace whose times
 * run over decades) draws at most about width / minPx ticks.
 */
export function tickStep(w: TimeWindow, width: number, minPx = 80): number {
  const perPx = (w.end - w.start) / Math.max(1, width);
  for (const s of STEPS) if (s / perPx >= minPx) return s;
  for (const d of LONG_DAYS) if ((d * DAY) / perPx >= minPx) return d * DAY;
  const years = (minPx * perPx) / (365 * DAY);
  if (!Number.isFinite(years)) return Number.MAX_VALUE;
  const pow = 10 ** Math.floor(Math.log10(years));
  const nice = [1, 2, 5, 10].find((k) => k * pow >= years)!;
  return nice * pow * 365 * DAY;
}

export function ticks(w: TimeWindow, width: number, minPx = 80): number[] {
  const step = tickStep(w, width, minPx);
  const out: number[] = [];
  // Day ticks fall on local midnight (their labels are local dates); shorter steps on round UTC multiples, which are
  // round local times too wherever the offset is whole hours.
  const shift = step >= DAY ? -new Date(w.start).getTimezoneOffset() * 60_000 || 0 : 0;
  for (let t = Math.ceil((w.start + shift) / step) * step - shift; t <= w.end; t += step) out.push(t);
  return out;
}

/** First index in `arr` (sorted by `key`) whose key is ≥ `t`. */
export function lowerBound<T>(arr: readonly T[], t: number, key: (x: T) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(arr[mid]!) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index range of items with key in [start, end]. */
export function visibleRange<T>(arr: readonly T[], w: TimeWindow, key: (x: T) => number, before = 0): [number, number] {
  return [lowerBound(arr, w.start - before, key), lowerBound(arr, w.end + 1e-9, key)];
}

/** The mark nearest to time `t` within `tolerance` ms, or undefined. */
export function nearestMark(marks: readonly Mark[], t: number, tolerance: number): Mark | undefined {
  const i = lowerBound(marks, t - tolerance, (m) => m.t);
  let best: Mark | undefined;
  for (let k = i; k < marks.length && marks[k]!.t <= t + tolerance; k++) {
    if (!best || Math.abs(marks[k]!.t - t) < Math.abs(best.t - t)) best = marks[k];
  }
  return best;
}

/**
 * The read bar under time `t` (with `tolerance` ms slack for very short bars); with `row`, only one drawn in that row.
 * Of several, the last sent: where reads share a row (a third in flight at once), each is found from its start on.
 */
export function readAt(lane: UriLane, t: number, tolerance: number, now: number, row?: number): ReadBar | undefined {
  const back = t - lane.maxReadMs - tolerance;
  const from = lowerBound(lane.reads, back, (r) => r.t0);
  let found: ReadBar | undefined;
  for (let k = from; k < lane.reads.length && lane.reads[k]!.t0 <= t + tolerance; k++) {
    const r = lane.reads[k]!;
    if (row !== undefined && readRow(r) !== row) continue;
    if (t >= r.t0 - tolerance && t <= (r.t1 ?? now) + tolerance) found = r;
  }
  if (found) return found;
  // A read still waiting that began before that (maxReadMs knows only closed reads) reaches to now.
  for (const r of lane.open) if (r.t0 < back && t <= now + tolerance && (row === undefined || readRow(r) === row)) found = r;
  return found;
}

// ---- lane geometry ------------------------------------------------------------------------------------------------
// A URI lane (y from its top, CSS px) has a band for marks on top and rows for reads under it, apart: a re-read sent
// just after a notification sits below the notification's diamond, not under it. Reads in flight at once take a row
// each (ReadBar.slot; a third or later shares the last row). The drawing (timeline-draw.ts) and the hit testing
// (uriLaneHit) both use these numbers.

/** A lane's height (the lane names beside the canvas are as tall: `.lane-label` in styles.css). */
export const LANE_H = 24;
/** The marks' band: subscribes ▲, unsubscribes ▼ and notifications ◆ span it. */
export const MARK_TOP = 2;
export const MARK_BOTTOM = 10;
/** The first read row's top, each row's height, the step from one row's top to the next's, and how many rows. */
export const READ_TOP = 12;
export const READ_ROW_H = 4;
export const READ_ROW_STEP = 5;
export const READ_ROWS = 2;
/** A read's bar is at least this wide (an answer within the same pixel is still a visible block). */
export const READ_MIN_W = 3;

/** The row a read is drawn in. */
export function readRow(b: ReadBar): number {
  return b.slot < READ_ROWS ? b.slot : READ_ROWS - 1;
}

/** The top of read row `row`, from the lane's top. */
export function readRowTop(row: number): number {
  return READ_TOP + row * READ_ROW_STEP;
}

/**
 * What the pointer is on in a URI lane, `dy` px below the lane's top: in the marks' band, the nearest mark (else a
 * read); in the reads' rows, the read of the row under it (else of another row, else a mark). `tolerance` in ms.
 */
export function uriLaneHit(lane: UriLane, t: number, dy: number, tolerance: number, now: number): { mark: Mark | undefined; bar: ReadBar | undefined } {
  if (dy < READ_TOP - 1) {
    const mark = nearestMark(lane.marks, t, tolerance);
    return { mark, bar: mark ? undefined : readAt(lane, t, tolerance, now) };
  }
  const row = Math.max(0, Math.min(READ_ROWS - 1, Math.floor((dy - READ_TOP) / READ_ROW_STEP)));
  const bar = readAt(lane, t, tolerance, now, row) ?? readAt(lane, t, tolerance, now);
  return { mark: bar ? undefined : nearestMark(lane.marks, t, tolerance), bar };
}

/** What hovering a read bar says: when it was sent, and how it ended (answered, failed, no answer and why, waiting). */
export function describeRead(b: ReadBar): string {
  const sent = `read at ${formatClock(b.t0)}`;
  if (b.t1 === undefined) return `${sent}, no answer yet`;
  const after = formatDuration(b.t1 - b.t0);
  if (b.noAnswer !== undefined) return `${sent}, ${b.failed ? 'failed' : 'ended'} after ${after}: ${b.noAnswer}`;
  return `${sent}, answered after ${after}${b.failed ? ' (failed)' : ''}`;
}

/**
 * The instants the scrubber stops at: the distinct times of the messages and of the state's changes without one (a
 * delivery stream opened or closed, a session ended: MessageStore.turns), in arrival order (a replay takes everything
 * up to an instant, so what came in one millisecond is one stop), never going back (clocks of several documents
 * interleave), with how many messages each one includes.
 */
export interface ScrubSteps {
  t: Float64Array;
  /** Messages at or before t[k]. */
  upTo: Int32Array;
  length: number;
}

export function scrubSteps(messages: MessageList | undefined): ScrubSteps {
  const n = messages?.count ?? 0;
  const turns = messages?.store.turns ?? [];
  // The turns within the list: before its last message, or after it (the list is the engine's whole list).
  let m = turns.length;
  while (m > 0 && turns[m - 1]!.count > n) m--;
  const t = new Float64Array(n + m);
  const upTo = new Int32Array(n + m);
  let len = 0;
  let max = -Infinity;
  const stop = (x: number, count: number): void => {
    if (x > max) {
      max = x;
      t[len] = x;
      len++;
    }
    if (len > 0) upTo[len - 1] = count;
  };
  let j = 0;
  for (let i = 0; i <= n; i++) {
    // The turns that came after message i - 1 and before message i.
    for (; j < m && turns[j]!.count <= i; j++) stop(turns[j]!.t, i);
    if (i < n) stop(messages!.store.tAt(i), i + 1);
  }
  return { t: t.subarray(0, len), upTo: upTo.subarray(0, len), length: len };
}

/** The last stop at or before `t` (0 when `t` is before them all). */
export function positionOf(steps: ScrubSteps, t: number): number {
  let lo = 0;
  let hi = steps.length - 1;
  let at = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps.t[mid]! <= t) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return at;
}

/** How far out zooming goes for data spanning `dataSpan` ms: twenty times it, at least a minute (not a week for 0.5 s). */
export function maxZoomSpan(dataSpan: number): number {
  return Math.min(MAX_SPAN_MS, Math.max(60_000, dataSpan * 20));
}

/** An axis label: with the date when ticks are a day or more apart (every label would read 00:00:00). */
export function tickLabel(t: number, step: number, clock: (t: number) => string): string {
  if (step >= DAY) {
    const d = new Date(t);
    if (Number.isNaN(d.getTime())) return '';
    // Ticks a month or more apart say the year too (a trace whose times run over years).
    return `${d.toLocaleString('en-US', { month: 'short' })} ${d.getDate()}${step >= 30 * DAY ? ` ${d.getFullYear()}` : ''}`;
  }
  return step < 1000 ? clock(t) : clock(t).slice(0, 8);
}
