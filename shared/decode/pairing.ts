// Request ↔ response pairing by JSON-RPC id. A response is looked up first in its own HTTP exchange (a POST answered by
// JSON or by its own SSE stream), then in its session (legacy HTTP+SSE answers on the GET stream; a resumed stream
// replays answers of an earlier POST). Ids of requests the page sent and of requests the server sent live in separate
// spaces, so the key carries the request's direction.
import { idKey } from './jsonrpc.ts';
import type { DecodedMessage, Direction, RequestId } from './types.ts';

export interface PendingEntry {
  key: string;
  msg: DecodedMessage;
  /** The exchange's own list, to remove the entry from it when the session scope answered. */
  owner: PendingEntry[] | undefined;
  sessionKey: string | undefined;
}

export function pairKey(requestDir: Direction, id: RequestId): string {
  return requestDir + idKey(id);
}

export class RequestPairing {
  private bySession = new Map<string, PendingEntry>();

  /** Register a request sent on an exchange (`own` is that exchange's pending list) and optionally its session. */
  register(msg: DecodedMessage, own: PendingEntry[], session: string | undefined): void {
    if (msg.id === undefined || msg.id === null) return;
    const key = pairKey(msg.dir, msg.id);
    const sessionKey = session === undefined ? undefined : session + '\u0001' + key;
    const entry: PendingEntry = { key, msg, owner: own, sessionKey };
    own.push(entry);
    if (sessionKey !== undefined) this.bySession.set(sessionKey, entry);
  }

  /** The request a response answers, removed from the pending sets; undefined when unknown. */
  take(responseDir: Direction, id: RequestId | null | undefined, own: PendingEntry[] | undefined, session: string | undefined): DecodedMessage | undefined {
    const requestDir: Direction = responseDir === 'in' ? 'out' : 'in';
    if (id === null || id === undefined) {
      // An error with id null (HTTP-level JSON-RPC error): it answers the exchange when the exchange asked one thing.
      const only = own && own.length === 1 ? own[0] : undefined;
      if (only && only.msg.dir === requestDir) return this.drop(only);
      return undefined;
    }
    const key = pairKey(requestDir, id);
    if (own) {
      for (let i = 0; i < own.length; i++) {
        const e = own[i]!;
        if (e.key === key) return this.drop(e);
      }
    }
    if (session !== undefined) {
      const e = this.bySession.get(session + '\u0001' + key);
      if (e) return this.drop(e);
    }
    return undefined;
  }

  /** Forget requests that will never be answered (their exchange failed). */
  forget(entries: readonly PendingEntry[]): void {
    for (const e of [...entries]) this.drop(e);
  }

  private drop(e: PendingEntry): DecodedMessage {
    if (e.owner) {
      const i = e.owner.indexOf(e);
      if (i >= 0) e.owner.splice(i, 1);
    }
    if (e.sessionKey !== undefined && this.bySession.get(e.sessionKey) === e) this.bySession.delete(e.sessionKey);
    return e.msg;
  }
}
