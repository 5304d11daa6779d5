import type { Channel } from 'amqplib';
import { IntegrationError } from '@svc/core';
import { errorMessage } from './async.js';
import { deadLetterQueueOf, isDeadLetterQueue, isEphemeralQueue } from './names.js';

/**
 * How durable queues are declared: `quorum` replicates each queue over the broker's nodes (Raft),
 * so that a node lost loses no message; `classic` keeps each on one node, as brokers before 3.8
 * only can. Ephemeral queues are exclusive to a connection and always classic.
 */
export type QueueType = 'quorum' | 'classic';

/** Quorum queues came with RabbitMQ 3.8. */
export function brokerSupportsQuorum(version: unknown): boolean {
  const [major, minor] = String(version ?? '').split('.').map(Number);
  if (major === undefined || minor === undefined || Number.isNaN(major) || Number.isNaN(minor)) return false;
  return major > 3 || (major === 3 && minor >= 8);
}

/** What this process declared, per prefix. */
export interface Declared {
  exchanges: Set<string>;
  queues: Set<string>;
}

// AMQP cannot list queues without the management plugin, so the process remembers what it made.
const declaredByPrefix = new Map<string, Declared>();

/** Everything buses of this process declared under `prefix`, forgotten as it is handed out. */
export function takeDeclared(prefix: string): Declared {
  const declared = declaredByPrefix.get(prefix) ?? { exchanges: new Set(), queues: new Set() };
  declaredByPrefix.delete(prefix);
  return declared;
}

/**
 * Names and declarations of everything the AMQP adapter creates on the broker. Each exchange and
 * queue declared is remembered per prefix, so that a test run can delete exactly those
 * (`destroyBusPrefix`).
 */
export class AmqpTopology {
  /** The topic exchange every event goes through. */
  readonly events: string;
  /** Where rejected messages go, routed by their dead-letter queue's name. */
  readonly deadLetters: string;

  constructor(
    readonly prefix: string,
    readonly queueType: QueueType = 'classic',
  ) {
    this.events = `${prefix}svc.events`;
    this.deadLetters = `${prefix}svc.dlx`;
  }

  private declared(): Declared {
    let declared = declaredByPrefix.get(this.prefix);
    if (!declared) {
      declared = { exchanges: new Set(), queues: new Set() };
      declaredByPrefix.set(this.prefix, declared);
    }
    return declared;
  }

  /** The broker name of a bus queue. */
  queue(name: string): string {
    return this.prefix + name;
  }

  /** The bus name of a broker queue or routing key. */
  unprefixed(name: string): string {
    return name.startsWith(this.prefix) ? name.slice(this.prefix.length) : name;
  }

  async declareEvents(channel: Channel): Promise<void> {
    await channel.assertExchange(this.events, 'topic', { durable: true });
    this.declared().exchanges.add(this.events);
  }

  /** A durable queue whose rejected messages go to `<queue>.dlq` (a `.dlq` queue gets none). */
  async declareWorkQueue(channel: Channel, name: string): Promise<void> {
    const queue = this.queue(name);
    if (isDeadLetterQueue(name)) return this.declareQueue(channel, queue, {});
    const dlq = deadLetterQueueOf(queue);
    await channel.assertExchange(this.deadLetters, 'direct', { durable: true });
    this.declared().exchanges.add(this.deadLetters);
    await this.declareQueue(channel, dlq, {});
    await channel.bindQueue(dlq, this.deadLetters, dlq);
    await this.declareQueue(channel, queue, { 'x-dead-letter-exchange': this.deadLetters, 'x-dead-letter-routing-key': dlq });
  }

  /** The bus name of the queue that holds messages sent to `name` with a delay of `delayMs`. */
  delayQueueOf(name: string, delayMs: number): string {
    return `${name}.delay-${delayMs}`;
  }

  /**
   * Where messages sent to the work queue `name` wait `delayMs`: every message of the queue
   * expires after that long (one delay per queue, since RabbitMQ expires only the message at the
   * head) and is dead-lettered, through the default exchange, into `name`.
   */
  async declareDelayQueue(channel: Channel, name: string, delayMs: number): Promise<void> {
    await this.declareQueue(channel, this.queue(this.delayQueueOf(name, delayMs)), {
      'x-message-ttl': delayMs,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': this.queue(name),
    });
  }

  /**
   * RPC queues have no dead-letter queue: a question that expires unanswered is worth nothing
   * later, and with dead-lettering every expired question would pile up in the DLQ.
   */
  async declareRpcQueue(channel: Channel, name: string): Promise<void> {
    await this.declareQueue(channel, this.queue(name), {});
  }

  /**
   * A queue of this connection only, deleted by the broker when its last consumer is cancelled or
   * the connection closes. Not remembered for `destroyBusPrefix`: it never outlives the bus.
   */
  async declareEphemeralQueue(channel: Channel, name: string): Promise<void> {
    await channel.assertQueue(this.queue(name), { exclusive: true, autoDelete: true, durable: false });
  }

  async declareSubscription(channel: Channel, name: string, patterns: string[]): Promise<void> {
    await this.declareEvents(channel);
    if (isEphemeralQueue(name)) await this.declareEphemeralQueue(channel, name);
    else await this.declareWorkQueue(channel, name);
    for (const pattern of patterns) await channel.bindQueue(this.queue(name), this.events, pattern);
  }

  /**
   * `classic` sends no `x-queue-type`, so that queues made before the setting existed are
   * declared again as they are. The broker refuses to change a queue's type (PRECONDITION_FAILED):
   * that refusal names the way out (libs/bus README, "Queue type").
   */
  private async declareQueue(channel: Channel, queue: string, args: Record<string, string | number>): Promise<void> {
    const typed = this.queueType === 'quorum' ? { ...args, 'x-queue-type': 'quorum' } : args;
    try {
      await channel.assertQueue(queue, { durable: true, arguments: typed });
    } catch (err) {
      const reason = errorMessage(err);
      if (/PRECONDITION_FAILED.*x-queue-type/.test(reason)) {
        throw new IntegrationError(`Queue ${queue} exists as another type than ${this.queueType}: drain and delete it, or set SVC_BUS_QUEUE_TYPE to its type (libs/bus README, "Queue type")`, { queue, queue_type: this.queueType, reason }, { cause: err });
      }
      throw err;
    }
    this.declared().queues.add(queue);
  }
}
