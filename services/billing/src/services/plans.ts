import type { Tier } from '@svc/auth';
import type { Plan } from '@svc/contracts';
import { TIER_LIMITS } from '@svc/rate-limit';

/** The plans on sale; enterprise is arranged by contract and not listed. */
const CATALOG = [
  { id: 'free', name: 'Free', price: 0, interval: null, features: ['Run installed packs', 'Key-value storage', 'Community support'] },
  { id: 'developer_preview', name: 'Developer Preview', price: 0, interval: null, features: ['Invite only', 'Publish packs and dashboards', 'Unlimited command runs'] },
  { id: 'pro', name: 'Pro', price: 5000, interval: 'month', features: ['Unlimited command runs', 'Higher request rate', 'Customer portal for invoices and cancellation'] },
] as const satisfies readonly { id: Tier; name: string; price: number; interval: 'month' | null; features: string[] }[];

/** Part 1's `-1` for unlimited. */
const orUnlimited = (value: number | null) => value ?? -1;

/**
 * `GET /billing/plans`: prices from the catalog, limits from `TIER_LIMITS`, the table the
 * gateway enforces, so that what is sold is what is applied.
 */
export function listPlans(): Plan[] {
  return CATALOG.map((plan) => ({
    ...plan,
    features: [...plan.features],
    limits: { requests_per_minute: TIER_LIMITS[plan.id].requestsPerMinute, commands_per_hour: orUnlimited(TIER_LIMITS[plan.id].commandRunsPerHour) },
  }));
}

/** What a tier brings in a month, in minor units (revenue read models sum it). */
export function monthlyPriceOf(tier: Tier): number {
  return CATALOG.find((plan) => plan.id === tier && plan.interval === 'month')?.price ?? 0;
}
