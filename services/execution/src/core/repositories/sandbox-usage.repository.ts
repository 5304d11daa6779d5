import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { sandboxUsage } from '../../db/schema.js';

/** The calendar month (UTC) a moment falls in, as `YYYY-MM`, and when the next one starts. */
export function monthOf(now: Date): { month: string; resetsAt: Date } {
  return { month: now.toISOString().slice(0, 7), resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

export class SandboxUsageRepository {
  constructor(private readonly db: Db) {}

  /** Counts one run unless the month already has `limit`; false when it had. One statement, so runs at once never pass the limit. */
  async admit(userId: string, month: string, limit: number): Promise<boolean> {
    const counted = await this.db
      .insert(sandboxUsage)
      .values({ userId, month, executions: 1 })
      .onConflictDoUpdate({ target: [sandboxUsage.userId, sandboxUsage.month], set: { executions: sql`${sandboxUsage.executions} + 1` }, setWhere: lt(sandboxUsage.executions, limit) })
      .returning({ executions: sandboxUsage.executions });
    return counted.length === 1;
  }

  async executions(userId: string, month: string): Promise<number> {
    const [row] = await this.db.select({ executions: sandboxUsage.executions }).from(sandboxUsage).where(and(eq(sandboxUsage.userId, userId), eq(sandboxUsage.month, month)));
    return row?.executions ?? 0;
  }
}
