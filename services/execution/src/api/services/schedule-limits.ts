import type { Tier } from '@svc/auth';

/**
 * What each tier may schedule (README "Schedules"): how many enabled schedules a tenant keeps,
 * and how often one may fire at most. Paused schedules (a pack's proposals among them) do not
 * count until they are turned on; every tenant keeps at most `MAX_SCHEDULES_PER_TENANT` in all.
 */
export const SCHEDULE_LIMITS: Record<Tier, { enabled: number; minIntervalMinutes: number }> = {
  free: { enabled: 5, minIntervalMinutes: 60 },
  developer_preview: { enabled: 20, minIntervalMinutes: 5 },
  pro: { enabled: 100, minIntervalMinutes: 1 },
  enterprise: { enabled: 1000, minIntervalMinutes: 1 },
};

/** Schedules a tenant keeps, paused or not, whatever its tier. */
export const MAX_SCHEDULES_PER_TENANT = 2000;
