import { z } from 'zod';
import { secretValue } from '@svc/core';
import { MAX_SECRETS, SECRET_NAME_PATTERN } from '@svc/pack-sdk/names';
import { Namespace, PackOrCommandName } from './registry.js';
import { Timestamp } from './responses.js';

/** Largest secret value, UTF-8 bytes. */
export const SECRET_VALUE_MAX_BYTES = 4096;
/** Secrets a tenant may keep for one pack: as many as a pack may declare. */
export const SECRETS_PER_PACK_MAX = MAX_SECRETS;

export const SecretName = z.string().regex(SECRET_NAME_PATTERN, 'must be 1-64 of A-Z, 0-9 and "_", starting with a letter');

/** `PUT /api/v1/secrets/{namespace}/{pack}/{name}`; a refused `value` is never echoed in the error (`secretValue`). */
export const SecretPutBody = z.strictObject({
  value: secretValue(
    z
      .string()
      .min(1, 'must not be empty')
      .refine((value) => Buffer.byteLength(value) <= SECRET_VALUE_MAX_BYTES, `must be at most ${SECRET_VALUE_MAX_BYTES} bytes`)
      .refine((value) => !value.includes('\u0000'), 'must not contain U+0000'),
  ),
});

/** A secret as its owner sees it: never its value. */
export const Secret = z
  .object({ name: z.string(), created_at: Timestamp, updated_at: Timestamp })
  .meta({ id: 'Secret', description: 'A secret without its value, which is never answered.' });
export type Secret = z.infer<typeof Secret>;

/** `GET /api/v1/secrets/{namespace}/{pack}`. */
export const SecretList = z.object({ pack: z.string().meta({ description: '`@namespace/pack`.' }), secrets: z.array(Secret) });
export type SecretList = z.infer<typeof SecretList>;

/** `PUT /api/v1/secrets/{namespace}/{pack}/{name}`: 201 when it was created, 200 when replaced. */
export const SecretWrite = Secret.extend({ pack: z.string(), created: z.boolean() });
export type SecretWrite = z.infer<typeof SecretWrite>;

export const SecretPackParams = z.object({ namespace: Namespace, pack: PackOrCommandName });
export const SecretParams = SecretPackParams.extend({ name: SecretName });

/** RPC of the execution worker: the secrets of a pack for the tenant a run is for, opened. */
export const SECRETS_RESOLVE_RPC = 'storage.secrets.resolve';
export const SecretsResolveRequest = z.strictObject({ tenantId: z.uuid('must be a tenant id (uuid)'), namespace: Namespace, pack: PackOrCommandName });
/** Answer of SECRETS_RESOLVE_RPC: name → value. */
export const SecretsResolveReply = z.strictObject({ secrets: z.record(SecretName, z.string()) });
