import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { columnValue, unnestRows, type Db } from '@svc/db';
import { activity, adminUsers, funnelDays } from '../db/schema.js';

export type ActivityRow = typeof activity.$inferSelect;

/** Every column of the log: a batch goes in as one array each (`unnestRows`). */
const ACTIVITY_COLUMNS = Object.keys(getTableColumns(activity)) as (keyof ActivityRow)[];

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

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The metrics' event log, and the per-user milestones and daily funnel it moves. */
export class ActivityRepository {
  constructor(private readonly db: Db) {}

  async record(row: ActivityRow): Promise<void> {
    await this.recordAll([row]);
  }

  /** Events of one batch: logged (`logNew`), and what those new to the log move (`countMoves`). */
  async recordAll(rows: ActivityRow[]): Promise<void> {
    const logged = await this.logNew(rows);
    await this.countMoves(rows.filter((row) => logged.delete(row.id)));
  }

  /**
   * Adds the rows to the log in one statement and answers the ids it did not hold yet: a row's id
   * is its event's, so the log also says which deliveries of an event are its first.
   */
  async logNew(rows: ActivityRow[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const logged = await this.db
      .insert(activity)
      .select(unnestRows(activity, ACTIVITY_COLUMNS, (key) => sql.param(rows.map((row) => (key === 'eventData' ? JSON.stringify(row.eventData) : columnValue(row[key]))))))
      .onConflictDoNothing()
      .returning({ id: activity.id });
    return new Set(logged.map((row) => row.id));
  }

  /** What logged events move, summed per user (events, last activity, milestones) and per day of the funnel, one statement each. */
  async countMoves(rows: ActivityRow[]): Promise<void> {
    if (rows.length === 0) return;
    const funnel = new Map<string, { counter: FunnelCounter; at: Date; n: number }>();
    const countIn = (counter: FunnelCounter, at: Date, n = 1) => {
      const key = `${counter} ${dayOf(at)}`;
      funnel.set(key, { counter, at, n: (funnel.get(key)?.n ?? 0) + n });
    };
    const users = new Map<string, { events: number; last: Date }>();
    const milestones = new Map<string, { milestone: (typeof MILESTONES)[string]; userId: string; at: Date }>();
    for (const row of rows) {
      const counter = FUNNEL[row.eventType];
      if (counter) countIn(counter, row.createdAt);
      if (!row.userId) continue;
      const user = users.get(row.userId);
      users.set(row.userId, { events: (user?.events ?? 0) + 1, last: user && user.last > row.createdAt ? user.last : row.createdAt });
      const milestone = MILESTONES[row.eventType];
      const key = `${milestone} ${row.userId}`;
      if (milestone && !milestones.has(key)) milestones.set(key, { milestone, userId: row.userId, at: row.createdAt });
    }
    // Users in id order: batches handled at once lock the rows they share in the same order.
    for (const userId of [...users.keys()].sort()) {
      const { events, last } = users.get(userId)!;
      const at = sql`${last.toISOString()}::timestamptz`;
      await this.db
        .update(adminUsers)
        .set({ eventsCount: sql`${adminUsers.eventsCount} + ${events}`, lastActiveAt: sql`greatest(${adminUsers.lastActiveAt}, ${at})` })
        .where(eq(adminUsers.userId, userId));
    }
    for (const { milestone, userId, at } of milestones.values()) {
      const reached = await this.db
        .update(adminUsers)
        .set({ [milestone]: at })
        .where(and(eq(adminUsers.userId, userId), isNull(adminUsers[milestone])))
        .returning({ userId: adminUsers.userId });
      if (milestone === 'firstCommandAt' && reached.length > 0) countIn('firstCommand', at);
    }
    for (const { counter, at, n } of funnel.values()) await this.countFunnel(counter, at, n);
  }

  private async countFunnel(counter: FunnelCounter, at: Date, n: number): Promise<void> {
    await this.db
      .insert(funnelDays)
      .values({ day: dayOf(at), [counter]: n })
      .onConflictDoUpdate({ target: funnelDays.day, set: { [counter]: sql`${funnelDays[counter]} + ${n}` } });
  }
}
