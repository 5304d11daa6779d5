import { z } from 'zod';
import { envBoolean, envCidrList, parseEnv } from '@svc/core';
import { infrastructureEnv, secretsEnv } from '@svc/platform';

/** The notify service's own variables, which the standalone launcher reads too. */
export const notifyEnv = {
  /** The SMTP relay (`smtp://` or `smtps://`, with credentials if it needs them). */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  SVC_MAIL_FROM: z.string().min(3).default('svc <no-reply@localhost>'),
  /** Private ranges webhook endpoints may be in besides public addresses (CIDRs, comma-separated). */
  SVC_WEBHOOK_ALLOWED_CIDRS: envCidrList,
  /** Plain `http` endpoint URLs too; otherwise only `https`. */
  SVC_WEBHOOK_ALLOW_HTTP: envBoolean.default(false),
  SVC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  SVC_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(15),
  SVC_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  SVC_WEBHOOK_RETRY_CAP_MS: z.coerce.number().int().min(1).default(6 * 3_600_000),
  SVC_WEBHOOK_DISABLE_AFTER_MS: z.coerce.number().int().min(1).default(24 * 3_600_000),
};

export const NotifyEnv = z.object({
  ...infrastructureEnv,
  SVC_INTERNAL_SECRET: secretsEnv.SVC_INTERNAL_SECRET,
  PORT: z.coerce.number().int().min(0).max(65535).default(8089),
  ...notifyEnv,
});

export type NotifyEnv = z.infer<typeof NotifyEnv>;
/** Notify's own variables, parsed (the standalone launcher's defaults when it is given none). */
export type NotifySettings = z.infer<z.ZodObject<typeof notifyEnv>>;

export function loadNotifySettings(source: Record<string, string | undefined>): NotifySettings {
  return parseEnv(z.object(notifyEnv), source);
}

export function loadNotifyEnv(source: Record<string, string | undefined>): NotifyEnv {
  return parseEnv(NotifyEnv, source);
}
