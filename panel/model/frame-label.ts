// What a frame is, in a few words, for a link to it (a finding's evidence: `#32 resources/read`, `#37 DELETE → 200`):
// the JSON-RPC message it carried when it carried one, else what the transport did. Cheap: one frame, its messages —
// read from the message list's columns (kind, method), not decoded (the drawer labels every evidence link on every render).
import type { DecodedMessage, MessageList } from '../../shared/engine/index.ts';
import type { Frame } from '../../shared/frames.ts';
import { messageRangeAtSeq } from './sessions-view.ts';

/** One message as a link names it: its method (a response's is its request's), with ` result`/` error` on an answer. */
function messageText(m: Pick<DecodedMessage, 'kind' | 'method'>): string {
  if (m.kind === 'result' || m.kind === 'error') return m.method ? `${m.method} ${m.kind}` : m.kind;
  if (m.kind === 'invalid') return m.method ? `${m.method} (invalid)` : 'invalid message';
  return m.method ?? m.kind;
}

/** A frame carrying `count` messages (a batch: several), the first `first`: it, and how many more. */
function messagesText(first: Pick<DecodedMessage, 'kind' | 'method'>, count: number): string {
  return messageText(first) + (count > 1 ? ` +${count - 1}` : '');
}

/**
 * The label of frame `f` carrying `msgs` (empty when it carried none); '' when the frame is not in view. A response
 * head is named with its request's HTTP method when known (`requestMethod`): `DELETE → 200`, what the exchange was (a
 * phantom subscription's evidence read `#37 HTTP 200` for the DELETE that ended the session: a live review, 2026-12).
 */
export function frameLabel(f: Frame | undefined, msgs: ReadonlyArray<Pick<DecodedMessage, 'kind' | 'method'>>, requestMethod?: string): string {
  return msgs.length ? messagesText(msgs[0]!, msgs.length) : transportText(f, requestMethod);
}

/**
 * The label of frame `seq` (frame `f`, when in view) as frameLabel gives it from its decoded messages, its messages
 * counted and the first's kind and method read from `list`'s columns: no message is built (nor its id parsed).
 */
export function frameLabelAt(list: MessageList, seq: number, f: Frame | undefined, requestMethod?: string): string {
  const { first, end } = messageRangeAtSeq(list, seq);
  return end > first ? messagesText({ kind: list.store.kindAt(first), method: list.store.methodAt(first) }, end - first) : transportText(f, requestMethod);
}

/** What the transport did in frame `f` (a frame that carried no message); '' when the frame is not in view. */
function transportText(f: Frame | undefined, requestMethod?: string): string {
  if (!f) return '';
  switch (f.kind) {
    case 'http-request':
      return `HTTP ${f.method}`;
    case 'http-response':
      return requestMethod ? `${requestMethod} → ${f.status}` : `HTTP ${f.status}`;
    case 'http-end':
      return `end ${f.outcome}`;
    case 'http-body':
      return 'HTTP body';
    case 'sse-event':
      return f.event === 'endpoint' ? 'SSE endpoint' : 'SSE event';
    case 'sse-comment':
      return 'SSE comment';
    case 'page-start':
      return f.top ? 'page load' : 'iframe load';
    case 'page-end':
      return f.persisted ? 'page to bfcache' : 'page unload';
    case 'es-connect':
      return 'EventSource connect';
    case 'es-open':
      return 'EventSource open';
    case 'es-error':
      return f.readyState === 2 ? 'EventSource closed by error' : 'EventSource error';
    case 'es-close':
      return 'EventSource closed';
    case 'ws-connect':
      return 'WebSocket connect';
    case 'ws-open':
      return 'WebSocket open';
    case 'ws-message':
      return 'WebSocket message';
    case 'ws-close':
      return `WebSocket close ${f.code}`;
    case 'ws-error':
      return 'WebSocket error';
    case 'capture-error':
      return 'capture error';
    default:
      return (f as Frame).kind;
  }
}
