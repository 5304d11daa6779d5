import type { Cache } from '@svc/cache';
import type { Identity } from '@svc/auth';
import { principalCacheKey } from '@svc/contracts';
import type { Db } from '@svc/db';
import type { Logger } from '@svc/core';
import { SessionRepository } from '../repositories/session.repository.js';
import { UserRepository, type UserWithTenant } from '../repositories/user.repository.js';

/** How long the gateway may serve a principal from cache before asking again. */
export const PRINCIPAL_CACHE_SECONDS = 300;

export function identityOf(user: UserWithTenant, sessionId: string): Identity {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    tier: user.subscriptionTier,
    developerMode: user.developerMode,
    tenantId: user.tenant.id,
    tenantSlug: user.tenant.slug,
    authKind: 'jwt',
    sessionId,
    scopes: [],
    memberships: [{ tenantId: user.tenant.id, slug: user.tenant.slug, kind: 'personal', role: 'owner' }],
  };
}

/**
 * Turns a session into the Identity the gateway forwards, and keeps the gateway's cache of
 * them honest: every change to a user or a session drops the cached entries at once.
 */
export class PrincipalService {
  constructor(
    private readonly db: Db,
    private readonly cache: Cache,
    private readonly log: Logger,
  ) {}

  async resolveSession(sessionId: string): Promise<Identity | null> {
    const user = await new UserRepository(this.db).findBySessionFamily(sessionId);
    if (!user) return null;
    const identity = identityOf(user, sessionId);
    await this.cache.set(principalCacheKey(sessionId), JSON.stringify(identity), PRINCIPAL_CACHE_SECONDS).catch((err: Error) => {
      this.log.warn('principal cache write failed', { error: err.message });
    });
    return identity;
  }

  async forgetSessions(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    try {
      await this.cache.del(...sessionIds.map(principalCacheKey));
    } catch (err) {
      // The gateway falls back to asking identity when its cache is away; entries expire anyway.
      this.log.warn('principal cache invalidation failed', { error: (err as Error).message, sessions: sessionIds.length });
    }
  }

  async forgetUser(userId: string): Promise<void> {
    await this.forgetSessions(await new SessionRepository(this.db).liveFamiliesOfUser(userId));
  }
}
