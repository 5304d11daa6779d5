import type { Bus } from '@svc/bus';
import type { TrackedReads } from '@svc/cache';
import { IdentitySchema, verifyPrincipalEntry, type Identity } from '@svc/auth';
import { apiKeyPrincipalCacheKey, oauthPrincipalCacheKey, PRINCIPAL_RPC, principalCacheKey } from '@svc/contracts';
import type { Logger } from '@svc/core';

/** How long the gateway waits for identity before it gives up on a request. */
const PRINCIPAL_RPC_TIMEOUT_MS = 3000;

/** Parsed principals kept, by their cached text; a request's principal is checked once, not per request. */
const PARSED_ENTRIES = 10_000;

/** A cached principal whose signature held, and the cache key it was signed for. */
interface Verified {
  cacheKey: string;
  identity: Identity;
}

/**
 * Finds the Identity behind an access token's session or an API key: from the shared cache
 * that identity keeps current (read through `TrackedReads`, so a hot entry costs no round trip
 * while Redis still vouches for it), else by asking identity over the bus (which also refills
 * the cache). A revoked session or key is deleted from the cache, Redis tells every replica's
 * tracked reads at once, and identity answers "none": it stops working everywhere. Entries are
 * signed by identity (`signPrincipalEntry`); one that fails its signature (written by anyone
 * else who reached Redis) is not used: identity is asked, and writes a true one over it.
 */
export class PrincipalResolver {
  private readonly parsed = new Map<string, Verified>();

  /** `secret`: SVC_INTERNAL_SECRET, the key of identity's signatures. */
  constructor(
    private readonly reads: TrackedReads,
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly secret: string,
  ) {}

  forSession(sessionId: string): Promise<Identity | null> {
    return this.resolve(principalCacheKey(sessionId), { sessionId });
  }

  /**
   * After a request of this caller changed its account through identity: the next request
   * reads the principal from Redis, where identity already deleted it, instead of a copy whose
   * notice of change may still be on its way. Only access tokens can change their own account
   * (identity refuses API keys there).
   */
  forgetCopyOf(identity: Identity): void {
    if (identity.sessionId) this.reads.forget(principalCacheKey(identity.sessionId));
  }

  /** `keyHash` is the SHA-256 (hex) of the presented key; the key itself never leaves the gateway. */
  forApiKey(keyHash: string): Promise<Identity | null> {
    return this.resolve(apiKeyPrincipalCacheKey(keyHash), { apiKeyHash: keyHash });
  }

  /** The caller behind an OAuth access token's grant, bound to the tenant the user chose. */
  forOAuthGrant(grantId: string): Promise<Identity | null> {
    return this.resolve(oauthPrincipalCacheKey(grantId), { oauthGrantId: grantId });
  }

  private async resolve(cacheKey: string, question: { sessionId: string } | { apiKeyHash: string } | { oauthGrantId: string }): Promise<Identity | null> {
    const cached = await this.reads.get(cacheKey).catch((err: Error) => {
      this.log.warn('principal cache unavailable; asking identity', { error: err.message });
      return null;
    });
    const identity = cached ? this.parse(cacheKey, cached) : undefined;
    if (identity) return identity;
    // The bus checks the answer against the contract's IdentitySchema.
    return (await this.bus.request(PRINCIPAL_RPC, question, { timeoutMs: PRINCIPAL_RPC_TIMEOUT_MS })).identity;
  }

  /**
   * The same text under the same key always parses to the same principal: frozen, since every
   * request shares it, and checked once. Undefined for an entry that is not identity's.
   */
  private parse(cacheKey: string, text: string): Identity | undefined {
    const known = this.parsed.get(text);
    if (known?.cacheKey === cacheKey) return known.identity;
    const json = verifyPrincipalEntry(this.secret, cacheKey, text);
    if (json === undefined) {
      this.log.warn('a cached principal failed its signature; asking identity', { cache_key: cacheKey });
      return undefined;
    }
    if (this.parsed.size >= PARSED_ENTRIES) this.parsed.clear();
    const identity = Object.freeze(IdentitySchema.parse(JSON.parse(json)));
    this.parsed.set(text, { cacheKey, identity });
    return identity;
  }
}
