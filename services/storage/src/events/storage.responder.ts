import type { Bus, Subscription } from '@svc/bus';
import {
  STORAGE_DELETE_RPC,
  STORAGE_GET_RPC,
  STORAGE_LIST_RPC,
  STORAGE_PUT_RPC,
  StorageDeleteRequest,
  StorageGetRequest,
  StorageListRequest,
  StoragePutRequest,
} from '@svc/contracts';
import { parseInput } from '@svc/core';
import type { StorageService } from '../services/storage.service.js';

/**
 * Storage for services acting for a tenant (the execution service's `ctx.storage`): the same
 * rules as the HTTP endpoints, with a missing key answered as a value (`entry: null`,
 * `deleted: false`) rather than an error. Bad input comes back as VALIDATION_FAILED.
 */
export function respondToStorageRequests(bus: Bus, storage: StorageService): Promise<Subscription[]> {
  return Promise.all([
    bus.respond(STORAGE_GET_RPC, async (payload) => {
      const request = parseInput(StorageGetRequest, payload, STORAGE_GET_RPC);
      return { entry: await storage.get(request.tenantId, request.key) };
    }),
    bus.respond(STORAGE_PUT_RPC, async (payload) => {
      const request = parseInput(StoragePutRequest, payload, STORAGE_PUT_RPC);
      return storage.put(request.tenantId, request.key, request.data, request.ttl);
    }),
    bus.respond(STORAGE_DELETE_RPC, async (payload) => {
      const request = parseInput(StorageDeleteRequest, payload, STORAGE_DELETE_RPC);
      return { deleted: await storage.delete(request.tenantId, request.key) };
    }),
    bus.respond(STORAGE_LIST_RPC, async (payload) => {
      const { tenantId, ...options } = parseInput(StorageListRequest, payload, STORAGE_LIST_RPC);
      return storage.list(tenantId, options);
    }),
  ]);
}
