import amqp from 'amqplib';
import type { Channel } from 'amqplib';
import { ValidationError } from '@svc/core';
import { takeDeclared } from './amqp-topology.js';

/**
 * Test and CI clean-up: deletes every exchange and queue (messages included) that AMQP buses of
 * this process declared under `prefix`. Call it after closing those buses. Refused for an empty
 * prefix, so that it can never remove the fleet's real topology. Declarations made by other
 * processes are not known here (AMQP cannot list queues without the management plugin).
 *
 * @example
 *   const prefix = `test-${randomUUID().slice(0, 8)}.`;
 *   const bus = await createAmqpBus({ url, prefix });
 *   // … tests …
 *   await bus.close();
 *   await destroyBusPrefix(url, prefix);
 */
export async function destroyBusPrefix(url: string, prefix: string): Promise<void> {
  if (!prefix) throw new ValidationError('destroyBusPrefix needs a non-empty prefix');
  const { queues, exchanges } = takeDeclared(prefix);
  if (queues.size === 0 && exchanges.size === 0) return;
  const model = await amqp.connect(url);
  model.on('error', () => undefined);
  // One channel per delete: the broker closes a channel whose operation fails.
  const attempt = async (remove: (channel: Channel) => Promise<unknown>) => {
    const channel = await model.createChannel();
    channel.on('error', () => undefined);
    await remove(channel).catch(() => undefined);
    await channel.close().catch(() => undefined);
  };
  try {
    for (const queue of queues) await attempt((channel) => channel.deleteQueue(queue));
    for (const exchange of exchanges) await attempt((channel) => channel.deleteExchange(exchange));
  } finally {
    await model.close().catch(() => undefined);
  }
}
