import { eq } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { usageHardLimits, usageNotices } from '../db/schema.js';

/** A notice of a quota a tenant went past, on one UTC day (`YYYY-MM-DD`). */
export interface UsageNotice {
  tenantId: string;
  metric: string;
  day: string;
  used: number;
  limit: number;
}

/** What a tenant chose about its quotas (hard limits) and what it was told about them (one notice a day per quota). */
export class UsageLimitRepository {
  constructor(private readonly db: Db) {}

  async hasHardLimits(tenantId: string): Promise<boolean> {
    const [hard] = await this.db.select({ tenantId: usageHardLimits.tenantId }).from(usageHardLimits).where(eq(usageHardLimits.tenantId, tenantId));
    return hard !== undefined;
  }

  async enableHardLimits(tenantId: string, enabledBy: string, at: Date): Promise<void> {
    await this.db.insert(usageHardLimits).values({ tenantId, enabledBy, enabledAt: at }).onConflictDoNothing();
  }

  async disableHardLimits(tenantId: string): Promise<void> {
    await this.db.delete(usageHardLimits).where(eq(usageHardLimits.tenantId, tenantId));
  }

  /** Records the day's notice; false when the tenant was told about this quota today already. */
  async noticeOnce(notice: UsageNotice): Promise<boolean> {
    const [noticed] = await this.db.insert(usageNotices).values(notice).onConflictDoNothing().returning({ day: usageNotices.day });
    return noticed !== undefined;
  }
}
