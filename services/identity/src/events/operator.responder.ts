import type { Bus, Subscription } from '@svc/bus';
import { REVOKE_SESSIONS_RPC, SET_USER_TIER_RPC } from '@svc/contracts';
import type { AuthService } from '../services/auth.service.js';
import type { TierService } from '../services/tier.service.js';

/** What the admin area asks of identity for an operator: a manual tier change, every session of a user ended. */
export async function respondToOperatorRequests(bus: Bus, tiers: TierService, auth: AuthService): Promise<Subscription[]> {
  return Promise.all([
    bus.respond(SET_USER_TIER_RPC, (request) => tiers.setByOperator(request)),
    bus.respond(REVOKE_SESSIONS_RPC, async ({ user_id }) => ({ revoked: await auth.revokeAllSessions(user_id) })),
  ]);
}
