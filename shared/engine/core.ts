// The engine's state and the few operations every rule is written in: find a client / session, hold or release a
// subscription, end a ledger, change what the client believes, move a URI along the chart, re-check a URI's
// conditions. Handlers (on-message.ts, on-wire.ts) and finding families (../findings/*) are written against this.
import type { Generation, Transport } from '../decode/types.ts';
import { evaluateCoverage, isParentLike, parentDir } from '../findings/coverage.ts';
import { ConditionSet, FindingLog } from '../findings/finding-log.ts';
import { closeGapsOfLedger } from '../findings/gap.ts';
import type { CoverageReason } from '../findings/types.ts';
import type { NodeId } from '../flow/chart.ts';
import { FlowTracker, type FlowJumps, type FlowWalk } from '../flow/flow-tracker.ts';
import { dueWalks, phantomWaits, rereadWaits, type FlowPending } from './flow-rules.ts';
import { ClientModel } from './client-model.ts';
import { compileRules, type CompiledRule } from './freshness.ts';
import { SubscriptionLedger, takeResubscribe } from './ledger.ts';
import { MessageStore } from './message-list.ts';
import { DEFAULT_GRACE_MS, DEFAULT_MAX_AGE_MS, type EndCause, type EngineOptions, type StreamView } from './types.ts';
import type { Pending, UriState } from './uri-state.ts';

export interface Counters {
  frames: number;
  messages: number;
  invalidMessages: number;
  unknownMessages: number;
  captureErrors: number;
  notifications: number;
  notificationsForCached: number;
  notificationsReread: number;
  listChanged: number;
  subscribeRequested: number;
  subscribeSucceeded: number;
  subscribeFailed: number;
  initializations: number;
  reads: number;
  staleOverwrites: number;
  updatesDroppedInferred: number;
  firstT: number | undefined;
}

/** A re-initialize (2025) or re-listen (2026): which believed URIs still had to be subscribed again. */
export interface Reconnect {
  client: ClientModel;
  t: number;
  seq: number;
  believed: number;
  /** Its index in EngineCore.reconnects. */
  index: number;
  /**
   * Believed URIs not subscribed again yet. Each is marked (`UriState.missingIn`) rather than listed: a list per
   * reconnect would hold URIs × reconnects. Subscribes strike them off while this is its client's latest reconnect.
   */
  missingCount: number;
}

/** `u` was subscribed again after reconnect `r` (when `r` is still the latest). */
export function strikeMissing(r: Reconnect, u: UriState | undefined): void {
  if (u === undefined || u.missingIn !== r.index) return;
  u.missingIn = -1;
  r.missingCount--;
}

export const STREAM_HISTORY = 200;

const ALL_INFERRED: readonly boolean[] = [true, true, true, true];

/** A session's wire id, scoped by its endpoint. */
function wireKey(endpoint: string, id: string): string {
  return `${endpoint} ${id}`;
}

export class EngineCore {
  readonly grace: number;
  readonly defaultMaxAgeMs: number;
  readonly rules: CompiledRule[];
  readonly clients = new Map<string, ClientModel>();
  readonly ledgers: SubscriptionLedger[] = [];
  /**
   * 2025 sessions by endpoint and wire id (`sessionAt`): two servers of one page may both number their sessions from 1
   * (a fuzz audit, 2026-12-05: they were one session, and one server's DELETE ended the other's).
   */
  private readonly sessionsByWireId = new Map<string, Map<string, SubscriptionLedger>>();
  /** How many session ledgers took each wire id: the second and later get `<id> #<n>` as their key (unique in a snapshot). */
  private readonly sessionKeyUses = new Map<string, number>();
  /** Open long-lived streams, and the most recent closed ones. */
  readonly openStreams = new Map<string, StreamView>();
  readonly closedStreams: StreamView[] = [];
  /** Closed streams were dropped from the front of closedStreams (it keeps the latest only). */
  streamsDropped = false;
  /** Open GET / legacy SSE / WebSocket channels per endpoint and session id (a channel can open before its session is known). */
  readonly channelCount = new Map<string, number>();
  readonly log = new FindingLog();
  readonly conds: ConditionSet;
  readonly flow = new FlowTracker();
  readonly messages: MessageStore;
  readonly reconnects: Reconnect[] = [];

  /** A reconnect of `client`, after which `missing` were still to be subscribed again (the earlier reconnects' marks are replaced). */
  addReconnect(client: ClientModel, t: number, seq: number, believed: number, missing: Iterable<UriState>): void {
    const r: Reconnect = { client, t, seq, believed, index: this.reconnects.length, missingCount: 0 };
    for (const u of missing) {
      u.missingIn = r.index;
      r.missingCount++;
    }
    this.reconnects.push(r);
    client.lastReconnect = r;
  }
  readonly counters: Counters = {
    frames: 0,
    messages: 0,
    invalidMessages: 0,
    unknownMessages: 0,
    captureErrors: 0,
    notifications: 0,
    notificationsForCached: 0,
    notificationsReread: 0,
    listChanged: 0,
    subscribeRequested: 0,
    subscribeSucceeded: 0,
    subscribeFailed: 0,
    initializations: 0,
    reads: 0,
    staleOverwrites: 0,
    updatesDroppedInferred: 0,
    firstT: undefined,
  };
  /** Parent-like URIs (`…/`, `…/schema`, patterns) held per client, with how many hold each, for the parent-only reason. */
  readonly parentLike = new Map<ClientModel, Map<string, number>>();
  /** The same, by the folder each stands for (parentDir): a URI finds its parents by its own folders. */
  readonly parentsByDir = new Map<ClientModel, Map<string, string[]>>();
  /**
   * Parent-like URIs that became held or were let go during the current frame, per client: the cached URIs under them
   * are explained again once, at the frame's end (flushParents), however many parents changed.
   */
  private parentsChanged: Map<ClientModel, Set<string>> | undefined;
  /** Each document's page, from its page-start: which client is which when several show the same URIs. */
  readonly pages = new Map<string, { url: string; top: boolean }>();
  /**
   * The last frame applied (the caller's object, shared by a fork; callers do not change a frame once applied): its
   * time is read from it when asked for. Reading `frame.t` in Engine.apply, whose frames have many shapes, made a new
   * heap number per frame. It keeps that one frame alive (its body too, at most the capture cap) until the next.
   */
  lastFrame: { readonly t: number } | undefined;
  get lastT(): number | undefined {
    return this.lastFrame?.t;
  }
  lastSeq = 0;
  /**
   * The last pending re-read answered (answerPending), no longer referred to by anything: the next notification's wait
   * refills it instead of a new object (noteNotified). Not copied by a fork (Engine.fork clears it first).
   */
  spareReread: Pending | undefined;
  /** The same for a settled re-read's record (Pending.reread): refilled by the next re-read sent (noteReadSent). */
  spareSent: NonNullable<Pending['reread']> | undefined;
  /** The same for a re-read's inferred walk (UriState.flowReread) dropped by noteReadSent: refilled by noteNotified. */
  spareFlow: FlowPending | undefined;
  /** A spare object for reuse is no state: a fork copies none (it makes its own when it needs one). */
  dropSpares(): void {
    this.spareReread = undefined;
    this.spareSent = undefined;
    this.spareFlow = undefined;
  }
  /** Bumped on every frame: snapshots are cached per version and `now`. */
  version = 0;

  constructor(options: EngineOptions = {}) {
    this.grace = options.graceMs ?? DEFAULT_GRACE_MS;
    this.defaultMaxAgeMs = options.defaultMaxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.rules = compileRules(options.freshnessRules);
    this.conds = new ConditionSet(this.log, this.grace);
    this.messages = new MessageStore(options.retainMessages ?? true);
  }

  /** By document, then endpoint: looked up for every message, so no key string is built on the way. */
  private byDoc = new Map<string, Map<string, ClientModel>>();

  private last: ClientModel | undefined;

  client(doc: string, endpoint: string, transport: Transport, generation: Generation): ClientModel {
    const l = this.last;
    if (l && l.doc === doc && l.endpoint === endpoint && l.generation === generation && l.transport === transport) return l;
    let m = this.byDoc.get(doc);
    if (!m) this.byDoc.set(doc, (m = new Map()));
    let c = m.get(endpoint);
    if (!c) {
      const key = `${doc} ${endpoint}`;
      c = new ClientModel(key, doc, endpoint, transport, generation);
      m.set(endpoint, c);
      this.clients.set(key, c);
    } else if (c.generation !== generation || c.transport !== transport) {
      c.transport = transport;
      c.generation = generation;
    }
    this.last = c;
    return c;
  }

  /** A new ledger, registered everywhere it must be found. */
  newLedger(
    client: ClientModel,
    key: string,
    label: string,
    kind: 'session' | 'listen',
    t: number,
    seq: number,
    observedFromStart: boolean,
  ): SubscriptionLedger {
    let unique = key;
    if (kind === 'session') {
      // A page that reloads and resumes its stored session id, or two servers that hand out the same id: one label,
      // distinct keys (the Sessions view, the lanes and the drawer find a session by its key).
      const uses = (this.sessionKeyUses.get(key) ?? 0) + 1;
      this.sessionKeyUses.set(key, uses);
      if (uses > 1) unique = `${key} #${uses}`; // (a session id has no space: no clash with one)
    }
    const l = new SubscriptionLedger(unique, label, kind, client, client.transport, client.generation, t, seq, observedFromStart);
    this.ledgers.push(l);
    if (kind === 'session') {
      let ids = this.sessionsByWireId.get(client.endpoint);
      if (!ids) this.sessionsByWireId.set(client.endpoint, (ids = new Map()));
      ids.set(key, l);
      client.sessions.push(l);
      // What the page's requests with this id said in MCP-Protocol-Version before its first message made this ledger.
      const h = this.headerVersions.get(wireKey(client.endpoint, key));
      if (h !== undefined && h.doc === client.doc) l.headerVersion = h.version;
      l.setChannels(this.channelCount.get(wireKey(client.endpoint, key)) ?? 0, t);
      if (l.channels > 0) l.channelEverOpened = true;
    }
    return l;
  }

  /** The MCP-Protocol-Version header of the latest request with a session id, per endpoint and id (and its page). */
  private readonly headerVersions = new Map<string, { doc: string; version: string }>();

  /**
   * What the last noteHeaderVersion recorded (refilled in place): the same client, id and version again — every
   * request of a session says the same — record nothing new, so no key string is built and hashed per request.
   */
  private readonly lastHeaderNote: { client: ClientModel | undefined; id: string; version: string } = { client: undefined, id: '', version: '' };

  /**
   * A 2025 request with session id `id` said `version` in its MCP-Protocol-Version header; `l` is the session with that
   * id on the client's endpoint (sessionAt), if there is one.
   */
  noteHeaderVersion(client: ClientModel, id: string, version: string, l: SubscriptionLedger | undefined): void {
    if (l !== undefined && l.client === client) l.headerVersion = version;
    const last = this.lastHeaderNote;
    if (last.client === client && last.id === id && last.version === version) return;
    last.client = client;
    last.id = id;
    last.version = version;
    const k = wireKey(client.endpoint, id);
    const h = this.headerVersions.get(k);
    if (h === undefined || h.doc !== client.doc || h.version !== version) this.headerVersions.set(k, { doc: client.doc, version });
  }

  /** The latest 2025 session (or legacy / WebSocket connection) with this id on this endpoint. */
  sessionAt(endpoint: string, id: string): SubscriptionLedger | undefined {
    return this.sessionsByWireId.get(endpoint)?.get(id);
  }

  /** Counts a channel (GET stream, legacy stream, socket) of a session id on an endpoint opening (+1) or closing (-1). */
  countChannel(endpoint: string, id: string, delta: 1 | -1): void {
    const k = wireKey(endpoint, id);
    this.channelCount.set(k, Math.max(0, (this.channelCount.get(k) ?? 0) + delta));
  }

  /** The 2025 session a message belongs to; one first seen mid-way (no initialize observed) is created as partial. */
  session(client: ClientModel, session: string | undefined, t: number, seq: number): SubscriptionLedger | undefined {
    if (session === undefined) return client.current;
    const known = this.sessionAt(client.endpoint, session);
    // A session another client ended (a page that reloaded and resumes its stored session id: the SDK transport's
    // sessionId option skips initialize) is this client's now, picked up mid-way.
    if (known && (known.client === client || known.open)) return known;
    const l = this.newLedger(client, session, session, 'session', t, seq, false);
    // The id of a session that ended: the page resumed it on purpose (a reload with the stored id), not a late capture.
    if (known) l.resumedFrom = known.key;
    if (!client.current || !client.current.open) client.current = l;
    return l;
  }

  /** `askedT`: when the client asked for it (a subscribe's request), if not at `t`. */
  hold(u: UriState, l: SubscriptionLedger, t: number, seq: number, askedT = t): void {
    if (!l.open) return;
    // Subscribed in its own right now (a sub-resource update may have held it through its parent before).
    l.viaParent?.delete(u.uri);
    l.uris.add(u.uri);
    if (u.holders.includes(l)) return;
    u.holders.push(l);
    if (u.holders.length === 1) {
      u.heldSince = t;
      u.heldSeq = seq;
      u.heldAskedT = Math.min(askedT, t);
    }
    u.loss = undefined;
    if (isParentLike(u.uri) && this.countParent(u.client, u.uri, +1)) this.parentChanged(u);
  }

  unhold(u: UriState, l: SubscriptionLedger, t: number, seq: number, reason: CoverageReason): void {
    // What an ended ledger holds explains losses (ClientModel.ledgersEndedWith): a change to it is a new epoch.
    if (l.uris.delete(u.uri) && !l.open) l.client.ledgerEpoch++;
    this.release(u, l, t, seq, reason);
    // Sub-resources held through this parent go with it.
    const via = l.viaParent;
    if (via !== undefined && via.size > 0) {
      const children: string[] = [];
      for (const [child, parent] of via) if (parent === u.uri) children.push(child);
      for (const child of children) {
        const cu = u.client.uris.get(child);
        if (cu) {
          this.unhold(cu, l, t, seq, reason);
          this.reevaluate(cu, t, seq);
        } else via.delete(child);
      }
    }
  }

  /** The URI row's side of unhold. */
  private release(u: UriState, l: SubscriptionLedger, t: number, seq: number, reason: CoverageReason): void {
    // A URI held only because its parent's updates covered it was never subscribed itself: that is what it lost.
    if (l.viaParent?.delete(u.uri)) reason = 'never-subscribed';
    const i = u.holders.indexOf(l);
    if (i < 0) return;
    const deliveredTo = u.channelOpen ? t : u.deliveryEndedT();
    u.holders.splice(i, 1);
    if (u.holders.length === 0) {
      u.deliveryLostT = deliveredTo;
      u.heldSinceBeforeRelease = u.heldSince;
      u.heldSince = undefined;
      u.heldAskedT = undefined;
      u.releasedT = t;
      u.released = { seq, reason };
      u.loss = { reason, t, seq };
    }
    if (isParentLike(u.uri) && this.countParent(u.client, u.uri, -1)) this.parentChanged(u);
  }

  /** Counts the holders of a parent-like URI; whether it became held or stopped being held. */
  private countParent(c: ClientModel, uri: string, d: number): boolean {
    let m = this.parentLike.get(c);
    if (!m) this.parentLike.set(c, (m = new Map()));
    const before = m.get(uri) ?? 0;
    const n = before + d;
    if (n > 0) m.set(uri, n);
    else m.delete(uri);
    const changed = (before === 0) !== (n <= 0);
    if (changed) {
      const dir = parentDir(uri);
      let byDir = this.parentsByDir.get(c);
      if (!byDir) this.parentsByDir.set(c, (byDir = new Map()));
      const list = byDir.get(dir) ?? [];
      const next = n > 0 ? [...list, uri] : list.filter((p) => p !== uri);
      if (next.length > 0) byDir.set(dir, next);
      else byDir.delete(dir);
    }
    return changed;
  }

  private parentChanged(parent: UriState): void {
    const m = (this.parentsChanged ??= new Map());
    let s = m.get(parent.client);
    if (!s) m.set(parent.client, (s = new Set()));
    s.add(parent.uri);
  }

  /**
   * At a frame's end: the cached URIs that nothing holds under a parent-like URI that became held or was let go are
   * explained again (a client that reads a document and then subscribes its folder believes the folder covers it:
   * parent-only, not never-subscribed). Found by folder (ClientModel.urisUnder), once per frame however many parents changed.
   */
  flushParents(frame: { readonly t: number; readonly seq: number }): void {
    const m = this.parentsChanged;
    if (m === undefined) return;
    this.parentsChanged = undefined;
    // The frame, not its time: reading frame.t on every frame (many shapes) made a new heap number each time.
    const { t, seq } = frame;
    for (const [c, parents] of m) {
      const dirs = new Set<string>();
      for (const p of parents) {
        const d = parentDir(p);
        if (d.length > 0) dirs.add(d);
      }
      if (dirs.size === 0) continue;
      for (const o of c.urisUnder(dirs)) {
        // A URI that lost its own subscription is explained by that loss, whatever its parent does.
        if (o.cached && !o.held && !parents.has(o.uri) && (o.loss === undefined || o.loss.reason === 'never-subscribed')) this.reevaluate(o, t, seq);
      }
    }
  }

  believe(u: UriState, listen: SubscriptionLedger | undefined, seq: number): void {
    u.believed = true;
    u.believedSeq = seq;
    u.beliefListen = listen;
  }

  /** The client knows it is not subscribed (it withdrew, or was told no). */
  disbelieve(u: UriState, reason: CoverageReason, t: number, seq: number): void {
    u.believed = false;
    u.beliefListen = undefined;
    u.flowStage = undefined;
    if (!u.held) u.loss = { reason, t, seq };
  }

  /**
   * A session or listen stream ended: nothing it held can reach the page any more. Gone server-side, except after a
   * re-initialize (an end inferred from the page's side: the server may keep the session until it expires it, but no
   * stream of it is open; a GET stream the server opens on it again revives it).
   */
  endLedger(l: SubscriptionLedger, cause: EndCause, t: number, seq: number): void {
    if (!l.open) return;
    this.messages.turn(t);
    l.open = false;
    l.endT = t;
    l.endSeq = seq;
    l.endCause = cause;
    // Its refused GETs were attempts of this lifetime: a session revived later (revive) is not told of them.
    l.refusedGets = undefined;
    // What the client's resubscribing run waits on here gets no answer now: it stops waiting at once (not after
    // ANSWER_CAP_MS), before what it held off is judged — a listen not acknowledged, a session's subscribes in flight.
    const run = l.client.resubscribing;
    if (l.resubscribeGen !== undefined) run.answered(l.resubscribeGen, t, false);
    l.resubscribeGen = undefined;
    const awaiting = l.resubscribesAwaiting;
    while (awaiting !== undefined && awaiting.length > 0) {
      const gen = takeResubscribe(awaiting[awaiting.length - 1]!);
      if (gen !== undefined) run.answered(gen, t, false);
    }
    l.client.ledgerEnded(l);
    closeGapsOfLedger(this, l, cause === 'unload' ? 'before the page unloaded' : `before session ${l.label} ended`, t, seq);
    const reason: CoverageReason = l.kind === 'session' ? 'lost-on-reinit' : 'lost-with-stream';
    // Releasing empties viaParent: the views keep telling what it held in its own right from what a parent covered.
    if (l.viaParent !== undefined && l.viaParent.size > 0) l.viaParentAtEnd = new Map(l.viaParent);
    for (const uri of [...l.uris]) {
      const u = l.client.uris.get(uri);
      if (!u) continue;
      this.touch(u, t);
      // Keep what it held, for the session view (delete and add again, as always: the set's order is what it shows).
      l.uris.delete(uri);
      this.release(u, l, t, seq, reason);
      l.uris.add(uri);
      this.step(u, 'N', t, seq);
      if (l.kind === 'listen' && u.believed) u.flowStage = 'listen-ended';
      this.reevaluate(u, t, seq);
    }
    // A listen picked up mid-way may have asked for what it never delivered (coverage.ts says so): no longer.
    if (l.kind === 'listen' && !l.observedFromStart) for (const u of l.client.uris.values()) this.reevaluate(u, t, seq);
  }

  /**
   * A session we ended only by inference (the client initialized a new one) is used again: the client did not abandon
   * it (a second MCP client of the page on the same endpoint, or one that keeps both). It is open again, holding what
   * it held — the server never dropped it.
   */
  revive(l: SubscriptionLedger, t: number, seq: number): void {
    if (l.open || l.endCause !== 're-initialize') return;
    const endedT = l.endT;
    l.open = true;
    l.endT = undefined;
    l.endSeq = undefined;
    l.endCause = undefined;
    l.abandoned = false;
    l.client.ledgerEpoch++;
    for (const uri of [...l.uris]) {
      const u = l.client.uris.get(uri);
      if (!u) continue;
      this.touch(u, t);
      // Released only by the end this revive undoes: it never lapsed on the server, held since it was held before.
      const undone = u.releasedT === endedT;
      this.hold(u, l, t, seq);
      if (undone) {
        u.releasedT = undefined;
        u.released = undefined;
        const before = u.heldSinceBeforeRelease;
        if (before !== undefined && (u.heldSince === undefined || before < u.heldSince)) u.heldSince = u.heldAskedT = before;
      }
      this.reevaluate(u, t, seq);
    }
    // What a parent covered is covered again (hold made everything its own subscription).
    const via = l.viaParentAtEnd;
    l.viaParentAtEnd = undefined;
    if (via !== undefined) for (const [child, parent] of via) if (l.uris.has(child) && l.uris.has(parent)) (l.viaParent ??= new Map()).set(child, parent);
  }

  reevaluate(u: UriState, t: number, seq: number): void {
    evaluateCoverage(this, u, t, seq);
  }

  step(u: UriState, node: NodeId, t: number, seq: number, inferred = false): void {
    this.flow.step(u.flow, node, t, seq, inferred);
  }

  walk(u: UriState, nodes: readonly NodeId[], t: number, seq: number, inferred: readonly boolean[] = [], jumps?: FlowJumps): void {
    this.flow.walk(u.flow, nodes, t, seq, inferred, jumps);
  }

  /** A walk compiled once (flowWalk): the hot ones, a notification's E → F → G → I. */
  walkCompiled(u: UriState, w: FlowWalk, t: number, seq: number): void {
    this.flow.walkCompiled(u.flow, w, t, seq);
  }

  /**
   * Commit what time has made true for this URI before a new event touches it: a re-read that never came
   * (I ⇢ K → M), a phantom that settled (P → Q → M), a changed read no late notification explained (missed-update).
   */
  touch(u: UriState, t: number): void {
    const r = u.flowReread;
    const p = u.flowPhantom;
    if ((r !== undefined && t >= r.deadline) || (p !== undefined && t >= p.deadline)) {
      for (const w of dueWalks(u, t, this.grace)) {
        this.walk(u, w.nodes, w.deadline, w.seq, ALL_INFERRED, w.jumps);
        // The reconnect question is answered (no): a later subscribe is a new one.
        if (w.kind === 'phantom') u.flowStage = undefined;
      }
      // Walked, or its condition went away; kept while a run of the client's may still reach the URI.
      if (r !== undefined && t >= r.deadline && !rereadWaits(u, t, this.grace)) u.flowReread = undefined;
      if (p !== undefined && t >= p.deadline && !phantomWaits(u, t, this.grace)) u.flowPhantom = undefined;
    }
    const m = u.pendingMissed;
    if (m && t >= m.until) {
      u.pendingMissed = undefined;
      this.log.record({ id: 'missed-update', doc: u.client.doc, endpoint: u.client.endpoint, uri: u.uri, ...(m.session !== undefined ? { session: m.session } : {}), detail: m.detail }, m.t, m.t, m.evidence);
    }
  }

  streamOpened(v: StreamView): void {
    this.openStreams.set(v.stream, v);
    this.messages.turn(v.openT);
  }

  streamClosed(stream: string, t: number, seq: number, outcome: StreamView['outcome']): StreamView | undefined {
    const v = this.openStreams.get(stream);
    if (!v) return undefined;
    this.messages.turn(t);
    this.openStreams.delete(stream);
    const closed: StreamView = { ...v, open: false, closeT: t, closeSeq: seq };
    if (outcome !== undefined) closed.outcome = outcome;
    this.closedStreams.push(closed);
    if (this.closedStreams.length > STREAM_HISTORY * 2) {
      this.closedStreams.splice(0, STREAM_HISTORY);
      this.streamsDropped = true;
    }
    return closed;
  }
}

/**
 * The session a URI's finding is about: the open 2025 session that holds its subscription (a page with two clients on
 * one WebSocket or legacy endpoint has two open at once), else its client's current one (2026 has none).
 */
export function sessionOf(u: UriState): { session?: string } {
  const label = sessionLabelOf(u);
  return label !== undefined ? { session: label } : {};
}

/** sessionOf's label alone, with no object made (every read answer keeps it: UriState.readSession). */
export function sessionLabelOf(u: UriState): string | undefined {
  const holders = u.holders;
  for (let i = 0; i < holders.length; i++) {
    const l = holders[i]!;
    if (l.open && l.kind === 'session') return l.label;
  }
  return u.client.current?.label;
}
