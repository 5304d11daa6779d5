import type { Subscription } from './bus.js';
import type { OutgoingMessage } from './message.js';
import type { Settlement } from './settlement.js';
import { settledWithin } from './async.js';

/** A message as the in-process broker holds it; the body stays a JSON string until delivery. */
export interface Envelope extends OutgoingMessage {
  redelivered: boolean;
  /** Epoch ms after which an undelivered message is discarded (RPC questions). */
  expiresAt?: number;
  /** Id of the waiting request, for RPC questions. */
  replyTo?: string;
}

/**
 * A message as a queue first holds it. Its fields are named, not spread with the flag after them:
 * Node 20 copies `{ ...message, redelivered: false }` some five times slower, and every message
 * of the embedded platform passes here (BENCHMARKS.md, thirteenth round).
 */
export function envelopeOf(message: OutgoingMessage): Envelope {
  return { name: message.name, body: message.body, correlationId: message.correlationId, messageId: message.messageId, headers: message.headers, redelivered: false };
}

/** Handles one delivery; resolves with what becomes of it. */
export type Deliver = (envelope: Envelope) => Promise<Settlement>;

/**
 * One durable queue of the in-process broker: messages wait here until a consumer with spare
 * prefetch takes them, consumers are served round-robin, and dispatch always happens on a later
 * turn of the event loop, never inside the call that enqueued.
 */
export class MemoryQueue {
  private readonly ready: Envelope[] = [];
  private readonly consumers: MemoryConsumer[] = [];
  private cursor = 0;
  private scheduled = false;

  constructor(
    readonly name: string,
    /** Where rejected messages go. */
    readonly reject: (envelope: Envelope) => void,
    /** Called when the last consumer goes (the broker's auto-delete, for ephemeral queues). */
    private readonly unused?: (queue: MemoryQueue) => void,
  ) {}

  /** Messages no consumer has taken yet. */
  get waiting(): number {
    return this.ready.length;
  }

  enqueue(envelope: Envelope): void {
    this.ready.push(envelope);
    this.schedule();
  }

  /** Unacked messages of a consumer that went away go back to the head, marked redelivered. */
  requeue(envelopes: Envelope[]): void {
    this.ready.unshift(...envelopes.map((envelope) => ({ ...envelope, redelivered: true })));
    this.schedule();
  }

  consume(deliver: Deliver, prefetch: number, drainTimeoutMs: number): MemoryConsumer {
    const consumer = new MemoryConsumer(this, deliver, prefetch, drainTimeoutMs);
    this.consumers.push(consumer);
    this.schedule();
    return consumer;
  }

  detach(consumer: MemoryConsumer): void {
    const index = this.consumers.indexOf(consumer);
    if (index < 0) return;
    this.consumers.splice(index, 1);
    if (this.consumers.length === 0) this.unused?.(this);
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let head = this.ready[0]; head; head = this.ready[0]) {
      if (head.expiresAt !== undefined && head.expiresAt <= Date.now()) {
        this.ready.shift();
        continue;
      }
      const consumer = this.nextConsumer();
      if (!consumer) return;
      this.ready.shift();
      consumer.deliver(head);
    }
  }

  private nextConsumer(): MemoryConsumer | undefined {
    const count = this.consumers.length;
    for (let i = 0; i < count; i++) {
      const consumer = this.consumers[(this.cursor + i) % count];
      if (consumer?.hasCapacity()) {
        this.cursor = (this.cursor + i + 1) % count;
        return consumer;
      }
    }
    return undefined;
  }
}

export class MemoryConsumer implements Subscription {
  // Keyed by a per-delivery copy, so a late settle of a requeued delivery is recognised and ignored.
  private readonly inFlight = new Map<Envelope, Promise<void>>();
  private active = true;

  constructor(
    private readonly queue: MemoryQueue,
    private readonly handle: Deliver,
    private readonly prefetch: number,
    private readonly drainTimeoutMs: number,
  ) {}

  hasCapacity(): boolean {
    return this.active && this.inFlight.size < this.prefetch;
  }

  deliver(envelope: Envelope): void {
    const delivery = { ...envelope };
    const done = this.handle(delivery).then(
      (settlement) => this.settle(delivery, settlement),
      () => this.settle(delivery, 'reject'),
    );
    this.inFlight.set(delivery, done);
  }

  /** Stops taking messages; handlers get `drainTimeoutMs` to finish, then their messages are requeued. */
  async cancel(): Promise<void> {
    if (!this.active) return;
    this.active = false;
    this.queue.detach(this);
    await settledWithin(this.inFlight.values(), this.drainTimeoutMs);
    const unacked = [...this.inFlight.keys()];
    this.inFlight.clear();
    if (unacked.length > 0) this.queue.requeue(unacked);
  }

  private settle(delivery: Envelope, settlement: Settlement): void {
    if (!this.inFlight.delete(delivery)) return;
    if (settlement === 'reject') this.queue.reject(delivery);
    if (settlement === 'requeue') this.queue.requeue([delivery]);
    this.queue.schedule();
  }
}
