import {
  busContract,
  type BusContract,
  type EventInput,
  type EventName,
  type EventPattern,
  type EventPayload,
  type EventsMatching,
  type QueueAddress,
  type QueueInput,
  type QueueName,
  type QueuePayload,
  type RpcName,
  type RpcReply,
  type RpcReplyInput,
  type RpcRequest,
  type RpcRequestInput,
  type SubscriberName,
} from '@svc/contracts';
import { IntegrationError, parseInput, ValidationError } from '@svc/core';
import { busConsumed, busPublished, rpcDuration } from '@svc/metrics';
import type { z } from 'zod';
import type { BusMessage, ConsumeOptions, RawBus, RequestOptions, SendOptions, Subscription } from './bus.js';
import { handleTraced, sendTraced } from './bus-tracing.js';
import { EPHEMERAL_QUEUE_MARK, isEphemeralQueue, type EphemeralName } from './names.js';

/**
 * Where a subscriber listens: its service's durable queue, a key of `BUS_CONTRACTS`; or a queue
 * of this process (`ephemeralQueueName`), which goes with the process and leaves nothing behind.
 */
export type SubscriberQueue = SubscriberName | EphemeralName;

/** An event as its subscriber receives it: `name` tells which, and `payload` is typed by it. */
export type EventMessage<N extends EventName> = N extends EventName ? Omit<BusMessage, 'name' | 'payload'> & { name: N; payload: EventPayload<N> } : never;

export type EventHandler<N extends EventName> = (message: EventMessage<N>) => Promise<void>;
export type WorkHandler<Q extends QueueName> = (message: BusMessage<QueuePayload<Q>>) => Promise<void>;
export type Responder<N extends RpcName> = (payload: RpcRequest<N>, message: BusMessage<RpcRequest<N>>) => Promise<RpcReplyInput<N>>;

/**
 * The bus every service holds: the semantics of `RawBus` (README), with every name a key of
 * `BUS_CONTRACTS` (`@svc/contracts`) and every payload typed by it. What arrives is checked
 * against the name's schema before a handler sees it: an event or a job that does not match is
 * dead-lettered (dropped on an ephemeral queue) with a log line naming the field, a question
 * that does not match is answered VALIDATION_FAILED, a reply that does not match rejects the
 * request with INTEGRATION_ERROR. What leaves is checked by the compiler only.
 */
export interface Bus {
  readonly kind: 'amqp' | 'memory';
  publish<N extends EventName>(event: N, payload: EventInput<N>, options?: SendOptions): Promise<void>;
  subscribe<P extends EventPattern>(queue: SubscriberQueue, patterns: readonly P[], handler: EventHandler<EventsMatching<P>>, options?: ConsumeOptions): Promise<Subscription>;
  send<Q extends QueueName>(queue: QueueAddress<Q>, payload: QueueInput<Q>, options?: SendOptions): Promise<void>;
  consume<Q extends QueueName>(queue: QueueAddress<Q>, handler: WorkHandler<Q>, options?: ConsumeOptions): Promise<Subscription>;
  request<N extends RpcName>(name: N, payload: RpcRequestInput<N>, options?: RequestOptions): Promise<RpcReply<N>>;
  respond<N extends RpcName>(name: N, handler: Responder<N>, options?: ConsumeOptions): Promise<Subscription>;
  /** Messages waiting in the work queue `queue` (not yet delivered); 0 for one not declared. */
  depth(queue: QueueName): Promise<number>;
  /** True when the broker is reachable and the adapter can publish. */
  healthy(): Promise<boolean>;
  /** Cancels every consumer (draining as `cancel()` does), fails pending requests, disconnects. */
  close(): Promise<void>;
}

/** The contract name of a queue: an ephemeral queue `~<base>.<uuid>` is one of `base`'s. */
function baseOf(queue: string): string {
  return isEphemeralQueue(queue) ? queue.slice(EPHEMERAL_QUEUE_MARK.length, queue.lastIndexOf('.')) : queue;
}

const KIND_NAMES = { event: 'an event', queue: 'a queue', rpc: 'an RPC', subscriber: "a subscriber's queue" } as const;

function contractOf<K extends BusContract['kind']>(name: string, kind: K): Extract<BusContract, { kind: K }> {
  const contract = busContract(baseOf(name));
  if (contract?.kind !== kind) throw new ValidationError(`${name} is not ${KIND_NAMES[kind]} of BUS_CONTRACTS`, { name });
  return contract as Extract<BusContract, { kind: K }>;
}

/**
 * Checks an arriving payload against its schema; the error names the first bad field (it is
 * the handler's failure, so the adapter logs it and dead-letters the message).
 */
function checked(schema: z.ZodType, message: BusMessage, what: string): void {
  message.payload = parseInput(schema, message.payload, what);
}

/**
 * Runs `work` and counts it on `counter` under `labels`, with its outcome (ok or failed). The
 * labels are assigned onto the outcome, not spread before it: Node 20 copies `{ ...labels,
 * outcome }` some five times slower, twice for every message (BENCHMARKS.md, thirteenth round).
 */
async function tally<T>(counter: { inc(labels: Record<string, string>): void }, labels: Record<string, string>, work: () => Promise<T>): Promise<T> {
  try {
    const result = await work();
    counter.inc(Object.assign({ outcome: 'ok' }, labels));
    return result;
  } catch (err) {
    counter.inc(Object.assign({ outcome: 'failed' }, labels));
    throw err;
  }
}

/**
 * Wraps an adapter in the typed bus, which also counts what goes through it (`@svc/metrics`) and
 * carries the sender's trace to the handler in the message's headers (`@svc/tracing`).
 *
 * @example
 *   const bus = typedBus(createMemoryBus());
 *   await bus.subscribe('identity.packs', ['pack.installed'], async (m) => record(m.payload.pack_id));
 *   await bus.subscribe(ephemeralQueueName('execution.broadcasts'), ['task.revoked'], onCancel, { ephemeral: true });
 */
export function typedBus(raw: RawBus): Bus {
  return {
    kind: raw.kind,
    async publish(event, payload, options) {
      contractOf(event, 'event');
      return tally(busPublished, { kind: 'event', name: event }, () => sendTraced(raw.kind, 'publish', event, options, (traced) => raw.publish(event, payload, traced)));
    },
    async subscribe(queue, patterns, handler, options) {
      // A durable queue outlives its subscriber and is bound to what it listens for: it must be
      // named in the map. A per-process queue goes with its process.
      if (!isEphemeralQueue(queue) && contractOf(queue, 'subscriber').ephemeral) {
        throw new ValidationError(`${queue} is the base of per-process queues: subscribe ephemeralQueueName('${queue}') with { ephemeral: true }`, { queue });
      }
      const what = baseOf(queue);
      return raw.subscribe(
        queue,
        [...patterns],
        (message) =>
          tally(busConsumed, { kind: 'event', queue: what }, () =>
            handleTraced(raw.kind, 'consume', what, message, async () => {
              checked(contractOf(message.name, 'event').payload, message, message.name);
              await handler(message as never);
            }),
          ),
        options,
      );
    },
    async send(queue, payload, options) {
      contractOf(queue, 'queue');
      const what = baseOf(queue);
      return tally(busPublished, { kind: 'work', name: what }, () => sendTraced(raw.kind, 'publish', what, options, (traced) => raw.send(queue, payload, traced)));
    },
    async consume(queue, handler, options) {
      const { payload: schema } = contractOf(queue, 'queue');
      const what = baseOf(queue);
      return raw.consume(
        queue,
        (message) =>
          tally(busConsumed, { kind: 'work', queue: what }, () =>
            handleTraced(raw.kind, 'consume', what, message, async () => {
              checked(schema, message, what);
              await handler(message as never);
            }),
          ),
        options,
      );
    },
    async request(name, payload, options) {
      const { reply } = contractOf(name, 'rpc');
      const stopTimer = rpcDuration.startTimer({ name });
      let answered: unknown;
      try {
        answered = await sendTraced(raw.kind, 'request', name, options, (traced) => raw.request(name, payload, traced));
        stopTimer({ outcome: 'ok' });
      } catch (err) {
        stopTimer({ outcome: 'error' });
        throw err;
      }
      const answer = reply.safeParse(answered);
      if (answer.success) return answer.data as never;
      const issue = answer.error.issues[0]!;
      throw new IntegrationError(`Invalid ${name} reply: ${issue.path.join('.') || 'reply'}: ${issue.message}`, { rpc: name, field: issue.path.join('.'), issue: issue.message });
    },
    async respond(name, handler, options) {
      const { request } = contractOf(name, 'rpc');
      return raw.respond(
        name,
        async (_payload, message) => {
          return tally(busConsumed, { kind: 'rpc', queue: name }, () =>
            handleTraced(raw.kind, 'respond', name, message, async () => {
              checked(request, message, name);
              return handler(message.payload as never, message as never);
            }),
          );
        },
        options,
      );
    },
    async depth(queue) {
      contractOf(queue, 'queue');
      return raw.depth(queue);
    },
    healthy: () => raw.healthy(),
    close: () => raw.close(),
  };
}
