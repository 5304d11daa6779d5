import { randomUUID } from 'node:crypto';
import type { Channel, GetMessage } from 'amqplib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IntegrationError, ServiceUnavailableError, createLogger } from '@svc/core';
import type { RawBus, BusMessage } from './bus.js';
import { busContract } from './bus.contract.js';
import { createAmqpBus, type AmqpBusOptions } from './amqp-bus.js';
import { destroyBrokerPrefix, destroyBusPrefix } from './amqp-cleanup.js';
import { brokerSupportsQuorum } from './amqp-topology.js';
import { listBrokerQueues } from './broker-queues.js';
import { ephemeralQueueName } from './names.js';
import { startTcpProxy, type TcpProxy } from '@svc/testing';
import { withRawChannel as withRawChannelOn } from './testing/raw-channel.js';
import { gate, waitFor } from './testing/wait.js';

// CI always sets AMQP_URL; without it this file reports its tests as skipped, never as passed.
const url = process.env.AMQP_URL ?? '';
const prefix = `test-${randomUUID().slice(0, 8)}.`;
const logger = createLogger({ service: 'bus-test', silent: true });
// Listing the broker's queues needs rabbitmqctl on the broker's machine; without it that test is skipped, not passed.
const brokerListed = url ? (await listBrokerQueues(url, '')) !== undefined : false;

const connect = (options: Partial<AmqpBusOptions> = {}) =>
  createAmqpBus({ url, prefix, logger, drainTimeoutMs: 500, reconnect: { initialDelayMs: 50, maxDelayMs: 400 }, ...options });

const withRawChannel = <T>(use: (channel: Channel) => Promise<T>) => withRawChannelOn(url, use);

/**
 * A question whose asker stopped waiting a second ago, which the broker still holds (it carries no
 * expiry of the broker's, as one a quorum queue took late still has time left), is dropped by the
 * responder that takes it: its handler sees only the question asked after it.
 */
async function dropsQuestionsPastTheirTime(bus: RawBus): Promise<void> {
  const queue = `asked-${randomUUID().slice(0, 6)}.rpc`;
  await (await bus.respond(queue, async () => 'unused')).cancel();
  await withRawChannel(async (channel) => {
    channel.sendToQueue(prefix + queue, Buffer.from(JSON.stringify({ q: 'given up' })), { headers: { 'x-bus-name': queue, 'x-bus-answer-by': String(Date.now() - 1000) } });
    await waitFor(async () => (await channel.checkQueue(prefix + queue)).messageCount === 1, 'the question in the queue');
  });
  const handler = vi.fn(async (payload: unknown) => payload);
  await bus.respond(queue, handler);

  expect(await bus.request(queue, { q: 'fresh' })).toEqual({ q: 'fresh' });
  expect(handler.mock.calls.map(([payload]) => payload)).toEqual([{ q: 'fresh' }]);
  expect(await bus.depth(queue)).toBe(0);
}

/** The broker's answer to a passive declare of `queue`: 200, or the AMQP error code (404 when it does not exist). */
const queueStatus = (queue: string) =>
  withRawChannel((channel) => channel.checkQueue(queue)).then(
    () => 200,
    (err: { code?: number }) => err.code,
  );

/** A bus whose connection goes through a TCP proxy that the test can cut. */
async function withProxiedBus(use: (bus: RawBus, proxy: TcpProxy) => Promise<void>, options: Partial<AmqpBusOptions> = {}): Promise<void> {
  const target = new URL(url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  try {
    const bus = await connect({ url: proxied.toString(), ...options });
    try {
      await use(bus, proxy);
    } finally {
      await bus.close();
    }
  } finally {
    await proxy.close();
  }
}

describe.runIf(url)('amqp bus', () => {
  const opened: RawBus[] = [];
  const open = async (options: Partial<AmqpBusOptions> = {}) => {
    const bus = await connect(options);
    opened.push(bus);
    return bus;
  };

  afterAll(async () => {
    await Promise.all(opened.map((bus) => bus.close()));
    await destroyBusPrefix(url, prefix);
  });

  busContract('amqp', { create: (options) => open(options) });

  it('redelivers the message a closed bus was still handling, marked redelivered', async () => {
    const queue = `crash-${randomUUID().slice(0, 6)}`;
    const survivor = await open();
    const doomed = await open({ drainTimeoutMs: 50 });
    const hang = gate();
    const took = gate();
    await doomed.consume(queue, async () => {
      took.open();
      await hang.wait;
    });
    await survivor.send(queue, { job: 'crash' }, { messageId: 'crash-1' });
    await took.wait;
    const received: BusMessage[] = [];
    await survivor.consume(queue, async (message) => {
      received.push(message);
    });

    await doomed.close();

    await waitFor(() => received.length === 1, 'the redelivery');
    expect(received[0]).toMatchObject({ payload: { job: 'crash' }, messageId: 'crash-1', redelivered: true });
    hang.open();
  });

  it('dead-letters a message whose body is not JSON, without calling the handler', async () => {
    const queue = `raw-${randomUUID().slice(0, 6)}`;
    const bus = await open();
    let calls = 0;
    await bus.consume(queue, async () => {
      calls++;
    });

    const dead = await withRawChannel(async (channel) => {
      channel.sendToQueue(prefix + queue, Buffer.from('{not json'));
      let message: GetMessage | false = false;
      await waitFor(async () => (message = await channel.get(`${prefix}${queue}.dlq`, { noAck: true })) !== false, 'the dead letter');
      return message as GetMessage | false;
    });

    expect(dead && dead.content.toString()).toBe('{not json');
    expect(calls).toBe(0);
  });

  it('drops a question the broker held past the time its asker waits, without calling the handler', async () => {
    await dropsQuestionsPastTheirTime(await open());
  });

  it('publishes work persistent and questions transient, expiring with their timeout', async () => {
    const queue = `wire-${randomUUID().slice(0, 6)}`;
    const bus = await open();
    await bus.send(queue, { a: 1 }, { correlationId: 'corr-wire', messageId: 'wire-1' });
    await (await bus.respond(`${queue}.rpc`, async () => null)).cancel();
    const question = bus.request(`${queue}.rpc`, {}, { timeoutMs: 300 }).catch((err: unknown) => err);

    const [work, asked] = await withRawChannel(async (channel) => {
      const work = await channel.get(prefix + queue, { noAck: true });
      let asked: GetMessage | false = false;
      await waitFor(async () => (asked = await channel.get(`${prefix}${queue}.rpc`, { noAck: true })) !== false, 'the question');
      return [work, asked as GetMessage | false] as const;
    });

    expect(work && work.properties).toMatchObject({
      deliveryMode: 2,
      contentType: 'application/json',
      messageId: 'wire-1',
      headers: { 'x-correlation-id': 'corr-wire', 'x-bus-name': queue },
    });
    expect(asked && asked.properties).toMatchObject({ expiration: '300', replyTo: expect.stringContaining('amq.rabbitmq.reply-to'), headers: { 'x-bus-answer-by': expect.stringMatching(/^\d+$/) } });
    expect(asked && asked.properties.deliveryMode).not.toBe(2);
    await question;
  });

  it('publishes transient work kept in memory only, at once or after a delay', async () => {
    const queue = `transient-${randomUUID().slice(0, 6)}`;
    const bus = await open();
    await bus.send(queue, { n: 1 }, { transient: true });
    await bus.send(queue, { n: 2 }, { transient: true, delayMs: 50 });
    await bus.send(queue, { n: 3 });

    const modes = await withRawChannel(async (channel) => {
      const got = new Map<number, number | undefined>();
      await waitFor(async () => {
        const message = await channel.get(prefix + queue, { noAck: true });
        if (message) got.set((JSON.parse(message.content.toString()) as { n: number }).n, message.properties.deliveryMode as number | undefined);
        return got.size === 3;
      }, 'the three messages');
      return got;
    });

    expect(modes.get(1)).not.toBe(2);
    expect(modes.get(2)).not.toBe(2);
    expect(modes.get(3)).toBe(2);
  });

  it('comes back by itself after losing the connection, on the same bus object', async () => {
    await withProxiedBus(async (bus, proxy) => {
      const queue = `reconnect-${randomUUID().slice(0, 6)}`;
      const received: unknown[] = [];
      await bus.consume(queue, async (message) => {
        received.push(message.payload);
      });
      await bus.respond(`${queue}.rpc`, async () => 'pong');
      await bus.send(queue, { n: 1 });
      await waitFor(() => received.length === 1, 'the first message');

      proxy.cut();
      await waitFor(async () => !(await bus.healthy()), 'healthy() to turn false', 2_000);
      const sentWhileDown = bus.send(queue, { n: 2 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      proxy.resume();

      await sentWhileDown;
      await waitFor(() => bus.healthy(), 'healthy() to turn true');
      await bus.send(queue, { n: 3 });
      // At least once: an ack in flight when the link broke is lost, so a message may come twice.
      const distinct = () => new Set(received.map((m) => (m as { n: number }).n));
      await waitFor(() => distinct().size === 3, 'the messages after reconnecting');
      expect([...distinct()].sort()).toEqual([1, 2, 3]);
      await expect(bus.request(`${queue}.rpc`, {})).resolves.toBe('pong');
    }, { waitForConnectionMs: 5_000 });
  });

  it('consumes again, on a new channel, after the broker deletes its queue on a live connection', async () => {
    const bus = await open();
    const queue = `deleted-${randomUUID().slice(0, 6)}`;
    const received: unknown[] = [];
    await bus.consume(queue, async (message) => {
      received.push(message.payload);
    });
    await withRawChannel((channel) => channel.deleteQueue(prefix + queue));

    // The broker cancels the consumer; a new channel declares the queue again and consumes.
    await waitFor(async () => {
      await bus.send(queue, { n: 1 });
      return received.length > 0;
    }, 'a message after the queue came back');
    expect(await bus.healthy()).toBe(true);
  });

  it('publishes again after the broker closes its publishing channel on a live connection', async () => {
    const bus = await open();
    const queue = `exchange-gone-${randomUUID().slice(0, 6)}`;
    const word = `gone${randomUUID().slice(0, 6)}`;
    const received: unknown[] = [];
    await bus.subscribe(queue, [`${word}.*`], async (message) => {
      received.push(message.payload);
    });
    // An event to a missing exchange makes the broker close the channel: the connection is
    // opened again, its setup declares the exchange, and the consumers bind to it again.
    await withRawChannel((channel) => channel.deleteExchange(`${prefix}svc.events`));
    await bus.publish(`${word}.happened`, { n: 0 }).catch(() => undefined);

    await waitFor(async () => {
      await bus.publish(`${word}.happened`, { n: 1 }).catch(() => undefined);
      return received.length > 0;
    }, 'an event after the exchange came back');
  });

  it('rejects with SERVICE_UNAVAILABLE when the broker stays away longer than the bound', async () => {
    const WAIT_FOR_CONNECTION_MS = 200;
    await withProxiedBus(async (bus, proxy) => {
      proxy.cut();
      await waitFor(async () => !(await bus.healthy()), 'healthy() to turn false', 2_000);

      const started = Date.now();
      const error = await bus.publish('thing.happened', {}).catch((err: unknown) => err);

      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      // A ratio of the bound rather than a margin in milliseconds: only a publish that waited for
      // the broker to come back (it never does here) would take anywhere near 25 times as long.
      expect(Date.now() - started).toBeLessThan(25 * WAIT_FOR_CONNECTION_MS);
    }, { waitForConnectionMs: WAIT_FOR_CONNECTION_MS });
  });

  describe('a message whose connection drops before the broker confirms it', () => {
    /** Sends to a queue declared on this connection, and cuts the connection once the message is written and unconfirmed. */
    async function sendCutUnconfirmed(bus: RawBus, proxy: TcpProxy, queue: string): Promise<unknown> {
      await bus.send(queue, { n: 0 });
      // The broker reads nothing more: the message goes out and its confirm never comes back.
      proxy.hold();
      const sending = bus.send(queue, { n: 1 }).then(
        () => 'sent',
        (err: unknown) => err,
      );
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
      // amqplib fails the unconfirmed publish ('channel closed') before the connection manager hears the connection is gone.
      proxy.cut();
      return sending;
    }

    it('is sent again on the next connection when the broker comes back within the bound', async () => {
      await withProxiedBus(async (bus, proxy) => {
        const queue = `unconfirmed-${randomUUID().slice(0, 6)}`;
        const received: number[] = [];
        const sent = sendCutUnconfirmed(bus, proxy, queue);
        await waitFor(async () => !(await bus.healthy()), 'healthy() to turn false', 2_000);
        proxy.resume();
        expect(await sent).toBe('sent');
        await bus.consume(queue, async (message) => {
          received.push((message.payload as { n: number }).n);
        });
        await waitFor(() => received.includes(1), 'the message sent again');
      }, { waitForConnectionMs: 5_000 });
    });

    it('is refused with SERVICE_UNAVAILABLE, not as a broker refusal, when the broker stays away', async () => {
      await withProxiedBus(async (bus, proxy) => {
        const error = await sendCutUnconfirmed(bus, proxy, `unconfirmed-${randomUUID().slice(0, 6)}`);
        expect(error).toBeInstanceOf(ServiceUnavailableError);
        expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      }, { waitForConnectionMs: 500 });
    });
  });

  it('keeps an ephemeral queue to its connection: others send to it but cannot consume it, and it goes with the bus', async () => {
    const owner = await open();
    const other = await open();
    const replies = ephemeralQueueName('exec.replies');
    const received: unknown[] = [];
    await owner.consume(replies, async (message) => {
      if ((message.payload as { fail?: boolean }).fail) throw new Error('bad reply');
      received.push(message.payload);
    }, { ephemeral: true });

    await expect(other.consume(replies, async () => undefined, { ephemeral: true })).rejects.toBeInstanceOf(IntegrationError);
    await other.send(replies, { fail: true });
    await other.send(replies, { n: 1 });
    await waitFor(() => received.length === 1, 'the reply from another connection');

    await owner.close();
    await expect(other.send(replies, { n: 2 })).resolves.toBeUndefined();
    expect(await queueStatus(prefix + replies)).toBe(404);
    expect(await queueStatus(`${prefix}${replies}.dlq`)).toBe(404);
  });

  it('declares its ephemeral queues and bindings again after losing the connection', async () => {
    await withProxiedBus(async (bus, proxy) => {
      const replies = ephemeralQueueName('exec.replies');
      const broadcasts = ephemeralQueueName('exec.broadcast');
      const word = `cancel-${randomUUID().slice(0, 6)}`;
      const received: unknown[] = [];
      const events: unknown[] = [];
      const record = (into: unknown[]) => async (message: BusMessage) => {
        into.push(message.payload);
      };
      await bus.consume(replies, record(received), { ephemeral: true });
      await bus.subscribe(broadcasts, [`${word}.*`], record(events), { ephemeral: true });

      proxy.cut();
      await waitFor(async () => !(await bus.healthy()), 'healthy() to turn false', 2_000);
      expect(await queueStatus(prefix + replies)).toBe(404);
      proxy.resume();
      await waitFor(() => bus.healthy(), 'healthy() to turn true');

      // The consumers restart a moment after the connection; until then messages to their queues are dropped.
      await waitFor(async () => {
        await bus.send(replies, { ping: true });
        return received.length > 0;
      }, 'a reply after reconnecting');
      await waitFor(async () => {
        await bus.publish(`${word}.requested`, { ping: true });
        return events.length > 0;
      }, 'an event after reconnecting');
    });
  });

  it('destroyBusPrefix deletes the queues and exchanges declared under a prefix', async () => {
    const scratch = `test-${randomUUID().slice(0, 8)}.`;
    const bus = await createAmqpBus({ url, prefix: scratch, logger });
    await bus.subscribe('audit', ['#'], async () => undefined);
    await bus.close();

    await destroyBusPrefix(url, scratch);

    const exists = (check: (channel: Channel) => Promise<unknown>) =>
      withRawChannel(check).then(
        () => true,
        () => false,
      );
    expect(await exists((channel) => channel.checkQueue(`${scratch}audit`))).toBe(false);
    expect(await exists((channel) => channel.checkQueue(`${scratch}audit.dlq`))).toBe(false);
    expect(await exists((channel) => channel.checkExchange(`${scratch}svc.events`))).toBe(false);
  });

  it.runIf(brokerListed)('destroyBrokerPrefix deletes the queues and exchanges that other processes declared under a prefix, and nothing else', async () => {
    const scratch = `test-${randomUUID().slice(0, 8)}.`;
    const bystander = `test-${randomUUID().slice(0, 8)}.${scratch}jobs`;
    // Declared over a plain channel, as another process would: no bus of this process knows them.
    await withRawChannel(async (channel) => {
      for (const queue of [`${scratch}jobs`, `${scratch}jobs.dlq`, bystander]) await channel.assertQueue(queue, { durable: true });
      await channel.assertExchange(`${scratch}svc.events`, 'topic', { durable: true });
      await channel.assertExchange(`${scratch}svc.dlx`, 'direct', { durable: true });
    });

    expect((await destroyBrokerPrefix(url, scratch))?.sort()).toEqual([`${scratch}jobs`, `${scratch}jobs.dlq`]);

    const exists = (check: (channel: Channel) => Promise<unknown>) =>
      withRawChannel(check).then(
        () => true,
        () => false,
      );
    expect(await listBrokerQueues(url, scratch)).toEqual([]);
    expect(await exists((channel) => channel.checkExchange(`${scratch}svc.events`))).toBe(false);
    expect(await exists((channel) => channel.checkExchange(`${scratch}svc.dlx`))).toBe(false);
    expect(await queueStatus(bystander)).toBe(200);
    await withRawChannel((channel) => channel.deleteQueue(bystander));
  });

  it('refuses an empty prefix, so that it never removes the fleet itself', async () => {
    await expect(destroyBrokerPrefix(url, '')).rejects.toThrow(/non-empty prefix/);
  });

  describe('with quorum queues (SVC_BUS_QUEUE_TYPE=quorum)', () => {
    const quorum = (options: Partial<AmqpBusOptions> = {}) => open({ queueType: 'quorum', ...options });
    /** What the broker answers a declaration of `queue` with these arguments: 'ok' or its AMQP error code. */
    const redeclare = (queue: string, args: Record<string, unknown>) =>
      withRawChannel((channel) => channel.assertQueue(queue, { durable: true, arguments: args })).then(
        () => 'ok',
        (err: { code?: number }) => err.code,
      );

    // Every rule of the bus holds on quorum queues: delays (message TTL), dead letters, redelivery, RPC.
    busContract('amqp quorum', { create: (options) => quorum(options) });

    it('drops a question the queue held past the time its asker waits, without calling the handler', async () => {
      await dropsQuestionsPastTheirTime(await quorum());
    });

    it('declares work queues and their dead-letter queues as quorum queues', async () => {
      const queue = `quorum-${randomUUID().slice(0, 6)}`;
      const bus = await quorum();
      const received: BusMessage[] = [];
      await bus.consume(queue, async (message) => {
        received.push(message);
      });
      await bus.send(queue, { n: 1 });
      await waitFor(() => received.length === 1, 'the job');
      const dlq = `${prefix}${queue}.dlq`;
      const args = { 'x-dead-letter-exchange': `${prefix}svc.dlx`, 'x-dead-letter-routing-key': dlq };
      // The broker accepts the same declaration and refuses one of another type.
      expect(await redeclare(`${prefix}${queue}`, { ...args, 'x-queue-type': 'quorum' })).toBe('ok');
      expect(await redeclare(`${prefix}${queue}`, { ...args, 'x-queue-type': 'classic' })).toBe(406);
      expect(await redeclare(dlq, { 'x-queue-type': 'quorum' })).toBe('ok');
    });

    it('refuses to start a consumer on a classic queue made before, naming the way out', async () => {
      const queue = `was-classic-${randomUUID().slice(0, 6)}`;
      const classic = await open();
      await classic.send(queue, { n: 1 });
      const refused = await (await quorum({ waitForConnectionMs: 1000 })).consume(queue, async () => undefined).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(IntegrationError);
      expect((refused as InstanceType<typeof IntegrationError>).details).toMatchObject({ reason: expect.stringMatching(/exists as another type than quorum.*SVC_BUS_QUEUE_TYPE/) });
      // The classic setting still declares it as it is, and the job waiting there is taken.
      const received: BusMessage[] = [];
      await classic.consume(queue, async (message) => {
        received.push(message);
      });
      await waitFor(() => received.length === 1, 'the job on the classic queue');
    });

    it('refuses the classic setting on a quorum queue in the same way', async () => {
      const queue = `was-quorum-${randomUUID().slice(0, 6)}`;
      await (await quorum()).send(queue, { n: 1 });
      const refused = await (await open({ waitForConnectionMs: 1000 })).consume(queue, async () => undefined).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect((refused as InstanceType<typeof IntegrationError>).details).toMatchObject({ reason: expect.stringMatching(/exists as another type than classic/) });
    });
  });
});

describe('brokerSupportsQuorum', () => {
  it('is true from RabbitMQ 3.8 on', () => {
    expect(['3.8.0', '3.10.8', '3.13.7', '4.0.5'].map(brokerSupportsQuorum)).toEqual([true, true, true, true]);
    expect(['3.7.28', '2.8.1', '', undefined, 'unknown'].map(brokerSupportsQuorum)).toEqual([false, false, false, false, false]);
  });
});
