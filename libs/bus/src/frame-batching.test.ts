import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import amqp, { type ChannelModel } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { batchFrameWrites } from './frame-batching.js';

// CI always sets AMQP_URL; without it this file reports its tests as skipped, never as passed.
const url = process.env.AMQP_URL ?? '';
const MESSAGES = 50;

/** Socket writes (system calls) made while `MESSAGES` messages are published in one go. */
async function socketWritesFor(batched: boolean): Promise<number> {
  const model: ChannelModel = await amqp.connect(url, { noDelay: true });
  try {
    if (batched) expect(batchFrameWrites(model)).toBe(true);
    const channel = await model.createConfirmChannel();
    const queue = `test-frames-${randomUUID()}`;
    await channel.assertQueue(queue, { exclusive: true });
    const socket = (model as unknown as { connection: { stream: Socket } }).connection.stream;
    let writes = 0;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method] as (...args: unknown[]) => void;
      socket[method] = ((...args: unknown[]) => {
        writes += 1;
        return original.apply(socket, args);
      }) as never;
    }
    for (let i = 0; i < MESSAGES; i++) channel.sendToQueue(queue, Buffer.from(`message ${i}`));
    await channel.waitForConfirms();
    const received = await channel.checkQueue(queue);
    expect(received.messageCount).toBe(MESSAGES);
    return writes;
  } finally {
    await model.close();
  }
}

describe.skipIf(!url)('frame batching on the AMQP socket', () => {
  it('sends a burst of messages in a few socket writes instead of one per frame', async () => {
    const unbatched = await socketWritesFor(false);
    const batched = await socketWritesFor(true);
    expect(unbatched).toBeGreaterThanOrEqual(MESSAGES);
    expect(batched).toBeLessThanOrEqual(5);
  });

  it('changes nothing on a connection without the expected internals', () => {
    expect(batchFrameWrites({} as ChannelModel)).toBe(false);
  });
});
