import { z } from 'zod';
import { envBoolean, parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';
import { DEFAULT_COMMAND_GROUP_LIMIT } from './http/limits.js';

const serviceUrl = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

/** Rate-limit settings, read by the gateway and by the standalone launcher. */
export const rateLimitEnv = {
  RATE_LIMIT_ENABLED: envBoolean.default(true),
  /** Where counters live; by default Redis when `REDIS_URL` is set. */
  RATE_LIMIT_STORAGE: z.enum(['redis', 'memory']).optional(),
  /** With RATE_LIMIT_WINDOW: the per-user limit of `/api/v1/commands/*` (100 per 60 s). */
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_COMMAND_GROUP_LIMIT.points),
  RATE_LIMIT_WINDOW: z.coerce.number().int().min(1).max(86_400).default(DEFAULT_COMMAND_GROUP_LIMIT.durationSeconds),
};

export const GatewayEnv = z.object({
  ...infrastructureEnv,
  ...secretsEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_IDENTITY_URL: serviceUrl(8081),
  SVC_REGISTRY_URL: serviceUrl(8082),
  SVC_EXECUTION_URL: serviceUrl(8083),
  SVC_STORAGE_URL: serviceUrl(8084),
  SVC_ADMIN_URL: serviceUrl(8085),
  SVC_BILLING_URL: serviceUrl(8086),
  SVC_NOTIFY_URL: serviceUrl(8089),
  SVC_DASHBOARD_URL: serviceUrl(8087),
  SVC_SSH_URL: serviceUrl(8088),
  ...rateLimitEnv,
  /** express "trust proxy": which hops may set X-Forwarded-For (client IPs for rate limits). */
  SVC_TRUST_PROXY: z.string().default('loopback'),
});

export type GatewayEnv = z.infer<typeof GatewayEnv>;

export function loadGatewayEnv(source: Record<string, string | undefined>): GatewayEnv {
  return parseEnv(GatewayEnv, source);
}
