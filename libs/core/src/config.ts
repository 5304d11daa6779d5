import { isIP } from 'node:net';
import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once against a zod object schema and fails listing every bad
 * variable at once, so an operator fixes them in one go.
 *
 * @example
 *   const env = parseEnv(z.object({ PORT: z.coerce.number().int().default(8080) }), process.env);
 */
export function parseEnv<S extends z.ZodObject>(schema: S, source: Record<string, string | undefined>): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
}

/** `true`/`false`/`1`/`0`/`yes`/`no` as a boolean environment variable. */
export const envBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

function isCidr(text: string): boolean {
  const [network = '', prefix, ...rest] = text.split('/');
  const family = isIP(network);
  if (!family || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Comma-separated CIDRs (`10.20.0.0/16,fd12::/48`; a bare address is itself) as a list, empty
 * by default: the private ranges an operator lets a service reach besides public addresses.
 *
 * @example
 *   const Env = z.object({ SVC_SSH_ALLOWED_CIDRS: envCidrList });
 */
export const envCidrList = z
  .string()
  .default('')
  .transform((list) => list.split(',').map((cidr) => cidr.trim()).filter(Boolean))
  .refine((cidrs) => cidrs.every(isCidr), 'must be comma-separated CIDRs such as 10.20.0.0/16');
