import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { TIERS, type Identity, type Tier } from '@svc/auth';
import type { Cache } from '@svc/cache';
import { TIER_LIMITS } from './limits.js';
import { consumeAll, createLimiter, type LimitCheck, type LimitResult } from './rate-limit.js';

const HOUR_SECONDS = 3600;

/**
 * The per-tier budget of command runs (free: 5 per hour; other tiers unlimited), one for
 * every way a command is run: `POST /api/v1/commands/{namespace}/{name}` draws on it through
 * the per-user limits, and the MCP endpoint's `tools/call` must draw on it too:
 *
 * @example
 *   const result = await quota.take(req.identity);
 *   if (result?.rejected) return mcpError('rate limited', result.state.msBeforeNext);
 */
export class CommandRunQuota {
  private readonly limiters = new Map<Tier, RateLimiterAbstract>();

  /** `enabled` false (`RATE_LIMIT_ENABLED=false`): every run is let through. */
  constructor(cache: Cache, storage: 'redis' | 'memory', enabled = true) {
    if (!enabled) return;
    for (const tier of TIERS) {
      const perHour = TIER_LIMITS[tier].commandRunsPerHour;
      if (perHour !== null) this.limiters.set(tier, createLimiter({ name: `command-runs-${tier}`, points: perHour, durationSeconds: HOUR_SECONDS }, cache, storage));
    }
  }

  /** The check one command run of this caller must pass, or undefined when the tier is unlimited. */
  checkFor(identity: Pick<Identity, 'userId' | 'tier'>): LimitCheck | undefined {
    const limiter = this.limiters.get(identity.tier);
    return limiter && { limiter, key: identity.userId };
  }

  /** Takes one run from the caller's budget; undefined when the tier is unlimited. */
  async take(identity: Pick<Identity, 'userId' | 'tier'>): Promise<LimitResult | undefined> {
    const check = this.checkFor(identity);
    return check && (await consumeAll([check]))[0];
  }
}
