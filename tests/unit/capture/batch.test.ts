// How much of a queue goes in one message (the hook's messages, the relay's batches): a count and a size bound it.
import { expect, it } from 'vitest';
import { batchLength } from '../../../shared/batch.ts';

it('stops at the count or the size, and a first item over the size goes alone', () => {
  const len = (s: string) => s.length;
  expect(batchLength(['aa', 'bb', 'cc'], 2, 100, len)).toBe(2);
  expect(batchLength(['aa', 'bb', 'cc'], 10, 4, len)).toBe(2);
  expect(batchLength(['aaaaaa', 'b'], 10, 4, len)).toBe(1);
  expect(batchLength([], 10, 4, len)).toBe(0);
});
