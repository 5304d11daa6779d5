import type { AfterCommit, EventOutbox, OutboxWriter } from '@svc/bus';
import type { EventPayload, RpcReply, RpcRequest, SET_USER_TIER_RPC } from '@svc/contracts';
import type { Db } from '@svc/db';
import { NotFoundError, type Logger } from '@svc/core';
import { BillingTierRepository } from '../repositories/billing-tier.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import type { PrincipalService } from './principal.service.js';

/**
 * A user's tier as billing decides it: set from `subscription.changed` (once per event, the
 * latest `occurred_at` winning), announced as `user.tier.changed`, and the user's cached
 * principals dropped so that the gateway's limits and `auth/me` follow at once.
 */
export class TierService {
  constructor(
    private readonly events: EventOutbox,
    private readonly principals: PrincipalService,
    private readonly log: Logger,
  ) {}

  /**
   * Applies one `subscription.changed` in the consumer's transaction (which records its id in the
   * inbox, `handleOnce`); answers the principals' drop, for once the change is committed.
   */
  async applySubscription(tx: Db, out: OutboxWriter, change: EventPayload<'subscription.changed'>): Promise<AfterCommit | undefined> {
    if (!(await new BillingTierRepository(tx).advance(change.user_id, new Date(change.occurred_at)))) return undefined;
    const users = new UserRepository(tx);
    await users.lock(change.user_id);
    const user = await users.findById(change.user_id);
    if (!user) {
      this.log.warn('subscription change for an unknown user; ignored', { user_id: change.user_id });
      return undefined;
    }
    if (user.subscriptionTier === change.tier) return undefined;
    await users.update(user.id, { subscriptionTier: change.tier });
    out.publish('user.tier.changed', { user_id: user.id, tenant_id: user.tenant.id, tier: change.tier, previous_tier: user.subscriptionTier, source: 'billing', reason: change.status });
    return () => this.principals.forgetUser(change.user_id);
  }

  /** An operator's manual change (`identity.user.set-tier`), announced with its reason and who made it. */
  async setByOperator({ user_id, tier, reason, changed_by }: RpcRequest<typeof SET_USER_TIER_RPC>): Promise<RpcReply<typeof SET_USER_TIER_RPC>> {
    const previous = await this.events.transaction(async (tx, out) => {
      const users = new UserRepository(tx);
      await users.lock(user_id);
      const user = await users.findById(user_id);
      if (!user) throw new NotFoundError('No such user', { user_id });
      if (user.subscriptionTier !== tier) {
        await users.update(user.id, { subscriptionTier: tier });
        out.publish('user.tier.changed', { user_id, tenant_id: user.tenant.id, tier, previous_tier: user.subscriptionTier, source: 'admin', reason });
      }
      return user.subscriptionTier;
    });
    this.log.info('tier set by an operator', { user_id, tier, previous_tier: previous, changed_by });
    if (previous !== tier) await this.principals.forgetUser(user_id);
    return { user_id, tier, previous_tier: previous };
  }
}
