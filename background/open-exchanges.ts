// The exchanges still open in a tab's log (a GET stream, a 2026 listen, a legacy EventSource, a WebSocket, a request
// waiting for its answer) and the frames that opened them. Clear keeps those frames (tab-log.ts): without them, what
// the open exchanges bring later (a notification on the GET stream, a read's answer) would arrive with no transport,
// no session and no request to pair with. Kept in the tab's metadata, so it survives a service-worker restart.
import type { Frame } from '../shared/frames.ts';

export interface OpenExchange {
  doc: string;
  /** Sequence numbers of the frames that opened it, in order (request, response head, connect, open, endpoint…). */
  seqs: number[];
  /** The latest 2026 listen acknowledgement on it (it replaces the one before). */
  ack?: number;
}

/** Keyed by connection id; key order = the order they opened (the oldest goes first past the cap). */
export type OpenExchanges = Record<string, OpenExchange>;

/** A page that opens requests and never ends them (a crashed frame) must not grow the metadata without end. */
export const MAX_OPEN_EXCHANGES = 256;

const ACK_METHOD = '"notifications/subscriptions/acknowledged"';

/** Updates `open` (owned by the caller: changed in place, arrays replaced) with one stamped frame. */
export function trackOpen(open: OpenExchanges, f: Frame): void {
  switch (f.kind) {
    case 'http-request':
    case 'es-connect':
    case 'ws-connect':
      delete open[f.conn];
      open[f.conn] = { doc: f.doc, seqs: [f.seq] };
      capOpen(open);
      return;
    case 'http-response':
    case 'ws-open':
      add(open, f.conn, f.seq);
      return;
    case 'es-open': {
      // The first open says the EventSource connected; its reconnections say nothing a later event needs.
      const o = open[f.conn];
      if (o && o.seqs.length === 1) add(open, f.conn, f.seq);
      return;
    }
    case 'sse-event': {
      const o = open[f.conn];
      if (!o) return;
      // The legacy transport's endpoint event names the session every later message belongs to.
      if (f.event === 'endpoint') add(open, f.conn, f.seq);
      else if (f.data.text.includes(ACK_METHOD)) open[f.conn] = { ...o, ack: f.seq };
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
    if (o.ack !== undefined) seqs.push(o.ack);
  }
  return seqs.sort((a, b) => a - b);
}

/** The same exchanges after their frames were given new sequence numbers (`renumber` maps old → new). */
export function renumberOpen(open: OpenExchanges, renumber: ReadonlyMap<number, number>): OpenExchanges {
  const out: OpenExchanges = {};
  for (const [conn, o] of Object.entries(open)) {
    const seqs = o.seqs.flatMap((s) => (renumber.has(s) ? [renumber.get(s)!] : []));
    // Its opening request went with the caps: there is nothing left to keep for it.
    if (seqs.length === 0) continue;
    const ack = o.ack !== undefined ? renumber.get(o.ack) : undefined;
    out[conn] = { doc: o.doc, seqs, ...(ack !== undefined ? { ack } : {}) };
  }
  return out;
}

function add(open: OpenExchanges, conn: string, seq: number): void {
  const o = open[conn];
  if (o) open[conn] = { ...o, seqs: [...o.seqs, seq] };
}

function capOpen(open: OpenExchanges): void {
  const conns = Object.keys(open);
  for (let i = 0; i < conns.length - MAX_OPEN_EXCHANGES; i++) delete open[conns[i]!];
}
