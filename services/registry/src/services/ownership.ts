import { belongsTo, tenantIdsOf, type Identity } from '@svc/auth';
import { PermissionError, type AppError } from '@svc/core';
import type { Db } from '@svc/db';
import { GrantRepository } from '../repositories/grant.repository.js';
import type { Visibility } from '@svc/pack-sdk';
import type { PackRow, PackWithActive } from '../repositories/pack.repository.js';
import { canSeePack } from './access.js';
import { packNotFound } from './errors.js';

/**
 * Whether the caller may reach a pack whose version at hand has `visibility` (access.ts states
 * the rule), grants looked up: the active version for the pack itself, a pinned one for a run.
 */
export async function mayReach(db: Db, identity: Identity, pack: PackRow, visibility: Visibility | null): Promise<boolean> {
  if (belongsTo(identity, pack.ownerTenantId)) return true;
  const tenantIds = tenantIdsOf(identity);
  const granted = visibility === 'organization' && (await new GrantRepository(db).anyOf(pack.id, tenantIds));
  return canSeePack({ ownerTenantId: pack.ownerTenantId, visibility, granted }, tenantIds);
}

/** Whether the caller may see the pack by its path: by its active version's visibility. */
export function seesPack(db: Db, identity: Identity, { pack, active }: PackWithActive): Promise<boolean> {
  return mayReach(db, identity, pack, active?.visibility ?? null);
}

/** The 403 for a caller who may see a pack but does not own it. */
export function notPackOwner({ pack }: PackWithActive, details: Record<string, unknown>, action: string): AppError {
  return new PermissionError(`Only members of the tenant that owns @${pack.namespace}/${pack.name} may ${action} it`, { reason: 'not_pack_owner', ...details });
}

/**
 * The pack, when the caller belongs to the tenant that owns it. Someone who may see the pack
 * but does not own it is refused (403); for anyone else it does not exist (404), so private
 * packs cannot be probed.
 *
 * @param action what the caller tried, for the 403 message ("manage grants of")
 */
export async function requireOwnedPack(db: Db, identity: Identity, found: PackWithActive | undefined, details: Record<string, unknown>, action: string): Promise<PackWithActive> {
  if (!found) throw packNotFound(details);
  if (belongsTo(identity, found.pack.ownerTenantId)) return found;
  if (!(await seesPack(db, identity, found))) throw packNotFound(details);
  throw notPackOwner(found, details, action);
}
