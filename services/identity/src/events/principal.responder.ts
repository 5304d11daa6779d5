import type { Bus, Subscription } from '@svc/bus';
import { PRINCIPAL_RPC, USER_PRINCIPAL_RPC } from '@svc/contracts';
import type { PrincipalService } from '../services/principal.service.js';

/** Answers the gateway's "who is behind this session, key or OAuth authorization?" when its cache has no entry. */
export function respondToPrincipalRequests(bus: Bus, principals: PrincipalService): Promise<Subscription> {
  return bus.respond(PRINCIPAL_RPC, async (request) => {
    if ('sessionId' in request) return { identity: await principals.resolveSession(request.sessionId) };
    if ('apiKeyHash' in request) return { identity: await principals.resolveApiKey(request.apiKeyHash) };
    return { identity: await principals.resolveOAuthGrant(request.oauthGrantId) };
  });
}

/** Answers "who is this user now?" for work done on a user's behalf without a request (execution's schedules). */
export function respondToUserPrincipalRequests(bus: Bus, principals: PrincipalService): Promise<Subscription> {
  return bus.respond(USER_PRINCIPAL_RPC, async ({ user_id: userId }) => ({ identity: await principals.resolveUser(userId) }));
}
