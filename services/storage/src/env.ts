import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

/** The storage service's own variables, which the standalone launcher reads too. */
export const storageEnv = {
  SVC_STORAGE_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Seals pack secrets (a key is derived from it); unset, SVC_INTERNAL_SECRET serves. */
  SVC_SECRETS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
};

export const StorageEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8084),
  ...storageEnv,
});

export type StorageEnv = z.infer<typeof StorageEnv>;

export function loadStorageEnv(source: Record<string, string | undefined>): StorageEnv {
  return parseEnv(StorageEnv, source);
}
