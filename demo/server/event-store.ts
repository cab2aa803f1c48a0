// A small in-memory SSE event store, one per v1 session: gives every server-to-client message an event id, so a client
// that reconnects its GET stream with Last-Event-ID gets what it missed replayed (SEP-1699 resumption). Bounded; the
// SDK's priming events (empty messages) are never replayed.
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const MAX_EVENTS = 500;

interface StoredEvent {
  id: string;
  streamId: string;
  message: JSONRPCMessage;
}

export class SessionEventStore implements EventStore {
  private events: StoredEvent[] = [];
  private counter = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${++this.counter}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    const streamId = this.events[at]?.streamId ?? '';
    if (at < 0) return streamId;
    for (const e of this.events.slice(at + 1)) {
      if (e.streamId !== streamId || !('jsonrpc' in e.message)) continue;
      await send(e.id, e.message);
    }
    return streamId;
  }
}
