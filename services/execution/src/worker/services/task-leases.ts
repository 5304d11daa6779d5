import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '@svc/core';
import type { Db } from '@svc/db';
import { TaskRepository, type Lease } from '../../core/repositories/task.repository.js';

/**
 * How long a worker's claim on a task lasts unless renewed. A job the broker hands to a second
 * worker while the first still runs it (the first lost its broker connection) waits that long
 * at most after the first worker dies; renewed every third of it, a lease outlasts a database
 * outage of two thirds of it.
 */
export const DEFAULT_LEASE_MS = 15_000;

/**
 * The leases of one worker on the stored tasks it runs: claimed with the task (one write), and
 * renewed together, one statement for all of them, while their runs go on.
 */
export class TaskLeases {
  readonly lease: Lease;
  private readonly held = new Set<string>();
  private renewing: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    ms = DEFAULT_LEASE_MS,
  ) {
    // Unique per process start: a worker started again does not inherit its predecessor's leases.
    this.lease = { owner: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`, ms };
  }

  /** A claimed task whose run goes on: its lease is renewed until `release`. */
  hold(taskId: string): void {
    this.held.add(taskId);
    this.renewing ??= setInterval(() => void this.renew(), this.lease.ms / 3).unref();
  }

  release(taskId: string): void {
    this.held.delete(taskId);
    if (this.held.size > 0) return;
    clearInterval(this.renewing);
    this.renewing = undefined;
  }

  private async renew(): Promise<void> {
    try {
      await new TaskRepository(this.db).renewLeases(this.lease.owner, [...this.held], this.lease.ms);
    } catch (err) {
      // Tried again at the next turn; a lease that lapses meanwhile lets another worker take a job it was handed.
      this.log.warn('task leases not renewed', { tasks: this.held.size, error: (err as Error).message });
    }
  }
}
