import { Namespace, PackOrCommandName, SecretName, SecretPutBody, SECRET_VALUE_MAX_BYTES, SECRETS_PER_PACK_MAX, StorageKey, StorageListQuery, StoragePutBody } from '@svc/contracts';
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

const secretPath = [
  pathParameter('namespace', fromZod(Namespace), 'The pack\'s namespace, without `@`.'),
  pathParameter('pack', fromZod(PackOrCommandName), 'The pack\'s name.'),
];
const secretName = pathParameter('name', fromZod(SecretName), 'The secret\'s name, like an environment variable\'s.');
const badSecretPath = errorResponse('`VALIDATION_FAILED`: a malformed namespace, pack or name (`details.field`).');

const schemas = {
  Secret: object({ name: string(), created_at: dateTime, updated_at: dateTime }, { description: 'A secret without its value, which is never answered.' }),
  StorageEntry: object({ key: string(), value: freeObject('The `data` written.'), created_at: dateTime, expires_at: nullable(dateTime) }),
  StorageWrite: object({ key: string(), created: boolean({ description: 'False when a live entry was replaced.' }), expires_at: nullable(dateTime) }),
};

/** Per-tenant key-value storage; every call acts on the caller's personal tenant. */
export const storageOpenApi: OpenApiFragment = {
  service: 'storage',
  tags: [
    { name: 'Storage', description: 'Key-value storage of the caller\'s personal tenant, with expiry.' },
    { name: 'Secrets', description: 'Pack secrets of the caller\'s tenant, sealed at rest, handed to the pack\'s commands as `ctx.secrets` when the tenant runs them; never answered.' },
  ],
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
    '/api/v1/secrets/{namespace}/{pack}': {
      get: {
        operationId: 'listPackSecrets',
        summary: 'The secrets set for a pack (names and dates, never values)',
        tags: ['Secrets'],
        parameters: secretPath,
        responses: { 200: dataResponse('The secrets, by name.', object({ pack: string({ description: '`@namespace/pack`.' }), secrets: arrayOf(ref('Secret')) })), 400: badSecretPath },
      },
    },
    '/api/v1/secrets/{namespace}/{pack}/{name}': {
      put: {
        operationId: 'setPackSecret',
        summary: 'Set a secret of a pack',
        description: `Sealed with AES-256-GCM at rest. At most ${SECRETS_PER_PACK_MAX} per pack and tenant; a value of at most ${SECRET_VALUE_MAX_BYTES} bytes. The pack need not be installed yet.`,
        tags: ['Secrets'],
        parameters: [...secretPath, secretName],
        requestBody: jsonBody(fromZod(SecretPutBody), '`value`: the secret.'),
        responses: {
          200: dataResponse('Replaced.', object({ pack: string(), name: string(), created: constant(false), created_at: dateTime, updated_at: dateTime })),
          201: dataResponse('Created.', object({ pack: string(), name: string(), created: constant(true), created_at: dateTime, updated_at: dateTime })),
          400: errorResponse(`\`VALIDATION_FAILED\`: a malformed path or value, or the pack has ${SECRETS_PER_PACK_MAX} secrets already (\`details.reason: secrets_limit\`).`),
        },
      },
      delete: {
        operationId: 'deletePackSecret',
        summary: 'Remove a secret of a pack',
        tags: ['Secrets'],
        parameters: [...secretPath, secretName],
        responses: { 200: dataResponse('Removed.', object({ deleted: constant(true) })), 400: badSecretPath, 404: errorResponse('`NOT_FOUND`: no such secret for this pack.') },
      },
    },
  },
};
