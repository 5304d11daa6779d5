import type { Tier } from '@svc/auth';
import type { Queue } from '@svc/pack-sdk';
import { RunnersBusyError } from '../runners/runner-errors.js';

/** The part of a worker one tenant may hold, by the tier of whoever calls: of its runners, and of each queue's jobs in flight. */
export type TenantShareFractions = Readonly<Record<Tier, number>>;

/**
 * By default no tenant holds more than three quarters of a worker, and free and preview tenants
 * a quarter: whoever floods a worker with slow commands leaves the rest to everyone else.
 */
export const DEFAULT_TENANT_SHARES: TenantShareFractions = { free: 0.25, developer_preview: 0.25, pro: 0.5, enterprise: 0.75 };

/** What a tenant of one tier may hold on this worker. */
export interface TenantCaps {
  /** Calls of one queue in runners at once. */
  calls: number;
  /** Runners alive at once. */
  runners: number;
}

/**
 * Fair share of one worker: each tenant may have at most its tier's share of each queue's
 * prefetch as calls in runners, and of the pool's runners (at least one of each). Counted here,
 * per worker, for the calls; the pool holds it to its runners.
 *
 * @example
 *   const shares = new TenantShares(DEFAULT_TENANT_SHARES, { fast: 64, medium: 8, long: 2 }, 32);
 *   const leave = shares.enter(tenantId, 'free', 'fast'); // throws RunnersBusyError past 16
 *   try { await pool.run({ ..., tenantRunners: shares.caps('free', 'fast').runners }); } finally { leave(); }
 */
export class TenantShares {
  readonly #running = new Map<string, number>();

  constructor(
    private readonly fractions: TenantShareFractions,
    private readonly prefetch: Readonly<Record<Queue, number>>,
    private readonly maxRunners: number,
  ) {}

  caps(tier: Tier, queue: Queue): TenantCaps {
    const fraction = this.fractions[tier];
    return { calls: Math.max(1, Math.floor(this.prefetch[queue] * fraction)), runners: Math.max(1, Math.floor(this.maxRunners * fraction)) };
  }

  /** Whether the tenant may start one more call of `queue` now. */
  admits(tenant: string, tier: Tier, queue: Queue): boolean {
    return (this.#running.get(keyOf(tenant, queue)) ?? 0) < this.caps(tier, queue).calls;
  }

  /** Counts a call of the tenant in; the function returned counts it out. Throws RunnersBusyError past its share. */
  enter(tenant: string, tier: Tier, queue: Queue): () => void {
    const key = keyOf(tenant, queue);
    const running = this.#running.get(key) ?? 0;
    const { calls } = this.caps(tier, queue);
    if (running >= calls) throw new RunnersBusyError('tenant_calls', calls);
    this.#running.set(key, running + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.#running.get(key) ?? 1) - 1;
      if (now === 0) this.#running.delete(key);
      else this.#running.set(key, now);
    };
  }
}

function keyOf(tenant: string, queue: Queue): string {
  return `${queue}\u0000${tenant}`;
}
