import type { Bus, Subscription } from '@svc/bus';
import { DEACTIVATE_ACCESS_CODE_RPC, LIST_ACCESS_CODES_RPC, MINT_ACCESS_CODE_RPC } from '@svc/contracts';
import type { AccessCodeService } from '../services/access-code.service.js';

/** Access codes other services ask for (billing's paid registration), withdraw (a disputed payment) and list (the admin area). */
export async function respondToAccessCodeRequests(bus: Bus, codes: AccessCodeService): Promise<Subscription[]> {
  return Promise.all([
    bus.respond(MINT_ACCESS_CODE_RPC, (request) => codes.mint(request)),
    bus.respond(DEACTIVATE_ACCESS_CODE_RPC, async ({ id }) => {
      await codes.deactivate(id);
      return { id, is_active: false as const };
    }),
    bus.respond(LIST_ACCESS_CODES_RPC, (request) => codes.page(request)),
  ]);
}
