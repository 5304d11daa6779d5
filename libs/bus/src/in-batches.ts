export interface BatchOptions {
  /** Most messages one call of the batch handler takes (default 100). */
  maxBatch?: number;
  /**
   * How long a batch waits for more messages before it is handled, unless it is full first
   * (default 0: the messages of the current turn of the event loop). A longer wait makes fewer,
   * fuller batches under load, and delays a message that comes alone by as much.
   */
  gatherMs?: number;
}

interface Waiting<M> {
  message: M;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * A message handler that hands the messages of a consumer to `handle` in batches, one batch at a
 * time and in the order they arrived: the messages that arrive while a batch gathers or is
 * handled make it, or the next. A consumer whose every message costs a transaction then pays
 * one per batch under load. Give the consumer a prefetch of twice `maxBatch`, so that one batch
 * fills while the one before is handled.
 *
 * Each message is acknowledged when its batch succeeds. When a batch of several fails, its
 * messages are handled again each on its own (in order), so that one bad message fails alone and
 * goes where a failed message goes (retried, then dead-lettered) without taking the others along.
 *
 * @example
 *   await bus.subscribe('admin.usage', ['command.executed'], inBatches((messages) => countAll(messages), { gatherMs: 20 }), { prefetch: 200 });
 */
export function inBatches<M>(handle: (messages: M[]) => Promise<void>, { maxBatch = 100, gatherMs = 0 }: BatchOptions = {}): (message: M) => Promise<void> {
  const waiting: Waiting<M>[] = [];
  let draining = false;
  let full: (() => void) | undefined;

  const settle = async (batch: Waiting<M>[]) => {
    try {
      await handle(batch.map((w) => w.message));
      for (const w of batch) w.resolve();
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const w of batch) await settle([w]);
    }
  };

  const gather = () =>
    new Promise<void>((resolve) => {
      if (gatherMs <= 0) return setImmediate(resolve);
      const timer = setTimeout(() => {
        full = undefined;
        resolve();
      }, gatherMs);
      full = () => {
        clearTimeout(timer);
        full = undefined;
        resolve();
      };
    });

  const drain = async () => {
    while (waiting.length > 0) {
      if (waiting.length < maxBatch) await gather();
      await settle(waiting.splice(0, maxBatch));
    }
    draining = false;
  };

  return (message) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ message, resolve, reject });
      if (waiting.length >= maxBatch) full?.();
      if (draining) return;
      draining = true;
      void drain();
    });
}
