import type { Channel } from 'amqplib';
import { ValidationError } from '@svc/core';
import { listBrokerQueues } from './broker-queues.js';
import { AmqpTopology, takeDeclared } from './amqp-topology.js';

/**
 * Test and CI clean-up: deletes every exchange and queue (messages included) that AMQP buses of
 * this process declared under `prefix`. Call it after closing those buses. Refused for an empty
 * prefix, so that it can never remove the fleet's real topology. Declarations made by other
 * processes are not known here: `destroyBrokerPrefix` removes those.
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
  await deleteTopology(url, queues, exchanges);
}

/**
 * Test and CI clean-up of a prefix that other processes used (a fleet run as child processes):
 * deletes every queue on the broker whose name starts with `prefix`, whoever declared it, the
 * adapter's exchanges under `prefix`, and what this process declared there (`destroyBusPrefix`).
 * Call it once those processes have stopped. AMQP cannot list queues, so `rabbitmqctl` does
 * (`listBrokerQueues`: only a broker on this machine, for a user allowed to run it). Resolves to the
 * names of the queues listed, or undefined when they could not be listed: then queues other
 * processes declared may be left, and the caller should say so. Refused for an empty prefix.
 *
 * @example
 *   const deleted = await destroyBrokerPrefix(url, `proc-${runId}.`);
 *   if (!deleted) console.warn(`queues under proc-${runId}. may be left: rabbitmqctl could not list them`);
 */
export async function destroyBrokerPrefix(url: string, prefix: string): Promise<string[] | undefined> {
  if (!prefix) throw new ValidationError('destroyBrokerPrefix needs a non-empty prefix');
  const listed = await listBrokerQueues(url, prefix);
  const { queues, exchanges } = takeDeclared(prefix);
  const topology = new AmqpTopology(prefix);
  await deleteTopology(url, new Set([...queues, ...(listed ?? [])]), new Set([...exchanges, topology.events, topology.deadLetters]));
  return listed;
}

/** Queues first, so that their bindings are gone before the exchanges. */
async function deleteTopology(url: string, queues: Set<string>, exchanges: Set<string>): Promise<void> {
  if (queues.size === 0 && exchanges.size === 0) return;
  // amqplib is loaded by the first clean-up (tests and CI), not by every process that bundles the bus.
  const { default: amqp } = await import('amqplib');
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
