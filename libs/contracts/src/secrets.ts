import { z } from 'zod';
import { secretValue } from '@svc/core';
import { MAX_SECRETS, SECRET_NAME_PATTERN } from '@svc/pack-sdk';
import { Namespace, PackOrCommandName } from './registry.js';

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

export const SecretPackParams = z.object({ namespace: Namespace, pack: PackOrCommandName });
export const SecretParams = SecretPackParams.extend({ name: SecretName });

/** RPC of the execution worker: the secrets of a pack for the tenant a run is for, opened. */
export const SECRETS_RESOLVE_RPC = 'storage.secrets.resolve';
export const SecretsResolveRequest = z.strictObject({ tenantId: z.uuid('must be a tenant id (uuid)'), namespace: Namespace, pack: PackOrCommandName });
/** Answer of SECRETS_RESOLVE_RPC: name → value. */
export const SecretsResolveReply = z.strictObject({ secrets: z.record(SecretName, z.string()) });
