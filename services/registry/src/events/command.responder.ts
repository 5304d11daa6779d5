import type { Bus, Subscription } from '@svc/bus';
import { LIST_COMMANDS_RPC, ListCommandsRequest, RESOLVE_COMMAND_RPC, ResolveCommandRequest } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { CatalogService } from '../services/catalog.service.js';

/** Answers execution's questions about the catalog: the command to run, and the tools to list. */
export async function respondToCommandRequests(bus: Bus, catalog: CatalogService): Promise<Subscription[]> {
  return [
    await bus.respond(RESOLVE_COMMAND_RPC, async (payload) => catalog.resolve(parseInput(ResolveCommandRequest, payload, `${RESOLVE_COMMAND_RPC} request`))),
    await bus.respond(LIST_COMMANDS_RPC, async (payload) => {
      const { tenant_ids, tenant_id, ...query } = parseInput(ListCommandsRequest, payload, `${LIST_COMMANDS_RPC} request`);
      return (await catalog.list(tenant_ids, { ...query, tenantId: tenant_id })).data;
    }),
  ];
}
