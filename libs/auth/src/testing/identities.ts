import type { Identity, Tier } from '../identity.js';

/**
 * A signed-in caller acting in their personal tenant (the only membership), as the gateway
 * would sign it for a service: for calls that skip the gateway in tests and benchmarks.
 */
export function personalIdentity(caller: { userId: string; tenantId: string; slug: string; email?: string; tier?: Tier; developerMode?: boolean }): Identity {
  return {
    userId: caller.userId,
    email: caller.email ?? `${caller.slug}@example.test`,
    role: 'member',
    tier: caller.tier ?? 'pro',
    developerMode: caller.developerMode ?? false,
    tenantId: caller.tenantId,
    tenantSlug: caller.slug,
    authKind: 'jwt',
    scopes: [],
    memberships: [{ tenantId: caller.tenantId, slug: caller.slug, kind: 'personal', role: 'owner' }],
  };
}
