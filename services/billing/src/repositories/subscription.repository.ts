import { and, asc, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { subscriptions } from '../db/schema.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionChanges = Partial<Omit<SubscriptionRow, 'userId'>>;

export class SubscriptionRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return row;
  }

  /** The user's row, created when billing has not seen them yet, locked until the transaction ends. */
  async lock(userId: string): Promise<SubscriptionRow> {
    await this.db.insert(subscriptions).values({ userId }).onConflictDoNothing();
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).for('update');
    return row!;
  }

  async lockByCustomer(customerId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.customerId, customerId)).for('update');
    return row;
  }

  async update(userId: string, changes: SubscriptionChanges, now: Date): Promise<SubscriptionRow> {
    const [row] = await this.db
      .update(subscriptions)
      .set({ ...changes, updatedAt: now })
      .where(eq(subscriptions.userId, userId))
      .returning();
    return row!;
  }

  /** What registration tells: the e-mail and cohort, without touching any subscription state. */
  async recordUser(userId: string, email: string, cohort: string): Promise<void> {
    await this.db
      .insert(subscriptions)
      .values({ userId, email, cohort })
      .onConflictDoUpdate({ target: subscriptions.userId, set: { email: sql`excluded.email`, cohort: sql`excluded.cohort` } });
  }

  /**
   * Past-due rows whose reminder or expiry is due, locked; rows another replica holds are
   * skipped, not waited for, so that each due row is handled by one replica.
   */
  async lockDueGrace(now: Date, limit: number): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.status, 'past_due'), isNotNull(subscriptions.graceEndsAt), or(lte(subscriptions.nextReminderAt, now), lte(subscriptions.graceEndsAt, now))))
      .orderBy(asc(subscriptions.nextReminderAt))
      .limit(limit)
      .for('update', { skipLocked: true });
  }
}
