import type { Bus } from '@svc/bus';
import type { Cache } from '@svc/cache';
import { IdentitySchema, type Identity } from '@svc/auth';
import { apiKeyPrincipalCacheKey, PRINCIPAL_RPC, principalCacheKey } from '@svc/contracts';
import type { Logger } from '@svc/core';

/** How long the gateway waits for identity before it gives up on a request. */
const PRINCIPAL_RPC_TIMEOUT_MS = 3000;

/**
 * Finds the Identity behind an access token's session or an API key: from the shared cache
 * that identity keeps current, else by asking identity over the bus (which also refills the
 * cache). A revoked session or key is absent from both, so it stops working at once on every
 * replica.
 */
export class PrincipalResolver {
  constructor(
    private readonly cache: Cache,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  forSession(sessionId: string): Promise<Identity | null> {
    return this.resolve(principalCacheKey(sessionId), { sessionId });
  }

  /** `keyHash` is the SHA-256 (hex) of the presented key; the key itself never leaves the gateway. */
  forApiKey(keyHash: string): Promise<Identity | null> {
    return this.resolve(apiKeyPrincipalCacheKey(keyHash), { apiKeyHash: keyHash });
  }

  private async resolve(cacheKey: string, question: { sessionId: string } | { apiKeyHash: string }): Promise<Identity | null> {
    const cached = await this.cache.get(cacheKey).catch((err: Error) => {
      this.log.warn('principal cache unavailable; asking identity', { error: err.message });
      return null;
    });
    if (cached) return IdentitySchema.parse(JSON.parse(cached));
    const answer = await this.bus.request<{ identity: unknown }>(PRINCIPAL_RPC, question, { timeoutMs: PRINCIPAL_RPC_TIMEOUT_MS });
    return answer.identity ? IdentitySchema.parse(answer.identity) : null;
  }
}
