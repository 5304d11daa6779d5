import type { Cache } from '@svc/cache';
import { usageLimitKey } from '@svc/contracts';
import { RateLimitError, type Logger } from '@svc/core';

/**
 * Hard limits: admin flags, in the shared cache, a tenant with hard limits on that is past a
 * quota (until the month ends); its runs are refused with `USAGE_LIMIT_EXCEEDED` (429). One cache
 * read per run. A cache that cannot answer lets the run through: limits are not worth an outage.
 */
export class UsageLimitGate {
  constructor(
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {}

  async assertWithin(tenantId: string): Promise<void> {
    let metric: string | null;
    try {
      metric = await this.cache.get(usageLimitKey(tenantId));
    } catch (err) {
      this.log.warn('usage limit not checked: the cache did not answer', { tenant_id: tenantId, error: (err as Error).message });
      return;
    }
    if (metric) throw RateLimitError.coded('USAGE_LIMIT_EXCEEDED', "Your workspace is past its plan's monthly limit and has hard limits on; runs resume next month or once the plan or the limits change", { metric, reason: 'usage-limit-exceeded' });
  }
}
