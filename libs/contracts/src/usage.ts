import { z } from 'zod';

export const USAGE_HISTORY_MONTHS_MAX = 24;
export const USAGE_HISTORY_MONTHS_DEFAULT = 3;

/** `GET /api/v1/usage`: the first form of the spec, or the dashboard form with `view=dashboard`. */
export const UsageQuery = z.strictObject({ view: z.enum(['summary', 'dashboard']).default('summary') });

/** `GET /api/v1/usage/history`: how many months, the current one included (1-24, default 3). */
export const UsageHistoryQuery = z.strictObject({
  months: z.coerce.number().int().min(1).max(USAGE_HISTORY_MONTHS_MAX).default(USAGE_HISTORY_MONTHS_DEFAULT),
});

/** `GET /api/v1/usage/by-user`: every tenant's users, or one tenant's. */
export const UsageByUserQuery = z.strictObject({ tenant_id: z.string().uuid().optional() });

/** `PUT /api/v1/usage/limits`: whether the active tenant's quotas are hard (runs refused past them) or soft (the default). */
export const UsageLimitsBody = z.strictObject({ hard: z.boolean() });

/**
 * The cache key admin sets, until the month ends, for a tenant with hard limits that is past a
 * quota; execution refuses the tenant's runs while it is there. Its value names the quota.
 */
export const usageLimitKey = (tenantId: string) => `usage:hard-limit:${tenantId}`;
