import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { blobStoreEnv, infrastructureEnv, secretsEnv } from '@svc/platform';

export const RegistryEnv = z.object({
  ...infrastructureEnv,
  ...blobStoreEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8082),
  /** The interpreter workers run Python packs on, probed for its version (the image is the workers'). */
  SVC_PYTHON: z.string().min(1).default('python3'),
  /** The workers' Python version (`3.11.2`), when the registry cannot probe their interpreter. */
  SVC_PYTHON_VERSION: z
    .string()
    .regex(/^\d+\.\d+(\.\d+)?$/, 'a Python version such as 3.11.2')
    .optional(),
});

export type RegistryEnv = z.infer<typeof RegistryEnv>;

export function loadRegistryEnv(source: Record<string, string | undefined>): RegistryEnv {
  return parseEnv(RegistryEnv, source);
}
