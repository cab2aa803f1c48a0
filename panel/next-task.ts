/**
 * Resolves in a new task (after pending input and rendering: a Cancel click), without the 4 ms clamp of nested
 * timers. The store's rebuilds and the import's and export's slices yield with it.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
