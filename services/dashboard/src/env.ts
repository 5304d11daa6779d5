import { z } from 'zod';
import { parseEnv } from '@svc/core';
import { blobStoreEnv, infrastructureEnv, secretsEnv } from '@svc/platform';

/** The dashboard origin of the embedded default: the gateway's second listener on port 8180. */
export const DEFAULT_DASHBOARD_ORIGIN = 'http://localhost:8180';

/**
 * `SVC_DASHBOARD_ORIGIN`: the origin browsers load bundle files from (`https://dash.example.com`),
 * never the API's; `none` keeps one origin (bundle URLs stay the API's paths). Parsed to the
 * URL's origin, undefined when unset (each process has its own default), null for `none`.
 */
export const DashboardOrigin = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx): string | null | undefined => {
    if (value === undefined || value === '') return undefined;
    if (value === 'none') return null;
    const url = URL.canParse(value) ? new URL(value) : undefined;
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'an origin such as https://dash.example.com (scheme, host, port; no path), or none' });
      return z.NEVER;
    }
    return url.origin;
  });

export const DashboardEnv = z.object({
  ...infrastructureEnv,
  ...blobStoreEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8087),
  SVC_DASHBOARD_ORIGIN: DashboardOrigin,
});

export type DashboardEnv = z.infer<typeof DashboardEnv>;

export function loadDashboardEnv(source: Record<string, string | undefined>): DashboardEnv {
  return parseEnv(DashboardEnv, source);
}
