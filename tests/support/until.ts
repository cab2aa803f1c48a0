// Waiting in Node tests that drive real SDK clients and servers: a pause, and a poll until a condition holds.
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` every 20 ms; throws after `ms`. */
export async function until(cond: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}
