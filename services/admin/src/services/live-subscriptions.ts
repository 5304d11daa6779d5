import type { Bus } from '@svc/bus';
import { SUBSCRIPTION_STATUS_RPC, type RpcReply } from '@svc/contracts';
import type { Logger } from '@svc/core';

export type LiveSubscription = RpcReply<typeof SUBSCRIPTION_STATUS_RPC>['subscription'];

/** How long an answer of billing stands for the user detail (the spec's 60 s). */
const CACHE_MS = 60_000;
/** An operator waits this long for billing before the read model stands in. */
const ASK_TIMEOUT_MS = 1_000;
/** Users whose answers are kept; the oldest goes first. */
const MAX_ENTRIES = 10_000;

/** Users' subscriptions as billing holds them now, each answer kept 60 s in this process. */
export class LiveSubscriptions {
  private readonly cached = new Map<string, { until: number; subscription: LiveSubscription }>();

  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly now: () => Date,
  ) {}

  /** Undefined when billing did not answer in time: the caller's read model stands in. */
  async of(userId: string): Promise<LiveSubscription | undefined> {
    const at = this.now().getTime();
    const hit = this.cached.get(userId);
    if (hit && hit.until > at) return hit.subscription;
    try {
      const { subscription } = await this.bus.request(SUBSCRIPTION_STATUS_RPC, { user_id: userId }, { timeoutMs: ASK_TIMEOUT_MS });
      this.cached.delete(userId);
      this.cached.set(userId, { until: at + CACHE_MS, subscription });
      if (this.cached.size > MAX_ENTRIES) this.cached.delete(this.cached.keys().next().value!);
      return subscription;
    } catch (err) {
      this.log.warn('billing did not answer for a subscription; the read model stands in', { user_id: userId, error: (err as Error).message });
      return undefined;
    }
  }
}
