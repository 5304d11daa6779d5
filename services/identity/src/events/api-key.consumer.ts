import type { Bus, Subscription } from '@svc/bus';
import { ApiKeysUsed } from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { ApiKeyService } from '../services/api-key.service.js';

/** `last_used_at` from the gateway's batches: one write per key per batch, not per request. */
export function consumeApiKeyUse(bus: Bus, apiKeys: ApiKeyService): Promise<Subscription> {
  return bus.subscribe('identity.api-key-use', ['api-key.used'], async (message) => {
    await apiKeys.recordUse(parseInput(ApiKeysUsed, message.payload, 'api-key.used').keys);
  });
}
