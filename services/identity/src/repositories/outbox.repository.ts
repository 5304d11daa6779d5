import { and, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { outbox } from '../db/schema.js';

export type OutboxRow = typeof outbox.$inferSelect;

const msFromNow = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async queueEmail(recipient: string, template: string, payload: Record<string, unknown>): Promise<void> {
    await this.db.insert(outbox).values({ kind: 'email', recipient, template, payload });
  }

  /**
   * Takes up to `limit` unsent messages that are due and have been tried fewer than
   * `maxAttempts` times, oldest first: each counts a try and is nobody else's for `leaseMs`.
   * Rows another relay is taking at the same moment are skipped, not waited for.
   */
  async leaseDue(limit: number, leaseMs: number, maxAttempts: number): Promise<OutboxRow[]> {
    const due = this.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.sentAt), lt(outbox.attempts, maxAttempts), lte(outbox.nextAttemptAt, sql`now()`)))
      .orderBy(outbox.createdAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: msFromNow(leaseMs) })
      .where(inArray(outbox.id, due))
      .returning();
  }

  async markSent(id: string): Promise<void> {
    await this.db.update(outbox).set({ sentAt: sql`now()`, lastError: null }).where(eq(outbox.id, id));
  }

  /** Records a failed try; the message is due again after `retryInMs`, or never when it is absent. */
  async markFailed(id: string, error: string, retryInMs: number | undefined): Promise<void> {
    await this.db
      .update(outbox)
      .set({ lastError: error, ...(retryInMs === undefined ? {} : { nextAttemptAt: msFromNow(retryInMs) }) })
      .where(eq(outbox.id, id));
  }
}
