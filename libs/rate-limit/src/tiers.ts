import type { Tier } from '@svc/auth';

/**
 * Part 1 "Limits", per user and tier: requests per minute, and command runs per hour (null:
 * unlimited, which the plans API shows as `-1`).
 */
export const TIER_LIMITS: Record<Tier, { requestsPerMinute: number; commandRunsPerHour: number | null }> = {
  free: { requestsPerMinute: 10, commandRunsPerHour: 5 },
  developer_preview: { requestsPerMinute: 60, commandRunsPerHour: null },
  pro: { requestsPerMinute: 300, commandRunsPerHour: null },
  enterprise: { requestsPerMinute: 1000, commandRunsPerHour: null },
};
