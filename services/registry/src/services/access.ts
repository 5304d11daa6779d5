import { tenantIdsOf, type Identity } from '@svc/auth';
import { PermissionError } from '@svc/core';
import type { Visibility } from '@svc/pack-sdk';

/** Publishing, installing and uninstalling are for accounts in developer mode (Part 1). */
export function requireDeveloperMode(identity: Identity, action: string): void {
  if (identity.developerMode) return;
  throw new PermissionError(`Developer mode is required to ${action}`, { reason: 'developer_mode_required' });
}

/**
 * The tenant that owns `namespace` for this caller: their personal tenant when it is their own
 * slug, or an organization of theirs with that slug.
 */
export function tenantOfNamespace(identity: Identity, namespace: string): string | undefined {
  return identity.memberships.find((membership) => membership.slug === namespace)?.tenantId;
}

export function belongsTo(identity: Identity, tenantId: string): boolean {
  return tenantIdsOf(identity).includes(tenantId);
}

/**
 * Whether a member of `tenantIds` may see a pack, by its exact path: its owners always; anyone
 * when its active version is public or unlisted; granted tenants when it is organization-only.
 * A pack without an active version is seen by its owners only. (repositories/visibility.ts
 * states the same rule in SQL for the catalog.)
 */
export function canSeePack(pack: { ownerTenantId: string; visibility: Visibility | null; granted: boolean }, tenantIds: string[]): boolean {
  if (tenantIds.includes(pack.ownerTenantId)) return true;
  if (pack.visibility === 'public' || pack.visibility === 'unlisted') return true;
  return pack.visibility === 'organization' && pack.granted;
}
