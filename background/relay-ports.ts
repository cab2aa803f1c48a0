// Accepts relay ports from content scripts. The tab and frame come from the runtime sender, never from the message.
// Batches are parsed and validated here (the page's text is untrusted), acknowledged only after they are persisted,
// then fanned out to the tab's live panels.
import type browser from 'webextension-polyfill';
import type { Frame } from '../shared/frames.ts';
import type { RelayAck, RelayBatch } from '../shared/messages.ts';
import type { PanelHub } from './panel-ports.ts';
import type { Tabs } from './tabs.ts';

function isBatch(m: unknown): m is RelayBatch {
  const b = m as RelayBatch;
  return (
    typeof b === 'object' &&
    b !== null &&
    b.type === 'frames' &&
    typeof b.relay === 'string' &&
    Number.isSafeInteger(b.batch) &&
    Array.isArray(b.payloads) &&
    b.payloads.every((p) => typeof p === 'string') &&
    Number.isSafeInteger(b.rejected)
  );
}

export function onRelayPort(port: browser.Runtime.Port, tabs: Tabs, panels: PanelHub, onFrames: (tabId: number, frames: Frame[]) => void): void {
  const tabId = port.sender?.tab?.id;
  const frameId = port.sender?.frameId ?? 0;
  if (tabId === undefined || tabId < 0) {
    port.disconnect();
    return;
  }
  port.onMessage.addListener((m: unknown) => {
    if (!isBatch(m)) return;
    tabs
      .get(tabId)
      .accept(m.relay, m.batch, m.payloads, frameId, m.rejected, m.rejectedWhy)
      .then(({ frames: accepted, stats }) => {
        const ack: RelayAck = { type: 'ack', batch: m.batch };
        try {
          port.postMessage(ack);
        } catch {
          // The page went away; its frames are stored regardless.
        }
        panels.publish(tabId, accepted, stats);
        if (accepted.length > 0) onFrames(tabId, accepted);
      })
      .catch((e: unknown) => console.error('mcp-devtools: could not store frames', e));
  });
}
