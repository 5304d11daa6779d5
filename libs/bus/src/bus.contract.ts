import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AppError,
  ConflictError,
  IntegrationError,
  ServiceUnavailableError,
  TimeoutError,
  ValidationError,
  currentCorrelationId,
  withCorrelationId,
} from '@svc/core';
import type { RawBus, BusMessage, RetryPolicy } from './bus.js';
import { ephemeralQueueName } from './names.js';
import { HandBack } from './settlement.js';
import { gate, waitFor } from './testing/wait.js';

export interface BusHarness {
  /** A bus on this run's broker and prefix; `drainTimeoutMs` bounds how long cancel/close wait for handlers. */
  create(options?: { drainTimeoutMs?: number; retry?: RetryPolicy }): Promise<RawBus>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every bus adapter must share, run against each of them (memory-bus.test.ts,
 * amqp-bus.test.ts). Every test uses queues of its own, so tests never see each other's messages.
 */
export function busContract(adapter: string, harness: BusHarness): void {
  describe(`${adapter} bus contract`, () => {
    const opened: RawBus[] = [];
    const run = randomUUID().slice(0, 6);
    let counter = 0;
    const name = (label: string) => `${label}-${run}-${++counter}`;

    const openBus = async (options?: { drainTimeoutMs?: number; retry?: RetryPolicy }) => {
      const bus = await harness.create(options);
      opened.push(bus);
      return bus;
    };

    /** A handler that records what it receives. */
    const recorder = () => {
      const received: BusMessage[] = [];
      const handler = async (message: BusMessage) => {
        received.push(message);
      };
      return { received, handler };
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((bus) => bus.close()));
    });

    describe('events', () => {
      it('delivers an event once to every subscribed queue', async () => {
        const bus = await openBus();
        const exact = recorder();
        const wildcard = recorder();
        await bus.subscribe(name('audit'), ['user.registered'], exact.handler);
        await bus.subscribe(name('metrics'), ['user.*'], wildcard.handler);

        await bus.publish('user.registered', { user_id: 'u1' });

        await waitFor(() => exact.received.length === 1 && wildcard.received.length === 1, 'both subscribers');
        for (const { received } of [exact, wildcard]) {
          expect(received[0]).toMatchObject({ name: 'user.registered', payload: { user_id: 'u1' }, redelivered: false });
        }
        await bus.publish('user.deleted', {});
        await waitFor(() => wildcard.received.length === 2, 'the second event');
        expect(exact.received).toHaveLength(1);
      });

      it('routes by topic pattern: * is one word, # is any number', async () => {
        const bus = await openBus();
        const oneWord = recorder();
        const everything = recorder();
        const packTree = recorder();
        await bus.subscribe(name('one-word'), ['pack.*'], oneWord.handler);
        await bus.subscribe(name('everything'), ['#'], everything.handler);
        await bus.subscribe(name('pack-tree'), ['pack.#'], packTree.handler);

        for (const event of ['pack.installed', 'pack.version.published', 'user.registered', 'pack.done']) {
          await bus.publish(event, {});
        }

        const names = (received: BusMessage[]) => received.map((message) => message.name);
        await waitFor(
          () => [oneWord, everything, packTree].every(({ received }) => names(received).includes('pack.done')),
          'the last event in every queue',
        );
        expect(names(oneWord.received)).toEqual(['pack.installed', 'pack.done']);
        expect(names(everything.received)).toEqual(['pack.installed', 'pack.version.published', 'user.registered', 'pack.done']);
        expect(names(packTree.received)).toEqual(['pack.installed', 'pack.version.published', 'pack.done']);
      });
    });

    describe('work queues', () => {
      it('gives each message to exactly one of the competing consumers', async () => {
        const bus = await openBus();
        const queue = name('exec.fast');
        const first = recorder();
        const second = recorder();
        await bus.consume(queue, first.handler);
        await bus.consume(queue, second.handler);

        for (let n = 0; n < 10; n++) await bus.send(queue, { n });

        await waitFor(() => first.received.length + second.received.length === 10, 'ten deliveries');
        const seen = [...first.received, ...second.received].map((message) => (message.payload as { n: number }).n);
        expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(first.received.length).toBeGreaterThan(0);
        expect(second.received.length).toBeGreaterThan(0);
      });

      it('keeps messages sent before any consumer and delivers them in order', async () => {
        const bus = await openBus();
        const queue = name('exec.medium');
        expect(await bus.depth(queue)).toBe(0);
        for (let n = 0; n < 3; n++) await bus.send(queue, { n });
        // Its depth counts what waits; the consumer then takes it all.
        await waitFor(async () => (await bus.depth(queue)) === 3, 'three messages waiting');

        const { received, handler } = recorder();
        await bus.consume(queue, handler);

        await waitFor(() => received.length === 3, 'the waiting messages');
        expect(received.map((message) => message.payload)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
        expect(await bus.depth(queue)).toBe(0);
      });

      it('holds a message sent with a delay until the delay has passed, while later ones without go first', async () => {
        const bus = await openBus();
        const queue = name('exec.fast');
        const { received, handler } = recorder();
        await bus.consume(queue, handler);
        const sentAt = Date.now();
        await bus.send(queue, { n: 'later' }, { delayMs: 400 });
        await bus.send(queue, { n: 'now' });
        await waitFor(() => received.length === 2, 'both messages');
        expect(received.map((message) => message.payload)).toEqual([{ n: 'now' }, { n: 'later' }]);
        expect(Date.now() - sentAt).toBeGreaterThanOrEqual(400);
        expect(received[1]).toMatchObject({ name: queue, redelivered: false });
      });

      it('refuses a delay that is not a whole number of milliseconds up to an hour, and any delay to an ephemeral queue', async () => {
        const bus = await openBus();
        await expect(bus.send(name('exec.fast'), {}, { delayMs: -1 })).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.send(name('exec.fast'), {}, { delayMs: 1.5 })).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.send(name('exec.fast'), {}, { delayMs: 3_600_001 })).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.send(ephemeralQueueName('replies'), {}, { delayMs: 10 })).rejects.toBeInstanceOf(ValidationError);
      });

      it('moves a message whose handler throws to <queue>.dlq, once', async () => {
        const bus = await openBus();
        const queue = name('exec.long');
        let attempts = 0;
        await bus.consume(queue, async () => {
          attempts++;
          throw new Error('boom');
        });
        const dead = recorder();
        await bus.consume(`${queue}.dlq`, dead.handler);

        await bus.send(queue, { job: 1 }, { messageId: 'job-1' });

        await waitFor(() => dead.received.length === 1, 'the dead letter');
        expect(dead.received[0]).toMatchObject({ name: queue, payload: { job: 1 }, messageId: 'job-1' });
        expect(attempts).toBe(1);
      });

      it('puts a message back on its queue after the pause, marked redelivered, when the retry policy knows its failure', async () => {
        const bus = await openBus({ retry: { when: (err) => (err as Error).message === 'database out of reach', delayMs: 100 } });
        const queue = name('exec.fast');
        const seen: Array<{ message: BusMessage; at: number }> = [];
        await bus.consume(queue, async (message) => {
          seen.push({ message, at: Date.now() });
          if (seen.length < 3) throw new Error('database out of reach');
          if (seen.length === 3) throw new Error('something else');
        });
        const dead = recorder();
        await bus.consume(`${queue}.dlq`, dead.handler);

        await bus.send(queue, { job: 1 }, { messageId: 'job-1' });

        await waitFor(() => dead.received.length === 1, 'the dead letter of the other failure');
        expect(seen.map(({ message }) => [message.messageId, message.payload, message.redelivered])).toEqual([
          ['job-1', { job: 1 }, false],
          ['job-1', { job: 1 }, true],
          ['job-1', { job: 1 }, true],
        ]);
        expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(90);
        expect(dead.received[0]).toMatchObject({ messageId: 'job-1' });
      });

      it('never runs more handlers of a consumer at once than its prefetch', async () => {
        const bus = await openBus();
        const queue = name('bounded');
        let running = 0;
        let most = 0;
        let done = 0;
        await bus.consume(
          queue,
          async () => {
            running++;
            most = Math.max(most, running);
            await sleep(20);
            running--;
            done++;
          },
          { prefetch: 2 },
        );

        for (let n = 0; n < 6; n++) await bus.send(queue, { n });

        await waitFor(() => done === 6, 'six handled messages');
        expect(most).toBe(2);
      });

      it('carries message id, headers and name to the handler', async () => {
        const bus = await openBus();
        const queue = name('headers');
        const { received, handler } = recorder();
        await bus.consume(queue, handler);

        await bus.send(queue, { a: 1 }, { messageId: 'msg-1', headers: { 'x-tenant': 'acme' } });

        await waitFor(() => received.length === 1, 'the message');
        expect(received[0]).toMatchObject({ name: queue, messageId: 'msg-1', headers: { 'x-tenant': 'acme' }, redelivered: false });
        expect(Object.keys(received[0]!.headers)).toEqual(['x-tenant']);
      });

      it('copies payloads, so neither side can change what the other holds', async () => {
        const bus = await openBus();
        const queue = name('copies');
        const payload = { items: [1] };
        const { received, handler } = recorder();
        await bus.consume(queue, async (message) => {
          await handler(message);
          (message.payload as { items: number[] }).items.push(99);
        });

        const sending = bus.send(queue, payload);
        payload.items.push(2);
        await sending;

        await waitFor(() => received.length === 1, 'the message');
        expect(received[0]!.payload).toEqual({ items: [1, 99] });
        expect(payload).toEqual({ items: [1, 2] });
      });
    });

    describe('cancel and redelivery', () => {
      it('lets a cancelled consumer finish and ack the message it is handling', async () => {
        const bus = await openBus({ drainTimeoutMs: 2_000 });
        const queue = name('drain');
        let finished = false;
        const started = gate();
        const subscription = await bus.consume(queue, async () => {
          started.open();
          await sleep(50);
          finished = true;
        });
        await bus.send(queue, { n: 'first' });
        await started.wait;

        await subscription.cancel();
        expect(finished).toBe(true);

        const next = recorder();
        await bus.consume(queue, next.handler);
        await bus.send(queue, { n: 'marker' });
        await waitFor(() => next.received.length > 0, 'the marker');
        // Had the first message not been acked, it would have come back ahead of the marker.
        expect(next.received.map((message) => message.payload)).toEqual([{ n: 'marker' }]);
      });

      it('puts a message its handler hands back on its queue at once, for another consumer, without a dead letter', async () => {
        // A retry policy that would hold every failure for a minute: a hand-back does not wait for it.
        const bus = await openBus({ retry: { when: () => true, delayMs: 60_000 } });
        const queue = name('handback');
        const stopping = await bus.consume(queue, async () => {
          throw new HandBack('stopping');
        }, { prefetch: 1 });
        await bus.send(queue, { job: 'given back' }, { messageId: 'back-1' });
        const taker = recorder();
        await bus.consume(queue, taker.handler);
        await stopping.cancel();

        await waitFor(() => taker.received.length === 1, 'the message handed back');
        expect(taker.received[0]).toMatchObject({ payload: { job: 'given back' }, messageId: 'back-1' });
      });

      it('redelivers, marked redelivered, what a cancelled consumer still holds after the drain bound', async () => {
        const bus = await openBus({ drainTimeoutMs: 100 });
        const queue = name('hung');
        const hang = gate();
        const took = gate();
        const hung = await bus.consume(
          queue,
          async () => {
            took.open();
            await hang.wait;
          },
          { prefetch: 1 },
        );
        await bus.send(queue, { job: 'stuck' }, { messageId: 'stuck-1' });
        await took.wait;
        const rescuer = recorder();
        await bus.consume(queue, rescuer.handler);

        await hung.cancel();

        await waitFor(() => rescuer.received.length === 1, 'the redelivery');
        expect(rescuer.received[0]).toMatchObject({ payload: { job: 'stuck' }, messageId: 'stuck-1', redelivered: true });
        hang.open();
      });
    });

    describe('ephemeral queues', () => {
      it('delivers a reply sent to an ephemeral queue to its consumer', async () => {
        const bus = await openBus();
        const replies = ephemeralQueueName('exec.replies');
        const { received, handler } = recorder();
        await bus.consume(replies, handler, { ephemeral: true });

        await bus.send(replies, { task_id: 't1', status: 'succeeded' }, { messageId: 'reply-1' });

        await waitFor(() => received.length === 1, 'the reply');
        expect(received[0]).toMatchObject({ name: replies, payload: { task_id: 't1', status: 'succeeded' }, messageId: 'reply-1' });
      });

      it('drops, without failing the sender, what is sent once its consumer is cancelled', async () => {
        const bus = await openBus();
        const replies = ephemeralQueueName('exec.replies');
        const gone = recorder();
        await (await bus.consume(replies, gone.handler, { ephemeral: true })).cancel();

        await expect(bus.send(replies, { n: 'late' })).resolves.toBeUndefined();

        const later = recorder();
        await bus.consume(replies, later.handler, { ephemeral: true });
        await bus.send(replies, { n: 'marker' });
        await waitFor(() => later.received.length > 0, 'the marker');
        // Had the late reply been kept, it would have come ahead of the marker.
        expect(later.received.map((message) => message.payload)).toEqual([{ n: 'marker' }]);
        expect(gone.received).toEqual([]);
      });

      it('drops a message whose handler throws, rather than dead-lettering or redelivering it', async () => {
        const bus = await openBus();
        const replies = ephemeralQueueName('exec.replies');
        let failures = 0;
        const { received, handler } = recorder();
        await bus.consume(
          replies,
          async (message) => {
            if ((message.payload as { fail?: boolean }).fail) {
              failures++;
              throw new Error('bad reply');
            }
            await handler(message);
          },
          { ephemeral: true, prefetch: 1 },
        );

        await bus.send(replies, { fail: true });
        await bus.send(replies, { n: 'next' });

        await waitFor(() => received.length === 1, 'the next message');
        expect(failures).toBe(1);
      });

      it('fans events out to every ephemeral subscriber, whose queues and bindings vanish on cancel', async () => {
        const bus = await openBus();
        const word = name('task');
        const queues = [ephemeralQueueName('exec.broadcast'), ephemeralQueueName('exec.broadcast')];
        const instances = queues.map(() => recorder());
        const subscriptions = await Promise.all(
          queues.map((queue, i) => bus.subscribe(queue, [`${word}.*`], instances[i]!.handler, { ephemeral: true })),
        );

        await bus.publish(`other-${word}.cancelled`, {});
        await bus.publish(`${word}.cancelled`, { task_id: 't1' });
        await bus.publish(`${word}.paused`, { task_id: 't2' });

        await waitFor(() => instances.every(({ received }) => received.length === 2), 'both events on both instances');
        for (const { received } of instances) {
          expect(received.map((message) => message.name)).toEqual([`${word}.cancelled`, `${word}.paused`]);
        }

        await Promise.all(subscriptions.map((subscription) => subscription.cancel()));
        await bus.publish(`${word}.cancelled`, { task_id: 'while gone' });
        const later = recorder();
        await bus.consume(queues[0]!, later.handler, { ephemeral: true });
        await bus.publish(`${word}.cancelled`, { task_id: 'no binding left' });
        await bus.send(queues[0]!, { marker: true });
        await waitFor(() => later.received.length > 0, 'the marker');
        expect(later.received.map((message) => message.payload)).toEqual([{ marker: true }]);
      });

      it('requires the ~ mark on ephemeral queues only, and refuses ephemeral RPC queues', async () => {
        const bus = await openBus();
        const marked = ephemeralQueueName('exec.replies');
        const ignore = async () => undefined;

        await expect(bus.consume(name('plain'), ignore, { ephemeral: true })).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.subscribe(name('plain'), ['a.b'], ignore, { ephemeral: true })).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.consume(marked, ignore)).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.subscribe(marked, ['a.b'], ignore)).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.respond(marked, ignore)).rejects.toBeInstanceOf(ValidationError);
        await expect(bus.respond(name('rpc'), ignore, { ephemeral: true })).rejects.toBeInstanceOf(ValidationError);
      });
    });

    describe('requests', () => {
      it('answers a request', async () => {
        const bus = await openBus();
        const queue = name('math.sum');
        await bus.respond(queue, async (payload) => {
          const { a, b } = payload as { a: number; b: number };
          return { sum: a + b };
        });

        await expect(bus.request(queue, { a: 1, b: 2 })).resolves.toEqual({ sum: 3 });
      });

      it("rebuilds the responder's AppError on the requester", async () => {
        const bus = await openBus();
        const queue = name('slug.claim');
        await bus.respond(queue, async () => {
          throw ConflictError.coded('SLUG_TAKEN', 'Slug "acme" is taken', { slug: 'acme' });
        });

        const error = await bus.request(queue, { slug: 'acme' }).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ status: 409, code: 'SLUG_TAKEN', type: 'ConflictError', message: 'Slug "acme" is taken', details: { slug: 'acme' } });
      });

      it('answers SERVICE_UNAVAILABLE for a responder failure the retry policy knows as passing', async () => {
        const bus = await openBus({ retry: { when: (err) => (err as Error).message === 'database out of reach', delayMs: 100 } });
        const queue = name('rpc.away');
        await bus.respond(queue, async () => {
          throw new Error('database out of reach');
        });
        await expect(bus.request(queue, {})).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
      });

      it('hides any other responder failure behind an IntegrationError', async () => {
        const bus = await openBus();
        const queue = name('leaky');
        await bus.respond(queue, async () => {
          throw new Error('password hunter2 rejected');
        });

        const error = await bus.request(queue, {}).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(IntegrationError);
        expect(error).toMatchObject({ status: 502, code: 'INTEGRATION_ERROR', message: `${queue} failed` });
        expect(JSON.stringify({ ...(error as AppError), message: (error as AppError).message })).not.toContain('hunter2');
      });

      it('rejects with TIMEOUT when nobody answers', async () => {
        const bus = await openBus();
        const error = await bus.request(name('nobody'), {}, { timeoutMs: 100 }).catch((err: unknown) => err);

        expect(error).toBeInstanceOf(TimeoutError);
        expect(error).toMatchObject({ status: 408, code: 'TIMEOUT' });
      });

      it('drops a question that expired before a responder took it', async () => {
        const bus = await openBus();
        const queue = name('late');
        await (await bus.respond(queue, async () => 'unused')).cancel();
        await expect(bus.request(queue, { q: 'stale' }, { timeoutMs: 100 })).rejects.toBeInstanceOf(TimeoutError);
        await sleep(50);

        const asked: unknown[] = [];
        await bus.respond(queue, async (payload) => {
          asked.push(payload);
          return 'answer';
        });

        await expect(bus.request(queue, { q: 'fresh' })).resolves.toBe('answer');
        expect(asked).toEqual([{ q: 'fresh' }]);
      });
    });

    describe('correlation', () => {
      it('runs handlers under the correlation id given or current at the sender', async () => {
        const bus = await openBus();
        const queue = name('corr');
        const seen: Array<[string, string | undefined]> = [];
        await bus.consume(queue, async (message) => {
          seen.push([message.correlationId, currentCorrelationId()]);
        });
        await bus.respond(`${queue}.rpc`, async (_payload, message) => [message.correlationId, currentCorrelationId()]);

        await bus.send(queue, {}, { correlationId: 'corr-explicit' });
        await withCorrelationId('corr-ambient', () => bus.send(queue, {}));
        const answer = await withCorrelationId('corr-rpc', () => bus.request(`${queue}.rpc`, {}));

        await waitFor(() => seen.length === 2, 'both messages');
        expect(seen).toEqual([
          ['corr-explicit', 'corr-explicit'],
          ['corr-ambient', 'corr-ambient'],
        ]);
        expect(answer).toEqual(['corr-rpc', 'corr-rpc']);
      });

      it('gives a message without any correlation id a fresh one', async () => {
        const bus = await openBus();
        const queue = name('corr-new');
        const { received, handler } = recorder();
        await bus.consume(queue, handler);

        await bus.send(queue, {});

        await waitFor(() => received.length === 1, 'the message');
        expect(received[0]!.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      });
    });

    describe('lifecycle', () => {
      it('is healthy until closed, and refuses work afterwards', async () => {
        const bus = await harness.create();
        expect(await bus.healthy()).toBe(true);

        await bus.close();

        expect(await bus.healthy()).toBe(false);
        await expect(bus.send(name('closed'), {})).rejects.toBeInstanceOf(ServiceUnavailableError);
        await expect(bus.request(name('closed'), {})).rejects.toBeInstanceOf(ServiceUnavailableError);
      });
    });
  });
}
