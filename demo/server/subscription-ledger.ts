// Who the server would notify: v1 sessions with their subscribed URIs and whether a delivery channel (GET stream or legacy
// SSE stream) is open, and v2 subscriptions/listen streams with the URIs their acknowledgement honoured. The single
// source of truth for the fan-out and for GET /admin/state. Pure bookkeeping, no I/O.

export type SessionTransport = 'streamable-http' | 'sse';

export interface SessionRecord {
  id: string;
  transport: SessionTransport;
  protocolVersion?: string;
  /** What this session advertised at initialize (the noSubscribeCapability fault at that time). */
  subscribeCapability: boolean;
  subscriptions: Set<string>;
  /** A GET stream (Streamable HTTP) or the SSE stream (legacy) is open right now. */
  channelOpen: boolean;
  createdAt: number;
}

export interface ListenRecord {
  /** Server-side key (the JSON-RPC id is only unique per client). */
  key: string;
  requestId: string | number | null;
  /** URIs the acknowledgement honoured (empty when the server has no subscribe capability). */
  uris: string[];
  openedAt: number;
}

export class SubscriptionLedger {
  readonly sessions = new Map<string, SessionRecord>();
  readonly listens = new Map<string, ListenRecord>();

  addSession(rec: Omit<SessionRecord, 'subscriptions' | 'channelOpen'>): SessionRecord {
    const full: SessionRecord = { ...rec, subscriptions: new Set(), channelOpen: false };
    this.sessions.set(rec.id, full);
    return full;
  }

  removeSession(id: string): void {
    this.sessions.delete(id);
  }

  subscribe(sessionId: string, uri: string): void {
    this.sessions.get(sessionId)?.subscriptions.add(uri);
  }

  unsubscribe(sessionId: string, uri: string): void {
    this.sessions.get(sessionId)?.subscriptions.delete(uri);
  }

  setChannelOpen(sessionId: string, open: boolean): void {
    const s = this.sessions.get(sessionId);
    if (s) s.channelOpen = open;
  }

  addListen(rec: ListenRecord): void {
    this.listens.set(rec.key, rec);
  }

  removeListen(key: string): void {
    this.listens.delete(key);
  }

  sessionsSubscribedTo(uri: string): SessionRecord[] {
    return [...this.sessions.values()].filter((s) => s.subscriptions.has(uri));
  }

  listensFor(uri: string): ListenRecord[] {
    return [...this.listens.values()].filter((l) => l.uris.includes(uri));
  }

  clearSessions(): void {
    this.sessions.clear();
  }

  clearListens(): void {
    this.listens.clear();
  }
}
