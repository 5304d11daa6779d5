import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { activity, adminUsers, funnelDays } from '../db/schema.js';

export type ActivityRow = typeof activity.$inferSelect;

/** Which milestone of a user an event type marks, the first time it happens. */
const MILESTONES: Record<string, 'developerAt' | 'firstPackAt' | 'firstCommandAt'> = {
  'user.developer-mode.enabled': 'developerAt',
  'pack.published': 'firstPackAt',
  'command.executed': 'firstCommandAt',
};

type FunnelCounter = 'checkoutStarted' | 'checkoutCompleted' | 'registered' | 'firstCommand';

/** Which counter of the admin funnel an event type moves. */
const FUNNEL: Record<string, FunnelCounter> = {
  'checkout.started': 'checkoutStarted',
  'checkout.completed': 'checkoutCompleted',
  'user.registered': 'registered',
};

/** The metrics' event log, and the per-user milestones and daily funnel it moves. */
export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async record(row: ActivityRow): Promise<void> {
    await this.db.insert(activity).values(row).onConflictDoNothing();
    const counter = FUNNEL[row.eventType];
    if (counter) await this.countFunnel(counter, row.createdAt);
    if (!row.userId) return;
    const at = sql`${row.createdAt.toISOString()}::timestamptz`;
    await this.db
      .update(adminUsers)
      .set({ eventsCount: sql`${adminUsers.eventsCount} + 1`, lastActiveAt: sql`greatest(${adminUsers.lastActiveAt}, ${at})` })
      .where(eq(adminUsers.userId, row.userId));
    const milestone = MILESTONES[row.eventType];
    if (!milestone) return;
    const reached = await this.db
      .update(adminUsers)
      .set({ [milestone]: row.createdAt })
      .where(and(eq(adminUsers.userId, row.userId), isNull(adminUsers[milestone])))
      .returning({ userId: adminUsers.userId });
    if (milestone === 'firstCommandAt' && reached.length > 0) await this.countFunnel('firstCommand', row.createdAt);
  }

  private async countFunnel(counter: FunnelCounter, at: Date): Promise<void> {
    await this.db
      .insert(funnelDays)
      .values({ day: at.toISOString().slice(0, 10), [counter]: 1 })
      .onConflictDoUpdate({ target: funnelDays.day, set: { [counter]: sql`${funnelDays[counter]} + 1` } });
  }
}
