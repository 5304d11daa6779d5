import type { Logger } from '@svc/core';
import type { RetryPolicy } from './bus.js';
import { createAmqpBus } from './amqp-bus.js';
import type { QueueType } from './amqp-topology.js';
import { createMemoryBus } from './memory-bus.js';
import { typedBus, type Bus } from './typed-bus.js';

export interface CreateBusOptions {
  /** RabbitMQ URL; without one the bus is in-process (embedded mode). */
  amqpUrl?: string;
  /** AMQP only: put in front of every exchange and queue name. */
  prefix?: string;
  logger?: Logger;
  retry?: RetryPolicy;
  /** AMQP only: how durable queues are declared. Default 'classic'. */
  queueType?: QueueType;
}

/**
 * The real adapter when an AMQP URL is configured, the in-process one otherwise (DESIGN rule 4),
 * typed by `BUS_CONTRACTS`.
 *
 * @example
 *   const bus = await createBus({ amqpUrl: env.AMQP_URL, logger: log });
 */
export async function createBus(options: CreateBusOptions = {}): Promise<Bus> {
  const { amqpUrl, prefix, logger, retry, queueType } = options;
  return typedBus(amqpUrl ? await createAmqpBus({ url: amqpUrl, prefix, logger, retry, queueType }) : createMemoryBus({ logger, retry }));
}
