import { randomUUID } from 'node:crypto';
import { createLogger, type Logger } from '@svc/core';
import type { RawBus, RetryPolicy } from '../bus.js';
import { createAmqpBus } from '../amqp-bus.js';
import { destroyBusPrefix } from '../amqp-cleanup.js';
import { createMemoryBus } from '../memory-bus.js';
import { typedBus, type Bus } from '../typed-bus.js';

/** A bus for one test file, and how to be rid of it with everything it declared. */
export interface TestBus {
  bus: Bus;
  /** The adapter under `bus`, for what the typed bus refuses on purpose (a dead-letter queue, a bad message). */
  raw: RawBus;
  /** The prefix its names live under (RabbitMQ; empty in-process). */
  prefix: string;
  dispose(): Promise<void>;
}

export interface TestBusKind {
  name: 'in-process' | 'RabbitMQ';
  /**
   * A new bus. On RabbitMQ, `prefix` puts it beside another one (the first to dispose deletes
   * their names); an in-process bus is a broker of its own, shared with nobody.
   */
  open(options?: { logger?: Logger; retry?: RetryPolicy; prefix?: string }): Promise<TestBus>;
}

/**
 * The buses a test runs on: the in-process one always, and RabbitMQ when `AMQP_URL` is set
 * (under a prefix of its own, deleted by `dispose`).
 *
 * @example
 *   describe.each(testBusKinds())('storage RPCs on the $name bus', (kind) => {
 *     let bus: TestBus;
 *     beforeAll(async () => { bus = await kind.open(); });
 *     afterAll(() => bus.dispose());
 *   });
 */
export function testBusKinds(amqpUrl = process.env.AMQP_URL): TestBusKind[] {
  const silent = createLogger({ service: 'test-bus', silent: true });
  const kinds: TestBusKind[] = [
    {
      name: 'in-process',
      async open(options = {}) {
        const raw = createMemoryBus({ logger: options.logger ?? silent, retry: options.retry });
        const bus = typedBus(raw);
        return { bus, raw, prefix: '', dispose: () => bus.close() };
      },
    },
  ];
  if (amqpUrl) {
    kinds.push({
      name: 'RabbitMQ',
      async open(options = {}) {
        const prefix = options.prefix ?? `test-${randomUUID().slice(0, 8)}.`;
        const raw = await createAmqpBus({ url: amqpUrl, prefix, logger: options.logger ?? silent, retry: options.retry });
        const bus = typedBus(raw);
        return {
          bus,
          raw,
          prefix,
          async dispose() {
            await bus.close();
            await destroyBusPrefix(amqpUrl, prefix);
          },
        };
      },
    });
  }
  return kinds;
}
