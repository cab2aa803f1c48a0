// What a scrubber stop that is not a message is: the state changed with no message there (MessageStore.turns: a
// delivery stream opened or closed, a session or listen ended, a request's exchange failed). The slider's value text
// and the label beside it say it ("GET stream closed", "session S1 ended: http-404"): such a stop read only its
// instant and "11 of 11 messages", like the stop before it (an accessibility review, 2026-12-06).
import type { EngineSnapshot, MessageList } from '../../shared/engine/index.ts';
import type { ScrubSteps } from './timeline.ts';

const STREAM_NAMES: Record<string, string> = { get: 'GET stream', listen: 'listen stream', sse: 'SSE stream', ws: 'WebSocket' };

/** Whether stop k includes a message at its own instant (else it is a change of state alone). */
export function isMessageStop(steps: ScrubSteps, k: number, messages: MessageList | undefined): boolean {
  const n = steps.upTo[k] ?? 0;
  return n > 0 && messages !== undefined && messages.store.tAt(n - 1) === steps.t[k];
}

/**
 * What changed at `t` with no message, from the snapshot (the replayed one holds what happened up to and at `t`) and
 * the requests that ended without an answer; `name` shows a session key as the views do. Undefined when nothing the
 * snapshot keeps happened then (a stream older than the streams it keeps): the caller says "state changed".
 */
export function stopWhat(snap: Pick<EngineSnapshot, 'sessions' | 'streams'> | undefined, messages: MessageList | undefined, t: number, name: (key: string) => string = (k) => k): string | undefined {
  const what: string[] = [];
  for (const s of snap?.sessions ?? []) {
    if (s.endT === t) what.push(`${s.kind === 'listen' ? name(s.label) : `session ${name(s.label)}`} ended${s.endCause ? `: ${s.endCause}` : ''}`);
  }
  for (const v of snap?.streams ?? []) {
    const kind = STREAM_NAMES[v.kind] ?? `${v.kind} stream`;
    if (v.closeT === t) what.push(`${kind} ${v.outcome === 'failed' ? 'failed' : v.outcome === 'aborted' ? 'aborted' : 'closed'}`);
    if (v.openT === t) what.push(`${kind} opened`);
  }
  for (const a of messages?.store.noAnswers ?? []) if (a.t === t) what.push(a.pageLeft ? 'the page left' : `a request failed, ${a.why}`);
  const uniq = [...new Set(what)];
  return uniq.length === 0 ? undefined : uniq.length <= 2 ? uniq.join('; ') : `${uniq.slice(0, 2).join('; ')} and ${uniq.length - 2} more`;
}
