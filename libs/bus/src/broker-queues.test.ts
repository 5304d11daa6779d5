import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { listBrokerQueues } from './broker-queues.js';

const url = process.env.AMQP_URL ?? '';
// rabbitmqctl must run on the broker's machine; without it the listing test is skipped, not passed.
const listable = url ? (await listBrokerQueues(url, '')) !== undefined : false;

describe("listing the broker's queues", () => {
  it.runIf(listable)('lists the queues under a prefix, whichever connection declared them', async () => {
    const prefix = `test-${randomUUID().slice(0, 8)}.`;
    const queues = [`${prefix}a`, `${prefix}b.dlq`, `other-${prefix}c`];
    const model = await amqp.connect(url);
    try {
      const channel = await model.createChannel();
      for (const queue of queues) await channel.assertQueue(queue, { durable: true });
      expect((await listBrokerQueues(url, prefix))?.sort()).toEqual([`${prefix}a`, `${prefix}b.dlq`]);
      for (const queue of queues) await channel.deleteQueue(queue);
    } finally {
      await model.close();
    }
  });

  it('lists nothing for a broker on another machine, whose queues rabbitmqctl here cannot see', async () => {
    expect(await listBrokerQueues('amqp://guest:guest@rabbitmq.example:5672', 'test-')).toBeUndefined();
  });
});
