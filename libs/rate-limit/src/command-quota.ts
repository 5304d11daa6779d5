import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { TIERS, type Identity, type Tier } from '@svc/auth';
import type { Cache } from '@svc/cache';
import { consumeAll, createLimiter, type LimitCheck, type LimitResult, type LimitStorage } from './limiter.js';
import { TIER_LIMITS } from './tiers.js';

const HOUR_SECONDS = 3600;

/**
 * The per-tier budget of command runs (free: 5 per hour; other tiers unlimited), one for every
 * way a command is run: the gateway takes a run for `POST /api/v1/commands/{namespace}/{name}`,
 * and the MCP endpoint takes one for each `tools/call`. Every instance on the same Redis (or,
 * without Redis, on the same cache in one process) draws on the same counters.
 *
 * @example
 *   const quota = new CommandRunQuota(cache, 'redis');
 *   const run = await quota.take(identity);
 *   if (run?.rejected) throw new RateLimitError('Command run limit reached', { retry_after: Math.ceil(run.state.msBeforeNext / 1000) });
 */
export class CommandRunQuota {
  private readonly limiters = new Map<Tier, RateLimiterAbstract>();

  /** `enabled` false (`RATE_LIMIT_ENABLED=false`): every run is let through. */
  constructor(cache: Cache, storage: LimitStorage, enabled = true) {
    if (!enabled) return;
    for (const tier of TIERS) {
      const perHour = TIER_LIMITS[tier].commandRunsPerHour;
      if (perHour !== null) this.limiters.set(tier, createLimiter({ name: `command-runs-${tier}`, points: perHour, durationSeconds: HOUR_SECONDS }, cache, storage));
    }
  }

  /** The check one command run of this caller must pass, or undefined when the tier is unlimited. */
  checkFor(identity: Pick<Identity, 'userId' | 'tier'>): LimitCheck | undefined {
    const limiter = this.limiters.get(identity.tier);
    return limiter && { limiter, key: identity.userId, label: { kind: 'command_runs_per_hour', tier: identity.tier } };
  }

  /** Takes one run from the caller's budget; undefined when the tier is unlimited. */
  async take(identity: Pick<Identity, 'userId' | 'tier'>): Promise<LimitResult | undefined> {
    const check = this.checkFor(identity);
    return check && (await consumeAll([check]))[0];
  }
}
