import type { Cache } from '@svc/cache';
import type { Identity, Membership } from '@svc/auth';
import { apiKeyPrincipalCacheKey, principalCacheKey } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { Logger } from '@svc/core';
import { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { OrganizationRepository } from '../repositories/organization.repository.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository, type UserWithTenant } from '../repositories/user.repository.js';

/** How long the gateway may serve a principal from cache before asking again. */
export const PRINCIPAL_CACHE_SECONDS = 300;

type Credential = { authKind: 'jwt'; sessionId: string } | { authKind: 'api_key'; apiKeyId: string; scopes: string[] };

/**
 * Turns a session or an API key into the Identity the gateway forwards, and keeps the
 * gateway's cache of them honest: every change to a user, a membership, a session or a key
 * drops the cached entries at once.
 */
export class PrincipalService {
  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {}

  async identityOf(user: UserWithTenant, credential: Credential): Promise<Identity> {
    const organizations = await new OrganizationRepository(this.db).membershipsOf(user.id);
    const memberships: Membership[] = [
      { tenantId: user.tenant.id, slug: user.tenant.slug, kind: 'personal', role: 'owner' },
      ...organizations.map((m) => ({ tenantId: m.organization.id, slug: m.organization.slug, kind: 'organization' as const, role: m.role })),
    ];
    return {
      userId: user.id,
      email: user.email,
      role: user.role,
      tier: user.subscriptionTier,
      developerMode: user.developerMode,
      tenantId: user.tenant.id,
      tenantSlug: user.tenant.slug,
      scopes: [],
      memberships,
      ...credential,
    };
  }

  async resolveSession(sessionId: string): Promise<Identity | null> {
    const user = await new UserRepository(this.db).findBySessionFamily(sessionId);
    if (!user) return null;
    return this.remember(principalCacheKey(sessionId), await this.identityOf(user, { authKind: 'jwt', sessionId }));
  }

  async resolveApiKey(keyHash: string): Promise<Identity | null> {
    const key = await new ApiKeyRepository(this.db).findLiveByHash(keyHash);
    if (!key) return null;
    const user = await new UserRepository(this.db).findById(key.userId);
    if (!user) return null;
    return this.remember(apiKeyPrincipalCacheKey(keyHash), await this.identityOf(user, { authKind: 'api_key', apiKeyId: key.id, scopes: key.scopes }));
  }

  async forgetSessions(sessionIds: string[]): Promise<void> {
    await this.forget(sessionIds.map(principalCacheKey));
  }

  async forgetApiKeys(keyHashes: string[]): Promise<void> {
    await this.forget(keyHashes.map(apiKeyPrincipalCacheKey));
  }

  /** After a change to the user itself or its memberships: every credential of the user. */
  async forgetUser(userId: string): Promise<void> {
    const [sessions, keys] = await Promise.all([new SessionRepository(this.db).liveFamiliesOfUser(userId), new ApiKeyRepository(this.db).liveHashesOf(userId)]);
    await this.forget([...sessions.map(principalCacheKey), ...keys.map(apiKeyPrincipalCacheKey)]);
  }

  private async remember(key: string, identity: Identity): Promise<Identity> {
    await this.cache.set(key, JSON.stringify(identity), PRINCIPAL_CACHE_SECONDS).catch((err: Error) => {
      this.log.warn('principal cache write failed', { error: err.message });
    });
    return identity;
  }

  private async forget(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.cache.del(...keys);
    } catch (err) {
      // The gateway falls back to asking identity when its cache is away; entries expire anyway.
      this.log.warn('principal cache invalidation failed', { error: (err as Error).message, keys: keys.length });
    }
  }
}
