import { and, desc, eq, gt, lt, or, type SQL } from 'drizzle-orm';
import type { SubscriptionChanged } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { z } from 'zod';
import { adminUsers, billingEvents, subscriptions } from '../db/schema.js';

export type AdminUserRow = typeof adminUsers.$inferSelect;
type NewAdminUser = Pick<AdminUserRow, 'userId' | 'tenantId' | 'email' | 'tier' | 'cohort' | 'accessCodeId' | 'createdAt'>;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
/** A user with their subscription, null before billing reported one. */
export type AdminUserView = AdminUserRow & { subscription: SubscriptionRow | null };
export type BillingEventRow = typeof billingEvents.$inferSelect;

export interface UserFilters {
  tier?: string;
  cohort?: string;
  createdAfter?: Date;
}

/** Where a page starts: after the row (created_at, user_id) of a cursor, or after `offset` rows. */
export type PageStart = { after: { createdAt: Date; userId: string } } | { offset: number };

/** Whom a tenant's usage notices go to, and whose tier's quotas apply. */
export interface QuotaHolder {
  userId: string;
  email: string;
  tier: string;
}

const QUOTA_HOLDER = { userId: adminUsers.userId, email: adminUsers.email, tier: adminUsers.tier };

export class AdminUserRepository {
  constructor(private readonly db: Db) {}

  async register(user: NewAdminUser): Promise<void> {
    await this.db.insert(adminUsers).values(user).onConflictDoNothing();
  }

  /** The platform's owner, announced at every start: listed once, its e-mail and tier as the start-up set them. */
  async registerOwner(user: NewAdminUser): Promise<void> {
    await this.db.insert(adminUsers).values(user).onConflictDoUpdate({ target: adminUsers.userId, set: { email: user.email, tier: user.tier } });
  }

  /** The user whose own (personal) tenant `tenantId` is, with what the usage notices need. */
  async ownerOfTenant(tenantId: string): Promise<QuotaHolder | undefined> {
    const [owner] = await this.db.select(QUOTA_HOLDER).from(adminUsers).where(eq(adminUsers.tenantId, tenantId)).limit(1);
    return owner;
  }

  async quotaHolder(userId: string): Promise<QuotaHolder | undefined> {
    const [user] = await this.db.select(QUOTA_HOLDER).from(adminUsers).where(eq(adminUsers.userId, userId));
    return user;
  }

  async setTier(userId: string, tier: string): Promise<void> {
    await this.db.update(adminUsers).set({ tier }).where(eq(adminUsers.userId, userId));
  }

  /** Records a subscription change unless a later one was recorded already. */
  async setSubscription(change: z.infer<typeof SubscriptionChanged>): Promise<void> {
    const row = {
      userId: change.user_id,
      tier: change.tier,
      status: change.status,
      paymentIssue: change.payment_issue,
      currentPeriodEnd: change.current_period_end,
      monthlyPriceCents: change.monthly_price_cents,
      occurredAt: change.occurred_at,
    };
    await this.db
      .insert(subscriptions)
      .values(row)
      .onConflictDoUpdate({ target: subscriptions.userId, set: row, setWhere: lt(subscriptions.occurredAt, change.occurred_at) });
  }

  async subscriptionOf(userId: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return row;
  }

  async recordBillingEvent(event: BillingEventRow): Promise<void> {
    await this.db.insert(billingEvents).values(event).onConflictDoNothing();
  }

  /** A page of users, newest first, and whether more follow. */
  async list(filters: UserFilters, start: PageStart, limit: number): Promise<{ rows: AdminUserView[]; more: boolean }> {
    const where: SQL[] = [];
    if (filters.tier) where.push(eq(adminUsers.tier, filters.tier));
    if (filters.cohort) where.push(eq(adminUsers.cohort, filters.cohort));
    if (filters.createdAfter) where.push(gt(adminUsers.createdAt, filters.createdAfter));
    if ('after' in start) {
      const { createdAt, userId } = start.after;
      where.push(or(lt(adminUsers.createdAt, createdAt), and(eq(adminUsers.createdAt, createdAt), lt(adminUsers.userId, userId)))!);
    }
    const rows = await this.db
      .select({ user: adminUsers, subscription: subscriptions })
      .from(adminUsers)
      .leftJoin(subscriptions, eq(subscriptions.userId, adminUsers.userId))
      .where(and(...where))
      .orderBy(desc(adminUsers.createdAt), desc(adminUsers.userId))
      .limit(limit + 1)
      .offset('offset' in start ? start.offset : 0);
    return { rows: rows.slice(0, limit).map((r) => ({ ...r.user, subscription: r.subscription })), more: rows.length > limit };
  }

  async find(userId: string): Promise<AdminUserView | undefined> {
    const [row] = await this.db
      .select({ user: adminUsers, subscription: subscriptions })
      .from(adminUsers)
      .leftJoin(subscriptions, eq(subscriptions.userId, adminUsers.userId))
      .where(eq(adminUsers.userId, userId));
    return row && { ...row.user, subscription: row.subscription };
  }

  async recentBillingEvents(userId: string, limit: number): Promise<BillingEventRow[]> {
    return this.db.select().from(billingEvents).where(eq(billingEvents.userId, userId)).orderBy(desc(billingEvents.occurredAt)).limit(limit);
  }
}
