import type { Bus, Subscription } from '@svc/bus';
import { FIND_TENANTS_RPC } from '@svc/contracts';
import type { Db } from '@svc/db';
import { OrganizationRepository } from '../repositories/organization.repository.js';

/** Answers which of the given ids and slugs are tenants, so that a dashboard is granted only to tenants that exist. */
export function respondToTenantRequests(bus: Bus, db: Db): Promise<Subscription> {
  return bus.respond(FIND_TENANTS_RPC, async ({ tenant_ids, slugs }) => ({ tenants: await new OrganizationRepository(db).findTenants(tenant_ids, slugs) }));
}
