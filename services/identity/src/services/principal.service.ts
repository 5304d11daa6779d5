import { randomUUID } from 'node:crypto';
import type { Cache } from '@svc/cache';
import { signPrincipalEntry, type Identity, type Membership } from '@svc/auth';
import { apiKeyPrincipalCacheKey, oauthPrincipalCacheKey, principalCacheKey } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { Logger } from '@svc/core';
import { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { OAuthGrantRepository } from '../repositories/oauth-grant.repository.js';
import { OrganizationRepository } from '../repositories/organization.repository.js';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository, type UserWithTenant } from '../repositories/user.repository.js';

/** How long the gateway may serve a principal from cache before asking again. */
export const PRINCIPAL_CACHE_SECONDS = 300;

/**
 * Beside each principal entry, a mark that every forgetting of it changes. A resolve notes the
 * mark before it reads the database and checks it after writing the entry: a change forgotten
 * meanwhile may have been overwritten by what the resolve read, so the entry is withdrawn.
 */
const changeMarkOf = (key: string) => `${key}:changed`;

type Credential = { authKind: 'jwt'; sessionId?: string } | { authKind: 'api_key'; apiKeyId: string; scopes: string[] } | { authKind: 'oauth'; oauthGrantId: string; scopes: string[] };

/**
 * Turns a session or an API key into the Identity the gateway forwards, and keeps the
 * gateway's cache of them honest: every change to a user, a membership, a session or a key
 * drops the cached entries at once.
 */
export class PrincipalService {
  /** `secret`: SVC_INTERNAL_SECRET, under which each cached principal is signed for the gateway. */
  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly log: Logger,
    private readonly secret: string,
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
    const cacheKey = principalCacheKey(sessionId);
    const mark = await this.markOf(cacheKey);
    const user = await new UserRepository(this.db).findBySessionFamily(sessionId);
    if (!user) return null;
    return this.remember(cacheKey, mark, await this.identityOf(user, { authKind: 'jwt', sessionId }));
  }

  async resolveApiKey(keyHash: string): Promise<Identity | null> {
    const cacheKey = apiKeyPrincipalCacheKey(keyHash);
    const mark = await this.markOf(cacheKey);
    const key = await new ApiKeyRepository(this.db).findLiveByHash(keyHash);
    if (!key) return null;
    const user = await new UserRepository(this.db).findById(key.userId);
    if (!user) return null;
    return this.remember(cacheKey, mark, await this.identityOf(user, { authKind: 'api_key', apiKeyId: key.id, scopes: key.scopes }));
  }

  /**
   * A user as they stand, for work done on their behalf without a credential (a schedule's run):
   * not cached, since nothing presents it again.
   */
  async resolveUser(userId: string): Promise<Identity | null> {
    const user = await new UserRepository(this.db).findById(userId);
    return user ? this.identityOf(user, { authKind: 'jwt' }) : null;
  }

  /**
   * An OAuth authorization's caller, bound to the tenant the user chose: that tenant is the
   * identity's tenant and its only membership. None when the authorization is revoked or the
   * user is no longer a member of that tenant (removed from the organization).
   */
  async resolveOAuthGrant(grantId: string): Promise<Identity | null> {
    const cacheKey = oauthPrincipalCacheKey(grantId);
    const mark = await this.markOf(cacheKey);
    const grant = await new OAuthGrantRepository(this.db).findLive(grantId);
    if (!grant) return null;
    const user = await new UserRepository(this.db).findById(grant.userId);
    if (!user) return null;
    const identity = await this.identityOf(user, { authKind: 'oauth', oauthGrantId: grant.id, scopes: grant.scopes });
    const membership = identity.memberships.find((m) => m.tenantId === grant.tenantId);
    if (!membership) return null;
    return this.remember(cacheKey, mark, { ...identity, tenantId: membership.tenantId, tenantSlug: membership.slug, memberships: [membership] });
  }

  async forgetOAuthGrants(grantIds: string[]): Promise<void> {
    await this.forget(grantIds.map(oauthPrincipalCacheKey));
  }

  async forgetSessions(sessionIds: string[]): Promise<void> {
    await this.forget(sessionIds.map(principalCacheKey));
  }

  async forgetApiKeys(keyHashes: string[]): Promise<void> {
    await this.forget(keyHashes.map(apiKeyPrincipalCacheKey));
  }

  /** After a change to the user itself or its memberships: every credential of the user. */
  async forgetUser(userId: string): Promise<void> {
    const [sessions, keys, grants] = await Promise.all([
      new SessionRepository(this.db).liveFamiliesOfUser(userId),
      new ApiKeyRepository(this.db).liveHashesOf(userId),
      new OAuthGrantRepository(this.db).liveIdsOf(userId),
    ]);
    await this.forget([...sessions.map(principalCacheKey), ...keys.map(apiKeyPrincipalCacheKey), ...grants.map(oauthPrincipalCacheKey)]);
  }

  /** The change mark of a principal entry; undefined when the cache cannot say (nothing is then kept). */
  private markOf(key: string): Promise<string | null | undefined> {
    return this.cache.get(changeMarkOf(key)).catch(() => undefined);
  }

  /** `mark`: the entry's change mark as it was before the database was read. */
  private async remember(key: string, mark: string | null | undefined, identity: Identity): Promise<Identity> {
    try {
      await this.cache.set(key, signPrincipalEntry(this.secret, key, JSON.stringify(identity)), PRINCIPAL_CACHE_SECONDS);
      if (mark === undefined || (await this.cache.get(changeMarkOf(key))) !== mark) await this.cache.del(key);
    } catch (err) {
      this.log.warn('principal cache write failed', { error: (err as Error).message });
      // The entry may have been written without its mark being checked: not kept.
      await this.cache.del(key).catch(() => undefined);
    }
    return identity;
  }

  private async forget(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    try {
      // The marks first: a resolve still reading the database before this change then sees them moved.
      await Promise.all(keys.map((key) => this.cache.set(changeMarkOf(key), randomUUID(), PRINCIPAL_CACHE_SECONDS)));
      await this.cache.del(...keys);
    } catch (err) {
      // The gateway falls back to asking identity when its cache is away; entries expire anyway.
      this.log.warn('principal cache invalidation failed', { error: (err as Error).message, keys: keys.length });
    }
  }
}
