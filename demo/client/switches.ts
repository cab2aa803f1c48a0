// The demo client's settings: which protocol generation and transport it speaks, and the switches that turn on the client
// bugs of the seed one by one. Defaults are the healthy client. Pure; parsed from / written to the page's query string.

export type Generation = '2025-11-25' | '2026-07-28';
export type V1Transport = 'streamable-http' | 'sse';

export interface ConnectionSettings {
  generation: Generation;
  /** Only for 2025-11-25; 2026-07-28 is always Streamable HTTP. */
  transport: V1Transport;
}

export interface ClientSwitches {
  /** After every initialize, re-send resources/subscribe for every cached key (and re-read them). Off = the seed's bug №3. */
  resubscribeAfterInit: boolean;
  /** On notifications/resources/updated: re-read at once, or only mark the cache entry dirty (and serve it anyway). */
  onNotification: 'reread' | 'mark-dirty';
  /** Accept a read response only if it answers the latest read of that URI. Off = concurrent reads overwrite out of order. */
  readOrderGuard: boolean;
  /** Subscribe to each document's own URI, or only to the parent listing file:///docs/. */
  subscribeTo: 'document' | 'parent';
  /** Check resources.subscribe at init and the listen acknowledgement; fall back to polling when refused. */
  honorCapabilities: boolean;
  /** On HTTP 404 for the session, initialize a new one (and resubscribe per resubscribeAfterInit). */
  reinitOnSessionExpired: boolean;
  /** 2026-07-28: open a new subscriptions/listen when the stream drops. */
  relistenOnDrop: boolean;
  /** 2026-07-28: treat a cache entry older than the server's ttlMs as expired. */
  honorTtl: boolean;
  /** Send MCP-Protocol-Version on HTTP requests after initialize (the SDK does; off strips it). */
  sendProtocolHeader: boolean;
  /** Resume a dropped GET stream with Last-Event-ID (the SDK does; off strips it, like a proxy with a header allowlist). */
  resumeWithLastEventId: boolean;
  /** Poll interval for URIs the client knows it cannot subscribe to (ms; 0 = never poll). */
  fallbackPollMs: number;
}

export const HEALTHY_SWITCHES: Readonly<ClientSwitches> = Object.freeze({
  resubscribeAfterInit: true,
  onNotification: 'reread',
  readOrderGuard: true,
  subscribeTo: 'document',
  honorCapabilities: true,
  reinitOnSessionExpired: true,
  relistenOnDrop: true,
  honorTtl: true,
  sendProtocolHeader: true,
  resumeWithLastEventId: true,
  fallbackPollMs: 2000,
});

export const DEFAULT_CONNECTION: Readonly<ConnectionSettings> = Object.freeze({ generation: '2025-11-25', transport: 'streamable-http' });

/** One line per switch for the UI, in display order. */
export const SWITCH_LABELS: Record<keyof ClientSwitches, string> = {
  resubscribeAfterInit: 'Resubscribe every cached key after (re)initialize',
  onNotification: 'On notification',
  readOrderGuard: 'Ignore out-of-order read responses',
  subscribeTo: 'Subscribe to',
  honorCapabilities: 'Check resources.subscribe / listen acknowledgement',
  reinitOnSessionExpired: 'Re-initialize when the session expires (404)',
  relistenOnDrop: 'Re-listen when the listen stream drops (2026-07-28)',
  honorTtl: 'Expire cache entries after ttlMs (2026-07-28)',
  sendProtocolHeader: 'Send MCP-Protocol-Version header',
  resumeWithLastEventId: 'Resume the GET stream with Last-Event-ID',
  fallbackPollMs: 'Fallback poll (ms) for unsubscribable URIs',
};

/** Reads switches from query parameters named like the fields (e.g. ?readOrderGuard=false); unknown values are ignored. */
export function switchesFromQuery(params: URLSearchParams, base: ClientSwitches = HEALTHY_SWITCHES): ClientSwitches {
  const out: ClientSwitches = { ...base };
  const bool = (k: keyof ClientSwitches) => {
    const v = params.get(k);
    if (v === 'true' || v === 'false') (out as unknown as Record<string, unknown>)[k] = v === 'true';
  };
  for (const k of ['resubscribeAfterInit', 'readOrderGuard', 'honorCapabilities', 'reinitOnSessionExpired', 'relistenOnDrop', 'honorTtl', 'sendProtocolHeader', 'resumeWithLastEventId'] as const) bool(k);
  const n = params.get('onNotification');
  if (n === 'reread' || n === 'mark-dirty') out.onNotification = n;
  const s = params.get('subscribeTo');
  if (s === 'document' || s === 'parent') out.subscribeTo = s;
  const p = Number(params.get('fallbackPollMs'));
  if (params.has('fallbackPollMs') && Number.isInteger(p) && p >= 0) out.fallbackPollMs = p;
  return out;
}

export function connectionFromQuery(params: URLSearchParams, base: ConnectionSettings = DEFAULT_CONNECTION): ConnectionSettings {
  const g = params.get('generation');
  const t = params.get('transport');
  return {
    generation: g === '2025-11-25' || g === '2026-07-28' ? g : base.generation,
    transport: t === 'streamable-http' || t === 'sse' ? t : base.transport,
  };
}
