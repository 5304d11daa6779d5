import type { Bus, Subscription } from '@svc/bus';
import { SECRETS_RESOLVE_RPC, SecretsResolveRequest, type SecretsResolveAnswer } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { SecretService } from '../services/secret.service.js';

/**
 * The secrets of a pack for the tenant a run is for, opened, for the execution worker that hands
 * them to the command as `ctx.secrets`. Only services on the bus can ask; nothing is logged.
 */
export function respondToSecretRequests(bus: Bus, secrets: SecretService): Promise<Subscription> {
  return bus.respond(SECRETS_RESOLVE_RPC, async (payload): Promise<SecretsResolveAnswer> => {
    const { tenantId, namespace, pack } = parseInput(SecretsResolveRequest, payload, SECRETS_RESOLVE_RPC);
    return { secrets: await secrets.resolve({ tenantId, namespace, pack }) };
  });
}
