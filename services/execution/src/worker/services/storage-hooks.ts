import type { Bus } from '@svc/bus';
import { STORAGE_DELETE_RPC, STORAGE_GET_RPC, STORAGE_LIST_RPC, STORAGE_PUT_RPC, type RpcName, type RpcRequestInput } from '@svc/contracts';
import type { Hooks } from '../runners/runner-process.js';

const STORAGE_TIMEOUT_MS = 5000;

/** Runner hook arguments as `runner.mjs` sends them; the storage service validates the values. */
type Args = { key?: unknown; value?: unknown; ttl?: unknown; prefix?: unknown; limit?: unknown };

/**
 * `ctx.storage` for pack code: every call goes to the storage service under the tenant of the
 * caller that ran the command (`call.tenant`), never the pack owner's — a pack cannot name
 * another tenant.
 */
export function storageHooks(bus: Bus): Hooks {
  // What pack code passed is not checked here but by the storage service, which answers a bad
  // value VALIDATION_FAILED naming the field: the request is typed as the contract's, unchecked.
  const ask = <N extends RpcName>(rpc: N, payload: Record<string, unknown>) => bus.request(rpc, payload as RpcRequestInput<N>, { timeoutMs: STORAGE_TIMEOUT_MS });
  return {
    'storage.get': async (call, args) => (await ask(STORAGE_GET_RPC, { tenantId: call.tenant, key: (args as Args).key })).entry,
    'storage.put': async (call, args) => {
      const { key, value, ttl } = args as Args;
      return ask(STORAGE_PUT_RPC, { tenantId: call.tenant, key, data: value, ...(ttl === undefined ? {} : { ttl }) });
    },
    'storage.delete': async (call, args) => ask(STORAGE_DELETE_RPC, { tenantId: call.tenant, key: (args as Args).key }),
    'storage.list': async (call, args) => {
      const { prefix, limit } = args as Args;
      return ask(STORAGE_LIST_RPC, { tenantId: call.tenant, ...(prefix === undefined ? {} : { prefix }), ...(limit === undefined ? {} : { limit }) });
    },
  };
}
