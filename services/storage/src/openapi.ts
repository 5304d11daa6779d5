import { StorageKey, StorageListQuery, StoragePutBody } from '@svc/contracts';
import {
  arrayOf,
  boolean,
  constant,
  dataResponse,
  dateTime,
  errorResponse,
  freeObject,
  fromZod,
  integer,
  jsonBody,
  nullable,
  object,
  pathParameter,
  queryParameters,
  ref,
  string,
  type OpenApiFragment,
} from '@svc/openapi';

const key = pathParameter('key', fromZod(StorageKey), 'The key: one path segment; `:` separates namespaces.');
const badKey = errorResponse('`VALIDATION_FAILED`: a malformed key (`details.field: key`).');
const missing = errorResponse('`NOT_FOUND`: no such key, or it has expired.');

const schemas = {
  StorageEntry: object({ key: string(), value: freeObject('The `data` written.'), created_at: dateTime, expires_at: nullable(dateTime) }),
  StorageWrite: object({ key: string(), created: boolean({ description: 'False when a live entry was replaced.' }), expires_at: nullable(dateTime) }),
};

/** Per-tenant key-value storage; every call acts on the caller's personal tenant. */
export const storageOpenApi: OpenApiFragment = {
  service: 'storage',
  tags: [{ name: 'Storage', description: 'Key-value storage of the caller\'s personal tenant, with expiry.' }],
  schemas,
  paths: {
    '/api/v1/storage': {
      get: {
        operationId: 'listStorageKeys',
        summary: 'Keys with a prefix, in byte order',
        tags: ['Storage'],
        parameters: queryParameters(StorageListQuery, {
          prefix: 'Only keys starting with this, literally.',
          limit: 'How many keys to return.',
          after: 'Only keys after this one (the last key of the previous page).',
        }),
        responses: {
          200: dataResponse('The keys; `total` counts every live key with the prefix.', object({ keys: arrayOf(string()), total: integer({ minimum: 0 }) })),
          400: errorResponse('`VALIDATION_FAILED`: a malformed or unknown query parameter.'),
        },
      },
    },
    '/api/v1/storage/{key}': {
      put: {
        operationId: 'putStorageEntry',
        summary: 'Write an entry',
        tags: ['Storage'],
        parameters: [key],
        requestBody: jsonBody(fromZod(StoragePutBody), '`data`: a JSON object of at most 256 KiB; `ttl`: seconds until it expires (absent or null: never).'),
        responses: {
          200: dataResponse('Replaced.', ref('StorageWrite')),
          201: dataResponse('Created.', ref('StorageWrite')),
          400: errorResponse('`VALIDATION_FAILED`: a malformed key, `data` or `ttl` (`details.field`).'),
        },
      },
      get: {
        operationId: 'getStorageEntry',
        summary: 'Read an entry',
        tags: ['Storage'],
        parameters: [key],
        responses: { 200: dataResponse('The entry.', ref('StorageEntry')), 400: badKey, 404: missing },
      },
      delete: {
        operationId: 'deleteStorageEntry',
        summary: 'Delete an entry',
        tags: ['Storage'],
        parameters: [key],
        responses: { 200: dataResponse('Deleted.', object({ deleted: constant(true) })), 400: badKey, 404: missing },
      },
    },
  },
};
