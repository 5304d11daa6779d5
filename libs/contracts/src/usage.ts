import { z } from 'zod';
import { Timestamp } from './responses.js';

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

const Count = z.number().int().min(0);
const Limit = Count.nullable().meta({ description: 'null: unlimited' });
/** What every usage read counts of command runs. */
const commandFigures = { commands_executed: Count, commands_succeeded: Count, commands_failed: Count, execution_time_seconds: z.number().min(0) };

export const UsageSummary = z.object({
  period: z.string().meta({ description: 'YYYY-MM (UTC)' }),
  tenant_id: z.string(),
  usage: z.object({
    commands_executed: Count,
    storage_bytes: Count,
    llm_tokens: z.object({
      input: Count,
      output: Count,
      total: Count,
    }),
    concurrent_jobs: z.object({
      current: Count,
      peak: Count,
    }),
  }),
  limits: z.object({
    commands_per_month: Limit,
    storage_bytes: Limit,
    llm_tokens_per_month: Limit,
    concurrent_jobs: Limit,
  }),
  percentage_used: z.object({
    storage: z.number(),
    llm_tokens: z.number(),
  }),
}).meta({ id: 'UsageSummary' });
export type UsageSummary = z.infer<typeof UsageSummary>;

export const UsageDashboard = z.object({
  current_period: z.object({
    start: Timestamp,
    end: Timestamp,
  }),
  usage: z.object({
    commands: z.object({
      executed: Count,
      limit: Limit,
      by_pack: z.record(z.string(), z.unknown()).meta({ description: 'Runs this month per pack (`@<namespace>/<name>`).' }),
    }),
    storage: z.object({
      used_bytes: Count,
      limit_bytes: Limit,
      percent_used: z.number(),
    }),
    llm_tokens: z.object({
      used: Count,
      limit: Limit,
      percent_used: z.number(),
      by_model: z.record(z.string(), z.unknown()).meta({ description: 'Tokens this month per model.' }),
    }),
  }),
  subscription: z.object({
    tier: z.string(),
    status: z.string().nullable().meta({ description: 'From billing; null when the caller never subscribed.' }),
    current_period_end: Timestamp.nullable(),
  }),
}).meta({ id: 'UsageDashboard' });
export type UsageDashboard = z.infer<typeof UsageDashboard>;

export const UsageMonth = z.object({
  period: z.string(),
  ...commandFigures,
  storage_operations: Count,
  peak_storage_bytes: Count,
}).meta({ id: 'UsageMonth' });
export type UsageMonth = z.infer<typeof UsageMonth>;

/** What `putUsageLimits` answers. */
export const UsageLimitsSetting = z.object({
  tenant_id: z.string(),
  hard: z.boolean(),
});

/** What `getUsageByPack` answers. */
export const UsageByPack = z.object({
  period: z.string(),
  packs: z.array(z.object({
    pack: z.string(),
    versions: z.record(z.string(), z.unknown()).meta({ description: 'Runs this month per version of the pack.' }),
    ...commandFigures,
    llm_tokens: z.object({
      input: Count,
      output: Count,
      total: Count,
    }),
    llm_requests: Count,
  })),
});
export type UsageByPack = z.infer<typeof UsageByPack>;

/** What `getUsageByUser` answers. */
export const UsageByUser = z.object({
  period: z.string(),
  users: z.array(z.object({
    tenant_id: z.string(),
    user_id: z.string(),
    ...commandFigures,
  })),
});

export type UsageByUser = z.infer<typeof UsageByUser>;