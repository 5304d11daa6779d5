import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

/** The admin area's own settings, shared with the standalone launcher. */
export const adminEnv = {
  /** `off` drops every tier quota (self-hosted deployments have no limits). */
  SVC_USAGE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Key of the audit log's keyed digests; defaults to SVC_INTERNAL_SECRET. */
  SVC_AUDIT_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
};

export const AdminEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8085),
  ...adminEnv,
});

export type AdminEnv = z.infer<typeof AdminEnv>;

export function loadAdminEnv(source: Record<string, string | undefined>): AdminEnv {
  return parseEnv(AdminEnv, source);
}

/** The settings the environment gives; the digest key falls back to the internal secret. */
export function adminConfigFromEnv(env: { SVC_USAGE_LIMITS: 'on' | 'off'; SVC_AUDIT_KEY?: string }, internalSecret: string): { usageLimits: boolean; auditKey: string } {
  return { usageLimits: env.SVC_USAGE_LIMITS === 'on', auditKey: env.SVC_AUDIT_KEY ?? internalSecret };
}
