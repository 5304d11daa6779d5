import { z } from 'zod';
import { envBoolean, parseEnv } from '@svc/core';
import { ExecutionEnv } from '@svc/execution';
import { IdentityEnv } from '@svc/identity';
import { infrastructureEnv } from '@svc/platform';

/** The standalone reads every service's variables, minus the secrets it can make itself. */
export const StandaloneEnv = IdentityEnv.omit({ PORT: true, SVC_JWT_SECRET: true, SVC_INTERNAL_SECRET: true }).extend({
  ...ExecutionEnv.shape,
  ...infrastructureEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_JWT_SECRET: z.string().min(32).optional(),
  SVC_INTERNAL_SECRET: z.string().min(32).optional(),
  RATE_LIMIT_ENABLED: envBoolean.default(true),
  RATE_LIMIT_STORAGE: z.enum(['redis', 'memory']).optional(),
});

export type StandaloneEnv = z.infer<typeof StandaloneEnv>;

export function loadStandaloneEnv(source: Record<string, string | undefined>): StandaloneEnv {
  return parseEnv(StandaloneEnv, source);
}
