import { trackedReads, type Cache, type TrackedReads } from '@svc/cache';
import { usageLimitKey } from '@svc/contracts';
import { RateLimitError, type Logger } from '@svc/core';

/** The flags this process keeps a copy of: one per tenant that ran lately, a missing key included. */
const USAGE_LIMIT_READS = { maxEntries: 10_000, ttlSeconds: 60, name: 'svc-execution-usage-limits' };

/**
 * Hard limits: admin flags, in the shared cache, a tenant with hard limits on that is past a
 * quota (until the month ends); its runs are refused with `USAGE_LIMIT_EXCEEDED` (429). Every run
 * asks, so the flags are read through `trackedReads`: from this process's memory until Redis says
 * a tenant's flag changed (set, cleared or expired), where each run was a round trip to Redis
 * (BENCHMARKS.md, eighteenth round). A tracked read that fails (its connection not up yet, or
 * lost) is asked of the cache itself; a cache that cannot answer either lets the run through:
 * limits are not worth an outage.
 */
export class UsageLimitGate {
  private readonly reads: TrackedReads;

  constructor(
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {
    this.reads = trackedReads(cache, USAGE_LIMIT_READS);
  }

  async assertWithin(tenantId: string): Promise<void> {
    const key = usageLimitKey(tenantId);
    let metric: string | null;
    try {
      metric = await this.reads.get(key).catch(() => this.cache.get(key));
    } catch (err) {
      this.log.warn('usage limit not checked: the cache did not answer', { tenant_id: tenantId, error: (err as Error).message });
      return;
    }
    if (metric) throw RateLimitError.coded('USAGE_LIMIT_EXCEEDED', "Your workspace is past its plan's monthly limit and has hard limits on; runs resume next month or once the plan or the limits change", { metric, reason: 'usage-limit-exceeded' });
  }

  /** Closes the tracked reads' connection. */
  close(): Promise<void> {
    return this.reads.close();
  }
}
