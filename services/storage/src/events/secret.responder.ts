import type { Bus, Subscription } from '@svc/bus';
import { SECRETS_RESOLVE_RPC } from '@svc/contracts';
import type { SecretService } from '../services/secret.service.js';

/**
 * The secrets of a pack for the tenant a run is for, opened, for the execution worker that hands
 * them to the command as `ctx.secrets`. Only services on the bus can ask; nothing is logged.
 */
export function respondToSecretRequests(bus: Bus, secrets: SecretService): Promise<Subscription> {
  return bus.respond(SECRETS_RESOLVE_RPC, async ({ tenantId, namespace, pack }) => ({ secrets: await secrets.resolve({ tenantId, namespace, pack }) }));
}
