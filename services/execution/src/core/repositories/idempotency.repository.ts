import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { idempotencyKeys } from '../../db/schema.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;


/** An `Idempotency-Key` holds for a day. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  async findLive(userId: string, key: string, since: Date): Promise<IdempotencyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), gt(idempotencyKeys.createdAt, since)));
    return row;
  }

  /** Claims the key for a task; false when somebody claimed it first. */
  async claim(row: { userId: string; key: string; taskId: string; commandPath: string }, since: Date): Promise<boolean> {
    // A key older than the window is free again.
    await this.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, row.userId), eq(idempotencyKeys.key, row.key), lt(idempotencyKeys.createdAt, since)));
    const inserted = await this.db.insert(idempotencyKeys).values(row).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    return inserted.length === 1;
  }

  /** Frees the key a task claimed, for a request that failed before the task could run. */
  async release(userId: string, key: string, taskId: string): Promise<void> {
    await this.db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.taskId, taskId)));
  }

  async purgeOlderThan(since: Date): Promise<void> {
    await this.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, since));
  }
}
