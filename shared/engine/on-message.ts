// Dispatch of decoded messages to the rules, by direction, kind and method. Messages the engine has no rule for are
// still stored (the panel shows every message); only their counters change.
import { UNKNOWN_ENDPOINT } from '../decode/decoder.ts';
import { M } from '../decode/protocol.ts';
import type { ConnInfo, DecodedMessage } from '../decode/types.ts';
import { noteInitializeSent } from '../findings/lifecycle.ts';
import { checkSubscribeRejected } from '../findings/protocol-checks.ts';
import type { EngineCore } from './core.ts';
import {
  onListAnswered,
  onReadAnswered,
  onReadSent,
  onSubscribeAnswered,
  onSubscribeSent,
  onUnsubscribeAnswered,
  onUnsubscribeSent,
  onUpdated,
} from './on-resources.ts';
import { failListen, obj, onAcknowledged, onDiscovered, onInitialized, onListenSent, withdrawListen } from './on-session.ts';

export function onMessage(core: EngineCore, m: DecodedMessage, value: unknown, info: ConnInfo): void {
  core.messages.push(m, info);
  if (m.pair !== undefined && m.kind !== 'request') core.messages.setPair(m.pair, m.index);
  core.counters.messages++;
  if (m.kind === 'invalid') {
    core.counters.invalidMessages++;
    return;
  }
  if (!m.known) core.counters.unknownMessages++;
  const c = core.client(m.doc, m.endpoint, m.transport, m.generation);
  // A session whose initialize the capture did not see (after Clear, or a log trimmed at its cap) is known from its
  // first message: partial, so what happened before the capture is not judged as if it never happened.
  // (Not from a connection whose request is missing too: its endpoint, hence its client, is unknown.)
  if (m.session !== undefined && m.generation === '2025' && m.transport === 'streamable-http' && c.current?.label !== m.session && m.method !== M.initialize && m.endpoint !== UNKNOWN_ENDPOINT) {
    core.session(c, m.session, m.t, m.seq);
  }
  if (m.dir === 'out') {
    if (m.kind === 'request') {
      switch (m.method) {
        case M.read:
          return onReadSent(core, c, m);
        case M.subscribe:
          return onSubscribeSent(core, c, m);
        case M.unsubscribe:
          return onUnsubscribeSent(core, c, m);
        case M.listen:
          return onListenSent(core, c, m, value);
        case M.initialize:
          c.initSent = { t: m.t, seq: m.seq };
          // A reconnect under way (retried while the server is down, too): what it will subscribe again is not late yet.
          c.resubscribing.begin(m.t);
          c.reinitializing.step(m.t, core.grace);
          return noteInitializeSent(core, c, m.t, m.seq);
      }
      return;
    }
    if (m.kind === 'notification' && m.method === M.cancelled) {
      const id = obj(obj(value)?.params)?.requestId;
      const l = typeof id === 'string' || typeof id === 'number' ? c.listen(id) : undefined;
      if (l?.open) withdrawListen(core, c, l, m.t, m.seq);
    }
    return;
  }
  if (m.kind === 'result' || m.kind === 'error') {
    switch (m.method) {
      case M.read:
        return onReadAnswered(core, c, m, value);
      case M.subscribe:
        return onSubscribeAnswered(core, c, m, value);
      case M.unsubscribe:
        return onUnsubscribeAnswered(core, c, m);
      case M.list:
        return m.kind === 'result' ? onListAnswered(core, c, m, value) : undefined;
      case M.initialize:
        return m.kind === 'result' ? onInitialized(core, c, m, value) : undefined;
      case M.discover:
        return m.kind === 'result' ? onDiscovered(core, c, m, value) : undefined;
      case M.listen: {
        const l = m.id !== undefined && m.id !== null ? c.listenOn(m.id, m.conn) : undefined;
        if (!l) return;
        // A graceful end before any acknowledgement: the SDK's listen() rejects, nothing was subscribed.
        if (m.kind === 'result') return l.acked ? core.endLedger(l, 'graceful-close', m.t, m.seq) : failListen(core, c, l, m.t, m.seq, 'graceful-close');
        // A server without subscriptions/listen answers -32601, as a 2025 server without resources/subscribe does.
        const code = obj(obj(value)?.error)?.code;
        if (typeof code === 'number') {
          const sent = l.startSeq;
          for (const uri of l.requested ?? []) checkSubscribeRejected(core, c.uri(uri), code, l.label, m.t, sent, m.seq);
        }
        return failListen(core, c, l, m.t, m.seq);
      }
    }
    return;
  }
  if (m.kind === 'notification') {
    switch (m.method) {
      case M.updated:
        return onUpdated(core, c, m, value);
      case M.acknowledged:
        return onAcknowledged(core, c, m, value);
      case M.listChanged:
        core.counters.listChanged++;
        return;
      case M.cancelled: {
        const id = obj(obj(value)?.params)?.requestId;
        const l = typeof id === 'string' || typeof id === 'number' ? c.listenOn(id, m.conn) : undefined;
        if (l) core.endLedger(l, 'server-cancel', m.t, m.seq);
        return;
      }
    }
  }
}
