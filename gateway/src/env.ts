import { z } from 'zod';
import { envBoolean, parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

const serviceUrl = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

export const GatewayEnv = z.object({
  ...infrastructureEnv,
  ...secretsEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_IDENTITY_URL: serviceUrl(8081),
  SVC_REGISTRY_URL: serviceUrl(8082),
  SVC_EXECUTION_URL: serviceUrl(8083),
  RATE_LIMIT_ENABLED: envBoolean.default(true),
  RATE_LIMIT_STORAGE: z.enum(['redis', 'memory']).optional(),
  /** express "trust proxy": which hops may set X-Forwarded-For (client IPs for rate limits). */
  SVC_TRUST_PROXY: z.string().default('loopback'),
});

export type GatewayEnv = z.infer<typeof GatewayEnv>;

export function loadGatewayEnv(source: Record<string, string | undefined>): GatewayEnv {
  return parseEnv(GatewayEnv, source);
}
