import { tenantRoleOf, type Identity } from '@svc/auth';
import type { Cache } from '@svc/cache';
import { QUOTA_METRICS, usageLimitKey } from '@svc/contracts';
import { PermissionError } from '@svc/core';
import type { Db } from '@svc/db';
import { UsageLimitRepository } from '../repositories/usage-limit.repository.js';
import { pastQuota, type QuotaMetric } from './overage.js';
import { periodBounds, periodOf } from './period.js';

/** The one tier that may turn hard limits on. */
const HARD_LIMITS_TIER = 'enterprise';

const hasHardLimits = (db: Db, tenantId: string) => new UsageLimitRepository(db).hasHardLimits(tenantId);

/**
 * Hard limits (Part 2, Limits): a tenant that turned them on (`PUT /usage/limits`) and is past a
 * quota gets `usageLimitKey(tenant)` in the shared cache until the month ends; execution refuses
 * its runs while the key is there. Turning them off drops the key at once.
 */
export class HardLimits {
  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly now: () => Date,
  ) {}

  /** After a count moved the tenant past `metric`: the flag, when the tenant has hard limits. */
  async flagIfHard(tx: Db, tenantId: string, metric: QuotaMetric, at: Date): Promise<void> {
    if (await hasHardLimits(tx, tenantId)) await this.flag(tenantId, metric, at);
  }

  /**
   * `PUT /usage/limits` for the caller's active tenant, by its owner or an admin of it. Turning
   * them on is for the enterprise tier (Part 2, Limits: "enterprise may enable hard limits");
   * turning them off is anybody's, so that a tenant moved off enterprise can let go of them.
   */
  async set(caller: Identity, hard: boolean): Promise<{ tenant_id: string; hard: boolean }> {
    const role = tenantRoleOf(caller, caller.tenantId);
    if (role !== 'owner' && role !== 'admin') throw new PermissionError("Only the tenant's owner or an admin of it may change its limits", { reason: 'tenant_role' });
    if (hard && caller.tier !== HARD_LIMITS_TIER) {
      throw PermissionError.coded('HARD_LIMITS_ENTERPRISE_ONLY', `Hard usage limits are for the ${HARD_LIMITS_TIER} tier; yours is ${caller.tier}, whose quotas are soft (a warning, and runs go on)`, { reason: 'enterprise_required', tier: caller.tier });
    }
    const tenantId = caller.tenantId;
    const limits = new UsageLimitRepository(this.db);
    if (!hard) {
      await limits.disableHardLimits(tenantId);
      await this.cache.del(usageLimitKey(tenantId));
      return { tenant_id: tenantId, hard };
    }
    const at = this.now();
    await limits.enableHardLimits(tenantId, caller.userId, at);
    // A tenant already past a quota is held from its next run on.
    await this.flagIfPast(this.db, tenantId, caller.userId, at);
    return { tenant_id: tenantId, hard };
  }

  /**
   * After the tier of the tenant's owner changed: a tenant with hard limits is held to the new
   * tier's quotas at once. An upgrade lifts the flag when the tenant is within them now; a
   * downgrade past one sets it.
   */
  async reconsider(tx: Db, tenantId: string, userId: string, at: Date): Promise<void> {
    if (!(await hasHardLimits(tx, tenantId))) return;
    if (!(await this.flagIfPast(tx, tenantId, userId, at))) await this.cache.del(usageLimitKey(tenantId));
  }

  /** Flags the tenant when it is past any quota of this month; says whether it is. */
  private async flagIfPast(db: Db, tenantId: string, userId: string, at: Date): Promise<boolean> {
    for (const metric of QUOTA_METRICS) {
      if (!(await pastQuota(db, tenantId, userId, periodOf(at), metric))) continue;
      await this.flag(tenantId, metric, at);
      return true;
    }
    return false;
  }

  private async flag(tenantId: string, metric: QuotaMetric, at: Date): Promise<void> {
    const untilMonthEnd = Math.ceil((Date.parse(periodBounds(periodOf(at)).end) - at.getTime()) / 1000);
    await this.cache.set(usageLimitKey(tenantId), metric, Math.max(1, untilMonthEnd));
  }
}
