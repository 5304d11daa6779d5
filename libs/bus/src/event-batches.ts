import { randomUUID } from 'node:crypto';
import type { BusMessage } from './bus.js';
import { publicHeaders, type OutgoingMessage } from './message.js';

/**
 * Marks a message that carries several events of one name; its value is how many. Reserved
 * (`x-bus-`), so no handler ever sees it.
 */
export const BATCH_HEADER = 'x-bus-batch';

export interface BatchLimits {
  /** Most events in one message. */
  maxEvents: number;
  /** Most bytes of payloads in one message (a larger event goes alone). */
  maxBytes: number;
}

/**
 * Small enough that a consumer's prefetch, counted in messages, still bounds what it holds (the
 * usage consumer's 1,000 messages, 64,000 events at most), large enough that a loaded worker's
 * turns fill them.
 */
export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxEvents: 64, maxBytes: 256 * 1024 };

interface Pending {
  messages: OutgoingMessage[];
  bytes: number;
  sent: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * Gathers the events published in one turn of the event loop, by name, and hands each name's to
 * `send` together once the turn ends (or sooner, when they fill `limits`); every `add` resolves
 * when its group is confirmed, and rejects with it. Events of one name keep their order; events
 * of different names published in the same turn may reach a queue in another order than
 * published, as redeliveries already may.
 */
export class EventBatcher {
  private readonly pending = new Map<string, Pending>();
  private readonly sending = new Set<Promise<void>>();
  private scheduled = false;

  constructor(
    private readonly send: (messages: OutgoingMessage[]) => Promise<void>,
    private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS,
  ) {}

  add(message: OutgoingMessage): Promise<void> {
    let batch = this.pending.get(message.name);
    if (batch && (batch.messages.length >= this.limits.maxEvents || batch.bytes + message.body.length > this.limits.maxBytes)) {
      this.flush(message.name);
      batch = undefined;
    }
    if (!batch) {
      batch = open();
      this.pending.set(message.name, batch);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flushAll());
      }
    }
    batch.messages.push(message);
    batch.bytes += message.body.length;
    return batch.sent;
  }

  /** Sends what is gathered now and waits for every send under way; never rejects. */
  async drain(): Promise<void> {
    this.flushAll();
    await Promise.allSettled([...this.sending]);
  }

  private flushAll(): void {
    this.scheduled = false;
    for (const name of [...this.pending.keys()]) this.flush(name);
  }

  private flush(name: string): void {
    const batch = this.pending.get(name);
    if (!batch) return;
    this.pending.delete(name);
    const sending = this.send(batch.messages).then(batch.resolve, batch.reject);
    this.sending.add(sending);
    void sending.finally(() => this.sending.delete(sending));
  }
}

function open(): Pending {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const sent = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // Every adder awaits `sent`; this keeps a rejection nobody awaits yet from counting as unhandled.
  sent.catch(() => undefined);
  return { messages: [], bytes: 0, sent, resolve, reject };
}

/** One message carrying `messages` (all of one name): each event's id, correlation id, headers and payload. */
export function batchMessage(messages: OutgoingMessage[]): OutgoingMessage {
  const entries = messages.map((m) => `{"id":${JSON.stringify(m.messageId)},"correlation_id":${JSON.stringify(m.correlationId)},"headers":${JSON.stringify(m.headers)},"payload":${m.body}}`);
  return { name: messages[0]!.name, body: `[${entries.join(',')}]`, correlationId: messages[0]!.correlationId, messageId: randomUUID(), headers: {} };
}

interface Entry {
  id: string;
  correlation_id: string;
  headers: Record<string, unknown>;
  payload: unknown;
}

const isEntry = (value: unknown): value is Entry => {
  const entry = value as Partial<Entry> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.id === 'string' && typeof entry.correlation_id === 'string' && typeof entry.headers === 'object' && entry.headers !== null && 'payload' in entry;
};

/** The events of a batch's parsed body, each as its own delivery would be; undefined when the body is not a batch. */
export function eventsOfBatch(body: unknown, name: string, redelivered: boolean): BusMessage[] | undefined {
  if (!Array.isArray(body) || body.length === 0 || !body.every(isEntry)) return undefined;
  return body.map((entry) => ({ name, payload: entry.payload, correlationId: entry.correlation_id, messageId: entry.id, redelivered, headers: publicHeaders(entry.headers) }));
}
