import type { PathsObject, SchemaObject, TagObject } from 'openapi3-ts/oas30';

/**
 * One service's part of the public OpenAPI document: the paths it serves (as clients see them,
 * `/api/v1/...`), the tags they use and the schemas they refer to. The gateway merges every
 * fragment into `/openapi.json` and adds what its route table decides (security, 401, 429).
 *
 * @example
 *   export const storageOpenApi: OpenApiFragment = {
 *     service: 'storage',
 *     tags: [{ name: 'Storage', description: 'Per-tenant key-value storage' }],
 *     paths: { '/api/v1/storage': { get: { operationId: 'listStorageKeys', ... } } },
 *   };
 */
export interface OpenApiFragment {
  /** The service that serves these paths; the gateway's route table must send them there. */
  service: string;
  tags: TagObject[];
  paths: PathsObject;
  /** Component schemas, named uniquely across the fleet. */
  schemas?: Record<string, SchemaObject>;
}
