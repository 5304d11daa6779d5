import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { sandboxes } from '../../db/schema.js';

export type SandboxRow = typeof sandboxes.$inferSelect;

/** A session that was not stopped and has been active within its timeout. */
export function isRunning(row: SandboxRow, now: Date): boolean {
  return row.stoppedAt === null && row.lastActiveAt.getTime() + row.timeoutSeconds * 1000 > now.getTime();
}

/** `isRunning` as SQL, for writes that must not race with one another. */
function running(now: Date): SQL {
  return sql`(${sandboxes.stoppedAt} IS NULL AND ${sandboxes.lastActiveAt} + ${sandboxes.timeoutSeconds} * interval '1 second' > ${now.toISOString()}::timestamptz)`;
}

/** One row per user: the current or the last session of their sandbox. */
export class SandboxRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<SandboxRow | undefined> {
    const [row] = await this.db.select().from(sandboxes).where(eq(sandboxes.userId, userId));
    return row;
  }

  /**
   * Starts a new session unless one is running, in one statement, so that two starts at once
   * make one session. Undefined when one was running (left as it was).
   */
  async startUnlessRunning(session: { userId: string; tenantId: string; timeoutSeconds: number }, now: Date): Promise<SandboxRow | undefined> {
    const fresh = { id: randomUUID(), tenantId: session.tenantId, timeoutSeconds: session.timeoutSeconds, startedAt: now, lastActiveAt: now, stoppedAt: null };
    const [row] = await this.db
      .insert(sandboxes)
      .values({ userId: session.userId, ...fresh })
      .onConflictDoUpdate({ target: sandboxes.userId, set: fresh, setWhere: sql`NOT ${running(now)}` })
      .returning();
    return row;
  }

  /** Marks the running session active now; undefined when none is running. */
  async touch(userId: string, now: Date): Promise<SandboxRow | undefined> {
    const [row] = await this.db.update(sandboxes).set({ lastActiveAt: now }).where(and(eq(sandboxes.userId, userId), running(now))).returning();
    return row;
  }

  /** Stops the running session; undefined when none is running. */
  async stop(userId: string, now: Date): Promise<SandboxRow | undefined> {
    const [row] = await this.db.update(sandboxes).set({ stoppedAt: now }).where(and(eq(sandboxes.userId, userId), running(now))).returning();
    return row;
  }
}
