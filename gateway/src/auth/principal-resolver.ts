import type { Bus } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { IdentitySchema, type Identity } from '@svc/auth';
import { PRINCIPAL_RPC, principalCacheKey } from '@svc/contracts';
import type { Logger } from '@svc/core';

/** How long the gateway waits for identity before it gives up on a request. */
const PRINCIPAL_RPC_TIMEOUT_MS = 3000;

/**
 * Finds the Identity behind an access token's session: from the shared cache that identity
 * keeps current, else by asking identity over the bus (which also refills the cache). A
 * revoked session is absent from both, so its tokens stop working at once on every replica.
 */
export class PrincipalResolver {
  constructor(
    private readonly cache: Cache,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  async forSession(sessionId: string): Promise<Identity | null> {
    const cached = await this.cache.get(principalCacheKey(sessionId)).catch((err: Error) => {
      this.log.warn('principal cache unavailable; asking identity', { error: err.message });
      return null;
    });
    if (cached) return IdentitySchema.parse(JSON.parse(cached));
    const answer = await this.bus.request<{ identity: unknown }>(PRINCIPAL_RPC, { sessionId }, { timeoutMs: PRINCIPAL_RPC_TIMEOUT_MS });
    return answer.identity ? IdentitySchema.parse(answer.identity) : null;
  }
}
