import { randomUUID } from 'node:crypto';
import type { Channel, GetMessage } from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '@svc/core';
import type { BusMessage, RawBus } from './bus.js';
import { createAmqpBus, type AmqpBusOptions } from './amqp-bus.js';
import { destroyBusPrefix } from './amqp-cleanup.js';
import { BATCH_HEADER } from './event-batches.js';
import { withRawChannel as withRawChannelOn } from './testing/raw-channel.js';
import { waitFor } from './testing/wait.js';

// CI always sets AMQP_URL; without it this file reports its tests as skipped, never as passed.
const url = process.env.AMQP_URL ?? '';
const prefix = `test-${randomUUID().slice(0, 8)}.`;
const logger = createLogger({ service: 'bus-test', silent: true });

const withRawChannel = <T>(use: (channel: Channel) => Promise<T>) => withRawChannelOn(url, use);

/** Every message waiting in the broker queue `queue` (taken off it). */
const drainQueue = (queue: string) =>
  withRawChannel(async (channel) => {
    const got: GetMessage[] = [];
    for (let m = await channel.get(queue, { noAck: true }); m; m = await channel.get(queue, { noAck: true })) got.push(m);
    return got;
  });

/** A queue of the test's own bound to the events exchange, which the bus declares as it connects. */
const rawQueueFor = (pattern: string) =>
  withRawChannel(async (channel) => {
    const queue = `${prefix}raw-${randomUUID().slice(0, 6)}`;
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    await channel.bindQueue(queue, `${prefix}svc.events`, pattern);
    return queue;
  });

const word = () => `w${randomUUID().slice(0, 6)}`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe.runIf(url)('amqp bus: events published together', () => {
  const opened: RawBus[] = [];
  const open = async (options: Partial<AmqpBusOptions> = {}) => {
    const bus = await createAmqpBus({ url, prefix, logger, drainTimeoutMs: 500, ...options });
    opened.push(bus);
    return bus;
  };

  afterAll(async () => {
    await Promise.all(opened.map((bus) => bus.close()));
    await destroyBusPrefix(url, prefix);
  });

  it('travel as one message per name, and reach a subscriber each as its own message', async () => {
    const bus = await open();
    const w = word();
    const raw = await rawQueueFor(`${w}.*`);
    const seen: BusMessage[] = [];
    await bus.subscribe(`sub-${w}`, [`${w}.*`], async (m) => void seen.push(m));
    await Promise.all([
      ...[1, 2, 3].map((n) => bus.publish(`${w}.ended`, { n }, { messageId: `id-${n}`, correlationId: `c-${n}`, headers: { 'x-tenant': 't1' } })),
      bus.publish(`${w}.started`, { n: 4 }),
    ]);

    const wire = await drainQueue(raw);
    expect(wire.map((m) => [m.fields.routingKey, m.properties.headers?.[BATCH_HEADER]])).toEqual([
      [`${w}.ended`, 3],
      [`${w}.started`, undefined],
    ]);
    expect(JSON.parse(wire[1]!.content.toString())).toEqual({ n: 4 });

    await waitFor(() => seen.length === 4, 'four events');
    const ended = seen.filter((m) => m.name === `${w}.ended`);
    expect(ended.map((m) => ({ payload: m.payload, messageId: m.messageId, correlationId: m.correlationId, headers: m.headers, redelivered: m.redelivered }))).toEqual(
      [1, 2, 3].map((n) => ({ payload: { n }, messageId: `id-${n}`, correlationId: `c-${n}`, headers: { 'x-tenant': 't1' }, redelivered: false })),
    );
  });

  it('go one message each when batching is off (SVC_BUS_EVENT_BATCHING=off)', async () => {
    const bus = await open({ eventBatching: false });
    const w = word();
    const raw = await rawQueueFor(`${w}.*`);
    await Promise.all([1, 2, 3].map((n) => bus.publish(`${w}.ended`, { n })));
    const wire = await drainQueue(raw);
    expect(wire.map((m) => JSON.parse(m.content.toString()))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(wire.every((m) => m.properties.headers?.[BATCH_HEADER] === undefined)).toBe(true);
  });

  it('dead-letter only the event whose handler fails, alone, and are not delivered again', async () => {
    const bus = await open();
    const w = word();
    const queue = `dl-${w}`;
    const calls = new Map<number, number>();
    await bus.subscribe(queue, [`${w}.*`], async (m) => {
      const { n } = m.payload as { n: number };
      calls.set(n, (calls.get(n) ?? 0) + 1);
      if (n === 2) throw new Error('bad event');
    });
    await Promise.all([1, 2, 3].map((n) => bus.publish(`${w}.ended`, { n }, { messageId: `id-${n}` })));
    await waitFor(() => calls.size === 3, 'three events handled');
    await settle();

    expect([...calls.entries()].sort()).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    const dead = await drainQueue(`${prefix}${queue}.dlq`);
    expect(dead.map((m) => ({ body: JSON.parse(m.content.toString()), id: m.properties.messageId, batch: m.properties.headers?.[BATCH_HEADER] }))).toEqual([{ body: { n: 2 }, id: 'id-2', batch: undefined }]);
    expect(await drainQueue(`${prefix}${queue}`)).toEqual([]);
  });

  it('go back on their queue together when the retry policy knows a failure, each seen again marked redelivered', async () => {
    const bus = await open({ retry: { when: (err) => (err as Error).message === 'not now', delayMs: 50 } });
    const w = word();
    const seen: { n: number; redelivered: boolean }[] = [];
    let failed = false;
    await bus.subscribe(`retry-${w}`, [`${w}.*`], async (m) => {
      const { n } = m.payload as { n: number };
      seen.push({ n, redelivered: m.redelivered });
      if (n === 2 && !failed) {
        failed = true;
        throw new Error('not now');
      }
    });
    await Promise.all([1, 2, 3].map((n) => bus.publish(`${w}.ended`, { n })));
    await waitFor(() => seen.length === 6, 'the batch handled twice');
    await settle();
    expect(seen.slice(0, 3).map((s) => s.redelivered)).toEqual([false, false, false]);
    expect(seen.slice(3)).toEqual([1, 2, 3].map((n) => ({ n, redelivered: true })));
  });

  it('that say they are a batch and are not go to the dead-letter queue whole', async () => {
    const bus = await open();
    const w = word();
    const queue = `forged-${w}`;
    const seen: unknown[] = [];
    await bus.subscribe(queue, [`${w}.*`], async (m) => void seen.push(m.payload));
    await withRawChannel(async (channel) => {
      channel.publish(`${prefix}svc.events`, `${w}.ended`, Buffer.from('{"n":1}'), { headers: { [BATCH_HEADER]: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    await waitFor(async () => (await drainQueue(`${prefix}${queue}.dlq`)).length === 1, 'the forged batch dead-lettered');
    expect(seen).toEqual([]);
  });
});
