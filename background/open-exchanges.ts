// The exchanges still open in a tab's log (a GET stream, a 2026 listen, a legacy EventSource, a WebSocket, a request
// waiting for its answer) and the frames that opened them. Clear keeps those frames (tab-log.ts): without them, what
// the open exchanges bring later (a notification on the GET stream, a read's answer) would arrive with no transport,
// no session and no request to pair with. Kept in the tab's metadata, so it survives a service-worker restart.
import type { Frame } from '../shared/frames.ts';

export interface OpenExchange {
  doc: string;
  /** Sequence numbers of the frames that opened it, in order (request and response head, or connect and first open). */
  seqs: number[];
  /** The legacy transport's latest `endpoint` event (a reconnected EventSource gets a new one: it replaces the last). */
  endpoint?: number;
  /** The latest 2026 listen acknowledgement on it (it replaces the one before). */
  ack?: number;
  /** A stream or a socket (not a request waiting for its answer): the last to go past the cap. */
  stream?: true;
}

/** Keyed by connection id; key order = the order they opened (the oldest goes first past the cap). */
export type OpenExchanges = Record<string, OpenExchange>;

/** A page that opens requests and never ends them (a crashed frame) must not grow the metadata without end. */
export const MAX_OPEN_EXCHANGES = 256;

const ACK_METHOD = '"notifications/subscriptions/acknowledged"';

// Connection ids come from the page: one named `constructor` or `__proto__` must be an entry like any other, not
// Object.prototype's (a lookup found Object itself and threw; an assignment replaced the record's prototype).
function entry(open: OpenExchanges, conn: string): OpenExchange | undefined {
  return Object.hasOwn(open, conn) ? open[conn] : undefined;
}

function put(open: OpenExchanges, conn: string, o: OpenExchange): void {
  Object.defineProperty(open, conn, { value: o, enumerable: true, writable: true, configurable: true });
}

/** Updates `open` (owned by the caller: changed in place, arrays replaced) with one stamped frame. */
export function trackOpen(open: OpenExchanges, f: Frame): void {
  switch (f.kind) {
    case 'http-request':
      delete open[f.conn];
      put(open, f.conn, { doc: f.doc, seqs: [f.seq] });
      capOpen(open);
      return;
    case 'es-connect':
    case 'ws-connect':
      delete open[f.conn];
      put(open, f.conn, { doc: f.doc, seqs: [f.seq], stream: true });
      capOpen(open);
      return;
    case 'http-response': {
      const o = entry(open, f.conn);
      if (!o) return;
      const stream = (f.headers['content-type'] ?? '').includes('text/event-stream');
      put(open, f.conn, { ...o, seqs: [...o.seqs, f.seq], ...(stream ? { stream: true as const } : {}) });
      return;
    }
    case 'ws-open':
    case 'es-open': {
      // The first open says it connected; an EventSource's reconnections say nothing a later event needs.
      const o = entry(open, f.conn);
      if (o && o.seqs.length === 1) put(open, f.conn, { ...o, seqs: [...o.seqs, f.seq] });
      return;
    }
    case 'sse-event': {
      const o = entry(open, f.conn);
      if (!o) return;
      // The legacy transport's endpoint event names the session every later message belongs to.
      if (f.event === 'endpoint') put(open, f.conn, { ...o, endpoint: f.seq });
      else if (f.data.text.includes(ACK_METHOD)) put(open, f.conn, { ...o, ack: f.seq });
      return;
    }
    case 'http-end':
    case 'es-close':
    case 'ws-close':
    case 'ws-error':
      delete open[f.conn];
      return;
    case 'es-error':
      if (f.readyState === 2) delete open[f.conn];
      return;
    case 'page-end':
      for (const [conn, o] of Object.entries(open)) if (o.doc === f.doc) delete open[conn];
      return;
    default:
      return;
  }
}

/** Every sequence number to keep, ascending. */
export function openSeqs(open: OpenExchanges): number[] {
  const seqs: number[] = [];
  for (const o of Object.values(open)) {
    seqs.push(...o.seqs);
    if (o.endpoint !== undefined) seqs.push(o.endpoint);
    if (o.ack !== undefined) seqs.push(o.ack);
  }
  return seqs.sort((a, b) => a - b);
}

/**
 * What Clear keeps of `open`: the exchanges of documents still alive (`live`; undefined = not known, keep all) whose
 * opening frame is still stored (`found`: the caps may have dropped it, and a response head alone says nothing).
 */
export function keptOpen(open: OpenExchanges, found: ReadonlySet<number>, live: readonly string[] | undefined): OpenExchanges {
  const out: OpenExchanges = {};
  for (const [conn, o] of Object.entries(open)) {
    if (!found.has(o.seqs[0]!) || (live !== undefined && !live.includes(o.doc))) continue;
    const k: OpenExchange = { ...o, seqs: o.seqs.filter((s) => found.has(s)) };
    if (k.endpoint !== undefined && !found.has(k.endpoint)) delete k.endpoint;
    if (k.ack !== undefined && !found.has(k.ack)) delete k.ack;
    put(out, conn, k);
  }
  return out;
}

/** The same exchanges after their frames were given new sequence numbers (`renumber` maps old → new; all present). */
export function renumberOpen(open: OpenExchanges, renumber: ReadonlyMap<number, number>): OpenExchanges {
  const out: OpenExchanges = {};
  const re = (s: number) => renumber.get(s)!;
  for (const [conn, o] of Object.entries(open)) {
    put(out, conn, { ...o, seqs: o.seqs.map(re), ...(o.endpoint !== undefined ? { endpoint: re(o.endpoint) } : {}), ...(o.ack !== undefined ? { ack: re(o.ack) } : {}) });
  }
  return out;
}

/** Past the cap the oldest request waiting for its answer goes first; a stream only when there is none. */
function capOpen(open: OpenExchanges): void {
  const conns = Object.keys(open);
  let excess = conns.length - MAX_OPEN_EXCHANGES;
  for (const conn of conns) {
    if (excess <= 0) return;
    if (!open[conn]!.stream) {
      delete open[conn];
      excess--;
    }
  }
  for (const conn of conns) {
    if (excess <= 0) return;
    if (open[conn]) {
      delete open[conn];
      excess--;
    }
  }
}
