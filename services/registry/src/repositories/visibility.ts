import { and, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@svc/db';
import { grants, packs, packVersions } from '../db/schema.js';

/**
 * Which packs a caller belonging to `tenantIds` may see, as a condition over `packs` joined
 * with its active `pack_versions` row: public packs, packs owned by one of the tenants, and
 * organization-visibility packs granted to one of them. `byPath` adds unlisted packs, which are
 * reachable by their exact path but never listed. (services/visibility.ts states the same
 * rule for a single pack.)
 */
export function visibleTo(db: Db, tenantIds: string[], options: { byPath: boolean }): SQL {
  const granted = db
    .select({ one: sql`1` })
    .from(grants)
    .where(and(eq(grants.packId, packs.id), inArray(grants.granteeTenantId, tenantIds)));
  const conditions = [
    eq(packVersions.visibility, 'public'),
    inArray(packs.ownerTenantId, tenantIds),
    and(eq(packVersions.visibility, 'organization'), exists(granted)),
  ];
  if (options.byPath) conditions.push(eq(packVersions.visibility, 'unlisted'));
  return or(...conditions)!;
}
