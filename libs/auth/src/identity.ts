import { z } from 'zod';

export const TIERS = ['free', 'developer_preview', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

/** Platform roles: `owner` and `admin` open the admin areas; everybody else is a `member`. */
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const IdentitySchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  tier: z.enum(TIERS),
  developerMode: z.boolean(),
  tenantId: z.string(),
  tenantSlug: z.string(),
  authKind: z.enum(['jwt', 'api_key']),
  /** Refresh-session family of the access token (JWT only). */
  sessionId: z.string().optional(),
  /** The API key used (API key only). */
  apiKeyId: z.string().optional(),
  scopes: z.array(z.string()),
});

/** Who is calling, as the gateway established it and every service receives it. */
export type Identity = z.infer<typeof IdentitySchema>;

export function isAdmin(identity: Pick<Identity, 'role'>): boolean {
  return identity.role === 'owner' || identity.role === 'admin';
}
