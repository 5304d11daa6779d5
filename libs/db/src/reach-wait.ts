import { setTimeout as sleep } from 'node:timers/promises';
import { isConnectionFailure } from './connection-failure.js';

export interface ReachWaitOptions {
  /** How long to go on trying while the database cannot be reached. */
  timeoutMs: number;
  /** Between two tries. Default 1 s. */
  intervalMs?: number;
  /** Told of each failure to reach the database that will be tried again. */
  onWait?: (err: Error) => void;
}

/**
 * Runs `work` again while it fails because the database cannot be reached, until `timeoutMs` has
 * passed: a process started before its database accepts connections (a fleet coming up at once,
 * a server restarting, one too busy to answer within the pool's connection timeout) waits for
 * it rather than exits. Any other failure, and the last one past the deadline, is thrown.
 */
export async function onceReachable<T>(work: () => Promise<T>, { timeoutMs, intervalMs = 1000, onWait }: ReachWaitOptions): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (err) {
      if (!isConnectionFailure(err) || Date.now() + intervalMs > deadline) throw err;
      onWait?.(err as Error);
      await sleep(intervalMs);
    }
  }
}
