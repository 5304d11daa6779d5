import { z } from 'zod';
import { envBoolean, envCidrList, parseEnv } from '@svc/core';
import { infrastructureEnv, publicUrlEnv, secretsEnv } from '@svc/platform';

export const IdentityEnv = z.object({
  ...infrastructureEnv,
  ...secretsEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  SVC_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86_400).default(900),
  SVC_REFRESH_TOKEN_TTL: z.coerce.number().int().min(300).max(31_536_000).default(2_592_000),
  SVC_PASSWORD_RESET_TTL: z.coerce.number().int().min(300).max(86_400).default(3600),
  SVC_BCRYPT_ROUNDS: z.coerce.number().int().min(4).max(15).default(11),
  SVC_COOKIE_SECURE: envBoolean.default(true),
  SVC_ADMIN_EMAIL: z.string().email().transform((e) => e.toLowerCase()).optional(),
  SVC_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SVC_ADMIN_SLUG: z.string().default('operator'),
  ...publicUrlEnv,
  /** Private ranges client ID metadata documents may be fetched from besides public addresses. */
  SVC_OAUTH_CLIENT_ALLOWED_CIDRS: envCidrList,
  /** A PEM file of certificates trusted for fetching client ID metadata documents besides the system's. */
  SVC_OAUTH_CLIENT_CA_FILE: z.string().min(1).optional(),
});

export type IdentityEnv = z.infer<typeof IdentityEnv>;

export function loadIdentityEnv(source: Record<string, string | undefined>): IdentityEnv {
  return parseEnv(IdentityEnv, source);
}
