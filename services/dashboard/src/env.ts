import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

export const DashboardEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8087),
});

export type DashboardEnv = z.infer<typeof DashboardEnv>;

export function loadDashboardEnv(source: Record<string, string | undefined>): DashboardEnv {
  return parseEnv(DashboardEnv, source);
}
