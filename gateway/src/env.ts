import { isIP } from 'node:net';
import { z } from 'zod';
import { envBoolean, parseEnv } from '@svc/core';
import { DashboardOrigin } from '@svc/dashboard';
import { infrastructureEnv, publicUrlEnv, secretsEnv } from '@svc/platform';
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

/** express "trust proxy": off, a number of hops, or the addresses (IPs, CIDRs, express's range names) of the proxies in front. */
export type TrustProxy = false | number | string[];

/** The address ranges express names: 127.0.0.0/8 and ::1; 169.254.0.0/16 and fe80::/10; private ranges and fc00::/7. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address ?? '');
  return version !== 0 && rest.length === 0 && /^\d{1,3}$/.test(bits ?? '') && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * `SVC_TRUST_PROXY`: whose `X-Forwarded-For` the gateway believes, for the client addresses of
 * per-address rate limits and for `https` behind a TLS proxy. Off unless it names the hops: a
 * gateway reached directly must not let a caller pick its own address. `true` (every hop) is
 * refused for the same reason.
 */
export const TrustProxySetting = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): TrustProxy => {
    if (value === undefined || ['', 'false', 'off', '0'].includes(value)) return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length === 0) return entries;
    ctx.addIssue({ code: 'custom', message: `name the number of proxy hops, or their addresses or CIDRs (loopback, linklocal, uniquelocal allowed); not ${bad.join(', ')}` });
    return z.NEVER;
  });

/** The dashboard-origin listener of the embedded default and of compose: `http://localhost:8180`. */
export const DEFAULT_DASHBOARD_ORIGIN_PORT = 8180;

/** Where the gateway's second listener (dashboard files only) is, read by the gateway and by the standalone. */
export const dashboardListenerEnv = {
  /** A port, or `off` for none (one origin). Unset: 8180, or a free port when `PORT` is 0, as tests ask. */
  SVC_DASHBOARD_ORIGIN_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).optional(),
  SVC_TRUST_PROXY: TrustProxySetting,
};

/** The port of the dashboard-origin listener, or undefined when there is none (`off`). */
export function dashboardListenerPort(env: { PORT: number; SVC_DASHBOARD_ORIGIN_PORT?: number | 'off' }): number | undefined {
  if (env.SVC_DASHBOARD_ORIGIN_PORT === 'off') return undefined;
  return env.SVC_DASHBOARD_ORIGIN_PORT ?? (env.PORT === 0 ? 0 : DEFAULT_DASHBOARD_ORIGIN_PORT);
}

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
  ...dashboardListenerEnv,
  /** The CLI package `GET /cli/svc-cli.tgz` serves; by default the one `npm run build` made in `cli/dist-package/`. */
  SVC_CLI_PACKAGE: z.string().min(1).optional(),
  /** The built web console served at `/`; by default the one `npm run build` made in `console/dist/`. */
  SVC_CONSOLE_DIR: z.string().min(1).optional(),
  /** Where browsers reach the dashboard origin (as the dashboard service's): the one origin the console may frame. */
  SVC_DASHBOARD_ORIGIN: DashboardOrigin,
  ...publicUrlEnv,
});

export type GatewayEnv = z.infer<typeof GatewayEnv>;

export function loadGatewayEnv(source: Record<string, string | undefined>): GatewayEnv {
  return parseEnv(GatewayEnv, source);
}
