// The client side per page document and endpoint: what the page's MCP client negotiated, its sessions (2025) or listen
// streams (2026), its in-flight reads and their send order, and its URI rows. A page reload is a new document and so a
// new client: caches live in page memory.
import { EitherRun, WorkRun } from './work-run.ts';
import type { Generation, RequestId, Transport } from '../decode/types.ts';
import type { SubscriptionLedger } from './ledger.ts';
import type { Reconnect } from './core.ts';
import { uriSpellingKey } from '../findings/uri-spelling.ts';
import { UriState } from './uri-state.ts';

/**
 * Reads in flight: the request's message index → its send order (its URI and seq are the message's). A client has
 * rarely more than a few reads out at once, so they sit in a few slots and only an overflow goes to a Map: an insert
 * and a delete in a Map per read cost more than the rest of the read's bookkeeping.
 */
export class InflightReads {
  private index: number[] = [-1, -1, -1, -1];
  private order: number[] = [0, 0, 0, 0];
  private more: Map<number, number> | undefined;

  add(index: number, order: number): void {
    for (let i = 0; i < this.index.length; i++) {
      if (this.index[i] === -1) {
        this.index[i] = index;
        this.order[i] = order;
        return;
      }
    }
    (this.more ??= new Map()).set(index, order);
  }

  /** The send order of a read in flight, which is no longer in flight after this; undefined if it was not. */
  take(index: number): number | undefined {
    for (let i = 0; i < this.index.length; i++) {
      if (this.index[i] === index) {
        this.index[i] = -1;
        return this.order[i];
      }
    }
    const o = this.more?.get(index);
    if (o !== undefined) this.more!.delete(index);
    return o;
  }
}

/**
 * A session the server ended while it was the client's current one: the client must initialize again. `next` is the
 * legacy HTTP+SSE case: the stream reconnected by itself to a new session, which the client uses without initializing.
 */
export interface ExpiredSession {
  ledger: SubscriptionLedger;
  next?: SubscriptionLedger;
  t: number;
  seq: number;
  /** The ending's frames and the first requests that still used the dead (or uninitialized) session; capped. */
  evidence: number[];
  /** Requests that used it, all of them (the evidence keeps a few). */
  uses: number;
}

export class ClientModel {
  transport: Transport;
  generation: Generation;
  version: string | undefined;
  /** The highest version negotiated so far (version-regression). */
  maxVersion: string | undefined;
  serverSubscribe: boolean | undefined;
  capsSeen = false;
  readonly uris = new Map<string, UriState>();
  /** 2025: the session the client uses now. */
  current: SubscriptionLedger | undefined;
  readonly sessions: SubscriptionLedger[] = [];
  /** 2026: listen streams by request id. */
  /** By the listen request's raw id: a Map tells 1 from "1", so no key string is built per notification. */
  readonly listens = new Map<RequestId, SubscriptionLedger>();
  /** connection → the listen sent on it: two SDK clients of one page number their listens alike (`listen:1`). */
  readonly listenByConn = new Map<string, SubscriptionLedger>();
  /** How many listens used each request id (a reused id is a new stream: see onListenSent). */
  readonly listenIdUses = new Map<RequestId, number>();
  private readOrder = 0;
  readonly inflight = new InflightReads();
  initSent: { t: number; seq: number } | undefined;
  /** The current session was ended by the server (404/400) and no initialize followed yet. */
  expired: ExpiredSession | undefined;
  /** 2026: the seq of the client's latest listen request (-1: none yet). */
  lastListenSeq = -1;
  /** This client's latest reconnect (subscribes after it count as resubscribing; another client's do not). */
  lastReconnect: Reconnect | undefined = undefined;
  /** Working through a reconnect (work-run.ts): begun by an initialize, stepped by each URI subscribed again. Excuses phantom and lost coverage. */
  readonly resubscribing = new WorkRun();
  /** Initialize attempts (retried while the server is down, too). Excuses no-delivery-channel, with the session's own GET retries. */
  readonly reinitializing = new WorkRun();
  /** Re-reading notified URIs one after another, each URI once. Excuses notified-not-reread. */
  readonly rereading = new WorkRun();
  /** Catching up after delivery gaps: resubscribing lapsed URIs, then reading the doubted ones again (findings/gap.ts). */
  readonly catchingUp = new WorkRun();
  /**
   * What excuses a catch-up read not sent yet: the catch-up itself, or the reconnect's resubscribes still going — a
   * client that subscribes everything again and then reads it all again waits on a slow server's answers in between,
   * and its first URI's read comes only after the last answer (the demo's healthy client against 2.5 s subscribes,
   * 2026-12-05: a resume-gap note, "read again only 2507 ms after").
   */
  readonly catchUpExcuse = new EitherRun(this.catchingUp, this.resubscribing);
  ended = false;

  constructor(
    readonly key: string,
    readonly doc: string,
    readonly endpoint: string,
    transport: Transport,
    generation: Generation,
  ) {
    this.transport = transport;
    this.generation = generation;
  }

  private lastUri: UriState | undefined;

  uri(uri: string): UriState {
    // A read answer carries its request's very URI string: the last row is usually the one asked for.
    const l = this.lastUri;
    if (l && l.uri === uri) return l;
    let u = this.uris.get(uri);
    if (!u) {
      this.uris.set(uri, (u = new UriState(`${this.key} ${uri}`, uri, this)));
      if (this.spellings) indexSpelling(this.spellings, u);
      if (this.folders) indexFolder(this.folders, u);
    }
    this.lastUri = u;
    return u;
  }

  /** URI rows by RFC 3986 spelling key, built the first time a miss asks (then kept up to date as rows appear). */
  private spellings: Map<string, UriState[]> | undefined = undefined;

  /**
   * folder (ending in `/`) → every URI under it at any depth (each URI is in the list of each of its folders, a few);
   * built the first time a parent-like URI changes.
   */
  private folders: Map<string, UriState[]> | undefined = undefined;

  /** The URIs under any of `dirs` (folders ending in `/`), at any depth, each once. */
  urisUnder(dirs: ReadonlySet<string>): UriState[] {
    if (!this.folders) {
      this.folders = new Map();
      for (const x of this.uris.values()) indexFolder(this.folders, x);
    }
    if (dirs.size === 1) for (const d of dirs) return this.folders.get(d)?.slice() ?? [];
    const out = new Set<UriState>();
    for (const d of dirs) for (const u of this.folders.get(d) ?? []) out.add(u);
    return [...out];
  }

  /** The other rows of this client that spell the same resource differently (usually none). */
  sameResource(u: UriState): readonly UriState[] {
    if (!this.spellings) {
      this.spellings = new Map();
      for (const x of this.uris.values()) indexSpelling(this.spellings, x);
    }
    const same = this.spellings.get(spellingKeyOf(u))!;
    return same.length === 1 ? NONE : same.filter((x) => x !== u);
  }

  nextReadOrder(): number {
    return ++this.readOrder;
  }

  listen(id: RequestId): SubscriptionLedger | undefined {
    return this.listens.get(id);
  }

  /**
   * The listen `id` names in a message or event on `conn`: the listen sent on that connection when it has that id
   * (its acknowledgement, updates, result and end arrive there), else the latest listen with that id.
   */
  listenOn(id: RequestId, conn: string): SubscriptionLedger | undefined {
    const own = this.listenByConn.get(conn);
    return own !== undefined && own.listenId !== undefined && String(own.listenId) === String(id) ? own : this.listens.get(id);
  }

  /** Bumped whenever ledgersEndedWith could answer differently: a ledger ended, or an ended one let go of a URI. */
  ledgerEpoch = 0;

  /**
   * uri → the most recently ended session or listen that held it, valid while `endedIndexEpoch === ledgerEpoch`. A
   * scan of every ended ledger per URI, asked again for every URI after every reconnect, made a client with thousands
   * of URIs and hundreds of reconnects take half a minute; an ending ledger updates the index with what it held.
   */
  private endedIndex = new Map<string, SubscriptionLedger>();
  private endedIndexEpoch = 0;

  /** A ledger ended: a new epoch, and it is now the latest ended ledger for every URI it held. */
  ledgerEnded(l: SubscriptionLedger): void {
    const current = this.endedIndexEpoch === this.ledgerEpoch;
    this.ledgerEpoch++;
    // Only the plain case is done in place (what a rebuild would pick, in its order): a later end than every indexed
    // one (not a tie: several ledgers ending at one seq are ordered as the scan orders them), of a ledger the scan sees.
    if (!current || (l.kind === 'listen' && this.listens.get(l.listenId!) !== l)) return;
    const seq = l.endSeq ?? 0;
    for (const uri of l.uris) {
      const best = this.endedIndex.get(uri);
      if (best !== undefined && (best.endSeq ?? 0) >= seq) return;
      this.endedIndex.set(uri, l);
    }
    this.endedIndexEpoch = this.ledgerEpoch;
  }

  /** The most recently ended session or listen that held `uri` (for explanations; UriState.endedWith memoizes it). */
  ledgersEndedWith(uri: string): SubscriptionLedger | undefined {
    if (this.endedIndexEpoch !== this.ledgerEpoch) this.rebuildEndedIndex();
    return this.endedIndex.get(uri);
  }

  private rebuildEndedIndex(): void {
    const index = this.endedIndex;
    index.clear();
    const add = (l: SubscriptionLedger) => {
      if (l.open) return;
      for (const uri of l.uris) {
        const best = index.get(uri);
        if (!best || (l.endSeq ?? 0) > (best.endSeq ?? 0)) index.set(uri, l);
      }
    };
    for (const l of this.sessions) add(l);
    for (const l of this.listens.values()) add(l);
    this.endedIndexEpoch = this.ledgerEpoch;
  }

  /** Open listens of this client that asked for `uri`, other than `except`. */
  otherListenAsking(uri: string, except: SubscriptionLedger): SubscriptionLedger | undefined {
    for (const l of this.listens.values()) if (l !== except && l.open && l.requested?.includes(uri)) return l;
    return undefined;
  }
}

const NONE: readonly UriState[] = Object.freeze([]);
const spellingKeys = new WeakMap<UriState, string>();
function spellingKeyOf(u: UriState): string {
  let k = spellingKeys.get(u);
  if (k === undefined) spellingKeys.set(u, (k = uriSpellingKey(u.uri)));
  return k;
}

function indexSpelling(index: Map<string, UriState[]>, u: UriState): void {
  const k = spellingKeyOf(u);
  const list = index.get(k);
  if (list) list.push(u);
  else index.set(k, [u]);
}

function indexFolder(folders: Map<string, UriState[]>, u: UriState): void {
  const uri = u.uri;
  for (let i = uri.indexOf('/'); i >= 0 && i < uri.length - 1; i = uri.indexOf('/', i + 1)) {
    const folder = uri.slice(0, i + 1);
    const list = folders.get(folder);
    if (list) list.push(u);
    else folders.set(folder, [u]);
  }
}
