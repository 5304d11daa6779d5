import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

export const AdminEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8085),
});

export type AdminEnv = z.infer<typeof AdminEnv>;

export function loadAdminEnv(source: Record<string, string | undefined>): AdminEnv {
  return parseEnv(AdminEnv, source);
}
