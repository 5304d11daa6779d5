import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { blobStoreEnv, infrastructureEnv, secretsEnv } from '@svc/platform';

export const RegistryEnv = z.object({
  ...infrastructureEnv,
  ...blobStoreEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
});

export type RegistryEnv = z.infer<typeof RegistryEnv>;

export function loadRegistryEnv(source: Record<string, string | undefined>): RegistryEnv {
  return parseEnv(RegistryEnv, source);
}
