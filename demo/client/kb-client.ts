// The knowledge-base viewer's client logic, with the seed's client bugs behind switches: it reads documents into its
// cache, subscribes to what it caches, re-reads (or only marks dirty) on notifications, and reconnects. What it believes
// (`believed`) is kept apart from what the server knows, on purpose: that gap is what the devtools panel shows. No DOM.
import { ClientMetrics } from './client-metrics.ts';
import type { ConnectOptions, ConnectionEvents, KbConnection, ListedResource } from './connection.ts';
import { connectV1 } from './connection-v1.ts';
import { connectV2 } from './connection-v2.ts';
import { ReadCache, type CacheEntry } from './read-cache.ts';
import type { ClientSwitches, ConnectionSettings } from './switches.ts';

export const LISTING_URI = 'file:///docs/';

export type ClientEventKind =
  | 'connected' | 'read' | 'read-discarded' | 'read-failed' | 'show'
  | 'notification' | 'notification-ignored' | 'marked-dirty'
  | 'subscribed' | 'subscribe-failed' | 'subscribe-skipped'
  | 'session-expired' | 'listen-closed' | 'poll' | 'log';

export interface ClientEvent {
  kind: ClientEventKind;
  at: number;
  uri?: string;
  text: string;
}

export interface KbClientOptions {
  serverUrl: string;
  connection: ConnectionSettings;
  switches: ClientSwitches;
  now?: () => number;
  /** Injectable for tests; defaults to the real SDK connections. */
  connect?: (o: ConnectOptions) => Promise<KbConnection>;
}

export interface ShowResult {
  entry: CacheEntry | undefined;
  fromCache: boolean;
  /** The served entry was older than its ttlMs. */
  expired: boolean;
}

const defaultConnect = (o: ConnectOptions) => (o.settings.generation === '2026-07-28' ? connectV2(o) : connectV1(o));

export class KbClient {
  readonly cache = new ReadCache();
  /** URIs the client believes it is subscribed to: every subscribe it sent that it did not see refused. */
  readonly believed = new Set<string>();
  /** Subscription targets the client knows are not subscribed on this connection; polled when fallbackPollMs > 0. */
  readonly polled = new Set<string>();
  readonly metrics = new ClientMetrics();
  documents: ListedResource[] = [];
  conn: KbConnection | undefined;
  switches: ClientSwitches;
  settings: ConnectionSettings;
  /** When a read, notification or connection last happened (for settling). */
  lastActivity = 0;
  /** The current connection's session expired (a 404 for its id); false again once a new connection is up. */
  sessionExpired = false;

  private readonly now: () => number;
  private readonly connectImpl: (o: ConnectOptions) => Promise<KbConnection>;
  private listeners = new Set<(e: ClientEvent) => void>();
  private latestSeq = new Map<string, number>();
  private seq = 0;
  private inflight = 0;
  private epoch = 0;
  private connecting: Promise<void> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly opts: KbClientOptions) {
    this.now = opts.now ?? Date.now;
    this.connectImpl = opts.connect ?? defaultConnect;
    this.switches = { ...opts.switches };
    this.settings = { ...opts.connection };
  }

  on(listener: (e: ClientEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get pendingReads(): number {
    return this.inflight;
  }

  /** Initializes a connection; on every initialize after the first, resubscribes (or not) per the switch. */
  connect(): Promise<void> {
    this.connecting ??= this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Like a real app after a drop: the old session ends (DELETE), a new transport initializes. */
  async reconnect(): Promise<void> {
    const old = this.conn;
    this.conn = undefined;
    this.epoch += 1;
    await old?.close({ endSession: true });
    await this.connect();
  }

  /** Read through the cache: an unexpired entry is served as is (the flag set by mark-dirty is not consulted). */
  async show(uri: string): Promise<ShowResult> {
    const entry = this.cache.get(uri);
    const expired = entry !== undefined && entry.ttlMs !== undefined && this.now() - entry.readAt > entry.ttlMs;
    if (entry && !(expired && this.switches.honorTtl)) {
      this.emit('show', uri, `served from cache (age ${Math.round(this.now() - entry.readAt)} ms${entry.dirty ? ', dirty' : ''}${expired ? ', past ttlMs' : ''})`);
      return { entry, fromCache: true, expired };
    }
    await this.read(uri);
    return { entry: this.cache.get(uri), fromCache: false, expired: false };
  }

  /** Reads `uri` into the cache and subscribes to it (or to its parent, per the switch). */
  async open(uri: string): Promise<void> {
    await this.read(uri);
    await this.subscribeTarget(this.subscriptionTarget(uri));
  }

  /** One resources/read; concurrent reads of a URI may answer out of order, the guard keeps only the latest. */
  async read(uri: string): Promise<void> {
    const conn = this.conn;
    if (!conn) {
      this.emit('read-failed', uri, 'not connected');
      return;
    }
    const seq = ++this.seq;
    this.latestSeq.set(uri, seq);
    this.inflight += 1;
    this.touch();
    this.metrics.reads += 1;
    try {
      const r = await conn.read(uri);
      if (this.switches.readOrderGuard && this.latestSeq.get(uri) !== seq) {
        this.metrics.readsDiscarded += 1;
        this.emit('read-discarded', uri, `read #${seq} answered after a newer read; discarded`);
        return;
      }
      this.cache.write(uri, r, this.now(), seq);
      this.emit('read', uri, `read #${seq} → cache (${r.text.length} chars${r.ttlMs !== undefined ? `, ttlMs ${r.ttlMs}` : ''})`);
    } catch (err) {
      this.emit('read-failed', uri, `read #${seq} failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.inflight -= 1;
      this.touch();
    }
  }

  /**
   * Resolves true once no read is in flight and nothing happened for `quietMs` (counted from the call at the earliest, so
   * a notification still on its way after an edit gets its chance); false on timeout.
   */
  async whenSettled(quietMs = 300, timeoutMs = 8000): Promise<boolean> {
    const start = this.now();
    const until = start + timeoutMs;
    while (this.now() < until) {
      const quietSince = Math.max(this.lastActivity, start);
      if (this.inflight === 0 && !this.connecting && this.now() - quietSince >= quietMs) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    return false;
  }

  setSwitches(patch: Partial<ClientSwitches>): void {
    this.switches = { ...this.switches, ...patch };
    this.armPolling();
  }

  async close(): Promise<void> {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.epoch += 1;
    const old = this.conn;
    this.conn = undefined;
    await old?.close({ endSession: true });
  }

  private async doConnect(): Promise<void> {
    const epoch = ++this.epoch;
    const live = () => epoch === this.epoch;
    const events: ConnectionEvents = {
      updated: (uri) => live() && this.onUpdated(uri),
      sessionExpired: (detail) => live() && this.onSessionExpired(detail),
      listenClosed: (reason) => live() && this.onListenClosed(reason),
      log: (text) => live() && this.emit('log', undefined, text),
    };
    const conn = await this.connectImpl({
      serverUrl: this.opts.serverUrl,
      settings: this.settings,
      sendProtocolHeader: this.switches.sendProtocolHeader,
      resumeWithLastEventId: this.switches.resumeWithLastEventId,
      events,
    });
    if (!live()) {
      await conn.close();
      return;
    }
    this.conn = conn;
    this.sessionExpired = false;
    this.touch();
    this.metrics.initializations += 1;
    const again = this.metrics.initializations > 1;
    if (again) this.metrics.reconnects += 1;
    this.polled.clear();
    this.emit('connected', undefined, `initialized ${conn.protocolVersion ?? '?'}${conn.sessionId ? `, session ${conn.sessionId.slice(0, 8)}…` : ''}; resources.subscribe ${conn.subscribeSupported ? 'advertised' : 'NOT advertised'}`);
    try {
      this.documents = await conn.list();
    } catch (err) {
      this.emit('log', undefined, `resources/list failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (again && this.cache.size) {
      if (this.switches.resubscribeAfterInit) {
        this.metrics.reconnectsFollowedByResubscribe += 1;
        const targets = new Set(this.cache.keys().map((u) => this.subscriptionTarget(u)));
        for (const t of targets) await this.subscribeTarget(t);
        for (const uri of this.cache.keys()) void this.read(uri);
      } else {
        this.emit('log', undefined, `not resubscribing after initialize (switch off); still believes: ${[...this.believed].join(', ') || 'nothing'}`);
      }
    }
    this.armPolling();
  }

  private subscriptionTarget(uri: string): string {
    return this.switches.subscribeTo === 'parent' && uri.startsWith(LISTING_URI) && uri !== LISTING_URI ? LISTING_URI : uri;
  }

  private async subscribeTarget(target: string): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    if (this.switches.honorCapabilities && !conn.subscribeSupported) {
      this.believed.delete(target);
      this.polled.add(target);
      this.emit('subscribe-skipped', target, `server does not advertise resources.subscribe; polling every ${this.switches.fallbackPollMs} ms instead`);
      return;
    }
    this.metrics.subscribeAttempts += 1;
    const r = await conn.subscribe(target);
    if (r.ok) {
      this.metrics.subscribeSucceeded += 1;
      this.believed.add(target);
      this.polled.delete(target);
      this.emit('subscribed', target, conn.settings.generation === '2026-07-28' ? 'acknowledged on the listen stream' : 'resources/subscribe ok');
    } else if (this.switches.honorCapabilities) {
      this.believed.delete(target);
      this.polled.add(target);
      this.emit('subscribe-failed', target, `${r.reason}; polling instead`);
    } else {
      this.believed.add(target);
      this.emit('subscribe-failed', target, `${r.reason} — ignored: the client believes it is subscribed`);
    }
  }

  private onUpdated(uri: string): void {
    this.touch();
    this.metrics.notifications += 1;
    if (!this.cache.has(uri)) {
      this.emit('notification-ignored', uri, 'updated for a URI that is not cached; ignored');
      return;
    }
    if (this.switches.onNotification === 'reread') {
      this.metrics.notificationsFollowedByRead += 1;
      this.emit('notification', uri, 'updated → re-reading');
      void this.read(uri);
    } else {
      this.cache.markDirty(uri);
      this.emit('marked-dirty', uri, 'updated → marked dirty only (nothing re-reads it)');
    }
  }

  private onSessionExpired(detail: string): void {
    this.touch();
    this.sessionExpired = true;
    this.emit('session-expired', undefined, `session expired: ${detail}`);
    if (!this.switches.reinitOnSessionExpired) {
      this.emit('log', undefined, 'not re-initializing (switch off): every request on this session will fail');
      return;
    }
    const old = this.conn;
    this.conn = undefined;
    this.epoch += 1;
    void (async () => {
      await old?.close();
      await this.connect().catch((err: unknown) => this.emit('log', undefined, `re-initialize failed: ${String(err)}`));
    })();
  }

  private onListenClosed(reason: 'graceful' | 'remote'): void {
    this.touch();
    this.emit('listen-closed', undefined, `listen stream closed (${reason})`);
    // A graceful end is the server's decision (shutdown, or an acknowledgement that honoured nothing): listening again
    // at once would loop. Only an unexpected drop is worth a new listen.
    if (reason === 'graceful') return;
    if (!this.switches.relistenOnDrop) {
      this.emit('log', undefined, `not re-listening (switch off); still believes: ${[...this.believed].join(', ') || 'nothing'}`);
      return;
    }
    void this.relisten([...this.believed], 0);
  }

  /** Re-subscribes `targets` on the current connection, retrying a few times while the server is away. */
  private async relisten(targets: string[], attempt: number): Promise<void> {
    for (const t of targets) await this.subscribeTarget(t);
    const missing = targets.filter((t) => !this.believed.has(t));
    if (missing.length && attempt < 4) setTimeout(() => void this.relisten(missing, attempt + 1), 500 * (attempt + 1));
  }

  private armPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    if (this.switches.fallbackPollMs <= 0) return;
    this.pollTimer = setInterval(() => {
      for (const uri of this.cache.keys()) {
        if (!this.polled.has(this.subscriptionTarget(uri))) continue;
        this.metrics.polls += 1;
        this.emit('poll', uri, 'fallback poll');
        void this.read(uri);
      }
    }, this.switches.fallbackPollMs);
  }

  private touch(): void {
    this.lastActivity = this.now();
  }

  private emit(kind: ClientEventKind, uri: string | undefined, text: string): void {
    const e: ClientEvent = { kind, at: this.now(), text, ...(uri ? { uri } : {}) };
    for (const l of this.listeners) l(e);
  }
}
