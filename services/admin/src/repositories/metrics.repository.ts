import { and, asc, desc, eq, gt, gte, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { activity, adminUsers, billingEvents, funnelDays, subscriptions } from '../db/schema.js';
import type { ActivityRow } from './activity.repository.js';

/** Subscription states that still bring money in (past_due is within its grace period). */
const LIVE = ['active', 'past_due'];
const EXPORT_BATCH = 1000;
const JOURNEY_EVENTS = 20;

const since = (column: typeof adminUsers.createdAt | typeof activity.createdAt, from?: Date): SQL | undefined => (from ? gte(column, from) : undefined);

/** The metrics' reads, all from the admin area's own read models. */
export class MetricsRepository {
  constructor(private readonly db: Db) {}

  async onboarding(from?: Date) {
    const [row] = await this.db
      .select({
        signup: sql<number>`count(*)::int`,
        redeemed: sql<number>`count(*) filter (where ${adminUsers.accessCodeId} <> '')::int`,
        developer: sql<number>`count(${adminUsers.developerAt})::int`,
        pack: sql<number>`count(${adminUsers.firstPackAt})::int`,
        command: sql<number>`count(${adminUsers.firstCommandAt})::int`,
      })
      .from(adminUsers)
      // Registrations only: the owner, bootstrapped without a code, is no signup.
      .where(and(isNotNull(adminUsers.accessCodeId), since(adminUsers.createdAt, from)));
    return row!;
  }

  async revenue() {
    const [row] = await this.db
      .select({
        mrr: sql<number>`coalesce(sum(${subscriptions.monthlyPriceCents}), 0)::bigint`.mapWith(Number),
        pro: sql<number>`count(*) filter (where ${subscriptions.tier} = 'pro')::int`,
      })
      .from(subscriptions)
      .where(inArray(subscriptions.status, LIVE));
    return row!;
  }

  async recentBillingEvents(limit: number) {
    return this.db.select().from(billingEvents).orderBy(desc(billingEvents.occurredAt)).limit(limit);
  }

  async commandUsage(from?: Date) {
    const [row] = await this.db
      .select({
        executed: sql<number>`count(*)::int`,
        users: sql<number>`count(distinct ${activity.userId})::int`,
        errors: sql<number>`count(*) filter (where ${activity.eventData}->>'status' <> 'success')::int`,
        avgMs: sql<number | null>`avg(${activity.durationMs})`.mapWith((v) => (v === null ? null : Number(v))),
      })
      .from(activity)
      .where(and(eq(activity.eventType, 'command.executed'), since(activity.createdAt, from)));
    return row!;
  }

  async journeyUsers(limit: number, offset: number) {
    return this.db.select().from(adminUsers).orderBy(desc(adminUsers.createdAt), desc(adminUsers.userId)).limit(limit).offset(offset);
  }

  /** The latest events of each of these users, newest first: one index range per user (lateral). */
  async recentActivityOf(userIds: string[]): Promise<ActivityRow[]> {
    if (userIds.length === 0) return [];
    const latest = this.db
      .select()
      .from(activity)
      .where(sql`${activity.userId} = ${sql.raw('picked.id')}`)
      .orderBy(desc(activity.createdAt))
      .limit(JOURNEY_EVENTS)
      .as('latest');
    return this.db
      .select({
        id: latest.id,
        tenantId: latest.tenantId,
        userId: latest.userId,
        eventType: latest.eventType,
        eventData: latest.eventData,
        durationMs: latest.durationMs,
        createdAt: latest.createdAt,
      })
      .from(sql`unnest(${sql.param(userIds)}::text[]) as picked(id)`)
      .innerJoinLateral(latest, sql`true`);
  }

  /** Every event from `from` on, oldest first, a batch at a time. */
  async *exportActivity(from?: Date): AsyncGenerator<ActivityRow> {
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const batch = await this.db
        .select()
        .from(activity)
        .where(and(since(activity.createdAt, from), after ? or(gt(activity.createdAt, after.at), and(eq(activity.createdAt, after.at), gt(activity.id, after.id))) : undefined))
        .orderBy(asc(activity.createdAt), asc(activity.id))
        .limit(EXPORT_BATCH);
      yield* batch;
      if (batch.length < EXPORT_BATCH) return;
      const last = batch.at(-1)!;
      after = { at: last.createdAt, id: last.id };
    }
  }

  /** The daily funnel from `from`'s day on, oldest first. */
  async funnelDays(from: Date) {
    return this.db.select().from(funnelDays).where(gte(funnelDays.day, from.toISOString().slice(0, 10))).orderBy(asc(funnelDays.day));
  }
}
