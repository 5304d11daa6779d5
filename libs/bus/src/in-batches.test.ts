import { describe, expect, it, vi } from 'vitest';
import { inBatches } from './in-batches.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('inBatches', () => {
  it('hands the messages of one turn over together, in order, at most maxBatch at a time', async () => {
    const batches: number[][] = [];
    const handler = inBatches(async (messages: number[]) => void batches.push(messages), { maxBatch: 3 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => handler(n)));
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('runs one batch at a time; what arrives meanwhile makes the next', async () => {
    const batches: number[][] = [];
    let running = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handler = inBatches(async (messages: number[]) => {
      running++;
      most = Math.max(most, running);
      batches.push(messages);
      if (messages[0] === 1) await held;
      running--;
    });
    const first = handler(1);
    await tick();
    const later = [handler(2), handler(3)];
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(most).toBe(1);
  });

  it('fails a bad message alone: its batch is handled again one message at a time', async () => {
    const batches: string[][] = [];
    const handler = inBatches(async (messages: string[]) => {
      batches.push(messages);
      if (messages.includes('bad')) throw new Error('cannot take bad');
    });
    const outcomes = await Promise.allSettled(['a', 'bad', 'c'].map((m) => handler(m)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('cannot take bad');
    expect(batches).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('takes messages again after a batch failed', async () => {
    let fail = true;
    const handler = inBatches(async () => {
      if (fail) throw new Error('down');
    });
    await expect(handler('x')).rejects.toThrow('down');
    fail = false;
    await expect(handler('y')).resolves.toBeUndefined();
  });

  it('waits gatherMs for more messages before handling a batch, and not at all for a full one', async () => {
    // On the test's clock: a loaded machine's timers may fire late, never early, so a wall-clock
    // bound on "not at all" would fail for reasons of its own.
    vi.useFakeTimers();
    try {
      const batches: number[][] = [];
      const handler = inBatches(async (messages: number[]) => void batches.push(messages), { maxBatch: 3, gatherMs: 200 });
      const first = handler(1);
      await vi.advanceTimersByTimeAsync(20);
      const second = handler(2);
      await vi.advanceTimersByTimeAsync(179);
      expect(batches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all([first, second]);
      expect(batches).toEqual([[1, 2]]);
      // A full batch goes without the clock moving at all.
      await Promise.all([4, 5, 6].map((n) => handler(n)));
      expect(batches).toEqual([[1, 2], [4, 5, 6]]);
    } finally {
      vi.useRealTimers();
    }
  });
});
