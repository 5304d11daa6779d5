/**
 * The transport contract: names are plain strings and payloads `unknown`. Two adapters implement
 * it with the same semantics: `createAmqpBus` (RabbitMQ through amqplib) and `createMemoryBus`
 * (in-process). Services never hold one: `createBus` wraps it in the typed `Bus`
 * (`typed-bus.ts`), whose names and payloads are those of `BUS_CONTRACTS` in `@svc/contracts`.
 *
 * - Events: `publish(name, payload)` puts a fact on the topic exchange; `subscribe(queue,
 *   patterns, handler)` binds a durable queue to it.
 * - Work: `send(queue, payload)` puts a job on a durable queue; `consume(queue, handler)` takes
 *   jobs with a bounded prefetch.
 * - Questions: `request(queue, payload, {timeoutMs})` asks, `respond(queue, handler)` answers.
 * - Per-process queues: `consume`/`subscribe` with `{ ephemeral: true }` on a name from
 *   `ephemeralQueueName(base)` (it starts with `~`): the queue lives as long as its consumer, and
 *   what is sent to it once it is gone is dropped.
 *
 * Every delivery is acknowledged manually: a handler that resolves acks; one that throws
 * sends the message to the queue's dead-letter queue (`<queue>.dlq`; an ephemeral queue has
 * none, so the message is logged and dropped), unless the bus's `RetryPolicy` recognises the
 * failure as one that passes: then the message goes back on its queue after a pause; a
 * consumer that dies without acking gets the message redelivered (`redelivered: true`) to
 * another consumer.
 * Delivery is therefore at least once: handlers must tolerate seeing a message twice.
 * Payloads travel as JSON in both adapters (a handler gets its own copy; `undefined` becomes `null`).
 */

/**
 * Failures that pass (a handler's database out of reach, say): a work or event handler that
 * throws one that `when` recognises has its message held for `delayMs`, then put back on its
 * queue and delivered again (`redelivered: true`), instead of dead-lettered. Meanwhile the message
 * counts against the consumer's prefetch, which slows the consumer down while the cause lasts.
 */
export interface RetryPolicy {
  when(err: unknown): boolean;
  delayMs: number;
}

export interface BusMessage<T = unknown> {
  /** Event name for events, queue name for work. */
  name: string;
  payload: T;
  correlationId: string;
  messageId: string;
  /** True when this delivery follows an earlier one that was not acknowledged. */
  redelivered: boolean;
  headers: Record<string, string>;
}

export type MessageHandler<T = unknown> = (message: BusMessage<T>) => Promise<void>;
export type RequestHandler<T = unknown, R = unknown> = (payload: T, message: BusMessage<T>) => Promise<R>;

export interface SendOptions {
  correlationId?: string;
  headers?: Record<string, string>;
  messageId?: string;
  /**
   * `send` to a work queue only: the message reaches its queue this many milliseconds later, kept
   * by the broker meanwhile (RabbitMQ: a queue per distinct delay that dead-letters into it, so
   * use few distinct values; in process: a timer). Not for ephemeral queues.
   */
  delayMs?: number;
  /**
   * `send` only: the broker keeps the message in memory, not on disk (AMQP delivery mode 1), so a
   * broker restart loses it; a connection lost and opened again does not. For a message whose
   * sender makes its loss good by other means: writing it to disk costs the broker about as much
   * as routing it. Quorum queues keep every message on disk whatever it says; in process, nothing
   * outlives the process anyway.
   */
  transient?: boolean;
}

export interface ConsumeOptions {
  /** Most unacknowledged messages held by this consumer at once. */
  prefetch?: number;
  /**
   * The queue belongs to this consumer only (another connection cannot consume it) and is deleted
   * with its messages and bindings when the consumer is cancelled, the bus is closed or the
   * connection is lost; the bus declares it again (empty) when it reconnects. Its name must start
   * with `~` (`ephemeralQueueName`), and no other queue's may: that mark tells `send` not to
   * declare it, so that a message sent once it is gone is dropped instead of waiting for nobody.
   * No dead-letter queue: a message whose handler throws is logged and dropped. Not for `respond`.
   */
  ephemeral?: boolean;
}

export interface RequestOptions extends SendOptions {
  /** Rejects with a TimeoutError (code TIMEOUT) when no answer arrives in time. Default 5000. */
  timeoutMs?: number;
}

export interface Subscription {
  /**
   * Stops taking new messages; in-flight handlers finish and ack. A handler still running after
   * the adapter's `drainTimeoutMs` loses its message, which is redelivered (`redelivered: true`).
   */
  cancel(): Promise<void>;
}

export interface RawBus {
  readonly kind: 'amqp' | 'memory';
  publish(event: string, payload: unknown, options?: SendOptions): Promise<void>;
  subscribe(queue: string, patterns: string[], handler: MessageHandler, options?: ConsumeOptions): Promise<Subscription>;
  send(queue: string, payload: unknown, options?: SendOptions): Promise<void>;
  consume(queue: string, handler: MessageHandler, options?: ConsumeOptions): Promise<Subscription>;
  request<R = unknown>(queue: string, payload: unknown, options?: RequestOptions): Promise<R>;
  respond(queue: string, handler: RequestHandler, options?: ConsumeOptions): Promise<Subscription>;
  /** Messages waiting in the work queue `queue` (not yet delivered); 0 for one not declared. */
  depth(queue: string): Promise<number>;
  /** True when the broker is reachable and the adapter can publish. */
  healthy(): Promise<boolean>;
  /** Cancels every consumer (draining as `cancel()` does), fails pending requests, disconnects. */
  close(): Promise<void>;
}
