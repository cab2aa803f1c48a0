// How much of a queue goes in one message: the hook's messages and the relay's batches are both bounded by a count
// and by their text (a runtime message is at most 64 MiB). Pure.

/** How many of `items`, from the start, make one batch: at most `maxItems`, and at most `maxSize` in all unless the first alone is over it. */
export function batchLength<T>(items: readonly T[], maxItems: number, maxSize: number, sizeOf: (item: T) => number): number {
  let take = 0;
  let size = 0;
  while (take < items.length && take < maxItems) {
    const s = sizeOf(items[take]!);
    if (take > 0 && size + s > maxSize) break;
    size += s;
    take++;
  }
  return take;
}
