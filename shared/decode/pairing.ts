// Request ↔ response pairing by JSON-RPC id. A response is looked up first in its own HTTP exchange (a POST answered by
// JSON or by its own SSE stream), then in its session: legacy HTTP+SSE answers on the GET stream, a server request
// arrives on a stream and is answered by a new POST, a resumed stream replays answers of an earlier POST. Ids of
// requests the page sent and of requests the server sent live in separate spaces (per direction). Keys are the raw
// ids — a Map tells 1 from "1" — so pairing builds no strings on the hot path; only an answer that found no request
// looks again for the number its string id spells (the SDK clients accept "5" for 5).
import { NO_PENDING } from './conn-state.ts';
import type { DecodedMessage, Direction, RequestId } from './types.ts';

interface SessionPending {
  out: Map<RequestId, DecodedMessage>;
  in: Map<RequestId, DecodedMessage>;
}

/** Remove one element, keeping the order, without splice's array of the removed (an exchange usually waits for one). */
function removeAt(list: DecodedMessage[], i: number): void {
  for (let k = i + 1; k < list.length; k++) list[k - 1] = list[k]!;
  list.pop();
}

export class RequestPairing {
  private bySession = new Map<string, SessionPending>();
  /**
   * Whether the request the last `take` returned came off its exchange's own waiting list: then nothing of the pairing
   * refers to it any more (a request taken through its session may still sit in its exchange's list).
   */
  tookFromOwn = false;

  private scope(session: string): SessionPending {
    let s = this.bySession.get(session);
    if (!s) this.bySession.set(session, (s = { out: new Map(), in: new Map() }));
    return s;
  }

  /**
   * A request sent on an exchange (`waiting.pending` is that exchange's waiting list: NO_PENDING is replaced by a list
   * of one); `session` when answers may come elsewhere.
   */
  register(msg: DecodedMessage, waiting: { pending: DecodedMessage[] }, session: string | undefined): void {
    if (msg.id === undefined || msg.id === null) return;
    // A server's request on a session is answered by a new POST, never on the stream that brought it: kept in the
    // session only (in the stream's own list it would stay for the stream's whole life, one per server ping).
    if (session !== undefined && msg.dir === 'in') {
      this.scope(session).in.set(msg.id, msg);
      return;
    }
    if (waiting.pending === NO_PENDING) waiting.pending = [msg];
    else waiting.pending.push(msg);
    if (session !== undefined) this.scope(session)[msg.dir].set(msg.id, msg);
  }

  /** Requests of an exchange that ended but may still be answered on its session (a resumable SSE stream). */
  moveToSession(own: readonly DecodedMessage[], session: string): void {
    const s = this.scope(session);
    for (const m of own) if (m.id !== undefined && m.id !== null) s[m.dir].set(m.id, m);
  }

  /**
   * The request a response answers, removed from the waiting sets; undefined when unknown. A response whose id is the
   * string form of a numeric request id ("5" for 5) answers it too, as the SDK clients take it (`Number(response.id)`).
   */
  take(responseDir: Direction, id: RequestId | null | undefined, own: DecodedMessage[] | undefined, session: string | undefined): DecodedMessage | undefined {
    this.tookFromOwn = false;
    const m = this.takeExact(responseDir, id, own, session);
    if (m !== undefined || typeof id !== 'string' || id.length === 0 || id.length > 16) return m;
    const n = Number(id);
    return Number.isSafeInteger(n) && String(n) === id ? this.takeExact(responseDir, n, own, session) : undefined;
  }

  private takeExact(responseDir: Direction, id: RequestId | null | undefined, own: DecodedMessage[] | undefined, session: string | undefined): DecodedMessage | undefined {
    const requestDir: Direction = responseDir === 'in' ? 'out' : 'in';
    if (own) {
      for (let i = 0; i < own.length; i++) {
        const m = own[i]!;
        // An error with id null (an HTTP-level JSON-RPC error) answers the exchange when it asked exactly one thing.
        const match = id === null || id === undefined ? own.length === 1 : m.id === id;
        if (match && m.dir === requestDir) {
          removeAt(own, i);
          this.unscope(m);
          this.tookFromOwn = true;
          return m;
        }
      }
    }
    if (session === undefined || id === null || id === undefined) return undefined;
    const s = this.bySession.get(session);
    const m = s?.[requestDir].get(id);
    if (m) s![requestDir].delete(id);
    return m;
  }

  /**
   * The page's request `id` withdrawn (the client sent notifications/cancelled): removed from `own` (its exchange's
   * waiting list) and from its session; undefined when not waiting, or when `keep` says it stays.
   */
  withdraw(id: RequestId, own: DecodedMessage[] | undefined, session: string | undefined, keep?: (m: DecodedMessage) => boolean): DecodedMessage | undefined {
    if (own) {
      for (let i = 0; i < own.length; i++) {
        const m = own[i]!;
        if (m.dir === 'out' && m.id === id) {
          if (keep?.(m)) return undefined;
          removeAt(own, i);
          this.unscope(m);
          return m;
        }
      }
    }
    if (session === undefined) return undefined;
    const s = this.bySession.get(session);
    const m = s?.out.get(id);
    if (!m || keep?.(m)) return undefined;
    s!.out.delete(id);
    return m;
  }

  /** The page's requests still waiting for an answer on `session`'s stream, removed (the stream is gone for good). */
  drainOut(session: string): DecodedMessage[] {
    const s = this.bySession.get(session);
    if (!s || s.out.size === 0) return [];
    const out = [...s.out.values()];
    s.out.clear();
    return out;
  }

  /** Forget requests that will never be answered (their exchange failed). */
  forget(msgs: readonly DecodedMessage[]): void {
    for (const m of msgs) this.unscope(m);
  }

  private unscope(m: DecodedMessage): void {
    if (m.session === undefined || m.id === undefined || m.id === null) return;
    const s = this.bySession.get(m.session);
    if (s && s[m.dir].get(m.id) === m) s[m.dir].delete(m.id);
  }
}
