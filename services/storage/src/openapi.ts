import { z } from 'zod';
import {
  Deleted,
  Namespace,
  PackOrCommandName,
  Secret,
  SecretList,
  SecretName,
  SecretPutBody,
  SecretWrite,
  SECRET_VALUE_MAX_BYTES,
  SECRETS_PER_PACK_MAX,
  StorageEntry,
  StorageKey,
  StorageListQuery,
  StorageListResult,
  StoragePutBody,
  StorageWriteResult,
} from '@svc/contracts';
import { componentSchemas, dataResponse, errorResponse, fromZod, jsonBody, pathParameter, queryParameters, type OpenApiFragment } from '@svc/openapi';

const key = pathParameter('key', fromZod(StorageKey), 'The key: one path segment; `:` separates namespaces.');
const badKey = errorResponse('`VALIDATION_FAILED`: a malformed key (`details.field: key`).');
const missing = errorResponse('`NOT_FOUND`: no such key, or it has expired.');

const secretPath = [
  pathParameter('namespace', fromZod(Namespace), 'The pack\'s namespace, without `@`.'),
  pathParameter('pack', fromZod(PackOrCommandName), 'The pack\'s name.'),
];
const secretName = pathParameter('name', fromZod(SecretName), 'The secret\'s name, like an environment variable\'s.');
const badSecretPath = errorResponse('`VALIDATION_FAILED`: a malformed namespace, pack or name (`details.field`).');

/** Per-tenant key-value storage; every call acts on the caller's personal tenant. */
export const storageOpenApi: OpenApiFragment = {
  service: 'storage',
  tags: [
    { name: 'Storage', description: 'Key-value storage of the caller\'s personal tenant, with expiry.' },
    { name: 'Secrets', description: 'Pack secrets of the caller\'s tenant, sealed at rest, handed to the pack\'s commands as `ctx.secrets` when the tenant runs them; never answered.' },
  ],
  schemas: componentSchemas(Secret, StorageEntry, StorageWriteResult),
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
          200: dataResponse('The keys; `total` counts every live key with the prefix.', StorageListResult),
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
          200: dataResponse('Replaced.', StorageWriteResult),
          201: dataResponse('Created.', StorageWriteResult),
          400: errorResponse('`VALIDATION_FAILED`: a malformed key, `data` or `ttl` (`details.field`).'),
        },
      },
      get: {
        operationId: 'getStorageEntry',
        summary: 'Read an entry',
        tags: ['Storage'],
        parameters: [key],
        responses: { 200: dataResponse('The entry.', StorageEntry), 400: badKey, 404: missing },
      },
      delete: {
        operationId: 'deleteStorageEntry',
        summary: 'Delete an entry',
        tags: ['Storage'],
        parameters: [key],
        responses: { 200: dataResponse('Deleted.', Deleted), 400: badKey, 404: missing },
      },
    },
    '/api/v1/secrets/{namespace}/{pack}': {
      get: {
        operationId: 'listPackSecrets',
        summary: 'The secrets set for a pack (names and dates, never values)',
        tags: ['Secrets'],
        parameters: secretPath,
        responses: { 200: dataResponse('The secrets, by name.', SecretList), 400: badSecretPath },
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
          200: dataResponse('Replaced.', SecretWrite.extend({ created: z.literal(false) })),
          201: dataResponse('Created.', SecretWrite.extend({ created: z.literal(true) })),
          400: errorResponse(`\`VALIDATION_FAILED\`: a malformed path or value, or the pack has ${SECRETS_PER_PACK_MAX} secrets already (\`details.reason: secrets_limit\`).`),
        },
      },
      delete: {
        operationId: 'deletePackSecret',
        summary: 'Remove a secret of a pack',
        tags: ['Secrets'],
        parameters: [...secretPath, secretName],
        responses: { 200: dataResponse('Removed.', Deleted), 400: badSecretPath, 404: errorResponse('`NOT_FOUND`: no such secret for this pack.') },
      },
    },
  },
};
