import type { Visibility } from '@svc/pack-sdk';

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
