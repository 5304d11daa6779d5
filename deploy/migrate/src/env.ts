import { z } from 'zod';
import { parseEnv } from '@svc/core';

/** The service's two database URLs, as its Deployment reads them from `svc-<service>-db`. */
export const MigrateEnv = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  DATABASE_MIGRATION_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'debug']).default('info'),
  /** How long the command tries to reach the database before it exits 1 (a Job started beside a database still starting). */
  SVC_DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
});

export function loadMigrateEnv(source: Record<string, string | undefined>): z.infer<typeof MigrateEnv> {
  return parseEnv(MigrateEnv, source);
}
