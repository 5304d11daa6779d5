import type { Bus, Subscription } from '@svc/bus';
import type { ApiKeyService } from '../services/api-key.service.js';

/** `last_used_at` from the gateway's batches: one write per key per batch, not per request. */
export function consumeApiKeyUse(bus: Bus, apiKeys: ApiKeyService): Promise<Subscription> {
  return bus.subscribe('identity.api-key-use', ['api-key.used'], async (message) => {
    await apiKeys.recordUse(message.payload.keys);
  });
}
