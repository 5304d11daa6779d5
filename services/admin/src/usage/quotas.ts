import type { Tier } from '@svc/auth';

/** Monthly quotas of a tier; null is unlimited. */
export interface Quota {
  commands_per_month: number | null;
  storage_bytes: number | null;
  llm_tokens_per_month: number | null;
  concurrent_jobs: number | null;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * The one table of tier quotas (spec Part 2, Limits): Free 100 commands, 100 MB, 10K tokens;
 * Pro unlimited commands, 10 GB, 1M tokens, 10 concurrent jobs; Team 100 GB, 5M tokens;
 * Enterprise custom (unlimited here). `developer_preview` has Pro's quotas: it is the preview
 * of what Pro opens.
 */
export const TIER_QUOTAS: Record<Tier | 'team', Quota> = {
  free: { commands_per_month: 100, storage_bytes: 100 * MB, llm_tokens_per_month: 10_000, concurrent_jobs: null },
  developer_preview: { commands_per_month: null, storage_bytes: 10 * GB, llm_tokens_per_month: 1_000_000, concurrent_jobs: 10 },
  pro: { commands_per_month: null, storage_bytes: 10 * GB, llm_tokens_per_month: 1_000_000, concurrent_jobs: 10 },
  team: { commands_per_month: null, storage_bytes: 100 * GB, llm_tokens_per_month: 5_000_000, concurrent_jobs: null },
  enterprise: { commands_per_month: null, storage_bytes: null, llm_tokens_per_month: null, concurrent_jobs: null },
};

const UNLIMITED: Quota = { commands_per_month: null, storage_bytes: null, llm_tokens_per_month: null, concurrent_jobs: null };

/** The quota of a tier, or no limit at all where limits are turned off (self-hosted). */
export function quotaOf(tier: Tier, limitsEnabled: boolean): Quota {
  return limitsEnabled ? TIER_QUOTAS[tier] : UNLIMITED;
}
