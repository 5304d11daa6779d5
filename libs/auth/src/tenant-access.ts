import { PermissionError } from '@svc/core';
import { tenantIdsOf, type Identity } from './identity.js';

/**
 * Refuses (403, `reason: developer_mode_required`) a caller not in developer mode: publishing
 * packs, creating and deleting dashboards are for developers (Part 1, Part 2).
 *
 * @example
 *   requireDeveloperMode(identity, 'create dashboards');
 */
export function requireDeveloperMode(identity: Pick<Identity, 'developerMode'>, action: string): void {
  if (identity.developerMode) return;
  throw new PermissionError(`Developer mode is required to ${action}`, { reason: 'developer_mode_required' });
}

/**
 * The tenant that owns `namespace` (a scope without its `@`) for this caller: their personal
 * tenant when it is their own slug, or an organization of theirs with that slug.
 *
 * @example
 *   const ownerTenantId = tenantOfNamespace(identity, 'acme'); // undefined: not the caller's
 */
export function tenantOfNamespace(identity: Pick<Identity, 'memberships'>, namespace: string): string | undefined {
  return identity.memberships.find((membership) => membership.slug === namespace)?.tenantId;
}

/** Whether the caller is a member of `tenantId` (their personal tenant or one of their organizations). */
export function belongsTo(identity: Pick<Identity, 'memberships'>, tenantId: string): boolean {
  return tenantIdsOf(identity).includes(tenantId);
}
