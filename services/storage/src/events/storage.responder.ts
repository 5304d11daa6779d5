import type { Bus, Subscription } from '@svc/bus';
import { STORAGE_DELETE_RPC, STORAGE_GET_RPC, STORAGE_LIST_RPC, STORAGE_PUT_RPC } from '@svc/contracts';
import type { StorageService } from '../services/storage.service.js';

/**
 * Storage for services acting for a tenant (the execution service's `ctx.storage`): the same
 * rules as the HTTP endpoints, with a missing key answered as a value (`entry: null`,
 * `deleted: false`) rather than an error. Bad input comes back as VALIDATION_FAILED (the bus
 * checks each request against its schema in `BUS_CONTRACTS`).
 */
export function respondToStorageRequests(bus: Bus, storage: StorageService): Promise<Subscription[]> {
  return Promise.all([
    bus.respond(STORAGE_GET_RPC, async ({ tenantId, key }) => ({ entry: await storage.get(tenantId, key) })),
    bus.respond(STORAGE_PUT_RPC, async ({ tenantId, key, data, ttl }) => storage.put(tenantId, key, data, ttl)),
    bus.respond(STORAGE_DELETE_RPC, async ({ tenantId, key }) => ({ deleted: await storage.delete(tenantId, key) })),
    bus.respond(STORAGE_LIST_RPC, async ({ tenantId, ...options }) => storage.list(tenantId, options)),
  ]);
}
