import type { Bus, Subscription } from '@svc/bus';
import { LIST_COMMANDS_RPC, RESOLVE_COMMAND_RPC } from '@svc/contracts';
import type { CatalogService } from '../services/catalog.service.js';

/** Answers execution's questions about the catalog: the command to run, and the tools to list. */
export async function respondToCommandRequests(bus: Bus, catalog: CatalogService): Promise<Subscription[]> {
  return [
    await bus.respond(RESOLVE_COMMAND_RPC, async (request) => catalog.resolve(request)),
    await bus.respond(LIST_COMMANDS_RPC, async ({ tenant_ids, tenant_id, ...query }) => (await catalog.list(tenant_ids, { ...query, tenantId: tenant_id })).data),
  ];
}
