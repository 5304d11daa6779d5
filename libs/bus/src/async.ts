/** Resolves after `ms`, or early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Waits until every promise has settled or `ms` has passed; true when all settled. */
export async function settledWithin(promises: Iterable<Promise<unknown>>, ms: number): Promise<boolean> {
  const all = Promise.allSettled([...promises]).then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([all, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** For the log of a failure in our code or a handler: the stack says where. */
export function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/** For broker errors, whose stack only points into amqplib. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
