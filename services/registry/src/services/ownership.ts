import { tenantIdsOf, type Identity } from '@svc/auth';
import { PermissionError } from '@svc/core';
import type { Db } from '@svc/db';
import { GrantRepository } from '../repositories/grant.repository.js';
import type { PackWithActive } from '../repositories/pack.repository.js';
import { belongsTo, canSeePack } from './access.js';
import { packNotFound } from './errors.js';

/**
 * The pack, when the caller belongs to the tenant that owns it. Someone who may see the pack
 * but does not own it is refused (403); for anyone else it does not exist (404), so private
 * packs cannot be probed.
 *
 * @param action what the caller tried, for the 403 message ("install", "manage grants of")
 */
export async function requireOwnedPack(db: Db, identity: Identity, found: PackWithActive | undefined, details: Record<string, unknown>, action: string): Promise<PackWithActive> {
  if (!found) throw packNotFound(details);
  const { pack, active } = found;
  if (belongsTo(identity, pack.ownerTenantId)) return found;
  const tenantIds = tenantIdsOf(identity);
  const granted = active?.visibility === 'organization' && (await new GrantRepository(db).anyOf(pack.id, tenantIds));
  if (!canSeePack({ ownerTenantId: pack.ownerTenantId, visibility: active?.visibility ?? null, granted }, tenantIds)) throw packNotFound(details);
  throw new PermissionError(`Only members of the tenant that owns @${pack.namespace}/${pack.name} may ${action} it`, { reason: 'not_pack_owner', ...details });
}
