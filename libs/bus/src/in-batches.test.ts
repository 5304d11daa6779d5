import { describe, expect, it } from 'vitest';
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
    const batches: { at: number; messages: number[] }[] = [];
    const start = Date.now();
    const handler = inBatches(async (messages: number[]) => void batches.push({ at: Date.now() - start, messages }), { maxBatch: 3, gatherMs: 200 });
    const first = handler(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all([first, handler(2)]);
    expect(batches.map((b) => b.messages)).toEqual([[1, 2]]);
    expect(batches[0]!.at).toBeGreaterThanOrEqual(190);
    const full = Date.now();
    await Promise.all([4, 5, 6].map((n) => handler(n)));
    expect(batches.map((b) => b.messages)).toEqual([[1, 2], [4, 5, 6]]);
    expect(Date.now() - full).toBeLessThan(190);
  });
});
