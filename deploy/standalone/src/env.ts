import { z } from 'zod';
import { adminEnv } from '@svc/admin';
import { parseEnv } from '@svc/core';
import { billingEnv } from '@svc/billing';
import { ExecutionEnv } from '@svc/execution';
import { DashboardOrigin } from '@svc/dashboard';
import { dashboardListenerEnv, rateLimitEnv } from '@svc/gateway';
import { IdentityEnv } from '@svc/identity';
import { notifyEnv } from '@svc/notify';
import { SshEnv, sshEnv } from '@svc/ssh';
import { storageEnv } from '@svc/storage';
import { blobStoreEnv, infrastructureEnv, PublicUrl } from '@svc/platform';

/**
 * The standalone reads every service's variables, the rate limits and the gateway's listeners,
 * minus the secrets it can make itself.
 */
export const StandaloneEnv = IdentityEnv.omit({ PORT: true, SVC_JWT_SECRET: true, SVC_INTERNAL_SECRET: true }).extend({
  ...ExecutionEnv.shape,
  ...infrastructureEnv,
  ...blobStoreEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_JWT_SECRET: z.string().min(32).optional(),
  SVC_INTERNAL_SECRET: z.string().min(32).optional(),
  /** Unset: generated once and kept in SVC_DATA_DIR/secrets.json. */
  SVC_SSH_ENCRYPTION_KEY: SshEnv.shape.SVC_SSH_ENCRYPTION_KEY.optional(),
  ...storageEnv,
  ...sshEnv,
  ...rateLimitEnv,
  ...dashboardListenerEnv,
  /** Unset: `http://localhost:<SVC_DASHBOARD_ORIGIN_PORT>`, the second listener as this machine's browser reaches it. */
  SVC_DASHBOARD_ORIGIN: DashboardOrigin,
  /** Unset: `http://localhost:<PORT>`, the gateway as this machine's clients reach it. */
  SVC_PUBLIC_URL: PublicUrl.optional(),
  ...adminEnv,
  ...billingEnv,
  ...notifyEnv,
});

export type StandaloneEnv = z.infer<typeof StandaloneEnv>;

export function loadStandaloneEnv(source: Record<string, string | undefined>): StandaloneEnv {
  return parseEnv(StandaloneEnv, source);
}
